/**
 * A card upload read whole (DESIGN.md "Character cards", "Character
 * assets"): the card JSON, the picture that becomes the avatar, and its V3
 * assets stored in R2 by content hash (worker/lib/cards/assets.ts).
 *
 * The upload is told apart by its first bytes: a zip (`PK\x03\x04`) is a
 * `.charx`, read as it streams (charx-read.ts); a JPEG (`FF D8 FF`) is a
 * RisuAI JPEG card, the picture followed by a whole `.charx`: read whole (at
 * most MAX_JPEG_CARD_BYTES: the zip is found from its end,
 * appendedZipStart), its zip part then read as a `.charx`, the JPEG itself
 * the avatar when the archive has no icon; anything else is read whole (a
 * PNG at most MAX_ASSET_BYTES, a JSON card at most MAX_CARD_BYTES) and
 * handled as before by worker/lib/character-card.ts.
 *
 * Asset URIs (Character Card V3 SPEC_V3.md "Assets"):
 * - `embeded://<path>` (the specification's spelling; `embedded://` read
 *   too): a file of the `.charx`;
 * - `__asset:<N>`: a PNG card's tEXt chunk `chara-ext-asset_:<N>` (base64
 *   of the file, as RisuAI writes them);
 * - `data:<type>;base64,…` (or percent-encoded): the file itself;
 * - `ccdefault:`: the app's default, i.e. a PNG card's own picture;
 * - `http(s)://…`: kept as a URL, not fetched.
 * An asset whose URI names nothing readable is left out. The `icon` named
 * `main` (else the first icon) of a `.charx` or JSON card becomes the
 * avatar when it is a PNG, JPEG, WebP or GIF; every other asset becomes a
 * `character_assets` row, with the card's order.
 */
import { decode as decodeText } from "png-chunk-text";
import { cardError, isObject, parseJsonBytes } from "../card-fields.ts";
import { fromBase64, readChunks, textKeyword } from "../card-png.ts";
import { MAX_CARD_BYTES } from "../character-card.ts";
import { ApiError } from "../errors.ts";
import { type ImageType, IMAGE_TYPES } from "../uploads.ts";
import {
  AssetError,
  type AssetRow,
  type AssetStore,
  assetExt,
  checkAssetBytes,
  MAX_ASSET_BYTES,
  MAX_UNPACKED_BYTES,
  type StoredFile,
  uniqueAssetName,
} from "./assets.ts";
import { appendedZipStart, concat, isJpeg, isZip, readZipStream, safeArchivePath } from "./charx-read.ts";

/** What an upload held. */
export interface CardUpload {
  kind: "png" | "json" | "charx";
  /** The whole file for `png` and `json`; empty for `charx` (never held whole). */
  bytes: Uint8Array;
  /** The parsed card JSON. */
  card: unknown;
  /** The avatar taken from a `.charx` or JSON card's icon asset (a PNG card's picture is handled by the caller). */
  icon: { key: string; type: ImageType } | null;
  /** The assets to list, files already stored. */
  assets: AssetRow[];
}

/**
 * Largest JPEG card, bytes: unlike a `.charx` alone it is held whole (its
 * zip is found from the end), beside one inflated file at a time.
 */
export const MAX_JPEG_CARD_BYTES = 64 * 1_048_576;

const tooLarge = (what: string, maxBytes: number) =>
  new ApiError("payload_too_large", `${what} is too large (at most ${(maxBytes / 1_048_576).toFixed(0)} MB)`);

/** A stored file and the type its bytes were checked to be. */
interface Held extends StoredFile {
  contentType: string;
}

/**
 * Reads `request`'s body as a card (module docstring), storing its asset
 * files through `store`. Throws 400 (a broken card, an asset refused:
 * AssetError names it), 413 (too large), 415 (not a card); the caller
 * sweeps `store` on failure.
 */
export async function readCardUpload(request: Request, contentType: string | undefined, store: AssetStore): Promise<CardUpload> {
  if (!request.body) throw new ApiError("unsupported_media_type", "Import a character card: a PNG image, a JSON file or a .charx archive");
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (declared > MAX_UNPACKED_BYTES) throw tooLarge("The card file", MAX_UNPACKED_BYTES);
  const reader = request.body.getReader();
  // Enough bytes to tell a zip from a PNG or JSON.
  const parts: Uint8Array[] = [];
  let size = 0;
  let done = false;
  while (size < 8 && !done) {
    const next = await reader.read();
    if (next.done) done = true;
    else {
      parts.push(next.value);
      size += next.value.length;
    }
  }
  const head = concat(parts, size);
  if (isZip(head)) return readCharxUpload(head, reader, store);
  if (isJpeg(head)) return readJpegCard(await readWhole(reader, parts, size, done, MAX_JPEG_CARD_BYTES), store);

  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  const json = type.endsWith("json") || new TextDecoder().decode(head.subarray(0, 16)).trimStart().startsWith("{");
  const limit = json ? MAX_CARD_BYTES : MAX_ASSET_BYTES;
  if (declared > limit) {
    await reader.cancel();
    throw tooLarge("The card file", limit);
  }
  return { kind: json ? "json" : "png", bytes: await readWhole(reader, parts, size, done, limit), card: null, icon: null, assets: [] };
}

/** The rest of `reader` after `parts` (`size` bytes so far, `done` when the stream already ended), joined; 413 past `limit` bytes. */
async function readWhole(reader: ReadableStreamDefaultReader<Uint8Array>, parts: Uint8Array[], size: number, done: boolean, limit: number): Promise<Uint8Array> {
  while (!done) {
    const next = await reader.read();
    if (next.done) break;
    size += next.value.length;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge("The card file", limit);
    }
    parts.push(next.value);
  }
  return concat(parts, size);
}

/** A RisuAI JPEG card (module docstring): its appended `.charx`, and the picture as the avatar when the archive has no icon. */
async function readJpegCard(bytes: Uint8Array, store: AssetStore): Promise<CardUpload> {
  const start = appendedZipStart(bytes);
  if (start === null) {
    throw new ApiError("unsupported_media_type", "This JPEG has no character card in it. Import a PNG card, a JSON file, a .charx archive or a JPEG with a .charx appended (as RisuAI exports them)");
  }
  const empty = new ReadableStream<Uint8Array>({ start: (controller) => controller.close() }).getReader();
  const upload = await readCharxUpload(bytes.subarray(start), empty, store);
  if (upload.icon) return upload;
  const picture = bytes.subarray(0, start);
  const contentType = checkAssetBytes("card.jpg", "jpg", picture);
  const stored = await store.put(picture, contentType);
  return { ...upload, icon: { key: stored.key, type: "image/jpeg" } };
}

/** A `.charx`: every file but card.json stored as it completes, then the card's assets resolved against them. */
async function readCharxUpload(head: Uint8Array, reader: ReadableStreamDefaultReader<Uint8Array>, store: AssetStore): Promise<CardUpload> {
  let cardBytes: Uint8Array | null = null;
  // Once card.json is read (RisuAI writes it first), only the files its assets name are stored.
  let named: Set<string> | null = null;
  const files = new Map<string, Held>();
  await readZipStream(head, reader, async ({ path, bytes }) => {
    if (path === "card.json") {
      if (bytes.length > MAX_CARD_BYTES) throw new AssetError(path, "the card can be at most 10 MB");
      cardBytes = bytes;
      named = embeddedPaths(parseJsonBytes(bytes, "The character card"));
      return;
    }
    // RisuAI's module and its per-asset metadata are not assets (nothing names them by URI).
    if (path === "module.risum" || path.startsWith("x_meta/")) return;
    const contentType = checkAssetBytes(path, assetExt(null, path), bytes);
    if (named && !named.has(path)) return;
    files.set(path, { ...(await store.put(bytes, contentType)), contentType });
  });
  if (!cardBytes) throw cardError("This .charx has no card.json at its root");
  const card = parseJsonBytes(cardBytes, "The character card");
  const resolved = await resolveAssets(card, store, (uri) => {
    const path = /^embedd?ed:\/\/(.*)$/i.exec(uri)?.[1];
    if (path === undefined) return null;
    return files.get(safeArchivePath(decodeURIComponentSafe(path))) ?? files.get(safeArchivePath(path)) ?? null;
  });
  return { kind: "charx", bytes: new Uint8Array(0), card, ...resolved };
}

/** The archive paths the `embeded://` URIs of a card's assets name (paths that would leave the archive left out: they name nothing). */
function embeddedPaths(card: unknown): Set<string> {
  const paths = new Set<string>();
  const list = isObject(card) && isObject(card.data) && Array.isArray(card.data.assets) ? card.data.assets : [];
  for (const record of list) {
    const path = isObject(record) && typeof record.uri === "string" ? /^embedd?ed:\/\/(.*)$/i.exec(record.uri.trim())?.[1] : undefined;
    if (path === undefined) continue;
    for (const form of [path, decodeURIComponentSafe(path)]) {
      try {
        paths.add(safeArchivePath(form));
      } catch {
        // Not a path inside the archive.
      }
    }
  }
  return paths;
}

const decodeURIComponentSafe = (text: string) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

/**
 * The assets of a PNG card (`__asset:N` → tEXt chunk `chara-ext-asset_:N`)
 * or of a JSON card (data URIs and URLs only), stored through `store`.
 */
export async function readEmbeddedAssets(kind: "png" | "json", bytes: Uint8Array, card: unknown, store: AssetStore): Promise<Pick<CardUpload, "icon" | "assets">> {
  const chunks = new Map<string, Uint8Array>();
  if (kind === "png") {
    for (const chunk of readChunks(bytes)) {
      const keyword = textKeyword(chunk);
      if (chunk.name === "tEXt" && keyword?.startsWith("chara-ext-asset_")) chunks.set(keyword.replace(/^chara-ext-asset_:?/, ""), chunk.data);
    }
  }
  const result = await resolveAssets(card, store, async (uri, file, ext) => {
    const index = /^__asset:(.+)$/.exec(uri)?.[1];
    const chunk = index === undefined ? undefined : chunks.get(index);
    if (!chunk) return null;
    let data: Uint8Array;
    try {
      data = fromBase64(decodeText(chunk).text);
    } catch {
      throw new AssetError(file, "its PNG chunk is not valid base64");
    }
    const contentType = checkAssetBytes(file, ext, data);
    return { ...(await store.put(data, contentType)), contentType };
  });
  // A PNG card's own picture is its avatar (the caller's): its icons stay assets.
  if (kind === "png" && result.icon) return { icon: null, assets: result.assets };
  return result;
}

type Lookup = (uri: string, file: string, ext: string) => Held | null | Promise<Held | null>;

const IMAGE_EXT: Record<string, string> = { png: "image/png", jpg: "image/jpeg", jpeg: "image/jpeg", webp: "image/webp", gif: "image/gif", avif: "image/avif", apng: "image/png" };

/**
 * The card's `data.assets` resolved: each record's file found by `lookup`
 * (or a data URI, or a URL), checked against the record's `ext`, stored;
 * names made unique per type. The avatar icon is taken out (module
 * docstring); the card's list itself is left for the caller to drop.
 */
async function resolveAssets(card: unknown, store: AssetStore, lookup: Lookup): Promise<Pick<CardUpload, "icon" | "assets">> {
  const data = isObject(card) && isObject(card.data) ? card.data : null;
  const list = Array.isArray(data?.assets) ? data.assets : [];
  const found: (AssetRow & { picture: string | null })[] = [];
  for (const [index, record] of list.entries()) {
    if (!isObject(record)) continue;
    const type = typeof record.type === "string" ? record.type.trim().slice(0, 64) : "";
    const uri = typeof record.uri === "string" ? record.uri.trim() : "";
    if (!type || !uri) continue;
    const given = typeof record.name === "string" ? record.name.trim().slice(0, 200) : "";
    const name = given || (type === "icon" ? "main" : String(index));
    const ext = assetExt(record.ext, uri.split(/[?#]/)[0]);
    const file = `${type}/${name}${ext ? `.${ext}` : ""}`;

    let held: Held | null;
    if (/^https?:\/\//i.test(uri)) {
      // A URL main icon is an exported card naming its avatar (worker/lib/cards/assets.ts assetsByUrl): the card's picture, not a further asset.
      if (uri.length <= 2000 && !(type === "icon" && name === "main")) found.push({ type, name, ext, url: uri, objectKey: null, size: null, picture: null });
      continue;
    } else if (/^data:/i.test(uri)) {
      const bytes = dataUriBytes(uri, file);
      const contentType = checkAssetBytes(file, ext, bytes);
      held = { ...(await store.put(bytes, contentType)), contentType };
    } else {
      held = await lookup(uri, file, ext);
    }
    if (!held) continue;
    const expected = IMAGE_EXT[ext];
    if (expected && held.contentType !== expected) throw new AssetError(file, `this is not a ${ext.toUpperCase()} image`);
    const picture = (IMAGE_TYPES as readonly string[]).includes(held.contentType) ? held.contentType : null;
    found.push({ type, name, ext: ext || extOfType(held.contentType), url: held.url, objectKey: held.key, size: held.size, picture });
  }
  // The main icon, else the first icon, is the avatar when it is a picture an avatar may be.
  const icons = found.filter((asset) => asset.type === "icon" && asset.picture);
  const chosen = icons.find((asset) => asset.name === "main") ?? icons[0];
  const taken = new Set<string>();
  const assets = found
    .filter((asset) => asset !== chosen)
    .map(({ picture: _picture, ...asset }) => ({ ...asset, name: uniqueAssetName(taken, asset.type, asset.name) }));
  const icon = chosen ? { key: chosen.objectKey!, type: chosen.picture as ImageType } : null;
  return { icon, assets };
}

function extOfType(contentType: string): string {
  return Object.entries(IMAGE_EXT).find(([, type]) => type === contentType)?.[0] ?? "bin";
}

/** The bytes of a `data:` URI (base64 or percent-encoded). Throws AssetError when it cannot be read. */
function dataUriBytes(uri: string, file: string): Uint8Array {
  const comma = uri.indexOf(",");
  if (comma < 0) throw new AssetError(file, "its data URI is damaged");
  const meta = uri.slice(5, comma);
  const payload = uri.slice(comma + 1);
  try {
    if (/;base64$/i.test(meta)) return fromBase64(decodeURIComponentSafe(payload));
    return new TextEncoder().encode(decodeURIComponent(payload));
  } catch {
    throw new AssetError(file, "its data URI is damaged");
  }
}
