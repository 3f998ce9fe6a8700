/**
 * Character assets (DESIGN.md "Character assets"; Character Card V3
 * `data.assets`, kwaroran/character-card-spec-v3 SPEC_V3.md "Assets"):
 * files checked by their bytes, stored in R2 by content hash, listed in D1
 * (`character_assets`), served at `/objects/assets/<sha256>` and given back
 * by the card exports.
 *
 * Storage: the key of a file is `assets/<sha256 hex of its bytes>`, so the
 * same picture imported twice, by one person or by two, is stored once. An
 * object is removed when no `character_assets` row names it any more
 * (deleteUnusedAssetObjects). The object's `customMetadata.contentType` is
 * the sniffed type: images are served inline, anything else as a download.
 *
 * Checks (AssetError: a 400 naming the file): an image extension (png, jpg,
 * jpeg, webp, gif, avif) must hold that very image format and at most
 * MAX_IMAGE_SIDE pixels a side; an audio extension (mp3, wav, ogg, opus,
 * flac, m4a, aac) must hold audio; other files (an `x_…` asset's data) are
 * kept as bytes, never shown.
 */
import type { CharacterAsset } from "../../../schema/api.ts";
import type { CharxAsset } from "./charx.ts";
import { ApiError, notFound } from "../errors.ts";
import { assertImageDimensions } from "../uploads.ts";

/** Largest single asset file, bytes (DESIGN.md: 32 MB). */
export const MAX_ASSET_BYTES = 32 * 1_048_576;
/** Largest sum of a card's files once unpacked, bytes (DESIGN.md: 256 MB). */
export const MAX_UNPACKED_BYTES = 256 * 1_048_576;
/** Most files in one archive (DESIGN.md: 1,000). */
export const MAX_ARCHIVE_FILES = 1000;

/** The asset types of the V3 specification; any other type must start with `x_` (kept as given). */
export const ASSET_TYPES = ["icon", "emotion", "background", "user_icon"] as const;

const IMAGE_EXT: Record<string, string> = {
  png: "image/png",
  apng: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  webp: "image/webp",
  gif: "image/gif",
  avif: "image/avif",
};
const AUDIO_EXT = new Set(["mp3", "wav", "ogg", "opus", "flac", "m4a", "aac"]);

/** A refusal of one file: 400 `validation_failed` whose message names it. */
export class AssetError extends ApiError {
  constructor(file: string, problem: string) {
    const message = `${file}: ${problem}`;
    super("validation_failed", message, { issues: [{ path: "assets", message }] });
  }
}

const startsWith = (bytes: Uint8Array, prefix: number[], offset = 0) =>
  bytes.length >= offset + prefix.length && prefix.every((b, i) => bytes[offset + i] === b);
const ascii = (text: string) => [...text].map((ch) => ch.charCodeAt(0));
const latin1 = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));

/**
 * The format of `bytes` from their signature (WHATWG MIME Sniffing's image
 * and audio patterns; AVIF and M4A by their ISO-BMFF `ftyp` brands), or
 * null when none matches.
 */
export function sniffAssetType(bytes: Uint8Array): string | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))) return "image/gif";
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "image/webp";
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WAVE"), 8)) return "audio/wav";
  if (startsWith(bytes, ascii("ftyp"), 4)) {
    // Major brand, then compatible brands up to the box's size.
    const size = Math.min(new DataView(bytes.buffer, bytes.byteOffset).getUint32(0), bytes.length, 64);
    const brands: string[] = [];
    for (let at = 8; at + 4 <= size; at += 4) if (at !== 12) brands.push(latin1(bytes, at, at + 4));
    if (brands.some((b) => b === "avif" || b === "avis")) return "image/avif";
    if (brands.some((b) => b.startsWith("M4A") || b === "mp42" || b === "isom" || b === "M4B ")) return "audio/mp4";
    return null;
  }
  if (startsWith(bytes, ascii("OggS"))) return "audio/ogg";
  if (startsWith(bytes, ascii("fLaC"))) return "audio/flac";
  if (startsWith(bytes, ascii("ID3"))) return "audio/mpeg";
  // An MPEG audio frame (MP3) or an ADTS frame (AAC): 11 set sync bits.
  if (bytes.length >= 2 && bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0) return (bytes[1]! & 0x06) === 0 ? "audio/aac" : "audio/mpeg";
  return null;
}

/**
 * Checks one file against its extension (module docstring) and returns the
 * content type to store it with. `file` names it in a refusal (an archive
 * path, or "type/name.ext"). Throws AssetError.
 */
export function checkAssetBytes(file: string, ext: string, bytes: Uint8Array): string {
  if (bytes.length > MAX_ASSET_BYTES) throw new AssetError(file, "files can be at most 32 MB");
  const lower = ext.toLowerCase();
  const sniffed = sniffAssetType(bytes);
  const expected = IMAGE_EXT[lower];
  if (expected) {
    if (sniffed !== expected) throw new AssetError(file, `this is not a ${lower.toUpperCase()} image`);
    // The avatars' pixel limit (image-size reads AVIF's `ispe` box too).
    try {
      assertImageDimensions(bytes, "assets");
    } catch (error) {
      throw new AssetError(file, error instanceof ApiError ? error.message : "the picture could not be read");
    }
    return expected;
  }
  if (AUDIO_EXT.has(lower)) {
    if (!sniffed?.startsWith("audio/")) throw new AssetError(file, `this is not ${lower.toUpperCase()} audio`);
    return sniffed;
  }
  if (sniffed?.startsWith("image/")) return sniffed;
  return "application/octet-stream";
}

/** The extension an asset record gives, or the one of `path`, lower-case, without the dot ("" when neither has one). */
export function assetExt(ext: unknown, path = ""): string {
  const given = typeof ext === "string" ? ext.trim().replace(/^\./, "").toLowerCase() : "";
  if (/^[a-z0-9]{1,10}$/.test(given)) return given;
  return /\.([a-z0-9]{1,10})$/i.exec(path)?.[1]?.toLowerCase() ?? "";
}

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** `/objects/assets/<hex>` → `assets/<hex>`; null for any other URL. */
export function assetKeyOfUrl(url: string): string | null {
  return /^\/objects\/(assets\/[0-9a-f]{64})$/.exec(url)?.[1] ?? null;
}

export const isAssetKey = (key: string) => /^assets\/[0-9a-f]{64}$/.test(key);

/** A file stored by content: its key, public path and size (bytes). */
export interface StoredFile {
  key: string;
  url: string;
  size: number;
}

/**
 * The files one import or one studio upload stores, so that a refusal later
 * can take back exactly what it added (`rollback`): an object that existed
 * before (the same bytes, stored for someone else) is never touched.
 */
export class AssetStore {
  private readonly created = new Set<string>();

  constructor(private readonly bucket: R2Bucket) {}

  /** Stores `bytes` (already checked; `contentType` from checkAssetBytes) under their hash, once. */
  async put(bytes: Uint8Array, contentType: string): Promise<StoredFile> {
    const key = `assets/${await sha256Hex(bytes)}`;
    const stored = { key, url: `/objects/${key}`, size: bytes.length };
    if (this.created.has(key) || (await this.bucket.head(key))) return stored;
    await this.bucket.put(key, bytes, {
      httpMetadata: { contentType },
      customMetadata: { contentType },
      sha256: key.slice("assets/".length),
    });
    this.created.add(key);
    return stored;
  }

  /** Objects this store created. */
  get createdKeys(): string[] {
    return [...this.created];
  }

  /** Removes what this store created and no `character_assets` row names (another import may have taken it meanwhile). Never throws. */
  async rollback(db: D1Database, keep: Iterable<string> = []): Promise<void> {
    const kept = new Set(keep);
    await deleteUnusedAssetObjects({ DB: db, AVATARS: this.bucket }, this.createdKeys.filter((key) => !kept.has(key)));
  }
}

/**
 * Deletes each of `keys` (`assets/<hex>`) that no `character_assets` row
 * names any more. Called after assets were removed, characters deleted, or
 * an import refused. Never throws (a failure leaves an unused object).
 */
export async function deleteUnusedAssetObjects(env: { DB: D1Database; AVATARS: R2Bucket }, keys: Iterable<string>): Promise<void> {
  const candidates = [...new Set(keys)].filter(isAssetKey);
  if (candidates.length === 0) return;
  try {
    const { results } = await env.DB.prepare(
      "SELECT DISTINCT object_key AS key FROM character_assets WHERE object_key IN (SELECT value FROM json_each(?))",
    )
      .bind(JSON.stringify(candidates))
      .all<{ key: string }>();
    const used = new Set(results.map((row) => row.key));
    const unused = candidates.filter((key) => !used.has(key));
    if (unused.length > 0) await env.AVATARS.delete(unused);
  } catch (error) {
    console.warn("could not delete unused assets", String(error));
  }
}

/** The R2 keys the assets of `characterIds` name (to clean up after they are deleted). */
export async function assetKeysOf(db: D1Database, characterIds: number[]): Promise<string[]> {
  if (characterIds.length === 0) return [];
  const { results } = await db
    .prepare("SELECT DISTINCT object_key AS key FROM character_assets WHERE object_key IS NOT NULL AND character_id IN (SELECT value FROM json_each(?))")
    .bind(JSON.stringify(characterIds))
    .all<{ key: string }>();
  return results.map((row) => row.key);
}

/** An asset to list for a character: its record and, when stored here, the object. */
export interface AssetRow extends CharacterAsset {
  objectKey: string | null;
  size: number | null;
}

/**
 * The statements that list `assets` for character `characterId` in that
 * order (position 0…). Names must already be unique per type (uniqueAssetName).
 */
export function insertAssetStatements(db: D1Database, characterId: number, assets: readonly AssetRow[], firstPosition = 0): D1PreparedStatement[] {
  return assets.map((asset, i) =>
    db
      .prepare(
        `INSERT INTO character_assets (character_id, type, name, ext, url, object_key, size, position) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (character_id, type, name) DO UPDATE SET ext = excluded.ext, url = excluded.url, object_key = excluded.object_key, size = excluded.size`,
      )
      .bind(characterId, asset.type, asset.name, asset.ext, asset.url, asset.objectKey, asset.size, firstPosition + i),
  );
}

/**
 * `name`, or `name (2)`, `name (3)`… when `taken` (type + "\n" + name) has
 * it already; adds the result to `taken`. A V3 card may list two assets of a
 * type under one name; here a name is unique per type (the studio's DELETE
 * names it), so the second one is renamed rather than lost.
 */
export function uniqueAssetName(taken: Set<string>, type: string, name: string): string {
  let candidate = name;
  for (let n = 2; taken.has(`${type}\n${candidate}`); n++) candidate = `${name} (${n})`;
  taken.add(`${type}\n${candidate}`);
  return candidate;
}

/**
 * A character's assets for a CharX (worker/lib/cards/charx.ts): its avatar
 * as `icon`/`main` (the bytes when it is an upload of ours, else its URL
 * made absolute on `origin`), then every asset of `character.assets` in
 * order, stored ones with their bytes from R2 (an object gone missing is
 * named by its URL instead).
 */
export async function charxAssetsOf(bucket: R2Bucket, character: { avatarUrl: string | null; assets?: CharacterAsset[] }, origin: string): Promise<CharxAsset[]> {
  const out: CharxAsset[] = [];
  const url = character.avatarUrl;
  if (url) {
    const key = /^\/objects\/(avatars\/[\w-]+\/[\w-]+)$/.exec(url)?.[1];
    const object = key ? await bucket.get(key) : null;
    if (object) {
      const type = object.customMetadata?.contentType ?? object.httpMetadata?.contentType ?? "image/png";
      const ext = type === "image/jpeg" ? "jpg" : (type.split("/")[1] ?? "png");
      out.push({ type: "icon", name: "main", ext, bytes: new Uint8Array(await object.arrayBuffer()) });
    } else {
      const absolute = new URL(url, origin).toString();
      const ext = /\.(\w{3,4})(?:\?|$)/.exec(absolute)?.[1]?.toLowerCase() ?? "png";
      out.push({ type: "icon", name: "main", ext, url: absolute });
    }
  }
  for (const asset of character.assets ?? []) {
    const key = assetKeyOfUrl(asset.url);
    const object = key ? await bucket.get(key) : null;
    if (object) out.push({ type: asset.type, name: asset.name, ext: asset.ext, bytes: new Uint8Array(await object.arrayBuffer()) });
    else out.push({ type: asset.type, name: asset.name, ext: asset.ext, url: new URL(asset.url, origin).toString() });
  }
  return out;
}

/**
 * The V3 `assets` list of card.json and card.png: the avatar as
 * `icon`/`main` (`ccdefault:` in a PNG, whose picture it is, and without
 * an avatar: the reader's default picture) and every
 * asset by its absolute URL on `origin` (DESIGN.md: those cards "name
 * assets by URL").
 */
export function assetsByUrl(character: { avatarUrl: string | null; assets?: CharacterAsset[] }, origin: string, inPng: boolean): { type: string; uri: string; name: string; ext: string }[] {
  const list: { type: string; uri: string; name: string; ext: string }[] = [];
  if (inPng || !character.avatarUrl) list.push({ type: "icon", uri: "ccdefault:", name: "main", ext: "png" });
  else {
    const ext = /\.(\w{3,4})(?:\?|$)/.exec(character.avatarUrl)?.[1]?.toLowerCase() ?? "png";
    list.push({ type: "icon", uri: new URL(character.avatarUrl, origin).toString(), name: "main", ext });
  }
  for (const asset of character.assets ?? []) list.push({ type: asset.type, uri: new URL(asset.url, origin).toString(), name: asset.name, ext: asset.ext });
  return list;
}

/**
 * `GET /objects/assets/<sha256>`: a stored asset with its ETag (or 304 on
 * `If-None-Match`). Pictures are served inline with their sniffed type;
 * anything else (audio, an `x_…` asset's data) only as a download. Throws
 * 404 for other keys and missing objects.
 */
export async function serveAsset(bucket: R2Bucket, key: string, requestHeaders: Headers): Promise<Response> {
  if (!isAssetKey(key)) throw notFound("Not found");
  const object = await bucket.get(key, { onlyIf: requestHeaders });
  if (!object) throw notFound("Not found");
  const type = object.customMetadata?.contentType ?? "application/octet-stream";
  const headers = new Headers({
    ETag: object.httpEtag,
    "Cache-Control": "public, max-age=31536000, immutable",
    "Content-Type": type,
    "X-Content-Type-Options": "nosniff",
  });
  if (!(IMAGE_TYPES_SERVED as readonly string[]).includes(type)) headers.set("Content-Disposition", "attachment");
  if (!("body" in object)) return new Response(null, { status: 304, headers });
  headers.set("Content-Length", String(object.size));
  return new Response(object.body, { status: 200, headers });
}

/** Types shown inline: the avatars' four and AVIF. */
const IMAGE_TYPES_SERVED = ["image/png", "image/jpeg", "image/webp", "image/gif", "image/avif"] as const;
