/**
 * The input schemas of characters (SPEC.md §5 Create Character, §7): tags,
 * a character's fields and limits, its avatar (registered or drawn) and its
 * assets, with SPEC.md's messages (schema/inputs.ts re-exports them).
 */
import { z } from "zod";
import { MAX_TAGS } from "../constants.ts";
import { visibleName } from "../names.ts";
import { avatarUrlSchema, optionalText, requiredText } from "./fields.ts";

/** Tag names: lower case, 2–24 characters of letters, digits, spaces or dashes. */
export const tagNameSchema = z
  .string()
  .trim()
  .toLowerCase()
  .min(2, "Tags must be at least 2 characters")
  .max(24, "Tags must be at most 24 characters")
  .regex(/^[\p{L}\p{N}][\p{L}\p{N} '&+-]*$/u, "Tags may contain only letters, numbers, spaces and dashes")
  .refine(...visibleName);

/**
 * Length limits of character fields, in characters. SPEC.md §5 fixes name,
 * description and personality's minimum; the rest are ours, sized for the
 * community's character cards (a card's description, greetings and example
 * dialogue often run to several thousand words) while keeping one character
 * row well under D1's 2 MB row limit.
 */
export const CHARACTER_LIMITS = {
  name: 100,
  description: 300,
  longDescription: 50_000,
  personality: 50_000,
  scenario: 20_000,
  exampleConversation: 50_000,
  greeting: 20_000,
  alternateGreetings: 50,
  systemPrompt: 20_000,
  postHistoryInstructions: 20_000,
  creatorNotes: 20_000,
  /** "Appearance for pictures": as long as a drawn avatar's description, which it prefills. */
  appearance: 1_000,
  /** The lorebook as JSON text. */
  characterBook: 500_000,
  creator: 100,
} as const;

/**
 * A character's tags: chosen from the popular list or new, each normalised by
 * tagNameSchema (trimmed, lower case, 2–24 characters), duplicates removed,
 * at most MAX_TAGS.
 */
export const characterTagsSchema = z
  .array(tagNameSchema, { error: "Tags must be a list of names" })
  .transform((names) => [...new Set(names)])
  .refine((names) => names.length <= MAX_TAGS, `At most ${MAX_TAGS} tags`);


/** The fields of a character a person writes; defaults are added by characterInputSchema. */
const characterFields = {
  name: requiredText("Name", 1, "Character name is required", CHARACTER_LIMITS.name, "Name is too long").refine(...visibleName),
  description: requiredText(
    "Description",
    10,
    "Description must be at least 10 characters",
    CHARACTER_LIMITS.description,
    "Description is too long",
  ),
  longDescription: optionalText(CHARACTER_LIMITS.longDescription, "Long description is too long"),
  personality: requiredText(
    "Personality",
    10,
    "Personality must be at least 10 characters",
    CHARACTER_LIMITS.personality,
    "Personality is too long",
  ),
  scenario: optionalText(CHARACTER_LIMITS.scenario, "Scenario is too long"),
  exampleConversation: optionalText(CHARACTER_LIMITS.exampleConversation, "Example conversation is too long"),
  avatarUrl: avatarUrlSchema,
  tags: characterTagsSchema,
  isNsfw: z.boolean({ error: "isNsfw must be true or false" }),
  /** Whether others may fork it (issue 40); on unless the creator turns it off. */
  allowForks: z.boolean({ error: "allowForks must be true or false" }),
  greeting: optionalText(CHARACTER_LIMITS.greeting, "Greeting is too long"),
  alternateGreetings: z
    .array(z.string({ error: "Greetings must be text" }).max(CHARACTER_LIMITS.greeting, "Greeting is too long"), {
      error: "Alternate greetings must be a list of texts",
    })
    .max(CHARACTER_LIMITS.alternateGreetings, `At most ${CHARACTER_LIMITS.alternateGreetings} alternate greetings`),
  systemPrompt: optionalText(CHARACTER_LIMITS.systemPrompt, "System prompt is too long"),
  postHistoryInstructions: optionalText(
    CHARACTER_LIMITS.postHistoryInstructions,
    "Post-history instructions are too long",
  ),
  creatorNotes: optionalText(CHARACTER_LIMITS.creatorNotes, "Creator notes are too long"),
  /**
   * "Appearance for pictures" (issue 38): how the character looks, for the
   * prompts of pictures in its chats and of its drawn avatar; "" or null for
   * none. Stored in the card's `extensions.fabled.appearance`, so a card
   * export and import keep it.
   */
  appearance: optionalText(CHARACTER_LIMITS.appearance, "Appearance is too long"),
  /**
   * A voice id of GET /api/voices, or null/"" for the default. Its shape is
   * checked here; whether this deployment offers it, by the Worker
   * (worker/lib/voices.ts `assertKnownVoice`).
   */
  voice: z
    .string({ error: "Voice must be a voice id" })
    .max(100, "Unknown voice")
    .nullish()
    .transform((v) => v || null),
  /** Card `character_book` (lorebook), kept verbatim. */
  characterBook: z
    .record(z.string(), z.unknown(), { error: "The lorebook must be an object" })
    .refine((book) => JSON.stringify(book).length <= CHARACTER_LIMITS.characterBook, "The lorebook is too large")
    .nullish(),
};

/** Create Character form and `POST /api/characters` (SPEC.md §5). */
export const characterInputSchema = z.object({
  ...characterFields,
  tags: characterFields.tags.default([]),
  isNsfw: characterFields.isNsfw.default(false),
  allowForks: characterFields.allowForks.default(true),
  alternateGreetings: characterFields.alternateGreetings.default([]),
});
export type CharacterInput = z.output<typeof characterInputSchema>;

/**
 * `PUT /api/characters/:id`: every field optional (a field left out keeps its
 * value; no defaults apply), `creator` allowed (SPEC.md §3). `creator` is
 * stored without a leading "@" (it is shown as "@" + creator).
 */
export const characterUpdateSchema = z.object(characterFields).partial().extend({
  creator: z
    .string({ error: "Creator must be text" })
    .trim()
    .refine(...visibleName)
    .transform((v) => v.replace(/^@+/, ""))
    .pipe(z.string().min(1, "Creator is required").max(CHARACTER_LIMITS.creator, "Creator is too long"))
    .optional(),
});
export type CharacterUpdate = z.output<typeof characterUpdateSchema>;

/** `PUT /api/character-avatars` (SPEC.md §7): the URL the file was uploaded to, or its `/objects/…` path. */
export const avatarRegistrationSchema = z.object({
  avatarURL: z.string({ error: "avatarURL is required" }).min(1, "avatarURL is required").max(4096, "avatarURL is too long"),
});

/** Longest description an avatar is drawn from (`POST /api/images/avatars`), characters. */
export const MAX_AVATAR_DESCRIPTION_LENGTH = 1000;

/** `POST /api/images/avatars` (DESIGN.md "Pictures"): the words an avatar is drawn from. Screened. */
export const avatarDrawingSchema = z.object({
  description: z
    .string({ error: "description is required" })
    .trim()
    .min(1, "Describe the character to draw")
    .max(MAX_AVATAR_DESCRIPTION_LENGTH, `The description can be at most ${MAX_AVATAR_DESCRIPTION_LENGTH.toLocaleString("en-US")} characters`),
});

/** Longest asset name (an emotion label, a background's name), characters. */
export const MAX_ASSET_NAME_LENGTH = 64;

/**
 * `POST /api/characters/:id/assets` (DESIGN.md "Character assets"): an
 * uploaded picture (`objectPath`, as avatars: `/objects/avatars/<you>/<id>`
 * or the upload URL) listed as the character's asset `type` (`emotion`,
 * `background`, `icon`, `user_icon` or `x_…`) under `name` (an emotion
 * label such as "joy"; the same type and name replaces the picture).
 */
export const characterAssetInputSchema = z.object({
  type: z
    .string({ error: "type is required" })
    .trim()
    .regex(/^(icon|emotion|background|user_icon|x_[\w-]{1,60})$/, "type must be emotion, background, icon, user_icon or x_…"),
  name: z
    .string({ error: "name is required" })
    .trim()
    .min(1, "Give the picture a name")
    .max(MAX_ASSET_NAME_LENGTH, `Names can be at most ${MAX_ASSET_NAME_LENGTH} characters`)
    .refine((name) => !/[\u0000-\u001f/]/.test(name), "Names cannot contain / or control characters"),
  objectPath: z.string({ error: "objectPath is required" }).min(1, "objectPath is required").max(4096, "objectPath is too long"),
});
export type CharacterAssetInput = z.output<typeof characterAssetInputSchema>;

/**
 * `PUT /api/characters/{id}/neutral-expression` `{name}`: which of the
 * character's expressions is its neutral face (the picture a reply shows
 * when its label has none of its own; docs/decisions/0039).
 */
export const neutralExpressionInputSchema = z.object({
  name: z
    .string({ error: "name is required" })
    .trim()
    .min(1, "Choose an expression")
    .max(MAX_ASSET_NAME_LENGTH, `Names can be at most ${MAX_ASSET_NAME_LENGTH} characters`),
});
