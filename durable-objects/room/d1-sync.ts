/**
 * What D1 learns from the room, and what the room reads from D1: the
 * ConversationRoom's only door to D1 (docs/decisions/0006-data-access.md,
 * 0012-room-modules-and-ai.md). The room keeps its messages in its own
 * SQLite; D1 only learns of them through these functions:
 *
 * - the character's card for a reply (`readReplyCharacter`);
 * - the model connection that answers (`readReplyConnection`), read in the
 *   same round trip as the suspension check of the frame that may start the
 *   reply (`D1Sync.readSuspended`, CONNECTION_PREFETCH_MS);
 * - each exchange's activity: the conversation's last message time and
 *   preview, the character's `message_count` and, for the person's messages,
 *   its trending score (`recordChatActivity`); after an edit or a delete,
 *   the conversation's last message as it now is (`setLastMessage`);
 * - a thumbs up/down on a reply (`addReplyRating`);
 * - what screening refused, flagged or replaced (`logScreening`; the Worker's
 *   character screening writes through it too).
 *
 * Each takes the `D1Database` and is tested directly (worker/test/chat-store.test.ts).
 * The Worker imports some of them too (`messagePreview` for imports,
 * `logScreening` for character screening): worker → durable-objects is the
 * allowed direction.
 *
 * `D1Sync` is the room's side: it notes stored messages and writes them to
 * D1 once per exchange (`writeCounters`, one batch), and puts the
 * conversation's last message right after an edit or a delete
 * (`writeLastMessage`). Its writes are logged on failure, never thrown (the
 * messages are already stored in the room).
 */
import type { Character } from "../../schema/api.ts";
import type { MessageRow, RoomStore } from "./store.ts";
import { isSuspendedRow, readSuspended, suspendedStatement } from "./suspension.ts";

/**
 * How long a model connection read beside a suspension check answers the
 * reply that starts after it, ms: the reply to a message uses the owner's
 * model as it was when the message arrived (a change made later reaches the
 * next reply).
 */
export const CONNECTION_PREFETCH_MS = 1_000;

/** Length of `conversations.last_message_preview`, characters. */
export const PREVIEW_LENGTH = 140;

/** A message's text as the chat list previews it: white space folded, trimmed, PREVIEW_LENGTH characters at most. */
export function messagePreview(content: string): string {
  return content.replace(/\s+/g, " ").trim().slice(0, PREVIEW_LENGTH);
}

/**
 * The character's card as a reply needs it: the prompt's fields
 * (durable-objects/prompt.ts `PromptCharacter`) and the offline model's
 * (`OfflineCharacter`). Creator notes are deliberately absent: they never
 * enter a prompt. `characterBook` is null when the stored book is not a JSON
 * object.
 */
export type ReplyCharacter = Pick<
  Character,
  | "name"
  | "description"
  | "longDescription"
  | "personality"
  | "scenario"
  | "exampleConversation"
  | "greeting"
  | "systemPrompt"
  | "postHistoryInstructions"
  | "characterBook"
  | "isNsfw"
> & {
  /** False once the character was deactivated (a group chat's member then no longer speaks); absent in cards kept before. */
  isActive?: boolean;
  /**
   * "Appearance for pictures" (DESIGN.md "Pictures"): how the character
   * looks, kept in the card's `extensions.fabled.appearance`; absent when
   * the creator wrote none (and in cards kept before).
   */
  appearance?: string;
  /** Its expression labels (`emotion` assets' names, DESIGN.md "Character assets"); absent in cards kept before. */
  expressions?: string[];
};

/**
 * The card of character `characterId`, active or not (chats already open keep
 * working); null when it no longer exists or was removed by moderation.
 */
export async function readReplyCharacter(db: D1Database, characterId: number): Promise<ReplyCharacter | null> {
  const row = await db
    .prepare(
      `SELECT name, description, long_description AS longDescription, personality, scenario,
         example_conversation AS exampleConversation, greeting, system_prompt AS systemPrompt,
         post_history_instructions AS postHistoryInstructions, character_book AS characterBook, is_nsfw AS isNsfw,
         is_active AS isActive,
         CASE WHEN json_valid(extensions) THEN json_extract(extensions, '$.fabled.appearance') END AS appearance,
         (SELECT json_group_array(a.name ORDER BY a.position, a.name) FROM character_assets a WHERE a.character_id = characters.id AND a.type = 'emotion') AS expressions
       FROM characters WHERE id = ? AND moderation_status != 'removed'`,
    )
    .bind(characterId)
    .first<
      Omit<ReplyCharacter, "characterBook" | "isNsfw" | "isActive" | "appearance" | "expressions"> & {
        characterBook: string | null;
        isNsfw: number;
        isActive: number;
        appearance: unknown;
        expressions: string | null;
      }
    >();
  if (!row) return null;
  const { appearance, expressions, ...card } = row;
  return {
    ...card,
    characterBook: parseBook(row.characterBook),
    isNsfw: Boolean(row.isNsfw),
    isActive: Boolean(row.isActive),
    ...(typeof appearance === "string" && appearance.trim() ? { appearance: appearance.trim() } : {}),
    expressions: JSON.parse(expressions ?? "[]") as string[],
  };
}

function parseBook(text: string | null): Record<string, unknown> | null {
  if (!text) return null;
  try {
    const book = JSON.parse(text) as unknown;
    return typeof book === "object" && book !== null && !Array.isArray(book) ? (book as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * The model connection a reply of conversation `conversationId` uses, as
 * stored (DESIGN.md "Your own model (turn 3)"): the one picked for the
 * conversation, else the owner's default. `sealed` is the encrypted key
 * (ai/model-keys.ts), `settings` JSON text.
 */
export interface ReplyConnectionRow {
  id: string;
  kind: "openai" | "site";
  baseUrl: string | null;
  model: string;
  /** The endpoint's embedding model for memory; null: the site's embedder. */
  embeddingModel: string | null;
  sealed: string | null;
  settings: string;
  /** The endpoint's image model (DESIGN.md "Pictures"); null or absent: the site's generator paints. */
  imageModel?: string | null;
}

/**
 * The connection that answers in `conversationId` for its owner `userId`
 * (readReplyConnection's rule); null when neither is set (the site's model
 * answers). Throws what D1 throws.
 */
export async function readReplyConnection(db: D1Database, conversationId: string, userId: string): Promise<ReplyConnectionRow | null> {
  return replyConnectionStatement(db, conversationId, userId).first<ReplyConnectionRow>();
}

/** The statement `readReplyConnection` runs, to batch with others. */
function replyConnectionStatement(db: D1Database, conversationId: string, userId: string): D1PreparedStatement {
  return db
    .prepare(
      `SELECT id, kind, base_url AS baseUrl, model, embedding_model AS embeddingModel, api_key_encrypted AS sealed, settings, image_model AS imageModel FROM model_connections
       WHERE user_id = ?2 AND id = coalesce(
         (SELECT model_connection_id FROM conversations WHERE id = ?1 AND user_id = ?2),
         (SELECT id FROM model_connections WHERE user_id = ?2 AND is_default = 1))`,
    )
    .bind(conversationId, userId);
}

/** Stored messages of one conversation that D1 has not counted yet. */
export interface ChatActivity {
  conversationId: string;
  /** The conversation's first member: the person's messages count for it (and its trending score). */
  characterId: number;
  /** Messages stored (the person's and the character's); 0 when only the preview changed (a swipe). */
  messages: number;
  /** In a group chat, replies of other members among `messages`, by speaker (each counts for its own character). */
  bySpeaker?: Record<number, number>;
  /** Of those, the person's: each is engagement for the trending score. */
  userMessages: number;
  /** The latest message's time, ms since the epoch. */
  lastAt: number;
  /** The latest message's preview (`messagePreview`). */
  preview: string;
}

/**
 * Writes a conversation's activity in one batch (one transaction): the
 * conversation's `last_message_at`, `last_message_preview` and `updated_at`
 * (never moved back by an older write), the character's `message_count` and,
 * when the person wrote, one trending event of weight `userMessages`
 * (migrations/0005: S' = max(S, x) + log2(1 + 2^−|S − x|), x = log2(weight) +
 * now / 3 days in ms). With nothing counted only the conversation's row is
 * written. Throws what D1 throws.
 */
export async function recordChatActivity(db: D1Database, activity: ChatActivity): Promise<void> {
  const conversation = db
    .prepare(
      `UPDATE conversations SET
         last_message_preview = CASE WHEN ?1 >= coalesce(last_message_at, 0) THEN ?2 ELSE last_message_preview END,
         last_message_at = max(coalesce(last_message_at, 0), ?1),
         updated_at = max(updated_at, ?1)
       WHERE id = ?3`,
    )
    .bind(activity.lastAt, activity.preview, activity.conversationId);
  if (activity.messages <= 0) {
    await conversation.run();
    return;
  }
  const others = Object.entries(activity.bySpeaker ?? {})
    .map(([id, count]) => [Number(id), count] as const)
    .filter(([id, count]) => id !== activity.characterId && count > 0);
  const ownCount = activity.messages - others.reduce((sum, [, count]) => sum + count, 0);
  const statements = [
    conversation,
    ...[[activity.characterId, ownCount] as const, ...others]
      .filter(([, count]) => count > 0)
      .map(([id, count]) => db.prepare("UPDATE characters SET message_count = message_count + ? WHERE id = ?").bind(count, id)),
  ];
  if (activity.userMessages > 0) {
    statements.push(
      db
        .prepare("INSERT INTO trending_events (character_id, log2_weight) VALUES (?, ?)")
        .bind(activity.characterId, Math.log2(activity.userMessages)),
    );
  }
  await db.batch(statements);
}

/**
 * Sets the conversation's last message exactly — time (ms) and preview, or
 * none — after messages were edited or deleted, even when that moves it back
 * in time; `updated_at` moves to now (it orders "My Chats" by activity).
 * Throws what D1 throws.
 */
export async function setLastMessage(db: D1Database, conversationId: string, last: { at: number; preview: string } | null): Promise<void> {
  await db
    .prepare(
      `UPDATE conversations SET last_message_at = ?1, last_message_preview = ?2,
         updated_at = max(updated_at, CAST(unixepoch('subsec') * 1000 AS INTEGER))
       WHERE id = ?3`,
    )
    .bind(last?.at ?? null, last?.preview ?? null, conversationId)
    .run();
}

/**
 * Moves a character's reply ratings by `up` and `down` (each −1, 0 or 1: a
 * thumb given, taken back or switched) and recomputes `rating` =
 * round(100 × (up + 8) / (up + down + 10)), DESIGN.md "Rating" (a Bayesian
 * average with a prior of 80 %), in one statement. Throws what D1 throws.
 */
export async function addReplyRating(db: D1Database, characterId: number, change: { up: number; down: number }): Promise<void> {
  await db
    .prepare(
      `UPDATE characters SET rating_up = rating_up + ?1, rating_down = rating_down + ?2,
         rating = CAST(round(100.0 * (rating_up + ?1 + 8) / (rating_up + ?1 + rating_down + ?2 + 10)) AS INTEGER)
       WHERE id = ?3`,
    )
    .bind(change.up, change.down, characterId)
    .run();
}

/** One screening outcome for the operator (`moderation_log`, migrations/0007_moderation.sql). */
export interface ScreeningEntry {
  /**
   * What was screened: a character, a person's chat `message` (sent or
   * edited), a generated `reply`, the room's `memory` note or running
   * `summary` (as the owner rewrote it), a `comment`, a
   * `persona`, the `profile`, a `conversation` (its title, or an imported chat),
   * an `image`'s prompt (DESIGN.md "Pictures": the person's, the one the chat
   * model wrote, or one the image engine itself refused), a `lorebook` (its
   * name, description and entries).
   */
  subjectType: "character" | "message" | "reply" | "memory" | "summary" | "comment" | "persona" | "profile" | "conversation" | "image" | "lorebook";
  /** Character id or message id; null when nothing was stored. */
  subjectId: string | null;
  userId: string | null;
  characterId: number | null;
  conversationId: string | null;
  /** `refused` (S4, not kept), `flagged`, `replaced` (a reply swapped for the refusal line), `error` (provider failed). */
  outcome: "refused" | "flagged" | "replaced" | "error";
  /** Llama Guard 3 codes, e.g. ["S4"]. */
  categories: readonly string[];
  /** The moderator's name (`workers-ai`, `openai`, `offline`). */
  provider: string;
  /** The screened text; cut to MAX_LOGGED_CONTENT characters. */
  content: string;
}

/** Longest text kept in one `moderation_log` row, characters. */
export const MAX_LOGGED_CONTENT = 20_000;

/** Writes one screening outcome to `moderation_log`. */
export async function logScreening(db: D1Database, entry: ScreeningEntry): Promise<void> {
  await db
    .prepare(
      `INSERT INTO moderation_log (subject_type, subject_id, user_id, character_id, conversation_id, outcome, categories, provider, content)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(
      entry.subjectType,
      entry.subjectId,
      entry.userId,
      entry.characterId,
      entry.conversationId,
      entry.outcome,
      JSON.stringify(entry.categories),
      entry.provider,
      entry.content.slice(0, MAX_LOGGED_CONTENT),
    )
    .run();
}

/** Stored messages not yet written to D1 (writeCounters): how many, and the latest one's time (ms) and preview. */
type PendingCounters = Omit<ChatActivity, "conversationId" | "characterId" | "bySpeaker"> & { bySpeaker: Record<number, number> };

/** The room's writes to D1: counters and the last message. */
export class D1Sync {
  /** Stored messages not yet counted in D1 (written once per exchange, see countMessage). */
  private uncounted: PendingCounters | null = null;
  /** The model connection read beside the last suspension check, and when (ms since the epoch); null once a reply used it. */
  private prefetched: { row: ReplyConnectionRow | null; at: number } | null = null;
  private readonly db: D1Database;
  private readonly store: RoomStore;

  constructor(db: D1Database, store: RoomStore) {
    this.db = db;
    this.store = store;
  }

  /** Notes a stored message for the D1 counters (written by writeCounters). */
  countMessage(row: MessageRow): void {
    const pending = this.notePreview(row);
    pending.messages += 1;
    if (row.role === "user") pending.userMessages += 1;
    else if (row.character_id !== null) pending.bySpeaker[row.character_id] = (pending.bySpeaker[row.character_id] ?? 0) + 1;
  }

  /** Notes a message's text for the conversation's preview in D1 (when it is the latest), counting nothing. */
  notePreview(row: MessageRow): PendingCounters {
    const pending = (this.uncounted ??= { messages: 0, userMessages: 0, lastAt: 0, preview: "", bySpeaker: {} });
    if (row.created_at >= pending.lastAt) {
      pending.lastAt = row.created_at;
      pending.preview = messagePreview(row.content);
    }
    return pending;
  }

  /**
   * Writes the counted messages to D1 (`recordChatActivity`: one batch). One
   * write per exchange (message and reply) rather than per message: D1 has
   * one writer for every conversation of the app. With nothing counted (a
   * swipe) only the conversation's row is written. Failures are logged,
   * never thrown: the messages are already stored.
   */
  async writeCounters(): Promise<void> {
    const pending = this.uncounted;
    const room = this.store.room;
    this.uncounted = null;
    if (!pending || !room) return;
    try {
      await recordChatActivity(this.db, { conversationId: room.conversation_id, characterId: room.character_id, ...pending });
    } catch (error) {
      console.error("could not update conversation counters", room.conversation_id, String(error));
    }
  }

  /**
   * After a delete or an edit: D1's preview and `last_message_at` become the
   * last remaining message's (null when none remain), even if that is older
   * (setLastMessage). Written after any counters still pending.
   */
  async writeLastMessage(): Promise<void> {
    await this.writeCounters();
    const room = this.store.room;
    if (!room) return;
    const last = this.store.lastVisible();
    const conversationId = room.conversation_id;
    try {
      await setLastMessage(this.db, conversationId, last ? { at: last.created_at, preview: messagePreview(last.content) } : null);
    } catch (error) {
      console.error("could not update the conversation's last message", conversationId, String(error));
    }
  }

  /** Moves the reply ratings of character `characterId` (the reply's speaker; addReplyRating). Throws what D1 throws. */
  async addRating(characterId: number, change: { up: number; down: number }): Promise<void> {
    await addReplyRating(this.db, characterId, change);
  }

  /** Member `characterId`'s card (readReplyCharacter). Throws what D1 throws. */
  readCharacter(characterId: number): Promise<ReplyCharacter | null> {
    return readReplyCharacter(this.db, characterId);
  }

  /**
   * The texts of the pinned memories every prompt of this chat sends
   * (DESIGN.md "Memory"; D1 `memories`): the chat's own and its owner's with
   * each member of the cast, oldest first. Throws what D1 throws.
   */
  async readPinned(): Promise<string[]> {
    const room = this.store.room!;
    const cast = this.store.cast.list().map((member) => member.character_id);
    const { results } = await this.db
      .prepare(
        `SELECT text FROM memories
         WHERE (scope = 'chat' AND conversation_id = ?1) OR (scope = 'character' AND user_id = ?2 AND character_id IN (SELECT value FROM json_each(?3)))
         ORDER BY created_at, id`,
      )
      .bind(room.conversation_id, room.user_id, JSON.stringify(cast))
      .all<{ text: string }>();
    return results.map((row) => row.text);
  }

  /**
   * The model connection of the conversation's owner that answers
   * (readReplyConnection): the one read beside the last suspension check
   * (`readSuspended`) when that was less than CONNECTION_PREFETCH_MS ago and
   * no reply has used it yet, else read now. Throws what D1 throws.
   */
  readConnection(): Promise<ReplyConnectionRow | null> {
    const prefetched = this.prefetched;
    this.prefetched = null;
    if (prefetched && Date.now() - prefetched.at < CONNECTION_PREFETCH_MS) return Promise.resolve(prefetched.row);
    const room = this.store.room!;
    return readReplyConnection(this.db, room.conversation_id, room.user_id);
  }

  /**
   * Whether person `userId` is suspended (suspension.ts). With
   * `startsReply` (the frame may start a reply) the room's model connection
   * is read in the same round trip and kept for that reply
   * (`readConnection`): a message that starts a reply costs one round trip
   * to D1 before it, not two. Throws what D1 throws.
   */
  async readSuspended(userId: string, startsReply: boolean): Promise<boolean> {
    if (!startsReply) return readSuspended(this.db, userId);
    const room = this.store.room!;
    const [suspension, connection] = await this.db.batch<unknown>([
      suspendedStatement(this.db, userId),
      replyConnectionStatement(this.db, room.conversation_id, room.user_id),
    ]);
    this.prefetched = { row: (connection!.results[0] as ReplyConnectionRow | undefined) ?? null, at: Date.now() };
    return isSuspendedRow(suspension!.results[0] as { suspendedAt: number | null } | undefined);
  }

  /** Writes one screening outcome of this conversation to `moderation_log`; never throws (failures are logged). */
  async logScreening(entry: Omit<ScreeningEntry, "userId" | "characterId" | "conversationId">): Promise<void> {
    const room = this.store.room;
    if (!room) return;
    try {
      await logScreening(this.db, { ...entry, userId: room.user_id, characterId: room.character_id, conversationId: room.conversation_id });
    } catch (error) {
      console.error("moderation log failed", room.conversation_id, String(error));
    }
  }
}
