/**
 * "My Chats" (`GET /api/conversations`): the person's conversations and the
 * shared rooms they joined, latest activity first (`updated_at`: its start, a
 * message, an edit or delete of one — not a rename), the time each row shows,
 * each with its character embedded and the last message's preview.
 *
 * Search (`q`, issue 41, docs/decisions/0041): a chat matches when its title,
 * a character's name or the last message's preview contains `q` (D1, SQLite
 * LIKE: case-insensitive for ASCII; `%` and `_` match themselves), or when
 * any message shown in it does (its room, case-insensitive in every script;
 * the row then carries `match`, the newest such message and the words
 * around it). Messages live only in each room's own SQLite, so the rooms of
 * the MESSAGE_SEARCH_CHATS most recently active chats are asked, at most
 * ROOM_SEARCH_CONCURRENCY at a time, in order, until the page is full; older
 * chats match by title, character and preview only.
 */
import type { ChatModelName, ConversationSummary } from "../../schema/chat.ts";
import type { ConversationSearchMatch } from "../../schema/chat-search.ts";
import { COLUMNS, FROM_JOINED, fromJoined, type JoinedRow } from "./conversation-rows.ts";
import { MODERATION_SQL, moderatedRoom, readModeration } from "./conversations.ts";

/** How many of the person's chats, most recently active first, have their messages searched. */
export const MESSAGE_SEARCH_CHATS = 300;
/** Rooms asked at once. */
export const ROOM_SEARCH_CONCURRENCY = 8;

/** SQL: conversation `v` is person `?1`'s own or a shared room they joined. */
const PERSONS_CHATS_SQL = "v.id IN (SELECT id FROM conversations WHERE user_id = ?1 UNION SELECT conversation_id FROM conversation_members WHERE user_id = ?1)";

interface ListQuery {
  limit: number;
  offset: number;
  q?: string;
  characterId?: number;
}

/** The page of My Chats `query` asks for (see the module's docstring). Room failures count as no match; nothing here throws but D1's errors. */
export async function listConversations(env: Env, userId: string, chatModel: ChatModelName, query: ListQuery): Promise<ConversationSummary[]> {
  if (!query.q) {
    const { results } = await env.DB.prepare(
      `SELECT ${COLUMNS} FROM ${FROM_JOINED}
       WHERE ${PERSONS_CHATS_SQL} AND (?2 IS NULL OR v.character_id = ?2)
       ORDER BY v.updated_at DESC, v.id DESC LIMIT ?3 OFFSET ?4`,
    )
      .bind(userId, query.characterId ?? null, query.limit, query.offset)
      .all<JoinedRow>();
    return results.map((row) => fromJoined(row, chatModel));
  }
  const matches = await matchingChats(env, userId, query.q, query.characterId ?? null, query.offset + query.limit);
  const page = matches.slice(query.offset, query.offset + query.limit);
  if (page.length === 0) return [];
  const { results } = await env.DB.prepare(`SELECT ${COLUMNS} FROM ${FROM_JOINED} WHERE v.id IN (SELECT value FROM json_each(?1))`)
    .bind(JSON.stringify(page.map((chat) => chat.id)))
    .all<JoinedRow>();
  const rows = new Map(results.map((row) => [row.id, row]));
  return page.flatMap(({ id, match }) => {
    const row = rows.get(id);
    if (!row) return []; // deleted meanwhile
    const summary: ConversationSummary = fromJoined(row, chatModel);
    if (match) summary.match = match;
    return [summary];
  });
}

interface Candidate {
  id: string;
  owns: number;
  named: number;
  hidden: string;
  removed: string;
}

/**
 * The person's chats matching `q`, in list order, until `want` are found:
 * each with the message that matched, or null when its title, character or
 * preview did (no room is asked for those).
 */
async function matchingChats(
  env: Env,
  userId: string,
  q: string,
  characterId: number | null,
  want: number,
): Promise<{ id: string; match: ConversationSearchMatch | null }[]> {
  const pattern = `%${q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
  const { results: candidates } = await env.DB.prepare(
    `SELECT v.id, v.user_id = ?1 AS owns, ${MODERATION_SQL},
       (v.title LIKE ?2 ESCAPE '\\' OR c.name LIKE ?2 ESCAPE '\\' OR v.last_message_preview LIKE ?2 ESCAPE '\\') AS named
     FROM conversations v JOIN characters c ON c.id = v.character_id
     WHERE ${PERSONS_CHATS_SQL} AND (?3 IS NULL OR v.character_id = ?3)
     ORDER BY v.updated_at DESC, v.id DESC`,
  )
    .bind(userId, pattern, characterId)
    .all<Candidate>();
  const found: { id: string; match: ConversationSearchMatch | null }[] = [];
  for (let start = 0; start < candidates.length && found.length < want; start += ROOM_SEARCH_CONCURRENCY) {
    const window = candidates.slice(start, start + ROOM_SEARCH_CONCURRENCY);
    const answers = await Promise.all(
      window.map(async (chat, i) => {
        if (chat.named) return { id: chat.id, match: null };
        if (start + i >= MESSAGE_SEARCH_CHATS) return null;
        const match = await searchRoom(env, chat, userId, q);
        return match ? { id: chat.id, match } : null;
      }),
    );
    for (const answer of answers) if (answer) found.push(answer);
  }
  return found;
}

/** The room's newest message containing `q`, with what an operator took out hidden first; null on no match or when the room fails. */
async function searchRoom(env: Env, chat: Candidate, userId: string, q: string): Promise<ConversationSearchMatch | null> {
  try {
    const room = await moderatedRoom(env, chat.id, readModeration(chat));
    return await room.searchMessages(userId, q, !chat.owns);
  } catch (error) {
    console.error("chat search: room failed", chat.id, error);
    return null;
  }
}
