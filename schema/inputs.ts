/**
 * zod input schemas with the rules and messages of SPEC.md §5, shared by the
 * web forms and the Worker so both say exactly the same thing.
 */
import { z } from "zod";
import { CATALOG_SORTS } from "./api.ts";

/** Character page size and the Load More step (SPEC.md §9). */
export const CATALOG_PAGE_SIZE = 20;
/** Deepest offset a list may ask for; beyond it, filters and search reach further. */
export const CATALOG_MAX_OFFSET = 10_000;
/** Most tags a list filter or a character may carry. */
export const MAX_TAGS = 10;
/** Longest search text accepted, in characters. */
export const MAX_SEARCH_LENGTH = 200;

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
 * Query of `GET /api/characters` (SPEC.md §7). `tags` is comma-joined tag
 * names (a character must carry all of them); NSFW characters are listed only
 * with `showNsfw=true` (`nsfw=false` is what the client sends beside
 * `showNsfw=false` and changes nothing).
 */
export const catalogQuerySchema = z.object({
  tags: z
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
      if (names.length > MAX_TAGS) {
        ctx.addIssue({ code: "custom", message: `Filter by at most ${MAX_TAGS} tags` });
        return z.NEVER;
      }
      return names;
    }),
  search: z
    .string()
    .max(MAX_SEARCH_LENGTH, `Search text must be at most ${MAX_SEARCH_LENGTH} characters`)
    .optional()
    .transform((value) => value?.trim() || undefined),
  showNsfw: boolParam("showNsfw"),
  nsfw: boolParam("nsfw"),
  limit: intParam("limit", 1, 100, CATALOG_PAGE_SIZE),
  offset: intParam("offset", 0, CATALOG_MAX_OFFSET, 0),
  sort: z
    .enum(CATALOG_SORTS, { error: `sort must be one of ${CATALOG_SORTS.join(", ")}` })
    .optional()
    .default("for-you"),
});
export type CatalogQuery = z.output<typeof catalogQuerySchema>;

/** Tag names: lower case, 2–24 characters of letters, digits, spaces or dashes. */
export const tagNameSchema = z
  .string()
  .trim()
  .toLowerCase()
  .min(2, "Tags must be at least 2 characters")
  .max(24, "Tags must be at most 24 characters")
  .regex(/^[\p{L}\p{N}][\p{L}\p{N} '&+-]*$/u, "Tags may contain only letters, numbers, spaces and dashes");

const optionalText = (max: number, message: string) =>
  z
    .string()
    .max(max, message)
    .nullish()
    .transform((v) => (v == null || v.trim() === "" ? null : v));

/** Create Character form and `POST /api/characters` (SPEC.md §5). */
export const characterInputSchema = z.object({
  name: z.string().trim().min(1, "Character name is required").max(100, "Name is too long"),
  description: z
    .string()
    .trim()
    .min(10, "Description must be at least 10 characters")
    .max(300, "Description is too long"),
  longDescription: optionalText(5000, "Long description is too long"),
  personality: z
    .string()
    .trim()
    .min(10, "Personality must be at least 10 characters")
    .max(10000, "Personality is too long"),
  scenario: optionalText(5000, "Scenario is too long"),
  exampleConversation: optionalText(10000, "Example conversation is too long"),
  avatarUrl: z
    .union([z.url("Must be a valid URL"), z.string().regex(/^\/objects\/[\w/.-]+$/, "Must be a valid URL"), z.literal("")])
    .nullish()
    .transform((v) => v || null),
  tags: z.array(tagNameSchema).max(MAX_TAGS, `At most ${MAX_TAGS} tags`).default([]),
  isNsfw: z.boolean().default(false),
  greeting: optionalText(10000, "Greeting is too long"),
  alternateGreetings: z.array(z.string().max(10000, "Greeting is too long")).max(20).default([]),
  systemPrompt: optionalText(10000, "System prompt is too long"),
  postHistoryInstructions: optionalText(5000, "Post-history instructions are too long"),
  creatorNotes: optionalText(10000, "Creator notes are too long"),
  characterBook: z.record(z.string(), z.unknown()).nullish(),
});
export type CharacterInput = z.output<typeof characterInputSchema>;

/** `PUT /api/characters/:id`: every field optional, `creator` allowed (SPEC.md §3). */
export const characterUpdateSchema = characterInputSchema.partial().extend({
  creator: z.string().trim().min(1).max(100).optional(),
});

/** Edit Profile form and `PUT /api/profile` (SPEC.md §5). */
export const profileInputSchema = z.object({
  name: z.string().trim().min(1, "Name is required").max(100, "Name is too long"),
  username: z
    .string()
    .min(2, "Username must be at least 2 characters")
    .max(30, "Username is too long")
    .regex(/^@[A-Za-z0-9_]+$/, "Username must start with @ and contain only letters, numbers, and underscores"),
  profileImageUrl: z
    .union([z.url("Must be a valid URL"), z.literal("")])
    .nullish()
    .transform((v) => v || null),
});
export type ProfileInput = z.output<typeof profileInputSchema>;

/** Longest comment or reply, in characters. */
export const MAX_COMMENT_LENGTH = 5000;

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
