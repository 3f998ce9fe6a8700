/**
 * Character cards: the community's format for sharing characters between
 * roleplay front ends (DESIGN.md "Character cards").
 *
 * Formats read: V1 (the fields at the top level, no `spec`), V2
 * (`spec: "chara_card_v2"`, fields under `data`) and V3
 * (`spec: "chara_card_v3"`) — as JSON, or inside a PNG as a tEXt chunk whose
 * keyword is `chara` (V1/V2) or `ccv3` (V3) and whose text is the card's
 * UTF-8 JSON in base64. `ccv3` wins when both exist; other chunks are skipped.
 * Specs: github.com/malfoyslastname/character-card-spec-v2 and
 * github.com/kwaroran/character-card-spec-v3. PNG chunks are read and written
 * with the libraries SillyTavern uses (png-chunks-extract, png-chunks-encode,
 * png-chunk-text).
 *
 * Mapping to our fields: name, description (see below), personality,
 * scenario, `first_mes` → greeting, `mes_example` → exampleConversation,
 * `alternate_greetings`, `system_prompt`, `post_history_instructions`,
 * `creator_notes`, tags (normalised by characterTagsSchema's rules; invalid
 * ones dropped; at most 10), `character_book` (kept verbatim), `extensions`.
 * - A card's description is its main prompt text and is often thousands of
 *   characters long, while ours is a 10–300 character blurb: a longer one is
 *   shortened at a word boundary for `description` and kept whole in
 *   `longDescription`. Export writes `longDescription ?? description`.
 * - Many cards leave `personality` empty (it is folded into the
 *   description); ours needs 10 characters, so an empty or too short one
 *   becomes the card's description. Export gives back the card's own value
 *   for as long as the character's personality is still that copy.
 * - Everything else a card holds — unknown top-level fields, unknown `data`
 *   fields (`creator`, `character_version`, V3's `nickname`, `assets`, …),
 *   mapped fields of the wrong type, and the original values of fields we
 *   normalise (tags, whitespace) — is kept in `extensions["fabled/card"]`
 *   (PRESERVED_KEY) and restored on export, so a round trip keeps every field.
 * - Export adds `extensions.fabled = { description, is_nsfw }` so the short
 *   description and NSFW flag survive a round trip through Fabled too.
 */
import encodeChunks from "png-chunks-encode";
import extractChunks from "png-chunks-extract";
import { decode as decodeText, encode as encodeText } from "png-chunk-text";
import type { Character } from "../../schema/api.ts";
import { CHARACTER_LIMITS, MAX_TAGS, tagNameSchema } from "../../schema/inputs.ts";
import { ApiError } from "./errors.ts";

/** Reserved key in a character's `extensions`: what the card held that no column of ours holds. */
export const PRESERVED_KEY = "fabled/card";
/** Our namespace inside an exported card's `extensions`. */
export const FABLED_EXTENSION = "fabled";

/** Largest card file accepted for import, bytes (the avatar limit: 10 MB). */
export const MAX_CARD_BYTES = 10_485_760;

type Json = Record<string, unknown>;
type PngChunk = { name: string; data: Uint8Array };

/** What `extensions[PRESERVED_KEY]` holds. */
interface Preserved {
  /** Unknown top-level fields of the card. */
  top?: Json;
  /** Unknown fields of the card's `data` (V1: none; they are top-level). */
  data?: Json;
  /** Card values that our columns hold only in a normalised form, by card key. */
  original?: Json;
}

/** A broken card: 400 `validation_failed` with the reason on path `card`. */
export function cardError(message: string): ApiError {
  return new ApiError("validation_failed", message, { issues: [{ path: "card", message }] });
}

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && deepEqual(a[k], b[k]));
  }
  return false;
}

// ---------------------------------------------------------------------------
// Field mapping, card → ours. Each `read*` is also what export uses to tell
// whether a preserved original still describes the character's current value.

/** A description of at most `max` characters: cut at a word boundary with an ellipsis. */
export function shortenDescription(text: string, max: number = CHARACTER_LIMITS.description): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const boundary = cut.search(/\s+\S*$/);
  return `${(boundary > max / 2 ? cut.slice(0, boundary) : cut).trimEnd()}…`;
}

/** Our description and long description from a card description (and our blurb, when the card came from Fabled). */
function readDescription(text: string, blurb: string | null): { description: string; longDescription: string | null } {
  const trimmed = text.trim();
  if (blurb !== null) return { description: blurb, longDescription: trimmed === blurb ? null : text };
  if (trimmed.length <= CHARACTER_LIMITS.description) return { description: trimmed, longDescription: null };
  return { description: shortenDescription(trimmed), longDescription: text };
}

/** Our personality: the card's, or its description when the card's is shorter than SPEC.md §5's 10 characters. */
function readPersonality(text: string, cardDescription: string): string {
  const trimmed = text.trim();
  return trimmed.length >= 10 ? trimmed : cardDescription.trim().slice(0, CHARACTER_LIMITS.personality);
}

const readOptionalText = (text: string) => (text.trim() === "" ? null : text);

/** Tags as characterTagsSchema takes them: valid names only, normalised, deduplicated, at most MAX_TAGS. */
export function readTags(values: unknown[]): string[] {
  const names: string[] = [];
  for (const value of values) {
    if (typeof value !== "string") continue;
    const parsed = tagNameSchema.safeParse(value);
    if (parsed.success && !names.includes(parsed.data)) names.push(parsed.data);
  }
  return names.slice(0, MAX_TAGS);
}

const readStrings = (values: unknown[]) => values.filter((v): v is string => typeof v === "string");

/** Card keys of optional text fields and our names for them. */
const OPTIONAL_TEXT = [
  ["scenario", "scenario"],
  ["first_mes", "greeting"],
  ["mes_example", "exampleConversation"],
  ["system_prompt", "systemPrompt"],
  ["post_history_instructions", "postHistoryInstructions"],
  ["creator_notes", "creatorNotes"],
] as const;

/** The V1 fields (also mirrored at the top level of V2 cards for V1 readers). */
const V1_FIELDS = ["name", "description", "personality", "scenario", "first_mes", "mes_example"];
/** `data` fields with a column of ours (V2/V3). */
const MAPPED_DATA_FIELDS = new Set([
  ...V1_FIELDS,
  "alternate_greetings",
  "system_prompt",
  "post_history_instructions",
  "creator_notes",
  "tags",
  "character_book",
  "extensions",
  // Always written anew on export.
  "modification_date",
]);
/** V3 `data` fields a V2 reader does not know; left out of the V2 `chara` chunk. */
const V3_ONLY_FIELDS = [
  "group_only_greetings",
  "creation_date",
  "modification_date",
  "nickname",
  "creator_notes_multilingual",
  "source",
  "assets",
];

/** A card read into our fields, before characterInputSchema validates it. */
export interface CardCharacter {
  /** Raw input for characterInputSchema (already normalised the way it normalises). */
  input: Json;
  /** What to store as the character's `extensions`. */
  extensions: Json;
}

/**
 * Reads a parsed card (V1, V2 or V3) into our fields. Throws 400 when it is
 * not a card at all; missing or invalid required fields are left for
 * characterInputSchema to report with SPEC.md §5's messages.
 */
export function readCard(card: unknown): CardCharacter {
  if (!isObject(card)) throw cardError("This file is not a character card");
  let data: Json;
  const top: Json = {};
  const unknownData: Json = {};
  if (card.spec === "chara_card_v2" || card.spec === "chara_card_v3") {
    if (!isObject(card.data)) throw cardError("The character card has no data");
    data = card.data;
    for (const [key, value] of Object.entries(card)) {
      if (key !== "spec" && key !== "spec_version" && key !== "data" && !V1_FIELDS.includes(key)) top[key] = value;
    }
    for (const [key, value] of Object.entries(data)) if (!MAPPED_DATA_FIELDS.has(key)) unknownData[key] = value;
  } else if (card.spec === undefined) {
    if (!("name" in card) && !("description" in card)) throw cardError("This file is not a character card");
    // V1: every field is top-level; the mapped ones are V1's own plus `tags`.
    data = {};
    for (const [key, value] of Object.entries(card)) {
      if (V1_FIELDS.includes(key) || key === "tags") data[key] = value;
      else top[key] = value;
    }
  } else {
    throw cardError(`Unsupported character card format: ${JSON.stringify(card.spec).slice(0, 40)}`);
  }
  // A mapped field of the wrong type (null included) is kept as it was, and
  // treated as absent; export writes ours over it unless ours is absent too
  // (a null lorebook stays null).
  const misplaced = card.spec === undefined ? top : unknownData;
  const take = <T>(key: string, ok: (v: unknown) => v is T): T | undefined => {
    const value = data[key];
    if (value === undefined) return undefined;
    if (ok(value)) return value;
    misplaced[key] = value;
    return undefined;
  };
  const isString = (v: unknown): v is string => typeof v === "string";
  const isArray = (v: unknown): v is unknown[] => Array.isArray(v);

  const original: Json = {};
  const input: Json = {};
  // Remembers the card's value when export would not reproduce it.
  const keep = (key: string, cardValue: unknown, exported: unknown) => {
    if (cardValue !== undefined && !deepEqual(cardValue, exported)) original[key] = cardValue;
  };

  const name = take("name", isString);
  if (name !== undefined) {
    input.name = name.trim();
    keep("name", name, input.name);
  }

  // Our own namespaces are ours to write: `fabled` is read here and written
  // anew on export; a card cannot smuggle in a PRESERVED_KEY of its own.
  const cardExtensions = take("extensions", isObject) ?? {};
  const { [FABLED_EXTENSION]: ours, [PRESERVED_KEY]: _ignored, ...extensions } = cardExtensions;
  const fabled = isObject(ours) ? ours : {};
  const blurb =
    typeof fabled.description === "string" &&
    fabled.description.trim().length >= 10 &&
    fabled.description.trim().length <= CHARACTER_LIMITS.description
      ? fabled.description.trim()
      : null;

  const description = take("description", isString) ?? "";
  const described = readDescription(description, blurb);
  input.description = described.description;
  input.longDescription = described.longDescription;
  const exportedDescription = described.longDescription ?? described.description;
  keep("description", description, exportedDescription);

  const personality = take("personality", isString) ?? "";
  input.personality = readPersonality(personality, exportedDescription);
  keep("personality", personality, input.personality);

  for (const [cardKey, field] of OPTIONAL_TEXT) {
    const value = take(cardKey, isString);
    input[field] = value === undefined ? null : readOptionalText(value);
    keep(cardKey, value, input[field] ?? "");
  }

  const tags = take("tags", isArray);
  input.tags = readTags(tags ?? []);
  keep("tags", tags, input.tags);

  const greetings = take("alternate_greetings", isArray);
  input.alternateGreetings = readStrings(greetings ?? []);
  keep("alternate_greetings", greetings, input.alternateGreetings);

  input.characterBook = take("character_book", isObject) ?? null;

  input.isNsfw = typeof fabled.is_nsfw === "boolean" ? fabled.is_nsfw : (input.tags as string[]).includes("nsfw");

  const preserved: Preserved = {};
  if (Object.keys(top).length > 0) preserved.top = top;
  if (Object.keys(unknownData).length > 0) preserved.data = unknownData;
  if (Object.keys(original).length > 0) preserved.original = original;
  return {
    input,
    extensions: Object.keys(preserved).length > 0 ? { ...extensions, [PRESERVED_KEY]: preserved } : extensions,
  };
}

// ---------------------------------------------------------------------------
// Export, ours → card.

/** A V3 card (`spec: "chara_card_v3"`) and the same card as V2 for the `chara` chunk. */
export interface ExportedCard {
  v3: Json;
  v2: Json;
}

const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/**
 * The character as a V3 card, with every preserved field restored: preserved
 * unknown `data` fields replace our defaults (`creator`, `character_version`,
 * `group_only_greetings`, `creation_date`); mapped fields come from the
 * character; `modification_date` is its `updatedAt` (seconds).
 */
export function writeCard(character: Character): ExportedCard {
  const { [PRESERVED_KEY]: stored, ...extensions } = character.extensions;
  const preserved: Preserved = isObject(stored) ? (stored as Preserved) : {};
  const original = isObject(preserved.original) ? preserved.original : {};
  // The card's own value when it still describes ours, else ours.
  const restore = (key: string, ours: unknown, read: (cardValue: never) => unknown): unknown => {
    if (!(key in original)) return ours;
    const cardValue = original[key];
    try {
      return deepEqual(read(cardValue as never), ours) ? cardValue : ours;
    } catch {
      return ours;
    }
  };

  const description = restore(
    "description",
    character.longDescription ?? character.description,
    (text: string) => {
      const read = readDescription(text, character.description);
      return read.longDescription ?? read.description;
    },
  );
  const cardDescription = typeof description === "string" ? description : character.description;
  const mapped: Json = {
    name: restore("name", character.name, (text: string) => text.trim()),
    description,
    personality: restore("personality", character.personality, (text: string) => readPersonality(text, cardDescription)),
    tags: restore("tags", character.tags, (values: unknown[]) => readTags(values)),
    alternate_greetings: restore("alternate_greetings", character.alternateGreetings, (values: unknown[]) =>
      readStrings(values),
    ),
  };
  for (const [cardKey, field] of OPTIONAL_TEXT) {
    mapped[cardKey] = restore(cardKey, character[field] ?? "", (text: string) => readOptionalText(text) ?? "");
  }
  if (character.characterBook) mapped.character_book = character.characterBook;
  // Where ours is absent, a preserved value of the wrong type (e.g. `"scenario": null`) is what the card said.
  const preservedData = isObject(preserved.data) ? preserved.data : {};
  const absent: Record<string, boolean> = {
    tags: character.tags.length === 0,
    alternate_greetings: character.alternateGreetings.length === 0,
  };
  for (const [cardKey, field] of OPTIONAL_TEXT) absent[cardKey] = character[field] === null;
  for (const key of Object.keys(absent)) if (absent[key] && key in preservedData) delete mapped[key];
  mapped.extensions = {
    ...extensions,
    [FABLED_EXTENSION]: { description: character.description, is_nsfw: character.isNsfw },
  };

  const data: Json = {
    creator: character.creator,
    character_version: "",
    group_only_greetings: [],
    creation_date: seconds(character.createdAt),
    ...preservedData,
    ...mapped,
    modification_date: seconds(character.updatedAt),
  };
  const top = isObject(preserved.top) ? preserved.top : {};
  const v3 = { ...top, spec: "chara_card_v3", spec_version: "3.0", data };
  const v2Data = Object.fromEntries(Object.entries(data).filter(([key]) => !V3_ONLY_FIELDS.includes(key)));
  const v1Mirror = Object.fromEntries(V1_FIELDS.map((key) => [key, data[key]]));
  const v2 = { ...top, ...v1Mirror, spec: "chara_card_v2", spec_version: "2.0", data: v2Data };
  return { v3, v2 };
}

// ---------------------------------------------------------------------------
// Files: JSON and PNG.

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
export const isPng = (bytes: Uint8Array) => PNG_SIGNATURE.every((b, i) => bytes[i] === b);

/**
 * The kind of an uploaded card file from its Content-Type (image/png, a JSON
 * type) or, for any other or no type, from its bytes. Throws 400 for a body
 * declared PNG that is not one, 415 for anything that is neither.
 */
export function cardFileKind(contentType: string | undefined, bytes: Uint8Array): "png" | "json" {
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "image/png") {
    if (!isPng(bytes)) throw cardError("This file is not a PNG image");
    return "png";
  }
  if (type === "application/json" || type === "text/json" || type.endsWith("+json")) return "json";
  if (isPng(bytes)) return "png";
  const head = new TextDecoder().decode(bytes.subarray(0, 64)).trimStart(); // the decoder drops a BOM
  if (head.startsWith("{")) return "json";
  throw new ApiError("unsupported_media_type", "Import a character card: a PNG image or a JSON file");
}

/** Parses UTF-8 JSON text (a leading byte order mark is allowed). */
function parseJsonBytes(bytes: Uint8Array, what: string): unknown {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw cardError(`${what} is not valid UTF-8 text`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw cardError(`${what} is not valid JSON`);
  }
}

/** A JSON card file, parsed. Throws 400 when it is not JSON. */
export const parseCardJson = (bytes: Uint8Array): unknown => parseJsonBytes(bytes, "The character card");

/** Base64 of bytes (btoa works on binary strings; built in slices to stay within argument limits). */
function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Bytes of strict base64 (whitespace ignored); throws on anything else. */
function fromBase64(text: string): Uint8Array {
  const binary = atob(text.replace(/\s+/g, ""));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

const TEXT_CHUNKS = new Set(["tEXt", "zTXt", "iTXt"]);

/** The keyword of a tEXt/zTXt/iTXt chunk (Latin-1, 1–79 bytes before a NUL), or null. */
function textKeyword(chunk: PngChunk): string | null {
  if (!TEXT_CHUNKS.has(chunk.name)) return null;
  const end = chunk.data.subarray(0, 80).indexOf(0);
  return end > 0 ? String.fromCharCode(...chunk.data.subarray(0, end)) : null;
}

function readChunks(bytes: Uint8Array): PngChunk[] {
  if (!isPng(bytes)) throw cardError("This file is not a PNG image");
  try {
    return extractChunks(bytes);
  } catch {
    throw cardError("This PNG file is damaged or incomplete");
  }
}

/**
 * The card inside a PNG: the `ccv3` tEXt chunk if there is one, else
 * `chara`; base64 of UTF-8 JSON (a bare JSON text, as some old tools wrote,
 * is read too). Other chunks, however large, are skipped unread.
 * Throws 400 for a damaged PNG, no card chunk, bad base64 or bad JSON.
 */
export function readPngCard(bytes: Uint8Array): unknown {
  const chunks = readChunks(bytes);
  const byKeyword = (keyword: string) => chunks.find((c) => c.name === "tEXt" && textKeyword(c) === keyword);
  const chunk = byKeyword("ccv3") ?? byKeyword("chara");
  if (!chunk) throw cardError("This PNG has no character card in it");
  let text: string;
  try {
    text = decodeText(chunk.data).text;
  } catch {
    throw cardError("The character card in this PNG is damaged");
  }
  if (text.trimStart().startsWith("{")) return parseJsonBytes(Uint8Array.from(text, (ch) => ch.charCodeAt(0)), "The character card");
  let json: Uint8Array;
  try {
    json = fromBase64(text);
  } catch {
    throw cardError("The character card in this PNG is not valid base64");
  }
  return parseJsonBytes(json, "The character card");
}

/**
 * png-chunks-encode copies each chunk into a plain array for its CRC, which
 * is fast only up to about 1 KiB per chunk (V8 keeps such arrays packed);
 * image data is therefore re-split into IDAT chunks of this size, which
 * decoders read as one stream (PNG spec §10.1). ~1.2 % overhead.
 */
const IDAT_CHUNK_BYTES = 1024;
/** Largest ancillary chunk kept in an avatar, bytes; larger ones (never needed to show the image) are dropped. */
const MAX_ANCILLARY_BYTES = 64 * 1024;

/**
 * The image chunks of a PNG: text chunks (tEXt/zTXt/iTXt: card data and
 * other metadata), eXIf (may locate the author) and oversized ancillary
 * chunks dropped; IDAT re-split (IDAT_CHUNK_BYTES).
 */
function imageChunks(chunks: PngChunk[]): PngChunk[] {
  const kept: PngChunk[] = [];
  for (const chunk of chunks) {
    if (TEXT_CHUNKS.has(chunk.name) || chunk.name === "eXIf") continue;
    const ancillary = chunk.name.charCodeAt(0) >= 0x61; // lower-case first letter (PNG spec §5.4)
    if (ancillary && chunk.data.length > MAX_ANCILLARY_BYTES) continue;
    if (chunk.name === "IDAT" && chunk.data.length > IDAT_CHUNK_BYTES) {
      for (let i = 0; i < chunk.data.length; i += IDAT_CHUNK_BYTES) {
        kept.push({ name: "IDAT", data: chunk.data.subarray(i, i + IDAT_CHUNK_BYTES) });
      }
    } else {
      kept.push(chunk);
    }
  }
  return kept;
}

/**
 * The picture of a card PNG, for the avatar: the same image without its card
 * and other text chunks (they would leak stale card text and can be
 * megabytes — RisuAI's `risuai` chunk). Throws 400 for a damaged PNG.
 */
export function avatarFromCardPng(bytes: Uint8Array): Uint8Array {
  return encodeChunks(imageChunks(readChunks(bytes)));
}

async function deflate(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream("deflate"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Size of the generated card picture, pixels per side. */
const GENERATED_SIZE = 256;

/**
 * A small generated picture for characters without a PNG avatar: a vertical
 * gradient in a hue taken from the name (256×256 RGB, 8 bit; IDAT is a zlib
 * stream, which is what CompressionStream("deflate") writes).
 */
async function generatedImageChunks(name: string): Promise<PngChunk[]> {
  let hash = 0;
  for (const ch of name) hash = (hash * 31 + ch.codePointAt(0)!) >>> 0;
  const hue = hash % 360;
  const rgb = (lightness: number): [number, number, number] => {
    // HSL → RGB with saturation 0.55 (CSS Color 4, "hsl-to-rgb").
    const s = 0.55;
    const k = (n: number) => (n + hue / 30) % 12;
    const a = s * Math.min(lightness, 1 - lightness);
    const f = (n: number) => lightness - a * Math.max(-1, Math.min(k(n) - 3, 9 - k(n), 1));
    return [Math.round(f(0) * 255), Math.round(f(8) * 255), Math.round(f(4) * 255)];
  };
  const row = 1 + GENERATED_SIZE * 3;
  const raw = new Uint8Array(row * GENERATED_SIZE);
  for (let y = 0; y < GENERATED_SIZE; y++) {
    const [r, g, b] = rgb(0.62 - (0.4 * y) / GENERATED_SIZE);
    raw[y * row] = 0; // filter type None
    for (let x = 0; x < GENERATED_SIZE; x++) raw.set([r, g, b], y * row + 1 + x * 3);
  }
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, GENERATED_SIZE);
  view.setUint32(4, GENERATED_SIZE);
  header.set([8, 2, 0, 0, 0], 8); // bit depth 8, colour type 2 (RGB), deflate, adaptive filters, no interlace
  return [
    { name: "IHDR", data: header },
    { name: "IDAT", data: await deflate(raw) },
    { name: "IEND", data: new Uint8Array(0) },
  ];
}

/**
 * The card as a PNG: the avatar picture (`avatarPng`, when it is a readable
 * PNG) or a generated one, carrying a `ccv3` tEXt chunk (the V3 card) and a
 * `chara` tEXt chunk (the V2 card, for readers that know only V2), both
 * base64 of UTF-8 JSON, before IEND.
 */
export async function writePngCard(
  card: ExportedCard,
  avatarPng: Uint8Array | null,
  name: string,
): Promise<Uint8Array<ArrayBuffer>> {
  let chunks: PngChunk[] | null = null;
  if (avatarPng && isPng(avatarPng)) {
    try {
      chunks = imageChunks(extractChunks(avatarPng));
    } catch {
      chunks = null;
    }
  }
  chunks ??= await generatedImageChunks(name);
  const encoder = new TextEncoder();
  const cardChunks = [
    encodeText("chara", toBase64(encoder.encode(JSON.stringify(card.v2)))),
    encodeText("ccv3", toBase64(encoder.encode(JSON.stringify(card.v3)))),
  ];
  const end = chunks.findIndex((c) => c.name === "IEND");
  chunks.splice(end === -1 ? chunks.length : end, 0, ...cardChunks);
  if (end === -1) chunks.push({ name: "IEND", data: new Uint8Array(0) });
  // png-chunks-encode allocates a fresh Uint8Array (never a shared buffer).
  return encodeChunks(chunks) as Uint8Array<ArrayBuffer>;
}

/** Exported for tests: the keywords of a PNG's text chunks, in order. */
export function pngTextKeywords(bytes: Uint8Array): string[] {
  return readChunks(bytes)
    .map(textKeyword)
    .filter((k): k is string => k !== null);
}

/** The base64 JSON of a PNG's tEXt chunk with `keyword`, parsed; null when absent. */
export function readPngTextJson(bytes: Uint8Array, keyword: string): unknown {
  const chunk = readChunks(bytes).find((c) => c.name === "tEXt" && textKeyword(c) === keyword);
  return chunk ? parseJsonBytes(fromBase64(decodeText(chunk.data).text), keyword) : null;
}
