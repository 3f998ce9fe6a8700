/** The `lorebookIds` of an attachment (a character's, a chat's): standalone books, in order, at most LOREBOOK_LIMITS.attached. */
import { z } from "zod";
import { LOREBOOK_LIMITS } from "./book.ts";

export const lorebookIdsSchema = z
  .array(z.string({ error: "A lorebook id must be text" }).min(1).max(64), { error: "lorebookIds must be a list of lorebook ids" })
  .max(LOREBOOK_LIMITS.attached, `At most ${LOREBOOK_LIMITS.attached} lorebooks can be attached`)
  .refine((ids) => new Set(ids).size === ids.length, "A lorebook is listed twice");
