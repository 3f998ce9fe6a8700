/**
 * zod input schemas with the rules and messages of SPEC.md §5, shared by the
 * web forms and the Worker so both say exactly the same thing.
 */
import { z } from "zod";
import { CATALOG_SORTS } from "./api.ts";
import { visibleName } from "./names.ts";
import { canonicalUsername } from "./usernames.ts";
import type { LorePosition, LoreRole, SelectiveLogic } from "./lorebook/activation.ts";
import { LORE_POSITIONS, LORE_ROLES, LOREBOOK_LIMITS, SELECTIVE_LOGICS } from "./lorebook/book.ts";
import { lorebookIdsSchema } from "./lorebook/ids.ts";
import {
  CATALOG_MAX_OFFSET,
  CATALOG_PAGE_SIZE,
  MAX_BIO_LENGTH,
  MAX_COMMENT_LENGTH,
  MAX_HIDDEN_TAGS,
  MAX_PERSONA_DESCRIPTION_LENGTH,
  MAX_PERSONA_NAME_LENGTH,
  MAX_REPORT_DETAILS_LENGTH,
  MAX_SEARCH_LENGTH,
  MAX_TAGS,
  REPORT_REASONS,
  type ReportReason,
  TAG_MODES,
} from "./constants.ts";

export { CATALOG_MAX_OFFSET, CATALOG_PAGE_SIZE, MAX_BIO_LENGTH, MAX_COMMENT_LENGTH, MAX_HIDDEN_TAGS, MAX_SEARCH_LENGTH, MAX_TAGS };


const intParam = (name: string, min: number, max: number, fallback: number) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === "") return fallback;
      if (!/^\d+$/.test(value)) {
        ctx.addIssue({ code: "custom", message: `${name} must be a whole number` });
        return z.NEVER;
      }
      const n = Number(value);
      if (n < min || n > max) {
        ctx.addIssue({ code: "custom", message: `${name} must be between ${min} and ${max}` });
        return z.NEVER;
      }
      return n;
    });

const boolParam = (name: string) =>
  z
    .enum(["true", "false"], { error: `${name} must be "true" or "false"` })
    .optional();

/**
 * Search text as the catalog uses it: trimmed, and when longer than
 * MAX_SEARCH_LENGTH characters (whatever a person pasted), shortened to its
 * first terms — cut at MAX_SEARCH_LENGTH, then back to the end of the last
 * whole word (run of letters or digits) before the cut, so no word is
 * searched half. A single word longer than the limit is cut at the limit.
 * (Of what is left, the catalog searches the first 12 distinct words,
 * worker/lib/catalog-search.ts `searchTerms`.) Empty text gives undefined.
 */
export function shortenSearch(text: string | undefined): string | undefined {
  let value = text?.trim() ?? "";
  if (value.length > MAX_SEARCH_LENGTH) {
    const cut = value.slice(0, MAX_SEARCH_LENGTH);
    // The next character continues the last word: drop that word's part.
    const partial = /[\p{L}\p{N}]/u.test(value[MAX_SEARCH_LENGTH]!) ? /[\p{L}\p{N}]+$/u.exec(cut) : null;
    value = (partial && partial.index > 0 ? cut.slice(0, partial.index) : cut).trim();
  }
  return value || undefined;
}

/**
 * A comma-joined list of tag names as a query parameter: trimmed, lower
 * case, empty entries and repeats dropped, at most `max` (else `tooMany`).
 */
const tagListParam = (max: number, tooMany: string) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      const names = [
        ...new Set(
          (value ?? "")
            .split(",")
            .map((t) => t.trim().toLowerCase())
            .filter(Boolean),
        ),
      ];
      if (names.length > max) {
        ctx.addIssue({ code: "custom", message: tooMany });
        return z.NEVER;
      }
      return names;
    });

/**
 * Query of `GET /api/characters` (SPEC.md §7). `tags` is comma-joined tag
 * names; `tagMode` says how they combine: `all` (the default: a character
 * must carry every one) or `any` (at least one). `excludeTags` is
 * comma-joined tag names no listed character may carry (the person's hidden
 * tags; sorted here, so the same set is one cache key whatever its order).
 * NSFW characters are listed only with `showNsfw=true` (`nsfw=false` is what
 * the client sends beside `showNsfw=false` and changes nothing). Over-long
 * `search` text is shortened, never refused (`shortenSearch`). `creator` (a
 * username, with or without "@", any case; canonicalised here) narrows the
 * list to that person's characters (their creator page); `following=true` to
 * the characters of the people the signed-in caller follows (Home's Following
 * tab). Every filter is a field of this object: the edge cache keys on it.
 */
export const catalogQuerySchema = z.object({
  tags: tagListParam(MAX_TAGS, `Filter by at most ${MAX_TAGS} tags`),
  tagMode: z
    .enum(TAG_MODES, { error: `tagMode must be one of ${TAG_MODES.join(", ")}` })
    .optional()
    .default("all"),
  excludeTags: tagListParam(MAX_HIDDEN_TAGS, `Exclude at most ${MAX_HIDDEN_TAGS} tags`).transform((names) => names.sort()),
  search: z.string().optional().transform(shortenSearch),
  // Defaults spelled out and the no-op `nsfw` dropped after its check, so the
  // parsed query (the edge cache's key, worker/lib/edge-cache.ts) says each list one way.
  showNsfw: boolParam("showNsfw").default("false"),
  nsfw: boolParam("nsfw").transform(() => undefined),
  limit: intParam("limit", 1, 100, CATALOG_PAGE_SIZE),
  offset: intParam("offset", 0, CATALOG_MAX_OFFSET, 0),
  sort: z
    .enum(CATALOG_SORTS, { error: `sort must be one of ${CATALOG_SORTS.join(", ")}` })
    .optional()
    .default("for-you"),
  creator: z
    .string()
    .max(64, "creator is too long")
    .optional()
    .transform((value) => (value?.trim() ? canonicalUsername(value) : undefined)),
  following: boolParam("following"),
});
export type CatalogQuery = z.output<typeof catalogQuerySchema>;

/**
 * Query of `GET /api/favorites`: Home's paging (`limit`, `offset`) and NSFW
 * setting (`showNsfw`; `nsfw` is accepted and changes nothing).
 */
export const favoritesQuerySchema = z.object({
  showNsfw: boolParam("showNsfw"),
  nsfw: boolParam("nsfw"),
  limit: intParam("limit", 1, 100, CATALOG_PAGE_SIZE),
  offset: intParam("offset", 0, CATALOG_MAX_OFFSET, 0),
});
export type FavoritesQuery = z.output<typeof favoritesQuerySchema>;

/**
 * Query of `GET /api/characters/{id}/forks` (issue 40): paging (`limit`,
 * `offset`) and the viewer's NSFW setting (`showNsfw`), as Home sends them.
 */
export const forksQuerySchema = z.object({
  showNsfw: boolParam("showNsfw"),
  limit: intParam("limit", 1, 100, CATALOG_PAGE_SIZE),
  offset: intParam("offset", 0, CATALOG_MAX_OFFSET, 0),
});
export type ForksQuery = z.output<typeof forksQuerySchema>;

/** Tag names: lower case, 2–24 characters of letters, digits, spaces or dashes. */
export const tagNameSchema = z
  .string()
  .trim()
  .toLowerCase()
  .min(2, "Tags must be at least 2 characters")
  .max(24, "Tags must be at most 24 characters")
  .regex(/^[\p{L}\p{N}][\p{L}\p{N} '&+-]*$/u, "Tags may contain only letters, numbers, spaces and dashes")
  .refine(...visibleName);

const optionalText = (max: number, message: string) =>
  z
    .string({ error: "Must be text" })
    .max(max, message)
    .nullish()
    .transform((v) => (v == null || v.trim() === "" ? null : v));

/** Required text: a missing value says the field's own minimum message. */
const requiredText = (label: string, min: number, minMessage: string, max: number, maxMessage: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? minMessage : `${label} must be text`) })
    .trim()
    .min(min, minMessage)
    .max(max, maxMessage);

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

/**
 * Avatar: an https URL, the `/objects/avatars/…` path that avatar registration
 * returns, or one of the demo catalog's `/avatars/demo/….svg` pictures.
 */
const avatarUrlSchema = z
  .union([
    z.url({ protocol: /^https$/, error: "Must be a valid URL" }),
    z.string().regex(/^\/objects\/avatars\/[\w-]+\/[\w-]+$/, "Must be a valid URL"),
    // The demo catalog's artwork, served as static assets.
    z.string().regex(/^\/avatars\/demo\/[a-z0-9-]+\.svg$/, "Must be a valid URL"),
    z.literal(""),
  ], { error: "Must be a valid URL" })
  .nullish()
  .transform((v) => v || null);

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

/** An `/objects/avatars/<ownerId>/<id>` upload path (the Worker checks the owner). */
const OBJECT_PATH = /^\/objects\/avatars\/[\w-]+\/[\w-]+$/;
const httpsUrlSchema = z.url({ protocol: /^https$/ });

/**
 * Profile image: an https URL or an `/objects/avatars/…` upload path; "" or
 * null for none (stored as null). Plain http is refused (mixed content, and
 * anyone on the network could swap the picture); z.url() alone would also
 * accept javascript: and data: URLs.
 */
const profileImageUrlSchema = z
  .string({ error: "Must be a valid URL" })
  .refine((v) => !/^\s*http:/i.test(v), { error: "Image URLs must start with https://", abort: true })
  .refine((v) => v === "" || OBJECT_PATH.test(v) || httpsUrlSchema.safeParse(v).success, "Must be a valid URL")
  .nullish()
  .transform((v) => v || null);

/** Edit Profile form and `PUT /api/profile` (SPEC.md §5). */
export const profileInputSchema = z.object({
  name: z.string().trim().min(1, "Name is required").max(100, "Name is too long").refine(...visibleName),
  username: z
    .string()
    .min(2, "Username must be at least 2 characters")
    .max(30, "Username is too long")
    .regex(/^@[A-Za-z0-9_]+$/, "Username must start with @ and contain only letters, numbers, and underscores"),
  profileImageUrl: profileImageUrlSchema,
  /** The creator's few words on their page (issue 26); absent: kept as stored; "" removes it. */
  bio: z
    .string({ error: "Bio must be text" })
    .trim()
    .max(MAX_BIO_LENGTH, `Bio is too long (at most ${MAX_BIO_LENGTH} characters)`)
    .optional(),
});
export type ProfileInput = z.output<typeof profileInputSchema>;

/**
 * Body of `PUT /api/profile/content`: NSFW shown or not; turning it on the
 * first time needs `confirmAdult: true` (the person said they are 18 or
 * older, recorded with the time).
 */
export const contentSettingsInputSchema = z.object(
  {
    showNsfw: z.boolean({ error: "showNsfw must be true or false" }),
    confirmAdult: z.literal(true, { error: "confirmAdult can only be true" }).optional(),
  },
  { error: "Send the content settings as { showNsfw, confirmAdult? }" },
);
export type ContentSettingsInput = z.output<typeof contentSettingsInputSchema>;

/**
 * Body of `PUT /api/profile/hidden-tags`: the whole list of tags the person
 * hides, each normalised by tagNameSchema; repeats dropped, sorted, at most
 * MAX_HIDDEN_TAGS. An empty list hides nothing.
 */
export const hiddenTagsInputSchema = z.object(
  {
    tags: z
      .array(tagNameSchema, { error: "Tags must be a list of names" })
      .transform((names) => [...new Set(names)].sort())
      .refine((names) => names.length <= MAX_HIDDEN_TAGS, `Hide at most ${MAX_HIDDEN_TAGS} tags`),
  },
  { error: "Send the hidden tags as { tags: [...] }" },
);
export type HiddenTagsInput = z.output<typeof hiddenTagsInputSchema>;


/** The fields of a persona a person writes; defaults are added by personaInputSchema. */
const personaFields = {
  name: requiredText(
    "Name",
    1,
    "Persona name is required",
    MAX_PERSONA_NAME_LENGTH,
    `Name is too long (at most ${MAX_PERSONA_NAME_LENGTH} characters)`,
  ).refine(...visibleName),
  description: z
    .string({ error: "Description must be text" })
    .trim()
    .max(
      MAX_PERSONA_DESCRIPTION_LENGTH,
      `Description is too long (at most ${MAX_PERSONA_DESCRIPTION_LENGTH.toLocaleString("en-US")} characters)`,
    ),
  avatarUrl: avatarUrlSchema,
  isDefault: z.boolean({ error: "isDefault must be true or false" }),
};

/**
 * Persona dialog and `POST /api/personas`: a name (trimmed, 1–50
 * characters), a description (trimmed, at most 2,000, default ""), an
 * optional avatar (the rule of a character's avatarUrl) and whether it
 * becomes the default.
 */
export const personaInputSchema = z.object({
  ...personaFields,
  description: personaFields.description.default(""),
  isDefault: personaFields.isDefault.optional(),
});
export type PersonaInput = z.output<typeof personaInputSchema>;

/**
 * `PUT /api/personas/:id`: any of the fields (a field left out keeps its
 * value), at least one. `isDefault: false` on the default leaves the person
 * without one.
 */
export const personaUpdateSchema = z
  .object(personaFields)
  .partial()
  .refine((fields) => Object.values(fields).some((value) => value !== undefined), {
    error: "Nothing to change: send a name, description, avatarUrl or isDefault",
  });
export type PersonaUpdate = z.output<typeof personaUpdateSchema>;

/** `POST /api/characters/:id/comments` */
export const commentInputSchema = z.object({
  content: z
    .string({ error: "Comment text is required" })
    .trim()
    .min(1, "Comment cannot be empty")
    .max(MAX_COMMENT_LENGTH, `Comments can be at most ${MAX_COMMENT_LENGTH.toLocaleString("en-US")} characters`),
  parentId: z.number({ error: "parentId must be a comment id" }).int().positive().nullish(),
});

/** `POST /api/comments/:id/vote` */
export const voteInputSchema = z.object({
  value: z.union([z.literal(1), z.literal(-1)], { error: "value must be 1 or -1" }),
});

/**
 * `POST /api/reports/review`: a refused writer asks for a person to look at
 * their latest refusal; `details` (optional) says why it is wrong.
 */
export const reviewRequestInputSchema = z
  .object({
    details: z.string().max(MAX_REPORT_DETAILS_LENGTH, `details must be at most ${MAX_REPORT_DETAILS_LENGTH} characters`).optional(),
  })
  .strict();
export type ReviewRequestInput = z.infer<typeof reviewRequestInputSchema>;

/**
 * `POST /api/reports`. `targetId` is a character or comment id (number or
 * decimal text), a chat message id, or a share link's token (`share`); a message also names its
 * `conversationId` (messages live in their conversation's room).
 */
export const reportInputSchema = z
  .object({
    targetType: z.enum(["character", "comment", "message", "share"], {
      error: 'targetType must be "character", "comment", "message" or "share"',
    }),
    targetId: z
      .union([z.number().int().positive(), z.string().trim().min(1).max(100)], {
        error: "targetId must name what you report",
      })
      .transform(String),
    conversationId: z.string().trim().min(1).max(100).optional(),
    reason: z.enum(REPORT_REASONS.map((r) => r.value) as [ReportReason, ...ReportReason[]], {
      error: "Choose a reason for the report",
    }),
    details: z
      .string()
      .trim()
      .max(
        MAX_REPORT_DETAILS_LENGTH,
        `Details can be at most ${MAX_REPORT_DETAILS_LENGTH.toLocaleString("en-US")} characters`,
      )
      .optional()
      .transform((value) => (value ? value : undefined)),
  })
  .superRefine((input, ctx) => {
    if (input.targetType === "message" && !input.conversationId) {
      ctx.addIssue({ code: "custom", path: ["conversationId"], message: "A reported message needs its conversationId" });
    }
    if (input.targetType === "share" && !/^[A-Za-z0-9_-]{22}$/.test(input.targetId)) {
      ctx.addIssue({ code: "custom", path: ["targetId"], message: "targetId must be a share link's token" });
    }
    if ((input.targetType === "character" || input.targetType === "comment") && !/^[1-9]\d{0,15}$/.test(input.targetId)) {
      ctx.addIssue({ code: "custom", path: ["targetId"], message: `targetId must be a ${input.targetType} id` });
    }
  });
export type ReportInput = z.output<typeof reportInputSchema>;

// ---------------------------------------------------------------------------
// Lorebooks (DESIGN.md turn 4 "Lorebooks"; limits: schema/lorebook/book.ts LOREBOOK_LIMITS, docs/decisions/0034)

const L = LOREBOOK_LIMITS;
const loreKeys = (field: string) =>
  z
    .array(z.string({ error: `${field} must be text` }).max(L.key, `A key can be at most ${L.key} characters`), { error: `${field} must be a list of keys` })
    .max(L.keys, `An entry can have at most ${L.keys} ${field}`);
const optionalCount = (field: string, max: number) =>
  z.number({ error: `${field} must be a number` }).int(`${field} must be a whole number`).min(0, `${field} cannot be negative`).max(max, `${field} can be at most ${max}`).optional();
const nullableFlag = (field: string) => z.boolean({ error: `${field} must be true, false or null` }).nullable().optional();

/** One entry of a lorebook, SillyTavern's fields and meaning (schema/lorebook/activation.ts LoreEntry). `id` is given to a new entry. */
export const lorebookEntrySchema = z.object({
  id: z.string({ error: "An entry id must be text" }).trim().min(1).max(64, "An entry id can be at most 64 characters").optional(),
  keys: loreKeys("keys").default([]),
  secondaryKeys: loreKeys("secondaryKeys").default([]),
  selectiveLogic: z.enum(SELECTIVE_LOGICS as [SelectiveLogic, ...SelectiveLogic[]], { error: `selectiveLogic must be one of ${SELECTIVE_LOGICS.join(", ")}` }).optional(),
  selective: z.boolean({ error: "selective must be true or false" }).optional(),
  content: z.string({ error: "content must be text" }).max(L.content, `An entry's content can be at most ${L.content.toLocaleString("en-US")} characters`).default(""),
  comment: z.string({ error: "comment must be text" }).max(L.comment, `A comment can be at most ${L.comment} characters`).default(""),
  caseSensitive: nullableFlag("caseSensitive"),
  matchWholeWords: nullableFlag("matchWholeWords"),
  constant: z.boolean({ error: "constant must be true or false" }).optional(),
  disable: z.boolean({ error: "disable must be true or false" }).optional(),
  probability: z.number({ error: "probability must be a number" }).min(0, "probability is 0–100").max(100, "probability is 0–100").optional(),
  useProbability: z.boolean({ error: "useProbability must be true or false" }).optional(),
  position: z.enum(LORE_POSITIONS as [LorePosition, ...LorePosition[]], { error: `position must be one of ${LORE_POSITIONS.join(", ")}` }).optional(),
  depth: optionalCount("depth", 1_000),
  role: z.enum(LORE_ROLES as [LoreRole, ...LoreRole[]], { error: `role must be one of ${LORE_ROLES.join(", ")}` }).optional(),
  order: z.number({ error: "order must be a number" }).int("order must be a whole number").min(-1_000_000).max(1_000_000).optional(),
  scanDepth: z.number({ error: "scanDepth must be a number or null" }).int().min(0).max(1_000, "scanDepth can be at most 1000").nullable().optional(),
  sticky: optionalCount("sticky", 10_000),
  cooldown: optionalCount("cooldown", 10_000),
  delay: optionalCount("delay", 10_000),
  group: z.string({ error: "group must be text" }).max(L.key, `group can be at most ${L.key} characters`).optional(),
  groupWeight: z.number({ error: "groupWeight must be a number" }).min(0).max(10_000, "groupWeight can be at most 10000").optional(),
  groupOverride: z.boolean({ error: "groupOverride must be true or false" }).optional(),
  useGroupScoring: nullableFlag("useGroupScoring"),
  preventRecursion: z.boolean({ error: "preventRecursion must be true or false" }).optional(),
  excludeRecursion: z.boolean({ error: "excludeRecursion must be true or false" }).optional(),
  delayUntilRecursion: z.union([z.boolean(), z.number().int().min(0).max(100)], { error: "delayUntilRecursion must be true, false or a level" }).optional(),
  /** Fields of an imported entry this site does not read, kept for export. */
  extensions: z.record(z.string(), z.unknown(), { error: "extensions must be an object" }).default({}),
});
export type LorebookEntryInput = z.output<typeof lorebookEntrySchema>;

const lorebookSettingsSchema = z
  .object({
    scanDepth: z.number({ error: "scanDepth must be a number" }).int().min(0).max(1_000).optional(),
    tokenBudget: z.number({ error: "tokenBudget must be a number" }).int().min(1).max(1_000_000).optional(),
    recursive: z.boolean({ error: "recursive must be true or false" }).optional(),
    maxRecursionSteps: z.number({ error: "maxRecursionSteps must be a number" }).int().min(0).max(100).optional(),
    caseSensitive: z.boolean({ error: "caseSensitive must be true or false" }).optional(),
    matchWholeWords: z.boolean({ error: "matchWholeWords must be true or false" }).optional(),
    useGroupScoring: z.boolean({ error: "useGroupScoring must be true or false" }).optional(),
  }, { error: "settings must be an object" })
  .default({});

/** `POST /api/lorebooks` and `PUT /api/lorebooks/{id}` (the whole book). */
export const lorebookInputSchema = z
  .object({
    name: z.string({ error: "Give the lorebook a name" }).trim().min(1, "Give the lorebook a name").max(L.name, `A name can be at most ${L.name} characters`),
    description: z.string({ error: "description must be text" }).max(L.description, `A description can be at most ${L.description.toLocaleString("en-US")} characters`).default(""),
    entries: z.array(lorebookEntrySchema, { error: "entries must be a list" }).max(L.entries, `A lorebook can have at most ${L.entries.toLocaleString("en-US")} entries`),
    settings: lorebookSettingsSchema,
  })
  .superRefine((book, ctx) => {
    const seen = new Set<string>();
    book.entries.forEach((entry, index) => {
      if (entry.id === undefined) return;
      if (seen.has(entry.id)) ctx.addIssue({ code: "custom", path: ["entries", index, "id"], message: `Two entries have the id ${entry.id}` });
      seen.add(entry.id);
    });
    if (JSON.stringify(book).length > L.bookChars) ctx.addIssue({ code: "custom", path: ["entries"], message: "The lorebook is too large (at most 1,000,000 characters in all)" });
  });
export type LorebookInput = z.output<typeof lorebookInputSchema>;

/** `PUT /api/characters/{id}/lorebooks` `{lorebookIds}` (the creator's standalone books, in order). */
export const lorebookAttachSchema = z.object({ lorebookIds: lorebookIdsSchema });
