/**
 * What a stored message row of the room (migrations.ts MessageRow) means
 * beyond its columns: a branch's seed of it, the tokens of each version of a
 * reply (`usage`, a JSON list in written order) and the face each shows
 * (`version_expressions`), and its versions as
 * `replyVersions` (schema/chat-frames.ts) reads them.
 */
import type { ReplyUsage } from "../../schema/chat.ts";
import { replyVersions, type ReplyVersionFields } from "../../schema/chat-frames.ts";
import type { SeedMessage } from "../room-protocol.ts";
import type { MessageRow } from "./migrations.ts";

/** A stored message as a new room's SeedMessage (a branch). */
export function seedOf(row: MessageRow): SeedMessage {
  const seed: SeedMessage = { isUser: row.role === "user", content: row.content, createdAt: row.created_at, alternatives: JSON.parse(row.alternatives) as string[] };
  if (row.swipe_index !== null) seed.swipeIndex = row.swipe_index;
  if (row.character_id !== null) seed.characterId = row.character_id;
  if (row.author_name !== null) seed.authorName = row.author_name;
  if (row.hidden) seed.hidden = true;
  const usage = versionUsage(row);
  if (usage.some(Boolean)) seed.versionUsage = usage;
  const expressions = versionExpressions(row);
  if (expressions.some((label) => label !== null)) seed.versionExpressions = expressions;
  return seed;
}

/** `value` as ReplyUsage when it is one (two whole token counts ≥ 0), else null. */
function readUsage(value: unknown): ReplyUsage | null {
  const count = (n: unknown): n is number => typeof n === "number" && Number.isInteger(n) && n >= 0;
  const { promptTokens, completionTokens } = (value ?? {}) as Partial<ReplyUsage>;
  return count(promptTokens) && count(completionTokens) ? { promptTokens, completionTokens } : null;
}

/** A list of versions' tokens as stored or seeded (anything else: empty). */
export function readUsageList(value: unknown): (ReplyUsage | null)[] {
  return Array.isArray(value) ? value.map(readUsage) : [];
}

/** The `usage` column for a list of versions' tokens: null when none is known. */
export function usageColumn(list: readonly (ReplyUsage | null)[]): string | null {
  return list.some(Boolean) ? JSON.stringify(list) : null;
}

/** The tokens of two requests that wrote one reply (a continue); unknown when either is. */
export function addUsage(a: ReplyUsage | null, b: ReplyUsage | null): ReplyUsage | null {
  return a && b ? { promptTokens: a.promptTokens + b.promptTokens, completionTokens: a.completionTokens + b.completionTokens } : null;
}

/**
 * The tokens of every version of the reply `row`, in the versions' written
 * order (as `replyVersions` lists them; a reply being written counts as its
 * newest version), null where unknown; [] for the person's messages.
 */
export function versionUsage(row: MessageRow): (ReplyUsage | null)[] {
  if (row.role !== "character") return [];
  let stored: (ReplyUsage | null)[] = [];
  try {
    stored = readUsageList(row.usage === null ? null : JSON.parse(row.usage));
  } catch {
    // A column that is not JSON counts as unknown.
  }
  const count = (JSON.parse(row.alternatives) as string[]).length + 1;
  return Array.from({ length: count }, (_, i) => stored[i] ?? null);
}

/**
 * The expression of every version of the reply `row`, in the versions'
 * written order, null where unknown; [] for the person's messages. A reply
 * written before version 12 of the room's schema knows only its shown
 * version's (`expression`).
 */
export function versionExpressions(row: MessageRow): (string | null)[] {
  if (row.role !== "character") return [];
  let stored: unknown = null;
  try {
    stored = row.version_expressions === null ? null : JSON.parse(row.version_expressions);
  } catch {
    // A column that is not JSON counts as unknown.
  }
  const count = (JSON.parse(row.alternatives) as string[]).length + 1;
  const list = Array.from({ length: count }, (_, i) => readExpression(Array.isArray(stored) ? stored[i] : null));
  if (!Array.isArray(stored)) list[replyVersions(versionFields(row)).current] = row.expression;
  return list;
}

/** `value` when it is a label (a non-empty string), else null. */
function readExpression(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

/** A list of versions' expressions as seeded (anything else: empty). */
export function readExpressionList(value: unknown): (string | null)[] {
  return Array.isArray(value) ? value.map(readExpression) : [];
}

/** The `version_expressions` column for a list of versions' expressions: null when none is known. */
export function expressionsColumn(list: readonly (string | null)[]): string | null {
  return list.some((label) => label !== null) ? JSON.stringify(list) : null;
}

/** A stored reply's content, alternatives and swipe index, as `replyVersions` reads them. */
export function versionFields(row: MessageRow): ReplyVersionFields {
  const alternatives = JSON.parse(row.alternatives) as string[];
  return row.swipe_index === null ? { content: row.content, alternatives } : { content: row.content, alternatives, swipeIndex: row.swipe_index };
}
