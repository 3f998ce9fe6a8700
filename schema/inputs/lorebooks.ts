/**
 * The input schemas of lorebooks (DESIGN.md turn 4 "Lorebooks"; limits:
 * schema/lorebook/book.ts LOREBOOK_LIMITS, docs/decisions/0034): an entry,
 * a whole book and the books attached to a character (schema/inputs.ts
 * re-exports them).
 */
import { z } from "zod";
import type { LorePosition, LoreRole, SelectiveLogic } from "../lorebook/activation.ts";
import { LORE_POSITIONS, LORE_ROLES, LOREBOOK_LIMITS, SELECTIVE_LOGICS } from "../lorebook/book.ts";
import { lorebookIdsSchema } from "../lorebook/ids.ts";

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
