/**
 * Pinned memories (DESIGN.md "Memory"; D1 `memories`, schema/db-chat.ts):
 * the memories a chat shows and sends in every prompt — its own (`chat`)
 * and its owner's with each member of its cast (`character`) — and their
 * writes: at most MAX_PINNED_MEMORIES in one chat (409), the text 1–1,000
 * characters and screened like every write (worker/lib/screening.ts). Who
 * may do what is the route's (worker/routes/memories.ts).
 */
import { MAX_PINNED_MEMORIES, MAX_PINNED_MEMORY_LENGTH, type MemoryScope, type PinnedMemory } from "../../schema/chat.ts";
import { ApiError, notFound } from "./errors.ts";

interface MemoryRow {
  id: string;
  text: string;
  scope: MemoryScope;
  messageId: string | null;
  characterId: number;
  createdAt: number;
}

/** The chat whose memories are read: its id, owner and cast. */
export interface MemoryChat {
  id: string;
  userId: string;
  characterIds: readonly number[];
}

const SELECT = "SELECT id, text, scope, message_id AS messageId, character_id AS characterId, created_at AS createdAt FROM memories";
/** The memories of chat ?1 (owner ?2, cast ?3 as a JSON list of ids). */
const OF_CHAT = "((scope = 'chat' AND conversation_id = ?1) OR (scope = 'character' AND user_id = ?2 AND character_id IN (SELECT value FROM json_each(?3))))";

const toMemory = (row: MemoryRow): PinnedMemory => ({
  id: row.id,
  text: row.text,
  scope: row.scope,
  messageId: row.messageId,
  characterId: Number(row.characterId),
  createdAt: new Date(row.createdAt).toISOString(),
});

const bind = (db: D1Database, sql: string, chat: MemoryChat, ...more: unknown[]) =>
  db.prepare(sql).bind(chat.id, chat.userId, JSON.stringify(chat.characterIds), ...more);

/** The chat's pinned memories, oldest first. */
export async function listMemories(db: D1Database, chat: MemoryChat): Promise<PinnedMemory[]> {
  const { results } = await bind(db, `${SELECT} WHERE ${OF_CHAT} ORDER BY created_at, id`, chat).all<MemoryRow>();
  return results.map(toMemory);
}

/** A message's text as a memory: whole when it fits, else cut at a word before MAX_PINNED_MEMORY_LENGTH with "…". */
export function memoryTextOf(content: string): string {
  const text = content.trim();
  if (text.length <= MAX_PINNED_MEMORY_LENGTH) return text;
  const cut = text.slice(0, MAX_PINNED_MEMORY_LENGTH - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > MAX_PINNED_MEMORY_LENGTH / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/**
 * Pins a memory in `chat` (its owner's). 409 when the chat already shows
 * MAX_PINNED_MEMORIES. The count and the insert are one statement, so two
 * pins at once cannot pass the limit together.
 */
export async function createMemory(
  db: D1Database,
  chat: MemoryChat,
  memory: { text: string; scope: MemoryScope; messageId: string | null; characterId: number },
): Promise<PinnedMemory> {
  const id = crypto.randomUUID();
  const now = Date.now();
  const row = await bind(
    db,
    `INSERT INTO memories (id, user_id, conversation_id, character_id, scope, text, message_id, created_at, updated_at)
     SELECT ?4, ?2, CASE WHEN ?5 = 'chat' THEN ?1 END, ?6, ?5, ?7, ?8, ?9, ?9
     WHERE (SELECT count(*) FROM memories WHERE ${OF_CHAT}) < ?10
     RETURNING id, text, scope, message_id AS messageId, character_id AS characterId, created_at AS createdAt`,
    chat,
    id,
    memory.scope,
    memory.characterId,
    memory.text,
    memory.messageId,
    now,
    MAX_PINNED_MEMORIES,
  ).first<MemoryRow>();
  if (!row) throw new ApiError("conflict", `A chat can keep at most ${MAX_PINNED_MEMORIES} pinned memories. Delete one first.`);
  return toMemory(row);
}

/** Memory `memoryId` of `chat`, or 404. */
async function memoryOf(db: D1Database, chat: MemoryChat, memoryId: string): Promise<MemoryRow> {
  const row = memoryId.length <= 100 ? await bind(db, `${SELECT} WHERE id = ?4 AND ${OF_CHAT}`, chat, memoryId).first<MemoryRow>() : null;
  if (!row) throw notFound("Memory not found");
  return row;
}

/** Changes the text of memory `memoryId` of `chat`; 404 when the chat has no such memory. */
export async function updateMemory(db: D1Database, chat: MemoryChat, memoryId: string, text: string): Promise<PinnedMemory> {
  const row = await memoryOf(db, chat, memoryId);
  await db.prepare("UPDATE memories SET text = ?, updated_at = ? WHERE id = ?").bind(text, Date.now(), row.id).run();
  return toMemory({ ...row, text });
}

/** Deletes memory `memoryId` of `chat`; 404 when the chat has no such memory. */
export async function deleteMemory(db: D1Database, chat: MemoryChat, memoryId: string): Promise<void> {
  const row = await memoryOf(db, chat, memoryId);
  await db.prepare("DELETE FROM memories WHERE id = ?").bind(row.id).run();
}
