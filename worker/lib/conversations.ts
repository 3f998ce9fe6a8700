/**
 * Conversations on D1 and their rooms (DESIGN.md "Data"): D1's
 * `conversations` row holds owner, character, title, timestamps and the last
 * message's time and preview; the messages live in the conversation's
 * ConversationRoom, addressed by `idFromName(conversationId)`.
 */
import type { ChatModelName, Conversation, ConversationSummary } from "../../schema/chat.ts";
import type { ConversationRoom } from "../../durable-objects/conversation-room.ts";
import { greetingFor } from "../../durable-objects/conversation-room.ts";
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

const COLUMNS = `v.id, v.character_id AS characterId, v.user_id AS userId, v.title, v.created_at AS createdAt,
  v.updated_at AS updatedAt, v.last_message_at AS lastMessageAt, v.last_message_preview AS lastMessagePreview`;

const iso = (ms: number) => new Date(ms).toISOString();

function toConversation(row: ConversationRow, chatModel: ChatModelName): Conversation {
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
  };
}

/** The person's own conversation by id, or null (unknown, malformed, or someone else's). */
export async function findOwnConversation(
  db: D1Database,
  id: string,
  userId: string,
  chatModel: ChatModelName,
): Promise<Conversation | null> {
  if (!isConversationId(id)) return null;
  const row = await db
    .prepare(`SELECT ${COLUMNS} FROM conversations v WHERE v.id = ? AND v.user_id = ?`)
    .bind(id.toLowerCase(), userId)
    .first<ConversationRow>();
  return row ? toConversation(row, chatModel) : null;
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
 * message moves `updated_at`), with the character's name and avatar and the
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
      `SELECT ${COLUMNS}, c.name AS characterName, c.avatar_url AS characterAvatarUrl
       FROM conversations v JOIN characters c ON c.id = v.character_id
       WHERE v.user_id = ? ORDER BY v.updated_at DESC, v.id DESC LIMIT ? OFFSET ?`,
    )
    .bind(userId, page.limit, page.offset)
    .all<ConversationRow & { characterName: string; characterAvatarUrl: string | null }>();
  return results.map((row) => ({
    ...toConversation(row, chatModel),
    character: { id: row.characterId, name: row.characterName, avatarUrl: row.characterAvatarUrl },
  }));
}

/** Length of `conversations.last_message_preview`, characters (as the room writes it). */
const PREVIEW_LENGTH = 140;

/**
 * Starts a conversation with a character the person may see: the D1 row
 * (title "Chat with {name}" unless given), then the room, told its facts and
 * given the greeting (macros replaced) as the first message. If the room
 * cannot be set up, the row is removed again and the error thrown.
 */
export async function createConversation(
  env: Env,
  input: { user: SessionUser; character: { id: number; name: string; greeting: string | null }; title: string | null },
  chatModel: ChatModelName,
): Promise<Conversation> {
  const id = crypto.randomUUID();
  const now = Date.now();
  const userName = promptName(input.user);
  const greeting = greetingFor(input.character.greeting, input.character.name, userName);
  const title = input.title ?? `Chat with ${input.character.name}`;
  const preview = greeting ? greeting.replace(/\s+/g, " ").slice(0, PREVIEW_LENGTH) : null;
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
  return toConversation(row!, chatModel);
}
