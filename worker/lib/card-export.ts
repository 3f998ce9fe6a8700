/**
 * Character card export, ours → card (DESIGN.md "Character cards"): a
 * character as a V3 card and the same card as V2, with every field the
 * imported card held restored (`extensions["fabled/card"]`, PRESERVED_KEY)
 * and `extensions.fabled` carrying our short description, NSFW flag, voice
 * and "Appearance for pictures".
 * worker/lib/card-png.ts writes them into a PNG.
 */
import type { Character } from "../../schema/api.ts";
import {
  deepEqual,
  FABLED_EXTENSION,
  isObject,
  type Json,
  OPTIONAL_TEXT,
  PRESERVED_KEY,
  type Preserved,
  readDescription,
  readOptionalText,
  readPersonality,
  readStrings,
  readTags,
  V1_FIELDS,
  V3_ONLY_FIELDS,
} from "./card-fields.ts";

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
  const fork = character.forkedFrom;
  if (fork) mapped.creator_notes = withForkCredit(typeof mapped.creator_notes === "string" ? mapped.creator_notes : "", fork);
  mapped.extensions = {
    ...extensions,
    [FABLED_EXTENSION]: {
      description: character.description,
      is_nsfw: character.isNsfw,
      ...(character.voice ? { voice: character.voice } : {}),
      ...(character.appearance ? { appearance: character.appearance } : {}),
      ...(fork ? { forked_from: { id: fork.id, name: fork.name, creator: fork.creatorUsername } } : {}),
    },
  };

  const data: Json = {
    creator: character.creator,
    character_version: "",
    group_only_greetings: [],
    creation_date: seconds(character.createdAt),
    ...preservedData,
    ...mapped,
    // A fork's card is the forker's: the original's card creator, copied with its preserved fields, is credited instead.
    ...(fork ? { creator: character.creator } : {}),
    modification_date: seconds(character.updatedAt),
  };
  const top = isObject(preserved.top) ? preserved.top : {};
  const v3 = { ...top, spec: "chara_card_v3", spec_version: "3.0", data };
  const v2Data = Object.fromEntries(Object.entries(data).filter(([key]) => !V3_ONLY_FIELDS.includes(key)));
  const v1Mirror = Object.fromEntries(V1_FIELDS.map((key) => [key, data[key]]));
  const v2 = { ...top, ...v1Mirror, spec: "chara_card_v2", spec_version: "2.0", data: v2Data };
  return { v3, v2 };
}

/**
 * The line a fork's card carries in `creator_notes`, so apps that know
 * nothing of `extensions.fabled.forked_from` still show the credit (issue
 * 40): "Forked from “{name}” by {@creator} on Fabled.", or "Forked from a
 * deleted character on Fabled." once the original is gone.
 */
export function forkCreditLine(fork: NonNullable<Character["forkedFrom"]>): string {
  if (fork.name === null) return "Forked from a deleted character on Fabled.";
  return `Forked from “${fork.name}”${fork.creatorUsername ? ` by ${fork.creatorUsername}` : ""} on Fabled.`;
}

/** `notes` with the fork's credit line at its end, once: a card exported, imported and forked again keeps one line per fork. */
function withForkCredit(notes: string, fork: NonNullable<Character["forkedFrom"]>): string {
  const line = forkCreditLine(fork);
  if (notes.split("\n").some((existing) => existing.trim() === line)) return notes;
  return notes.trim() ? `${notes.trimEnd()}\n\n${line}` : line;
}
