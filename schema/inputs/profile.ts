/**
 * The input schemas of a person's own settings (SPEC.md §5 Edit Profile):
 * the profile, content settings and hidden tags (schema/inputs.ts
 * re-exports them).
 */
import { z } from "zod";
import { MAX_BIO_LENGTH, MAX_HIDDEN_TAGS } from "../constants.ts";
import { visibleName } from "../names.ts";
import { tagNameSchema } from "./characters.ts";
import { httpsUrlSchema, OBJECT_PATH } from "./fields.ts";

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
