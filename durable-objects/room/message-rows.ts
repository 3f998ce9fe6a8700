/**
 * What a stored message row of the room (migrations.ts MessageRow) means
 * beyond its columns: a branch's seed of it, the tokens of each version of a
 * reply (`usage`, a JSON list in written order), and its versions as
 * `replyVersions` (schema/chat-frames.ts) reads them.
 */
import type { ReplyUsage } from "../../schema/chat.ts";
import type { ReplyVersionFields } from "../../schema/chat-frames.ts";
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

/** A stored reply's content, alternatives and swipe index, as `replyVersions` reads them. */
export function versionFields(row: MessageRow): ReplyVersionFields {
  const alternatives = JSON.parse(row.alternatives) as string[];
  return row.swipe_index === null ? { content: row.content, alternatives } : { content: row.content, alternatives, swipeIndex: row.swipe_index };
}
