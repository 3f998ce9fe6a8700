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
 * github.com/kwaroran/character-card-spec-v3.
 *
 * This module reads cards (readCard, readPngCard, cardFileKind); its parts:
 * the shared field vocabulary (card-fields.ts), PNG chunks and writing a
 * card PNG (card-png.ts), export (card-export.ts).
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
 * - Export adds `extensions.fabled = { description, is_nsfw, voice?,
 *   appearance? }` so the short description, NSFW flag, voice and
 *   "Appearance for pictures" survive a round trip through Fabled too.
 */
import { decode as decodeText } from "png-chunk-text";
import { CHARACTER_LIMITS } from "../../schema/inputs.ts";
import { ApiError } from "./errors.ts";
import {
  cardError,
  deepEqual,
  FABLED_EXTENSION,
  isObject,
  type Json,
  MAPPED_DATA_FIELDS,
  OPTIONAL_TEXT,
  PRESERVED_KEY,
  type Preserved,
  parseJsonBytes,
  readDescription,
  readOptionalText,
  readPersonality,
  readStrings,
  readTags,
  V1_FIELDS,
} from "./card-fields.ts";
import { fromBase64, isPng, readChunks, textKeyword } from "./card-png.ts";

/** Largest card file accepted for import, bytes (the avatar limit: 10 MB). */
export const MAX_CARD_BYTES = 10_485_760;

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

  // Checked against this deployment's voices by the import route (an unknown one falls back to the default).
  input.voice = typeof fabled.voice === "string" ? fabled.voice.slice(0, 100) : null;

  // Too long for the field: refused by characterInputSchema with its message, like any other field.
  input.appearance = typeof fabled.appearance === "string" ? readOptionalText(fabled.appearance) : null;

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


export const parseCardJson = (bytes: Uint8Array): unknown => parseJsonBytes(bytes, "The character card");

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
