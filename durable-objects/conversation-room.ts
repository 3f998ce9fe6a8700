/**
 * ConversationRoom — one Durable Object per conversation (DESIGN.md "Shape",
 * "Real-time chat protocol"), addressed by `idFromName(conversationId)`.
 *
 * - Learns its conversation once, from the Worker (`initialize`): id, owner,
 *   character, the owner's name, and the greeting as the first message.
 * - Keeps the messages in its own SQLite (`ctx.storage.sql`), with a schema
 *   versioned by the `_schema` row and migrated on construction (room-storage.ts).
 * - Serves the conversation's WebSockets with the Hibernation API only: the
 *   per-socket facts live in `serializeAttachment`, every socket (several
 *   tabs) receives every event, and the object may leave memory between
 *   messages without dropping a connection.
 * - Writes one reply at a time. The reply belongs to the object, not to a
 *   socket: it is kept in `ctx.waitUntil` and finishes and is stored even
 *   when every client has gone; a client that comes back gets it in
 *   `history_sync`.
 * - Keeps every version of a regenerated reply (the swipes); `swipe` makes
 *   another version of the last reply the one the conversation goes on from.
 * - Keeps D1 in step with every stored message — the conversation's
 *   `last_message_at`/`last_message_preview`/`updated_at`, the character's
 *   `message_count` and (the person's messages) its trending score — in one
 *   write per exchange, when the reply is stored or fails. Every D1 statement
 *   it runs is a function of worker/lib/chat-store.ts.
 * - Sends a reply's deltas at most every DELTA_INTERVAL_MS (the first at once).
 * - Keeps the character's card for CHARACTER_TTL_MS in memory and in its own
 *   storage, so a room woken from hibernation starts a reply without D1.
 * - Limits its sockets (socket-limits.ts): at most MAX_SOCKETS_PER_CONVERSATION
 *   open (the oldest beyond that is closed with 1008), each counted with the
 *   person's PersonSockets object for MAX_SOCKETS_PER_PERSON; and closes a
 *   socket silent (no frame, no ping) for IDLE_TIMEOUT_MS, checked by the
 *   object's alarm while it has sockets.
 *
 * Frames are read by room-protocol.ts (the zod union of schema/chat.ts);
 * anything else gets an error frame or a close with a clear code and reason
 * (CLOSE_CODES).
 */
import { DurableObject } from "cloudflare:workers";
import {
  type ChatErrorCode,
  type ChatMessage,
  CLOSE_CODES,
  MAX_CHAT_MESSAGE_LENGTH,
  MESSAGE_REFUSED_TEXT,
  MODERATED_MESSAGE_TEXT,
  REFUSED_REPLY_TEXT,
  chooseVersion,
  PING_FRAME,
  PONG_FRAME,
  type ReplyVersionFields,
  replyVersions,
  type ServerFrame,
} from "../schema/chat.ts";
import {
  addReplyRating,
  type ChatActivity,
  logScreening,
  messagePreview,
  readReplyCharacter,
  recordChatActivity,
  type ReplyCharacter,
  type ScreeningEntry,
  setLastMessage,
} from "./room/d1-sync.ts";
import {
  isChildSafetyViolation,
  type ModerationInput,
  type ModerationVerdict,
  type Moderator,
  moderatorFor,
} from "../ai/moderation/index.ts";
import type { ChatModel } from "../ai/chat-model.ts";
import { chatModelName, createChatModel, withTokenTimeout } from "../ai/chat-models.ts";
import { buildPrompt, type HistoryMessage, type PromptOptions, summaryPrompt } from "./prompt.ts";
import { readClientMessage, readRoomVisitor, type RoomFacts, type SeedMessage } from "./room-protocol.ts";
import { type MessageRow, migrateRoomStorage, type RoomRow } from "./room/store.ts";
import type { PersonSockets } from "./person-sockets.ts";
import {
  CLOSE_REASONS,
  IDLE_TIMEOUT_MS,
  idleSockets,
  MAX_SOCKETS_PER_CONVERSATION,
  oldestBeyond,
  SEEN_RESOLUTION_MS,
  type SocketHolder,
} from "./socket-limits.ts";

/** Per-socket facts that survive hibernation. */
interface SocketState {
  conversationId: string;
  userId: string;
  /** Random id, also the socket's hibernation tag (PersonSockets names sockets by it). */
  socketId?: string;
  /** When it was accepted, ms since the epoch. */
  openedAt?: number;
  /** Its latest frame, ms since the epoch, to within SEEN_RESOLUTION_MS (pings are the runtime's own timestamp). */
  seenAt?: number;
}

/** `WebSocket.OPEN`: sockets closing or closed are no longer counted. */
const OPEN = 1;

/** Stored messages not yet written to D1 (writeCounters): how many, and the latest one's time (ms) and preview. */
type PendingCounters = Omit<ChatActivity, "conversationId" | "characterId">;

/** A reply being written. */
interface ActiveReply {
  id: string;
  replaces: string | null;
  /** A `continue`: the reply's text before it, which the new text extends (and is put back on failure); else null. */
  continues: string | null;
  /** The steering frame's clientId that started it (`continue`), for its receipt. */
  clientId: string | null;
  alternatives: string[];
  /** Everything the model wrote so far. */
  content: string;
  /** What the sockets have been sent of it (deltas are coalesced, DELTA_INTERVAL_MS). */
  sent: string;
  stopped: boolean;
  /** Its message was refused by screening after the reply began: the reply ends quietly, its rows already gone. */
  retracted?: boolean;
  controller: AbortController;
}


/** No token for this long ends a reply with an error, ms. */
const TOKEN_TIMEOUT_MS = 60_000;
/** A reply is cut at this many characters whatever the model does. */
const MAX_REPLY_CHARS = 16_000;
/**
 * Deltas of a reply go out at most this often, ms: the first piece at once,
 * then what arrived meanwhile in one frame. Fewer frames for the same text
 * (a fast model writes a token every few ms), still smooth to read.
 */
const DELTA_INTERVAL_MS = 50;
/**
 * While streaming, the text so far is saved this often, ms (so a crash loses
 * at most this much of a reply; the person's message is stored before it
 * starts). Most replies end sooner and are stored once, at the end: every
 * save is a storage commit the frames sent after it wait for (output gate).
 */
const FLUSH_EVERY_MS = 5_000;
/** The character's card is re-read from D1 after this long, ms (edits reach open chats within it). */
const CHARACTER_TTL_MS = 60_000;

const RATE_LIMITED_MESSAGE = "You're sending messages too fast. Please wait a moment.";
/** How long the answer of a steering frame is kept for its clientId (a resend after a reconnect), ms. */
const FRAME_RECEIPT_TTL_MS = 24 * 60 * 60 * 1000;
/** The newest messages a summary never takes: the scene at hand stays word for word. */
const SUMMARY_KEEP_MESSAGES = 4;
/** Longest summary the model is asked for, tokens; and the longest kept, characters. */
const SUMMARY_MAX_TOKENS = 400;
const MAX_SUMMARY_CHARS = 2000;

export class ConversationRoom extends DurableObject<Env> implements SocketHolder {
  private room: RoomRow | null = null;
  private deleted = false;
  private reply: ActiveReply | null = null;
  /** A message is between its checks and its storing (one at a time). */
  private admitting = false;
  private character: { value: Promise<ReplyCharacter | null>; at: number } | null = null;
  /**
   * The conversation's sockets as last asked of the runtime; dropped whenever
   * one is accepted or closed (asking on every delta frame is a measurable
   * share of a busy object's time).
   */
  private sockets: WebSocket[] | null = null;
  /** Stored messages not yet counted in D1 (written once per exchange, see countMessage). */
  private uncounted: PendingCounters | null = null;

  /**
   * The model for a reply. A seam for tests that need a failing or silent
   * provider; everything else uses the provider of `AI_PROVIDER`.
   */
  modelFactory: (character: ReplyCharacter, userName: string) => ChatModel = (character, userName) =>
    createChatModel(this.env, character, userName);
  /** No token for this long fails the reply, ms. */
  tokenTimeoutMs = TOKEN_TIMEOUT_MS;
  /**
   * The screen for the person's messages and the replies (MODERATION_PROVIDER).
   * A seam for tests that need a slow or failing provider.
   */
  moderatorFactory: () => Moderator = () => moderatorFor(this.env);
  /** The prompt's budget in tokens; unset: AI_CONTEXT_TOKENS and AI_MAX_TOKENS. A seam for tests of the summary. */
  budget: { contextTokens: number; maxTokens: number } | null = null;
  /** A summary is being written (one at a time). */
  private summarizing = false;
  /** The clock of the socket limits (opened, last seen, idle check), ms since the epoch. A seam for tests. */
  now: () => number = () => Date.now();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    void ctx.blockConcurrencyWhile(async () => {
      migrateRoomStorage(this.ctx.storage);
      this.room = this.sql<RoomRow>("SELECT * FROM room WHERE id = 1")[0] ?? null;
      this.recoverInterruptedReply();
    });
    // Keep-alives are answered by the runtime without waking the object.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(PING_FRAME, PONG_FRAME));
  }

  // -------------------------------------------------------------------------
  // Storage.

  private sql<T>(query: string, ...bindings: unknown[]): T[] {
    return this.ctx.storage.sql.exec(query, ...bindings).toArray() as T[];
  }

  /**
   * A reply that was being written when the object last stopped (a crash, a
   * deploy) keeps what was saved of it; an empty one is dropped and the
   * reply it was replacing comes back.
   */
  private recoverInterruptedReply(): void {
    for (const row of this.sql<MessageRow>("SELECT * FROM messages WHERE status = 'streaming'")) {
      if (row.content.trim() !== "") {
        this.sql("UPDATE messages SET status = 'complete', replaces = NULL WHERE id = ?", row.id);
        // A continued reply (it names itself in `replaces`) was counted when it was first written.
        if (row.replaces === row.id) this.notePreview(row);
        else this.countMessage(row);
        this.ctx.waitUntil(this.writeCounters());
      } else {
        this.dropReply(row.id, row.replaces);
      }
    }
  }

  private dropReply(id: string, replaces: string | null): void {
    this.ctx.storage.transactionSync(() => {
      this.sql("DELETE FROM messages WHERE id = ?", id);
      if (replaces) this.sql("UPDATE messages SET status = 'complete' WHERE id = ? AND status = 'superseded'", replaces);
    });
  }

  private toWire(row: MessageRow): ChatMessage {
    const message: ChatMessage = {
      id: row.id,
      conversationId: this.room!.conversation_id,
      content: row.content,
      isUser: row.role === "user",
      createdAt: new Date(row.created_at).toISOString(),
      clientId: row.client_id,
      rating: row.role === "character" ? row.rating : null,
      alternatives: JSON.parse(row.alternatives) as string[],
    };
    if (row.swipe_index !== null) message.swipeIndex = row.swipe_index;
    if (row.edited_at !== null) message.editedAt = new Date(row.edited_at).toISOString();
    if (row.status === "streaming") {
      message.status = "streaming";
      // Exactly what this socket's later deltas continue from.
      if (this.reply?.id === row.id) message.content = this.reply.sent;
    }
    return message;
  }

  /** The `history_sync` frame: every visible message and the memory note. */
  private historySync(): ServerFrame {
    return {
      type: "history_sync",
      conversationId: this.room!.conversation_id,
      messages: this.visibleMessages(),
      chatModel: chatModelName(this.env),
      memory: this.room!.memory,
    };
  }

  /** Visible messages (and a reply being written), oldest first. */
  private visibleMessages(): ChatMessage[] {
    return this.sql<MessageRow>("SELECT * FROM messages WHERE status IN ('complete', 'streaming') ORDER BY seq").map((row) =>
      this.toWire(row),
    );
  }

  // -------------------------------------------------------------------------
  // Calls from the Worker (RPC).

  /**
   * Stores the conversation's facts and its greeting. Idempotent for the
   * same conversation id. Throws when the object already belongs to another.
   */
  async initialize(facts: RoomFacts): Promise<void> {
    if (this.deleted) throw new Error("conversation deleted");
    if (this.room) {
      if (this.room.conversation_id !== facts.conversationId) throw new Error("room belongs to another conversation");
      return;
    }
    this.ctx.storage.transactionSync(() => {
      this.sql(
        "INSERT INTO room (id, conversation_id, user_id, character_id, user_name, created_at, memory) VALUES (1, ?, ?, ?, ?, ?, ?)",
        facts.conversationId,
        facts.userId,
        facts.characterId,
        facts.userName,
        facts.createdAt,
        facts.memory ?? "",
      );
      if (facts.messages) {
        for (const message of facts.messages) {
          // Stored as the wire has it (content shown, the other versions, swipeIndex); a person's message has one version.
          const alternatives = message.isUser ? [] : message.alternatives;
          const at = message.swipeIndex;
          const swipeIndex = at !== undefined && Number.isInteger(at) && at >= 0 && at < alternatives.length ? at : null;
          this.sql(
            "INSERT INTO messages (id, role, content, created_at, alternatives, swipe_index) VALUES (?, ?, ?, ?, ?, ?)",
            crypto.randomUUID(),
            message.isUser ? "user" : "character",
            message.content,
            message.createdAt,
            JSON.stringify(alternatives),
            swipeIndex,
          );
        }
      } else if (facts.greeting) {
        this.sql(
          "INSERT INTO messages (id, role, content, created_at) VALUES (?, 'character', ?, ?)",
          crypto.randomUUID(),
          facts.greeting,
          facts.createdAt,
        );
      }
    });
    this.room = this.sql<RoomRow>("SELECT * FROM room WHERE id = 1")[0] ?? null;
  }

  /**
   * "Branch from here": the visible messages up to and including
   * `messageId`, oldest first, and the memory note, for a new conversation
   * to start with (ratings stay behind). Null when the room is not the
   * owner's or has no such message, or a reply is being written (the
   * branch would copy half a reply).
   */
  async branchSource(userId: string, messageId: string): Promise<{ messages: SeedMessage[]; memory: string } | "busy" | null> {
    if (this.deleted || !this.room || this.room.user_id !== userId) return null;
    if (this.reply) return "busy";
    const at = this.sql<{ seq: number }>("SELECT seq FROM messages WHERE id = ? AND status = 'complete'", messageId)[0];
    if (!at) return null;
    const rows = this.sql<MessageRow>("SELECT * FROM messages WHERE status = 'complete' AND seq <= ? ORDER BY seq", at.seq);
    return { messages: rows.map((row) => seedOf(row)), memory: this.room.memory };
  }

  /** The messages, oldest first, for their owner; null for anyone else (the Worker answers 404). */
  async listMessages(userId: string): Promise<ChatMessage[] | null> {
    if (this.deleted || !this.room || this.room.user_id !== userId) return null;
    return this.visibleMessages().filter((m) => m.status !== "streaming");
  }

  /**
   * Hides messages an operator removed (`hidden_messages` in D1, handed over
   * by the Worker each time it opens the room): their text becomes
   * MODERATED_MESSAGE_TEXT and their other versions go. Idempotent; every
   * socket gets `message_updated` for each one changed now. Returns how many
   * changed.
   */
  async hideMessages(messageIds: string[]): Promise<number> {
    if (this.deleted || !this.room || messageIds.length === 0) return 0;
    const changed: MessageRow[] = [];
    for (const id of messageIds.slice(0, 1000)) {
      const row = this.sql<MessageRow>(
        `UPDATE messages SET content = ?, alternatives = '[]', swipe_index = NULL, edited_at = ?
         WHERE id = ? AND status IN ('complete', 'superseded') AND content != ? RETURNING *`,
        MODERATED_MESSAGE_TEXT,
        Date.now(),
        id,
        MODERATED_MESSAGE_TEXT,
      )[0];
      if (row) changed.push(row);
    }
    if (changed.some((row) => row.id === this.lastVisible()?.id)) await this.writeLastMessage();
    for (const row of changed) {
      if (row.status === "complete") this.broadcast({ type: "message_updated", messageId: row.id, message: this.toWire(row) });
    }
    return changed.length;
  }

  /**
   * One stored message as its owner sees it (what a report copies); null
   * when the room is not `userId`'s or has no such complete message.
   */
  async readMessage(userId: string, messageId: string): Promise<{ isUser: boolean; content: string } | null> {
    if (this.deleted || !this.room || this.room.user_id !== userId) return null;
    const row = this.sql<MessageRow>("SELECT * FROM messages WHERE id = ? AND status = 'complete'", messageId)[0];
    return row ? { isUser: row.role === "user", content: row.content } : null;
  }

  /**
   * The owner's thumbs on a character reply: 1, -1, or 0 to take it back. One
   * rating per reply: changing it moves the character's counts
   * (`addReplyRating`). Throws when D1 cannot be updated (the reply's rating
   * is then unchanged).
   */
  async rateMessage(
    userId: string,
    messageId: string,
    value: 1 | -1 | 0,
  ): Promise<{ ok: true; rating: 1 | -1 | null } | { ok: false; reason: "not_found" | "not_a_reply" }> {
    if (this.deleted || !this.room || this.room.user_id !== userId) return { ok: false, reason: "not_found" };
    const row = this.sql<MessageRow>("SELECT * FROM messages WHERE id = ? AND status = 'complete'", messageId)[0];
    if (!row) return { ok: false, reason: "not_found" };
    if (row.role !== "character") return { ok: false, reason: "not_a_reply" };
    const before = row.rating ?? 0;
    const after = value === 0 ? null : value;
    if (before === value) return { ok: true, rating: after };
    this.sql("UPDATE messages SET rating = ? WHERE id = ?", after, messageId);
    const up = (value === 1 ? 1 : 0) - (before === 1 ? 1 : 0);
    const down = (value === -1 ? 1 : 0) - (before === -1 ? 1 : 0);
    try {
      await addReplyRating(this.env.DB, this.room.character_id, { up, down });
    } catch (error) {
      this.sql("UPDATE messages SET rating = ? WHERE id = ?", row.rating, messageId);
      throw error;
    }
    this.broadcast({ type: "message_rated", messageId, rating: after });
    return { ok: true, rating: after };
  }

  /**
   * - `DELETE https://room/delete`: the conversation was deleted in D1
   *   (worker/lib/characters.ts deleteConversationStorage); sockets are
   *   closed and the storage wiped.
   * - A WebSocket upgrade from the Worker (`roomUpgradeHeaders`).
   */
  override async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (request.method === "DELETE" && url.pathname === "/delete") {
      await this.wipe();
      return new Response(null, { status: 204 });
    }
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket") {
      return Response.json({ error: "Expected a WebSocket upgrade", code: "not_found" }, { status: 426 });
    }
    const { conversationId, userId, userName, personaDescription } = readRoomVisitor(request.headers);
    const { 0: client, 1: server } = new WebSocketPair();
    const refusal =
      this.deleted || !this.room || this.room.conversation_id !== conversationId
        ? "Conversation not found"
        : this.room.user_id !== userId
          ? "This conversation belongs to someone else"
          : null;
    if (refusal) {
      // Not accepted for hibernation: it never joins the conversation's sockets.
      server.accept();
      server.send(JSON.stringify({ type: "error", code: "forbidden", message: refusal } satisfies ServerFrame));
      server.close(CLOSE_CODES.policyViolation, refusal);
      return new Response(null, { status: 101, webSocket: client });
    }
    const socketId = crypto.randomUUID();
    const now = this.now();
    this.ctx.acceptWebSocket(server, [socketId]);
    this.sockets = null;
    server.serializeAttachment({ conversationId, userId, socketId, openedAt: now, seenAt: now } satisfies SocketState);
    this.notePerson(userName, personaDescription);
    // The newest socket is the tab in use: beyond the caps, the oldest ones go.
    for (const { ws } of oldestBeyond(this.openSockets(), MAX_SOCKETS_PER_CONVERSATION)) {
      this.closeForPolicy(ws, CLOSE_REASONS.conversationCap);
    }
    await this.scheduleIdleCheck();
    try {
      await this.personSockets(userId).opened({ socketId, conversationId });
    } catch (error) {
      // Counting is a safeguard: its outage must not stop conversations.
      console.warn("could not count a socket with its person", String(error));
    }
    return new Response(null, { status: 101, webSocket: client });
  }

  // -------------------------------------------------------------------------
  // Socket limits (socket-limits.ts).

  /** The person's PersonSockets object. */
  private personSockets(userId: string): DurableObjectStub<PersonSockets> {
    const namespace = this.env.PERSON_SOCKETS as unknown as DurableObjectNamespace<PersonSockets>;
    return namespace.get(namespace.idFromName(userId));
  }

  /** This room's open sockets with their facts. */
  private openSockets(): { ws: WebSocket; state: SocketState; openedAt: number; lastActiveAt: number }[] {
    return this.ctx
      .getWebSockets()
      .filter((ws) => ws.readyState === OPEN)
      .map((ws) => {
        const state = (ws.deserializeAttachment() as SocketState | null) ?? { conversationId: "", userId: "" };
        const seen = state.seenAt ?? state.openedAt ?? 0;
        const pinged = this.ctx.getWebSocketAutoResponseTimestamp(ws)?.getTime() ?? 0;
        return { ws, state, openedAt: state.openedAt ?? 0, lastActiveAt: Math.max(seen, pinged) };
      });
  }

  /** Closes `ws` with 1008 and `reason`, and stops counting it for its person. */
  private closeForPolicy(ws: WebSocket, reason: string): void {
    try {
      ws.close(CLOSE_CODES.policyViolation, reason);
    } catch {
      // already closed
    }
    this.sockets = null;
    this.forget(ws);
  }

  /** Tells the socket's PersonSockets it is gone (after the answer; failures are logged). */
  private forget(ws: WebSocket): void {
    const state = ws.deserializeAttachment() as SocketState | null;
    if (!state?.socketId || !state.userId) return;
    this.ctx.waitUntil(
      this.personSockets(state.userId)
        .closed(state.socketId)
        .catch((error: unknown) => console.warn("could not uncount a socket", String(error))),
    );
  }

  /**
   * Makes sure the alarm that closes idle sockets is set while there are
   * sockets: IDLE_TIMEOUT_MS from now on the runtime's clock (not `now`, so a
   * test that dates sockets back does not make it fire at once).
   */
  private async scheduleIdleCheck(): Promise<void> {
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now() + IDLE_TIMEOUT_MS);
  }

  /** The idle check: closes sockets silent for IDLE_TIMEOUT_MS, then sets the alarm for the next one due. */
  override async alarm(): Promise<void> {
    if (this.deleted) return;
    const { idle, nextCheckAt } = idleSockets(this.openSockets(), this.now(), IDLE_TIMEOUT_MS);
    for (const { ws } of idle) this.closeForPolicy(ws, CLOSE_REASONS.idle);
    if (nextCheckAt !== null) await this.ctx.storage.setAlarm(nextCheckAt);
  }

  /** RPC (PersonSockets): the ids of this room's open sockets. */
  async openSocketIds(): Promise<string[]> {
    return this.openSockets().flatMap(({ state }) => (state.socketId ? [state.socketId] : []));
  }

  /** RPC (PersonSockets): closes socket `socketId` with 1008 and `reason`; false when it is not open here. */
  async closeSocket(socketId: string, reason: string): Promise<boolean> {
    const sockets = this.ctx.getWebSockets(socketId).filter((ws) => ws.readyState === OPEN);
    for (const ws of sockets) this.closeForPolicy(ws, reason);
    return sockets.length > 0;
  }

  /** Keeps who the person is in this conversation (name for `{{user}}`, persona description), as the Worker last said. */
  private notePerson(userName: string, personaDescription: string | null): void {
    const room = this.room!;
    if (userName && userName !== room.user_name) {
      this.sql("UPDATE room SET user_name = ? WHERE id = 1", userName);
      room.user_name = userName;
    }
    if (personaDescription !== null && personaDescription !== room.persona_description) {
      this.sql("UPDATE room SET persona_description = ? WHERE id = 1", personaDescription);
      room.persona_description = personaDescription;
    }
  }

  /**
   * The person picked another persona for this conversation (or the
   * default): their name for `{{user}}` and the persona's description, from
   * the next reply on. False when the room is not theirs.
   */
  async setPersona(userId: string, person: { userName: string; personaDescription: string }): Promise<boolean> {
    if (this.deleted || !this.room || this.room.user_id !== userId) return false;
    this.notePerson(person.userName, person.personaDescription);
    return true;
  }

  private async wipe(): Promise<void> {
    this.deleted = true;
    if (this.reply) {
      this.reply.stopped = true;
      this.reply.controller.abort();
    }
    for (const ws of this.ctx.getWebSockets()) this.closeForPolicy(ws, "Conversation deleted");
    this.room = null;
    this.sockets = null;
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
  }

  // -------------------------------------------------------------------------
  // WebSocket events (Hibernation API).

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    const state = ws.deserializeAttachment() as SocketState | null;
    if (!state || this.deleted || !this.room) {
      ws.close(CLOSE_CODES.policyViolation, "Conversation not found");
      return;
    }
    const now = this.now();
    if (now - (state.seenAt ?? 0) >= SEEN_RESOLUTION_MS) {
      state.seenAt = now;
      ws.serializeAttachment(state);
    }
    const read = readClientMessage(message);
    if (read.kind === "close") {
      ws.close(read.code, read.reason);
      return;
    }
    if (read.kind === "answer") {
      send(ws, read.frame);
      return;
    }
    const data = read.frame;
    if (data.conversationId !== undefined && data.conversationId !== state.conversationId) {
      send(ws, { type: "error", code: "forbidden", message: "This connection belongs to another conversation" });
      ws.close(CLOSE_CODES.policyViolation, "Wrong conversation");
      return;
    }
    switch (data.type) {
      case "join":
        send(ws, this.historySync());
        // The first message will not wait for the card.
        void this.loadCharacter().catch(() => {});
        return;
      case "chat_message":
        await this.receiveMessage(ws, state, data.content, data.clientId ?? null);
        return;
      case "regenerate":
        await this.regenerate(ws, state);
        return;
      case "stop":
        if (this.reply) {
          this.reply.stopped = true;
          this.reply.controller.abort();
        }
        return;
      case "swipe":
        await this.swipe(ws, data.messageId, data.index);
        return;
      case "edit_message":
        await this.steer(ws, data.clientId, () => this.editMessage(data.messageId, data.content, data.clientId));
        return;
      case "delete_message":
        await this.steer(ws, data.clientId, () => this.deleteMessages(data.messageId, "one", data.clientId));
        return;
      case "rewind":
        await this.steer(ws, data.clientId, () => this.deleteMessages(data.messageId, "from_here", data.clientId));
        return;
      case "continue":
        await this.steer(ws, data.clientId, () => this.continueReply(state, data.clientId));
        return;
      case "set_memory":
        await this.steer(ws, data.clientId, () => this.setMemory(data.memory, data.clientId));
        return;
    }
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    this.sockets = null;
    this.forget(ws);
    // Answer a close with a close, or the client sees 1006 (1005/1006 cannot be sent).
    try {
      ws.close(code === 1005 || code === 1006 ? CLOSE_CODES.normal : code, reason);
    } catch {
      // already closed
    }
  }

  override async webSocketError(ws: WebSocket, error: unknown): Promise<void> {
    this.sockets = null;
    this.forget(ws);
    console.warn("conversation socket error", String(error));
    try {
      ws.close(CLOSE_CODES.serverError, "WebSocket error");
    } catch {
      // already closed
    }
  }

  // -------------------------------------------------------------------------
  // Messages and replies.

  private busyError(ws: WebSocket, clientId: string | null): void {
    send(ws, {
      type: "error",
      code: "busy",
      message: "Please wait for the reply before sending another message.",
      ...(clientId ? { clientId } : {}),
    });
  }

  /** True when the person may send another message now (MESSAGE_RATE_LIMITER, keyed by user). */
  private async withinRateLimit(userId: string): Promise<boolean> {
    try {
      return (await this.env.MESSAGE_RATE_LIMITER.limit({ key: userId })).success;
    } catch (error) {
      // A limiter outage must not stop conversations.
      console.warn("message rate limiter failed", String(error));
      return true;
    }
  }

  /**
   * Runs `start` (which stores and starts a reply) unless the person is over
   * the message rate limit: then false, and the caller tells the sender. One
   * admission at a time: others meanwhile get `busy`.
   */
  private async admit(state: SocketState, start: () => void): Promise<boolean> {
    this.admitting = true;
    try {
      if (!(await this.withinRateLimit(state.userId))) return false;
      if (!this.deleted) start();
      return true;
    } finally {
      this.admitting = false;
    }
  }

  private async receiveMessage(ws: WebSocket, state: SocketState, content: string, clientId: string | null): Promise<void> {
    if (clientId) {
      const existing = this.sql<MessageRow>("SELECT * FROM messages WHERE client_id = ?", clientId)[0];
      if (existing) {
        // A resend after a reconnect: stored once, answered with the same id.
        send(ws, { type: "message_saved", clientId, messageId: existing.id, message: this.toWire(existing) });
        return;
      }
    }
    if (this.reply || this.admitting) {
      this.busyError(ws, clientId);
      return;
    }
    // Screening runs beside the rate limit and the reply, never before the first delta (docs/decisions/0008).
    let verdict: ModerationVerdict | null | undefined;
    const screening = this.screen({ text: content, role: "user" }).then((result) => (verdict = result));
    let stored: MessageRow | null = null;
    const admitted = await this.admit(state, () => {
      if (verdict && isChildSafetyViolation(verdict)) {
        // Known before storing: nothing is kept.
        this.logRefusedMessage(content, verdict, null);
        send(ws, refusal("message_refused", MESSAGE_REFUSED_TEXT, clientId ?? undefined));
        return;
      }
      const row = this.sql<MessageRow>(
        "INSERT INTO messages (id, role, content, created_at, client_id) VALUES (?, 'user', ?, ?, ?) RETURNING *",
        crypto.randomUUID(),
        content,
        Date.now(),
        clientId,
      )[0]!;
      stored = row;
      this.broadcast({ type: "message_saved", clientId, messageId: row.id, message: this.toWire(row) });
      // Counted in D1 with the reply it starts, whose end (or failure) always writes the counters.
      this.countMessage(row);
      this.startReply(null);
    });
    if (!admitted) {
      send(ws, refusal("rate_limited", RATE_LIMITED_MESSAGE, clientId ?? undefined));
      return;
    }
    const message: MessageRow | null = stored;
    if (message) {
      this.ctx.waitUntil(
        screening.then((result) => {
          if (result && isChildSafetyViolation(result)) return this.retractMessage(message, result);
        }),
      );
    }
  }

  /**
   * Screens a person's message or a reply with the moderator, the
   * character's NSFW flag as context. Null when the provider failed: chat
   * fails open (the failure is logged), so a provider outage loses nobody's
   * message (docs/decisions/0008-trust-and-safety.md).
   */
  private async screen(input: Omit<ModerationInput, "nsfw">): Promise<ModerationVerdict | null> {
    try {
      const character = await this.loadCharacter().catch(() => null);
      return await this.moderatorFactory().screen({ ...input, nsfw: character?.isNsfw ?? false });
    } catch (error) {
      console.warn("screening failed", this.room?.conversation_id, String(error));
      this.ctx.waitUntil(
        this.log({ subjectType: input.role === "user" ? "message" : "reply", subjectId: null, outcome: "error", categories: [], provider: "unknown", content: input.text }),
      );
      return null;
    }
  }

  /** Writes one screening outcome to the operator's log (D1 `moderation_log`); never throws. */
  private async log(entry: Omit<ScreeningEntry, "userId" | "characterId" | "conversationId">): Promise<void> {
    const room = this.room;
    if (!room) return;
    try {
      await logScreening(this.env.DB, { ...entry, userId: room.user_id, characterId: room.character_id, conversationId: room.conversation_id });
    } catch (error) {
      console.error("moderation log failed", room.conversation_id, String(error));
    }
  }

  private logRefusedMessage(content: string, verdict: ModerationVerdict, messageId: string | null): void {
    this.ctx.waitUntil(
      this.log({ subjectType: "message", subjectId: messageId, outcome: "refused", categories: verdict.categories, provider: verdict.provider, content }),
    );
  }

  /**
   * A stored message that screening refused after it was stored (the verdict
   * came after the reply began): the reply it started is stopped, the message
   * and everything after it deleted, every socket told (`messages_deleted`,
   * then `message_refused`), and the attempt logged.
   */
  private async retractMessage(message: MessageRow, verdict: ModerationVerdict): Promise<void> {
    if (this.deleted || !this.room) return;
    this.logRefusedMessage(message.content, verdict, message.id);
    const reply = this.reply;
    if (reply) {
      reply.stopped = true;
      reply.retracted = true;
      reply.controller.abort();
    }
    const gone = this.ctx.storage.transactionSync(() => {
      const at = this.sql<{ seq: number }>("SELECT seq FROM messages WHERE id = ?", message.id)[0];
      if (!at) return [];
      return this.sql<{ id: string; status: string }>("DELETE FROM messages WHERE seq >= ? RETURNING id, status", at.seq)
        .filter((row) => row.status !== "superseded")
        .map((row) => row.id);
    });
    if (gone.length === 0) return;
    await this.writeLastMessage();
    this.broadcast({ type: "messages_deleted", messageIds: [message.id, ...gone.filter((id) => id !== message.id)] });
    this.broadcast(refusal("message_refused", MESSAGE_REFUSED_TEXT, message.client_id ?? undefined));
  }

  /**
   * Screens a complete reply (off its path: the person already has it). When
   * it is S4, its text becomes REFUSED_REPLY_TEXT (the other versions stay:
   * each was screened when written), every socket gets `message_updated`, and
   * the original is kept only in the moderation log.
   */
  private async screenReply(row: MessageRow): Promise<void> {
    const previous = this.sql<{ content: string }>(
      "SELECT content FROM messages WHERE status = 'complete' AND role = 'user' AND seq < ? ORDER BY seq DESC LIMIT 1",
      row.seq,
    )[0];
    const verdict = await this.screen({ text: row.content, role: "assistant", context: previous?.content });
    if (!verdict || !isChildSafetyViolation(verdict) || this.deleted) return;
    const replaced = this.sql<MessageRow>(
      "UPDATE messages SET content = ? WHERE id = ? AND content = ? RETURNING *",
      REFUSED_REPLY_TEXT,
      row.id,
      row.content,
    )[0];
    if (!replaced) return;
    await this.log({ subjectType: "reply", subjectId: row.id, outcome: "replaced", categories: verdict.categories, provider: verdict.provider, content: row.content });
    if (this.lastVisible()?.id === row.id) await this.writeLastMessage();
    if (replaced.status === "complete") this.broadcast({ type: "message_updated", messageId: row.id, message: this.toWire(replaced) });
  }

  private async regenerate(ws: WebSocket, state: SocketState): Promise<void> {
    if (this.reply || this.admitting) {
      this.busyError(ws, null);
      return;
    }
    const [last, previous] = this.sql<MessageRow>("SELECT * FROM messages WHERE status = 'complete' ORDER BY seq DESC LIMIT 2");
    // The last reply to a message of the person, or a message of theirs still unanswered.
    const target = last?.role === "character" && previous?.role === "user" ? last : last?.role === "user" ? null : undefined;
    if (target === undefined) {
      send(ws, { type: "error", code: "nothing_to_regenerate", message: "There is no reply to regenerate yet." });
      return;
    }
    if (!(await this.admit(state, () => this.startReply(target)))) send(ws, refusal("rate_limited", RATE_LIMITED_MESSAGE));
  }

  /**
   * `swipe`: makes version `index` (0-based, written order) of the last
   * reply its content, the one the next prompt reads; the others stay its
   * alternatives in written order, and it keeps its id and rating. Stored,
   * then D1's preview follows (one write), then every socket gets
   * `message_updated`. Refusals are error frames to the sender; nothing changes.
   */
  private async swipe(ws: WebSocket, messageId: string, index: number): Promise<void> {
    const refuse = (code: ChatErrorCode, message: string) => send(ws, { type: "error", code, message });
    if (this.reply || this.admitting) {
      refuse("busy", "Please wait for the reply to finish before choosing another version.");
      return;
    }
    const row = this.sql<MessageRow>("SELECT * FROM messages WHERE id = ? AND status = 'complete'", messageId)[0];
    if (!row) {
      refuse("message_not_found", "That message is not in this conversation.");
      return;
    }
    const last = this.sql<{ id: string }>("SELECT id FROM messages WHERE status = 'complete' ORDER BY seq DESC LIMIT 1")[0];
    if (row.role !== "character" || last?.id !== row.id) {
      refuse("not_last_reply", "Only the latest reply can be switched to another version.");
      return;
    }
    const fields = versionFields(row);
    const { versions, current } = replyVersions(fields);
    const chosen = chooseVersion(fields, index);
    if (!chosen) {
      refuse(
        "no_such_version",
        versions.length === 1 ? "This reply has only one version." : `This reply has ${versions.length} versions; there is no version ${index + 1}.`,
      );
      return;
    }
    if (index === current) {
      send(ws, { type: "message_updated", messageId, message: this.toWire(row) });
      return;
    }
    this.sql(
      "UPDATE messages SET content = ?, alternatives = ?, swipe_index = ? WHERE id = ?",
      chosen.content,
      JSON.stringify(chosen.alternatives),
      chosen.swipeIndex ?? null,
      messageId,
    );
    const updated = this.sql<MessageRow>("SELECT * FROM messages WHERE id = ?", messageId)[0]!;
    // The last message changed: D1's preview follows, like after a reply (nothing is counted).
    this.notePreview(updated);
    await this.writeCounters();
    if (this.deleted) return;
    this.broadcast({ type: "message_updated", messageId, message: this.toWire(updated) });
  }

  // -------------------------------------------------------------------------
  // Steering: edit, delete, rewind, continue, memory (docs/decisions/0007).

  /**
   * Runs a steering frame. Refused with `busy` while a reply is being
   * written or a message admitted (nothing changes). With a `clientId`, the
   * frame is applied once: its answer is kept (FRAME_RECEIPT_TTL_MS) and a
   * resend gets it again, to the sender alone. `apply` broadcasts its own
   * success and returns the frame to keep, or returns the error frame for
   * the sender (a refusal, never kept: a resend tries again), or null when
   * the answer comes later (continue keeps its receipt when it ends).
   */
  private async steer(ws: WebSocket, clientId: string | undefined, apply: () => Promise<ServerFrame | null>): Promise<void> {
    if (clientId) {
      const receipt = this.sql<{ answer: string }>("SELECT answer FROM frame_receipts WHERE client_id = ?", clientId)[0];
      if (receipt) {
        send(ws, JSON.parse(receipt.answer) as ServerFrame);
        return;
      }
    }
    if (this.reply || this.admitting) {
      send(ws, {
        type: "error",
        code: "busy",
        message: "Please wait for the reply to finish first.",
        ...(clientId ? { clientId } : {}),
      });
      return;
    }
    const answer = await apply();
    if (!answer || this.deleted) return;
    if (answer.type === "error") send(ws, answer);
    else if (clientId) this.keepReceipt(clientId, answer);
  }

  /** Keeps a steering frame's answer for its `clientId`, and forgets old ones. */
  private keepReceipt(clientId: string, answer: ServerFrame): void {
    const now = Date.now();
    this.sql("DELETE FROM frame_receipts WHERE created_at < ?", now - FRAME_RECEIPT_TTL_MS);
    this.sql(
      "INSERT INTO frame_receipts (client_id, answer, created_at) VALUES (?, ?, ?) ON CONFLICT (client_id) DO NOTHING",
      clientId,
      JSON.stringify(answer),
      now,
    );
  }

  /** A visible stored message by id, or the `message_not_found` error frame. */
  private findMessage(messageId: string, clientId: string | undefined): MessageRow | ServerFrame {
    const row = this.sql<MessageRow>("SELECT * FROM messages WHERE id = ? AND status = 'complete'", messageId)[0];
    return row ?? refusal("message_not_found", "That message is not in this conversation.", clientId);
  }

  /**
   * `edit_message`: the message's text (a reply's shown version) becomes
   * `content` and `edited_at` is set; its id, rating and other versions stay.
   * The person's messages keep their limit (MAX_CHAT_MESSAGE_LENGTH); replies
   * have MAX_EDITED_REPLY_LENGTH (the frame's own). When it is the last
   * message, D1's preview follows. Every socket gets `message_updated`.
   */
  private async editMessage(messageId: string, content: string, clientId: string | undefined): Promise<ServerFrame> {
    const row = this.findMessage(messageId, clientId);
    if (!isRow(row)) return row;
    if (row.role === "user" && content.length > MAX_CHAT_MESSAGE_LENGTH) {
      return refusal("invalid_frame", `Messages can be at most ${MAX_CHAT_MESSAGE_LENGTH.toLocaleString("en-US")} characters`, clientId);
    }
    const updated = this.sql<MessageRow>("UPDATE messages SET content = ?, edited_at = ? WHERE id = ? RETURNING *", content, Date.now(), messageId)[0]!;
    if (this.lastVisible()?.id === messageId) await this.writeLastMessage();
    const answer: ServerFrame = { type: "message_updated", messageId, message: this.toWire(updated), ...(clientId ? { clientId } : {}) };
    this.broadcast(answer);
    return answer;
  }

  /**
   * `delete_message` (`one`): the message, with all its versions. `rewind`
   * (`from_here`): the message and every message after it. A summary that
   * covered a deleted message is dropped (it is written again when the
   * history next overflows). D1's preview and `last_message_at` become the
   * last remaining message's; `message_count` is not lowered (it counts
   * messages exchanged with the character, like views: decision 0007).
   * Every socket gets `messages_deleted`.
   */
  private async deleteMessages(messageId: string, scope: "one" | "from_here", clientId: string | undefined): Promise<ServerFrame> {
    const row = this.findMessage(messageId, clientId);
    if (!isRow(row)) return row;
    const room = this.room!;
    const gone = this.ctx.storage.transactionSync(() => {
      const deleted =
        scope === "one"
          ? this.sql<{ id: string; status: string }>("DELETE FROM messages WHERE id = ? RETURNING id, status", messageId)
          : this.sql<{ id: string; status: string }>("DELETE FROM messages WHERE seq >= ? RETURNING id, status", row.seq);
      if (row.seq <= room.summary_through) {
        this.sql("UPDATE room SET summary = '', summary_through = 0 WHERE id = 1");
        room.summary = "";
        room.summary_through = 0;
      }
      return deleted.filter((d) => d.status === "complete").map((d) => d.id);
    });
    await this.writeLastMessage();
    const visible = new Set(gone);
    const ordered = [messageId, ...gone.filter((id) => id !== messageId)].filter((id) => visible.has(id));
    const answer: ServerFrame = { type: "messages_deleted", messageIds: ordered, ...(clientId ? { clientId } : {}) };
    this.broadcast(answer);
    return answer;
  }

  /** `set_memory`: the conversation's memory note (always in the prompt). Every socket gets `memory_updated`. */
  private async setMemory(memory: string, clientId: string | undefined): Promise<ServerFrame> {
    this.sql("UPDATE room SET memory = ? WHERE id = 1", memory);
    this.room!.memory = memory;
    const answer: ServerFrame = { type: "memory_updated", memory, ...(clientId ? { clientId } : {}) };
    this.broadcast(answer);
    return answer;
  }

  /**
   * `continue`: the character goes on with its last reply, streamed into the
   * same message (see startReply). Rate limited like a message. Its receipt
   * is kept when the reply ends.
   */
  private async continueReply(state: SocketState, clientId: string | undefined): Promise<ServerFrame | null> {
    const last = this.lastVisible();
    if (!last || last.role !== "character") {
      return refusal("nothing_to_continue", "Only a reply of the character can be continued, and only the latest one.", clientId);
    }
    const admitted = await this.admit(state, () => this.startReply(null, { row: last, clientId: clientId ?? null }));
    return admitted ? null : refusal("rate_limited", RATE_LIMITED_MESSAGE, clientId);
  }

  /** The last visible stored message, if any. */
  private lastVisible(): MessageRow | null {
    return this.sql<MessageRow>("SELECT * FROM messages WHERE status = 'complete' ORDER BY seq DESC LIMIT 1")[0] ?? null;
  }

  /**
   * After a delete or an edit: D1's preview and `last_message_at` become the
   * last remaining message's (null when none remain), even if that is older
   * (setLastMessage). Written after any counters still pending.
   */
  private async writeLastMessage(): Promise<void> {
    await this.writeCounters();
    const last = this.lastVisible();
    try {
      await setLastMessage(this.env.DB, this.room!.conversation_id, last ? { at: last.created_at, preview: messagePreview(last.content) } : null);
    } catch (error) {
      console.error("could not update the conversation's last message", this.room!.conversation_id, String(error));
    }
  }

  /**
   * Starts writing a reply; it runs on its own. A new reply, or one
   * replacing `replaces` (regenerate), or — `continuing` — more text for an
   * existing reply: the same message goes back to "streaming" with its text,
   * marked by naming itself in `replaces` (so a crash recovery does not count
   * it again), and the deltas extend it.
   */
  private startReply(replaces: MessageRow | null, continuing: { row: MessageRow; clientId: string | null } | null = null): void {
    // Every version of the replaced reply in written order; the new one will be the newest.
    const alternatives = replaces ? replyVersions(versionFields(replaces)).versions : [];
    const base = continuing?.row.content ?? "";
    const reply: ActiveReply = {
      id: continuing?.row.id ?? crypto.randomUUID(),
      replaces: replaces?.id ?? null,
      continues: continuing ? base : null,
      clientId: continuing?.clientId ?? null,
      alternatives,
      content: base,
      sent: base,
      stopped: false,
      controller: new AbortController(),
    };
    this.ctx.storage.transactionSync(() => {
      if (continuing) {
        this.sql("UPDATE messages SET status = 'streaming', replaces = id WHERE id = ?", reply.id);
        return;
      }
      if (replaces) this.sql("UPDATE messages SET status = 'superseded' WHERE id = ?", replaces.id);
      this.sql(
        `INSERT INTO messages (id, role, content, created_at, status, alternatives, replaces)
         VALUES (?, 'character', '', ?, 'streaming', ?, ?)`,
        reply.id,
        Date.now(),
        JSON.stringify(alternatives),
        reply.replaces,
      );
    });
    this.reply = reply;
    this.broadcast({
      type: "reply_started",
      messageId: reply.id,
      replaces: reply.replaces,
      ...(continuing ? { continues: true } : {}),
    });
    const running = this.writeReply(reply).finally(() => {
      if (this.reply === reply) this.reply = null;
    });
    // The reply is the object's, not a socket's: it completes with nobody connected.
    this.ctx.waitUntil(running);
  }

  private async writeReply(reply: ActiveReply): Promise<void> {
    const room = this.room!;
    let characterName = "The character";
    let character: ReplyCharacter | null = null;
    let lastDeltaAt = 0;
    let deltaTimer: ReturnType<typeof setTimeout> | undefined;
    const flushDelta = () => {
      clearTimeout(deltaTimer);
      deltaTimer = undefined;
      if (reply.sent.length === reply.content.length || this.reply !== reply) return;
      const delta = reply.content.slice(reply.sent.length);
      reply.sent = reply.content;
      lastDeltaAt = Date.now();
      this.broadcast({ type: "character_response_delta", messageId: reply.id, delta });
    };
    try {
      character = await this.loadCharacter();
      if (!character) throw new Error(`character ${room.character_id} not found`);
      characterName = character.name;
      const history = this.promptHistory();
      // A continued reply is the last message of its own prompt, with the text it had.
      if (reply.continues !== null) history.push({ role: "assistant", content: reply.continues });
      const options = this.promptOptions();
      const prompt = buildPrompt(character, history, { ...options, continueLast: reply.continues !== null });
      const model = this.modelFactory(character, room.user_name);
      const pieces = withTokenTimeout(
        model.stream(prompt.messages, {
          maxTokens: options.maxTokens,
          signal: reply.controller.signal,
          attempt: reply.alternatives.length,
          purpose: reply.continues !== null ? "continue" : "reply",
        }),
        this.tokenTimeoutMs,
        () => reply.controller.abort(),
      );
      let flushed = Date.now();
      for await (const text of pieces) {
        if (reply.stopped || this.deleted) break;
        const piece = reply.continues !== null && reply.content === reply.continues ? continuationPiece(reply.continues, text) : text;
        reply.content += piece;
        const wait = DELTA_INTERVAL_MS - (Date.now() - lastDeltaAt);
        if (wait <= 0) flushDelta();
        else deltaTimer ??= setTimeout(flushDelta, wait);
        if (reply.content.length >= MAX_REPLY_CHARS) break;
        if (Date.now() - flushed >= FLUSH_EVERY_MS) {
          this.sql("UPDATE messages SET content = ? WHERE id = ?", reply.content, reply.id);
          flushed = Date.now();
        }
      }
    } catch (error) {
      clearTimeout(deltaTimer);
      if (!reply.stopped) {
        console.warn("reply failed", room.conversation_id, String(error));
        this.failReply(reply, "model_failed", `${characterName} couldn't reply just now. Please try again.`);
        return;
      }
      // A stop aborts the request; what was written so far is kept below.
    }
    if (this.deleted || reply.retracted) {
      clearTimeout(deltaTimer);
      return;
    }
    // Whatever is still buffered goes out before the final frame (a client may build the text from deltas).
    flushDelta();
    const content = reply.content.trim();
    if (content === "" || (reply.continues !== null && content === reply.continues.trim())) {
      if (reply.stopped) this.failReply(reply, "stopped_empty", `The reply was stopped before ${characterName} said anything.`);
      else this.failReply(reply, "model_failed", `${characterName} couldn't reply just now. Please try again.`);
      return;
    }
    const now = Date.now();
    const row = this.sql<MessageRow>(
      "UPDATE messages SET content = ?, status = 'complete', created_at = ?, replaces = NULL WHERE id = ? RETURNING *",
      content,
      now,
      reply.id,
    )[0]!;
    // D1 first, so a client that reloads its chat list on this frame sees the new preview.
    // A continued reply is not a new message: only the preview follows.
    if (reply.continues !== null) this.notePreview(row);
    else this.countMessage(row);
    await this.writeCounters();
    const answer: ServerFrame = {
      type: "character_response",
      content,
      timestamp: new Date(now).toISOString(),
      messageId: reply.id,
      message: this.toWire(row),
      stopped: reply.stopped,
    };
    this.broadcast(answer);
    if (reply.clientId) this.keepReceipt(reply.clientId, answer);
    this.ctx.waitUntil(this.screenReply(row).catch((error) => console.warn("reply screening failed", room.conversation_id, String(error))));
    // The history may no longer fit the prompt: fold its oldest part into the summary, off the reply's path.
    if (character) {
      const card = character;
      this.ctx.waitUntil(this.summarizeIfOverflowing(card).catch((error) => console.warn("summary failed", room.conversation_id, String(error))));
    }
  }

  /**
   * Drops a failed reply (the person's message stays), puts back the one it
   * replaced, and says so. A failed continue puts the reply's text back
   * (`message_updated`) and says so without naming it (it is not dropped).
   */
  private failReply(reply: ActiveReply, code: ChatErrorCode, message: string): void {
    if (this.deleted) return;
    if (reply.continues !== null) {
      const row = this.sql<MessageRow>(
        "UPDATE messages SET content = ?, status = 'complete', replaces = NULL WHERE id = ? RETURNING *",
        reply.continues,
        reply.id,
      )[0];
      if (row) this.broadcast({ type: "message_updated", messageId: reply.id, message: this.toWire(row) });
      this.broadcast(refusal(code, message, reply.clientId ?? undefined));
      return;
    }
    this.dropReply(reply.id, reply.replaces);
    this.ctx.waitUntil(this.writeCounters());
    this.broadcast({ type: "error", code, message, messageId: reply.id });
    if (reply.replaces) {
      // The replaced reply is visible again: every tab gets the list as it is.
      this.broadcast(this.historySync());
    }
  }

  /** The stored messages a prompt reads, oldest first: those after the summary. */
  private promptHistory(): HistoryMessage[] {
    return this.sql<MessageRow>("SELECT * FROM messages WHERE status = 'complete' AND seq > ? ORDER BY seq", this.room!.summary_through).map(
      (row) => ({ role: row.role === "user" ? "user" : "assistant", content: row.content }),
    );
  }

  /** The prompt's settings: budget (AI_CONTEXT_TOKENS, AI_MAX_TOKENS unless a test set `budget`), persona, memory and summary. */
  private promptOptions(): PromptOptions {
    const room = this.room!;
    return {
      userName: room.user_name,
      contextTokens: this.budget?.contextTokens ?? positive(this.env.AI_CONTEXT_TOKENS, 8192),
      maxTokens: this.budget?.maxTokens ?? positive(this.env.AI_MAX_TOKENS, 512),
      personaDescription: room.persona_description,
      memory: room.memory,
      summary: room.summary,
    };
  }

  /**
   * The running summary (decision 0007): when the history after the summary
   * no longer fits the prompt, its oldest part — every message that fell
   * out and at least the older half, never the latest SUMMARY_KEEP_MESSAGES
   * — is summarised by the chat model together with the summary so far, and
   * the summary then covers it. Runs after a reply is stored, never before a
   * reply's first token; the next reply reads it. A delete or rewind
   * meanwhile (the summary was reset) makes the result be thrown away.
   */
  private async summarizeIfOverflowing(character: ReplyCharacter): Promise<void> {
    if (this.deleted || !this.room || this.summarizing) return;
    const rows = this.sql<MessageRow>("SELECT * FROM messages WHERE status = 'complete' AND seq > ? ORDER BY seq", this.room.summary_through);
    const options = this.promptOptions();
    const history = rows.map((row): HistoryMessage => ({ role: row.role === "user" ? "user" : "assistant", content: row.content }));
    const fitted = buildPrompt(character, history, options);
    const dropped = history.length - fitted.historyIncluded;
    if (dropped <= 0) return;
    const count = Math.min(Math.max(dropped, Math.ceil(history.length / 2)), Math.max(0, history.length - SUMMARY_KEEP_MESSAGES));
    if (count <= 0) return;
    const folded = rows.slice(0, count);
    const through = folded.at(-1)!.seq;
    const before = this.room.summary;
    const userName = this.room.user_name;
    this.summarizing = true;
    try {
      const prompt = summaryPrompt(character.name, userName, before, folded.map((row) => ({ isUser: row.role === "user", content: row.content })));
      const model = this.modelFactory(character, userName);
      let summary = "";
      for await (const piece of withTokenTimeout(
        model.stream(prompt, { maxTokens: Math.min(options.maxTokens, SUMMARY_MAX_TOKENS), purpose: "summary" }),
        this.tokenTimeoutMs,
      )) {
        summary += piece;
        if (summary.length >= MAX_SUMMARY_CHARS) break;
      }
      summary = summary.trim().slice(0, MAX_SUMMARY_CHARS);
      if (!summary || this.deleted || !this.room || this.room.summary !== before || this.room.summary_through >= through) return;
      this.sql("UPDATE room SET summary = ?, summary_through = ? WHERE id = 1", summary, through);
      this.room.summary = summary;
      this.room.summary_through = through;
    } finally {
      this.summarizing = false;
    }
  }

  /**
   * The character's card for prompts: kept in memory and in the room's own
   * storage (which outlives hibernation) for CHARACTER_TTL_MS, then re-read
   * from D1. Null when the character no longer exists; a failed read rejects
   * and is not kept.
   */
  private loadCharacter(): Promise<ReplyCharacter | null> {
    const now = Date.now();
    if (!this.character) {
      const stored = this.sql<{ card: string; read_at: number }>("SELECT card, read_at FROM character_card WHERE id = 1")[0];
      if (stored) this.character = { value: Promise.resolve(JSON.parse(stored.card) as ReplyCharacter), at: stored.read_at };
    }
    const cached = this.character;
    if (cached && now - cached.at < CHARACTER_TTL_MS) return cached.value;
    const value = readReplyCharacter(this.env.DB, this.room!.character_id).then((character) => {
      if (character && !this.deleted && this.character?.value === value) {
        this.sql(
          "INSERT INTO character_card (id, card, read_at) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET card = excluded.card, read_at = excluded.read_at",
          JSON.stringify(character),
          now,
        );
      }
      return character;
    });
    this.character = { value, at: now };
    // A failed read is not kept.
    value.catch(() => {
      if (this.character?.value === value) this.character = null;
    });
    return value;
  }

  /** Notes a stored message for the D1 counters (written by writeCounters). */
  private countMessage(row: MessageRow): void {
    const pending = this.notePreview(row);
    pending.messages += 1;
    if (row.role === "user") pending.userMessages += 1;
  }

  /** Notes a message's text for the conversation's preview in D1 (when it is the latest), counting nothing. */
  private notePreview(row: MessageRow): PendingCounters {
    const pending = (this.uncounted ??= { messages: 0, userMessages: 0, lastAt: 0, preview: "" });
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
  private async writeCounters(): Promise<void> {
    const pending = this.uncounted;
    const room = this.room;
    this.uncounted = null;
    if (!pending || !room) return;
    try {
      await recordChatActivity(this.env.DB, { conversationId: room.conversation_id, characterId: room.character_id, ...pending });
    } catch (error) {
      console.error("could not update conversation counters", room.conversation_id, String(error));
    }
  }

  private broadcast(frame: ServerFrame): void {
    const text = JSON.stringify(frame);
    this.sockets ??= this.ctx.getWebSockets();
    for (const ws of this.sockets) {
      try {
        ws.send(text);
      } catch {
        // closing
      }
    }
  }
}

/** An error frame for the sender of a refused frame (with its clientId, when it had one). */
function refusal(code: ChatErrorCode, message: string, clientId?: string): ServerFrame {
  return { type: "error", code, message, ...(clientId ? { clientId } : {}) };
}

function isRow(value: MessageRow | ServerFrame): value is MessageRow {
  return "seq" in value;
}

/**
 * The first piece of a continuation, joined to the reply's text: a space
 * before a word, an action (`*`) or a quote (models often start a
 * continuation without one), none before closing punctuation or when either
 * side already has white space.
 */
function continuationPiece(base: string, piece: string): string {
  if (/\s$/.test(base) || /^[\s,.;:!?…)\]}”’-]/.test(piece) || piece === "") return piece;
  return ` ${piece}`;
}

function send(ws: WebSocket, frame: ServerFrame): void {
  try {
    ws.send(JSON.stringify(frame));
  } catch {
    // closing
  }
}

/** A stored message as a new room's SeedMessage (a branch). */
function seedOf(row: MessageRow): SeedMessage {
  const seed: SeedMessage = { isUser: row.role === "user", content: row.content, createdAt: row.created_at, alternatives: JSON.parse(row.alternatives) as string[] };
  if (row.swipe_index !== null) seed.swipeIndex = row.swipe_index;
  return seed;
}

/** A stored reply's content, alternatives and swipe index, as `replyVersions` reads them. */
function versionFields(row: MessageRow): ReplyVersionFields {
  const alternatives = JSON.parse(row.alternatives) as string[];
  return row.swipe_index === null ? { content: row.content, alternatives } : { content: row.content, alternatives, swipeIndex: row.swipe_index };
}

function positive(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}
