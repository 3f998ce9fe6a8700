/**
 * Conversations on D1 and their rooms (DESIGN.md "Data"): D1's
 * `conversations` row holds owner, character, title, timestamps and the last
 * message's time and preview; the messages live in the conversation's
 * ConversationRoom, addressed by `idFromName(conversationId)`. Every
 * conversation answer embeds its character (`ConversationCharacter`), read by
 * a JOIN that ignores `is_active`: chats with a deactivated character keep
 * their name and avatar.
 */
import type { ChatModelName, Conversation, ConversationCharacter, ConversationSummary } from "../../schema/chat.ts";
import type { ConversationRoom } from "../../durable-objects/conversation-room.ts";
import { greetingFor } from "../../durable-objects/room-protocol.ts";
import { messagePreview } from "./chat-store.ts";
import type { SessionUser } from "./sessions.ts";

/** Conversation ids are random UUIDs (DESIGN.md "Data"); anything else names nothing. */
export function isConversationId(raw: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(raw);
}

/** The stub of a conversation's room. */
export function conversationRoom(env: Env, conversationId: string): DurableObjectStub<ConversationRoom> {
  const rooms = env.CONVERSATIONS as unknown as DurableObjectNamespace<ConversationRoom>;
  return rooms.get(rooms.idFromName(conversationId.toLowerCase()));
}

/** What `{{user}}` becomes: first name, else name, else the username without "@". */
export function promptName(user: Pick<SessionUser, "firstName" | "name" | "username">): string {
  return user.firstName?.trim() || user.name?.trim() || user.username.replace(/^@/, "") || "User";
}

interface ConversationRow {
  id: string;
  characterId: number;
  userId: string;
  title: string | null;
  createdAt: number;
  updatedAt: number;
  lastMessageAt: number | null;
  lastMessagePreview: string | null;
}

/** A conversation row joined with its character (`COLUMNS` from `FROM_JOINED`). */
interface JoinedRow extends ConversationRow {
  characterName: string;
  characterAvatarUrl: string | null;
  characterCreator: string;
}

const COLUMNS = `v.id, v.character_id AS characterId, v.user_id AS userId, v.title, v.created_at AS createdAt,
  v.updated_at AS updatedAt, v.last_message_at AS lastMessageAt, v.last_message_preview AS lastMessagePreview,
  c.name AS characterName, c.avatar_url AS characterAvatarUrl, c.creator AS characterCreator`;

/** No `is_active` filter on purpose (DESIGN.md "Inactive characters": chats already open keep working). */
const FROM_JOINED = "conversations v JOIN characters c ON c.id = v.character_id";

const iso = (ms: number) => new Date(ms).toISOString();

function toConversation(row: ConversationRow, character: ConversationCharacter, chatModel: ChatModelName): Conversation {
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
    character,
  };
}

function fromJoined(row: JoinedRow, chatModel: ChatModelName): Conversation {
  const character = { id: row.characterId, name: row.characterName, avatarUrl: row.characterAvatarUrl, creator: row.characterCreator };
  return toConversation(row, character, chatModel);
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

/** The id of the person's own conversation (normalised to lower case), or null. */
export async function ownConversationId(db: D1Database, id: string, userId: string): Promise<string | null> {
  if (!isConversationId(id)) return null;
  const row = await db
    .prepare("SELECT id FROM conversations WHERE id = ? AND user_id = ?")
    .bind(id.toLowerCase(), userId)
    .first<{ id: string }>();
  return row?.id ?? null;
}

/**
 * "My Chats": the person's conversations, latest activity first (a new
 * message moves `updated_at`), each with its character embedded and the
 * last message's preview.
 */
export async function listConversations(
  db: D1Database,
  userId: string,
  chatModel: ChatModelName,
  page: { limit: number; offset: number },
): Promise<ConversationSummary[]> {
  const { results } = await db
    .prepare(
      `SELECT ${COLUMNS} FROM ${FROM_JOINED}
       WHERE v.user_id = ? ORDER BY v.updated_at DESC, v.id DESC LIMIT ? OFFSET ?`,
    )
    .bind(userId, page.limit, page.offset)
    .all<JoinedRow>();
  return results.map((row) => fromJoined(row, chatModel));
}

/**
 * Starts a conversation with a character the person may see: the D1 row
 * (title "Chat with {name}" unless given), then the room, told its facts and
 * given the greeting (macros replaced) as the first message. If the room
 * cannot be set up, the row is removed again and the error thrown. The
 * answer embeds `input.character` (without its greeting).
 */
export async function createConversation(
  env: Env,
  input: { user: SessionUser; character: ConversationCharacter & { greeting: string | null }; title: string | null },
  chatModel: ChatModelName,
): Promise<Conversation> {
  const id = crypto.randomUUID();
  const now = Date.now();
  const userName = promptName(input.user);
  const greeting = greetingFor(input.character.greeting, input.character.name, userName);
  const title = input.title ?? `Chat with ${input.character.name}`;
  const preview = greeting ? messagePreview(greeting) : null;
  const row = await env.DB.prepare(
    `INSERT INTO conversations (id, character_id, user_id, title, last_message_at, last_message_preview, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     RETURNING id, character_id AS characterId, user_id AS userId, title, created_at AS createdAt, updated_at AS updatedAt,
       last_message_at AS lastMessageAt, last_message_preview AS lastMessagePreview`,
  )
    .bind(id, input.character.id, input.user.id, title, greeting ? now : null, preview, now, now)
    .first<ConversationRow>();
  try {
    await conversationRoom(env, id).initialize({
      conversationId: id,
      userId: input.user.id,
      characterId: input.character.id,
      userName,
      createdAt: now,
      greeting,
    });
  } catch (error) {
    await env.DB.prepare("DELETE FROM conversations WHERE id = ?").bind(id).run();
    throw error;
  }
  const { name, avatarUrl, creator } = input.character;
  return toConversation(row!, { id: input.character.id, name, avatarUrl, creator }, chatModel);
}
