/**
 * Conversations on D1 and their rooms (DESIGN.md "Data"): D1's
 * `conversations` row holds owner, character, title, timestamps and the last
 * message's time and preview; the messages live in the conversation's
 * ConversationRoom, addressed by `idFromName(conversationId)`. Every
 * conversation answer embeds its character (`ConversationCharacter`), read by
 * a JOIN that ignores `is_active`: chats with a deactivated character keep
 * their name and avatar. A conversation may have been branched from
 * another ("Branch from here") or imported from a SillyTavern chat file:
 * either way its room starts with the messages it was given
 * (docs/decisions/0007-steering-a-chat.md).
 */
import { type ChatModelName, type Conversation, type ConversationCharacter, type ConversationSummary, conversationTitle } from "../../schema/chat.ts";
import type { ConversationRoom } from "../../durable-objects/conversation-room.ts";
import { greetingFor, type SeedMessage } from "../../durable-objects/room-protocol.ts";
import { messagePreview } from "../../durable-objects/room/d1-sync.ts";
import { creatorUsernameSql } from "./catalog-rows.ts";
import type { SessionUser } from "./sessions.ts";
import { notFound } from "./errors.ts";
import { visibleToSql } from "./listable.ts";

/** Conversation ids are random UUIDs (DESIGN.md "Data"); anything else names nothing. */
export function isConversationId(raw: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(raw);
}

/** The stub of a conversation's room. */
export function conversationRoom(env: Env, conversationId: string): DurableObjectStub<ConversationRoom> {
  const rooms = env.CONVERSATIONS as unknown as DurableObjectNamespace<ConversationRoom>;
  return rooms.get(rooms.idFromName(conversationId.toLowerCase()));
}

/**
 * The room of a conversation, first told which of its messages an operator
 * hid (`hidden_messages`; docs/decisions/0008-trust-and-safety.md), so that
 * nothing read from it shows them. `hiddenMessageIds` when the caller already
 * read them (findOwnConversationPersona); otherwise one D1 query. The RPC
 * happens only when there are some.
 */
export async function moderatedRoom(
  env: Env,
  conversationId: string,
  hiddenMessageIds?: string[],
): Promise<DurableObjectStub<ConversationRoom>> {
  const room = conversationRoom(env, conversationId);
  const ids =
    hiddenMessageIds ??
    (
      await env.DB.prepare("SELECT message_id AS id FROM hidden_messages WHERE conversation_id = ?")
        .bind(conversationId.toLowerCase())
        .all<{ id: string }>()
    ).results.map((row) => row.id);
  if (ids.length > 0) await room.hideMessages(ids);
  return room;
}

/** What `{{user}}` becomes: first name, else name, else the username without "@". */
export function promptName(user: Pick<SessionUser, "firstName" | "name" | "username">): string {
  return user.firstName?.trim() || user.name?.trim() || user.username.replace(/^@/, "") || "User";
}

/** A conversation row joined with its character and the conversation it was branched from (`COLUMNS` from `FROM_JOINED`). */
interface JoinedRow {
  id: string;
  characterId: number;
  userId: string;
  title: string | null;
  createdAt: number;
  updatedAt: number;
  lastMessageAt: number | null;
  lastMessagePreview: string | null;
  personaId: string | null;
  branchedFromId: string | null;
  branchedFromTitle: string | null;
  characterName: string;
  characterAvatarUrl: string | null;
  characterCreator: string;
  characterCreatorUsername: string | null;
}

const COLUMNS = `v.id, v.character_id AS characterId, v.user_id AS userId, v.title, v.created_at AS createdAt,
  v.updated_at AS updatedAt, v.last_message_at AS lastMessageAt, v.last_message_preview AS lastMessagePreview,
  v.persona_id AS personaId, v.branched_from_id AS branchedFromId, b.title AS branchedFromTitle,
  c.name AS characterName, c.avatar_url AS characterAvatarUrl, c.creator AS characterCreator,
  ${creatorUsernameSql("c.creator_id")} AS characterCreatorUsername`;

/** No `is_active` filter on purpose (DESIGN.md "Inactive characters": chats already open keep working). */
const FROM_JOINED = `conversations v JOIN characters c ON c.id = v.character_id
  LEFT JOIN conversations b ON b.id = v.branched_from_id`;

const iso = (ms: number) => new Date(ms).toISOString();

function fromJoined(row: JoinedRow, chatModel: ChatModelName): Conversation {
  return {
    id: row.id,
    characterId: row.characterId,
    userId: row.userId,
    title: row.title,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
    lastMessageAt: row.lastMessageAt === null ? null : iso(row.lastMessageAt),
    lastMessagePreview: row.lastMessagePreview,
    chatModel,
    character: {
      id: row.characterId,
      name: row.characterName,
      avatarUrl: row.characterAvatarUrl,
      creator: row.characterCreator,
      creatorUsername: row.characterCreatorUsername ?? null,
    },
    personaId: row.personaId,
    branchedFrom: row.branchedFromId === null ? null : { id: row.branchedFromId, title: row.branchedFromTitle },
  };
}

/**
 * The person's own conversation by id with its character embedded (active or
 * not), or null (unknown, malformed, or someone else's). One D1 query.
 */
export async function findOwnConversation(
  db: D1Database,
  id: string,
  userId: string,
  chatModel: ChatModelName,
): Promise<Conversation | null> {
  if (!isConversationId(id)) return null;
  const row = await db
    .prepare(`SELECT ${COLUMNS} FROM ${FROM_JOINED} WHERE v.id = ? AND v.user_id = ?`)
    .bind(id.toLowerCase(), userId)
    .first<JoinedRow>();
  return row ? fromJoined(row, chatModel) : null;
}

/** Who the person is in a conversation: its persona, else their default persona; null for neither. */
export interface ConversationPersona {
  name: string;
  description: string;
}

/**
 * The person's own conversation (id normalised to lower case) with the
 * persona they play in it — the one picked for it, else their default — and
 * the ids of its messages an operator hid (for moderatedRoom), or null
 * (unknown, malformed, or someone else's). One D1 query.
 */
export async function findOwnConversationPersona(
  db: D1Database,
  id: string,
  userId: string,
): Promise<{ id: string; persona: ConversationPersona | null; hiddenMessageIds: string[] } | null> {
  if (!isConversationId(id)) return null;
  const row = await db
    .prepare(
      `SELECT v.id, p.name AS personaName, p.description AS personaDescription,
         (SELECT json_group_array(h.message_id) FROM hidden_messages h WHERE h.conversation_id = v.id) AS hidden
       FROM conversations v
       LEFT JOIN personas p ON p.user_id = v.user_id
         AND p.id = coalesce(v.persona_id, (SELECT d.id FROM personas d WHERE d.user_id = v.user_id AND d.is_default = 1))
       WHERE v.id = ? AND v.user_id = ?`,
    )
    .bind(id.toLowerCase(), userId)
    .first<{ id: string; personaName: string | null; personaDescription: string | null; hidden: string }>();
  if (!row) return null;
  const persona = row.personaName === null ? null : { name: row.personaName, description: row.personaDescription ?? "" };
  return { id: row.id, persona, hiddenMessageIds: JSON.parse(row.hidden) as string[] };
}

/** What the room is told of the person (RoomVisitor): the persona's name for `{{user}}`, else promptName; its description, else "". */
export function roomPerson(user: SessionUser, persona: ConversationPersona | null): { userName: string; personaDescription: string } {
  return { userName: persona?.name.trim() || promptName(user), personaDescription: persona?.description ?? "" };
}

/**
 * "My Chats": the person's conversations, latest activity first — the last
 * message's time, else the creation time (`lastMessageAt ?? createdAt`, the
 * time each row shows) — each with its character embedded and the last
 * message's preview. `q` keeps those whose title or character name contains
 * it (case-insensitive for ASCII, SQLite LIKE; `%` and `_` match
 * themselves); `characterId` those with that character.
 */
export async function listConversations(
  db: D1Database,
  userId: string,
  chatModel: ChatModelName,
  query: { limit: number; offset: number; q?: string; characterId?: number },
): Promise<ConversationSummary[]> {
  const where = ["v.user_id = ?"];
  const binds: (string | number)[] = [userId];
  if (query.q) {
    const pattern = `%${query.q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
    where.push("(v.title LIKE ? ESCAPE '\\' OR c.name LIKE ? ESCAPE '\\')");
    binds.push(pattern, pattern);
  }
  if (query.characterId !== undefined) {
    where.push("v.character_id = ?");
    binds.push(query.characterId);
  }
  const { results } = await db
    .prepare(
      `SELECT ${COLUMNS} FROM ${FROM_JOINED}
       WHERE ${where.join(" AND ")}
       ORDER BY coalesce(v.last_message_at, v.created_at) DESC, v.id DESC LIMIT ? OFFSET ?`,
    )
    .bind(...binds, query.limit, query.offset)
    .all<JoinedRow>();
  return results.map((row) => fromJoined(row, chatModel));
}

/** A character a conversation starts with: what the answer embeds, and its greeting. */
export type StartingCharacter = ConversationCharacter & { greeting: string | null };

/**
 * The character `userId` may start a chat with — visible to them
 * (worker/lib/listable.ts: listed, or inactive and their own) — with what
 * the conversation needs: its greeting and what the answer embeds. Throws
 * 404 "Character not found" otherwise. One D1 query.
 */
export async function chatCharacter(db: D1Database, characterId: number, userId: string): Promise<StartingCharacter> {
  const character = await db
    .prepare(
      `SELECT c.id, c.name, c.avatar_url AS avatarUrl, c.creator, c.greeting,
         ${creatorUsernameSql("c.creator_id")} AS creatorUsername
       FROM characters c WHERE c.id = ? AND ${visibleToSql("c", "?")}`,
    )
    .bind(characterId, userId)
    .first<StartingCharacter>();
  if (!character) throw notFound("Character not found");
  return character;
}

/** How a new conversation starts: with the character's greeting, or with given messages (a branch, an import). */
export type ConversationStart =
  | { kind: "greeting" }
  | { kind: "messages"; messages: SeedMessage[]; memory?: string; branchedFrom?: { id: string; title: string | null } };

/**
 * Starts a conversation with a character the person may see: the D1 row
 * (title conversationTitle, "Chat with {name}", unless given; the person's default persona
 * speaks for them), then the room, told its facts and given its first
 * messages — the greeting (macros replaced with the persona's name, else
 * the first name), or the messages of a branch or an import. D1's
 * `last_message_at`/preview are the last of those; `message_count` is not
 * raised by copied or imported messages (they were not exchanged here). If
 * the room cannot be set up, the row is removed again and the error thrown.
 */
export async function createConversation(
  env: Env,
  input: { user: SessionUser; character: StartingCharacter; title: string | null; start?: ConversationStart },
  chatModel: ChatModelName,
): Promise<Conversation> {
  const id = crypto.randomUUID();
  const now = Date.now();
  const persona = await env.DB.prepare("SELECT name, description FROM personas WHERE user_id = ? AND is_default = 1")
    .bind(input.user.id)
    .first<ConversationPersona>();
  const { userName } = roomPerson(input.user, persona);
  const start = input.start ?? { kind: "greeting" };
  const greeting = start.kind === "greeting" ? greetingFor(input.character.greeting, input.character.name, userName) : null;
  const last = start.kind === "messages" ? start.messages.at(-1) : greeting ? { content: greeting, createdAt: now } : undefined;
  const title = input.title ?? conversationTitle(input.character.name);
  await env.DB.prepare(
    `INSERT INTO conversations (id, character_id, user_id, title, branched_from_id, last_message_at, last_message_preview, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
    .bind(
      id,
      input.character.id,
      input.user.id,
      title,
      start.kind === "messages" ? (start.branchedFrom?.id ?? null) : null,
      last ? last.createdAt : null,
      last ? messagePreview(last.content) : null,
      now,
      now,
    )
    .run();
  try {
    await conversationRoom(env, id).initialize({
      conversationId: id,
      userId: input.user.id,
      characterId: input.character.id,
      userName,
      createdAt: now,
      greeting,
      ...(start.kind === "messages" ? { messages: start.messages, memory: start.memory ?? "" } : {}),
    });
  } catch (error) {
    await env.DB.prepare("DELETE FROM conversations WHERE id = ?").bind(id).run();
    throw error;
  }
  const { name, avatarUrl, creator, creatorUsername } = input.character;
  return fromJoined(
    {
      id,
      characterId: input.character.id,
      userId: input.user.id,
      title,
      createdAt: now,
      updatedAt: now,
      lastMessageAt: last ? last.createdAt : null,
      lastMessagePreview: last ? messagePreview(last.content) : null,
      personaId: null,
      branchedFromId: start.kind === "messages" ? (start.branchedFrom?.id ?? null) : null,
      branchedFromTitle: start.kind === "messages" ? (start.branchedFrom?.title ?? null) : null,
      characterName: name,
      characterAvatarUrl: avatarUrl,
      characterCreator: creator,
      characterCreatorUsername: creatorUsername,
    },
    chatModel,
  );
}

/**
 * The persona the person plays in their conversation `id`: `personaId`
 * (one of their own personas) or null for their default. Returns the
 * persona now in effect (picked, else default, else none). Throws 404
 * "Persona not found" for a persona that is not theirs; the caller checked
 * the conversation.
 */
export async function setConversationPersona(
  db: D1Database,
  id: string,
  userId: string,
  personaId: string | null,
): Promise<ConversationPersona | null> {
  if (personaId !== null) {
    const own = await db.prepare("SELECT 1 FROM personas WHERE id = ? AND user_id = ?").bind(personaId.toLowerCase(), userId).first();
    if (!own) throw notFound("Persona not found");
  }
  await db
    .prepare("UPDATE conversations SET persona_id = ? WHERE id = ? AND user_id = ?")
    .bind(personaId?.toLowerCase() ?? null, id, userId)
    .run();
  return (await findOwnConversationPersona(db, id, userId))?.persona ?? null;
}

/**
 * Renames the person's own conversation (`title` already checked: 1–200
 * visible characters); `updated_at` moves to now. False when it is not
 * theirs (or unknown). My Chats is ordered by the last message, so a rename
 * does not move it.
 */
export async function renameConversation(db: D1Database, id: string, userId: string, title: string): Promise<boolean> {
  const result = await db
    .prepare("UPDATE conversations SET title = ?, updated_at = ? WHERE id = ? AND user_id = ?")
    .bind(title, Date.now(), id.toLowerCase(), userId)
    .run();
  return result.meta.changes > 0;
}

/**
 * Deletes the person's own conversation from D1 (its `hidden_messages` go by
 * cascade; conversations branched from it keep going, `branched_from_id`
 * set to null). False when it is not theirs (or unknown). The caller wipes
 * the room's storage afterwards (deleteConversationStorage): once the row is
 * gone, nobody can reach the room again.
 */
export async function deleteOwnConversation(db: D1Database, id: string, userId: string): Promise<boolean> {
  const result = await db.prepare("DELETE FROM conversations WHERE id = ? AND user_id = ?").bind(id.toLowerCase(), userId).run();
  return result.meta.changes > 0;
}
