/**
 * Character card fields (DESIGN.md "Character cards"; the formats and the
 * mapping are described in worker/lib/character-card.ts): the vocabulary
 * that reading a card (character-card.ts) and writing one (card-export.ts)
 * share — the reserved `extensions` keys, the card's field lists, the
 * `read*` mappings of one card field to ours (export uses them to tell
 * whether a preserved original still describes the current value), and
 * the 400 a broken card answers.
 */
import { CHARACTER_LIMITS, MAX_TAGS, tagNameSchema } from "../../schema/inputs.ts";
import { ApiError } from "./errors.ts";

/** Reserved key in a character's `extensions`: what the card held that no column of ours holds. */
export const PRESERVED_KEY = "fabled/card";
/** Our namespace inside an exported card's `extensions`. */
export const FABLED_EXTENSION = "fabled";

export type Json = Record<string, unknown>;

/**
 * A character's "Appearance for pictures" from its `extensions`
 * (`extensions.fabled.appearance`, where the room reads it too:
 * durable-objects/room/d1-sync.ts); null when absent, blank or not text.
 */
export function appearanceOf(extensions: Json | null | undefined): string | null {
  const fabled = extensions?.[FABLED_EXTENSION];
  const appearance = isObject(fabled) ? fabled.appearance : undefined;
  return typeof appearance === "string" && appearance.trim() !== "" ? appearance : null;
}

/**
 * `extensions` with `fabled.appearance` set to `appearance` (null: removed,
 * and an emptied `fabled` with it); every other key kept. A new object.
 */
export function withAppearance(extensions: Json, appearance: string | null): Json {
  const { [FABLED_EXTENSION]: ours, ...rest } = extensions;
  const { appearance: _old, ...fabled }: Json = isObject(ours) ? ours : {};
  if (appearance !== null) fabled.appearance = appearance;
  return Object.keys(fabled).length > 0 ? { ...rest, [FABLED_EXTENSION]: fabled } : rest;
}

/** What `extensions[PRESERVED_KEY]` holds. */
export interface Preserved {
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

export const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export function deepEqual(a: unknown, b: unknown): boolean {
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
export function readDescription(text: string, blurb: string | null): { description: string; longDescription: string | null } {
  const trimmed = text.trim();
  if (blurb !== null) return { description: blurb, longDescription: trimmed === blurb ? null : text };
  if (trimmed.length <= CHARACTER_LIMITS.description) return { description: trimmed, longDescription: null };
  return { description: shortenDescription(trimmed), longDescription: text };
}

/** Our personality: the card's, or its description when the card's is shorter than SPEC.md §5's 10 characters. */
export function readPersonality(text: string, cardDescription: string): string {
  const trimmed = text.trim();
  return trimmed.length >= 10 ? trimmed : cardDescription.trim().slice(0, CHARACTER_LIMITS.personality);
}

export const readOptionalText = (text: string) => (text.trim() === "" ? null : text);

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

export const readStrings = (values: unknown[]) => values.filter((v): v is string => typeof v === "string");

/** Card keys of optional text fields and our names for them. */
export const OPTIONAL_TEXT = [
  ["scenario", "scenario"],
  ["first_mes", "greeting"],
  ["mes_example", "exampleConversation"],
  ["system_prompt", "systemPrompt"],
  ["post_history_instructions", "postHistoryInstructions"],
  ["creator_notes", "creatorNotes"],
] as const;

/** The V1 fields (also mirrored at the top level of V2 cards for V1 readers). */
export const V1_FIELDS = ["name", "description", "personality", "scenario", "first_mes", "mes_example"];
/** `data` fields with a column of ours (V2/V3). */
export const MAPPED_DATA_FIELDS = new Set([
  ...V1_FIELDS,
  "alternate_greetings",
  "system_prompt",
  "post_history_instructions",
  "creator_notes",
  "tags",
  "character_book",
  "extensions",
  // Always written anew on export: the character's assets (worker/lib/cards/assets.ts) and its last change.
  "assets",
  "modification_date",
]);
/** V3 `data` fields a V2 reader does not know; left out of the V2 `chara` chunk. */
export const V3_ONLY_FIELDS = [
  "group_only_greetings",
  "creation_date",
  "modification_date",
  "nickname",
  "creator_notes_multilingual",
  "source",
  "assets",
];

/** Parses UTF-8 JSON text (a leading byte order mark is allowed). */
export function parseJsonBytes(bytes: Uint8Array, what: string): unknown {
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

