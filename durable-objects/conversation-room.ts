/**
 * ConversationRoom — one Durable Object per conversation (DESIGN.md "Shape",
 * "Real-time chat protocol"), addressed by `idFromName(conversationId)`.
 *
 * - Learns its conversation once, from the Worker (`initialize`): id, owner,
 *   character, the owner's name, and the greeting as the first message.
 * - Keeps the messages in its own SQLite (`ctx.storage.sql`), with a schema
 *   versioned by the `_schema` row and migrated on construction.
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
  messagePreview,
  readReplyCharacter,
  recordChatActivity,
  type ReplyCharacter,
} from "../worker/lib/chat-store.ts";
import type { ChatModel } from "./chat-model.ts";
import { chatModelName, createChatModel, withTokenTimeout } from "./chat-models.ts";
import { buildPrompt, type HistoryMessage } from "./prompt.ts";
import { readClientMessage, readRoomVisitor, type RoomFacts } from "./room-protocol.ts";

/** Per-socket facts that survive hibernation. */
interface SocketState {
  conversationId: string;
  userId: string;
}

interface RoomRow {
  conversation_id: string;
  user_id: string;
  character_id: number;
  user_name: string;
  created_at: number;
}

interface MessageRow {
  seq: number;
  id: string;
  role: "user" | "character";
  content: string;
  created_at: number;
  client_id: string | null;
  /** complete: visible; streaming: being written; superseded: replaced by regenerate (an alternative). */
  status: "complete" | "streaming" | "superseded";
  rating: 1 | -1 | null;
  /** JSON list of the reply's other versions (regenerate), in the order they were written. */
  alternatives: string;
  /** The reply this one replaces (while streaming), for putting it back if this one fails. */
  replaces: string | null;
  /** Place of `content` among the versions after a swipe; null when it is the newest (ChatMessage.swipeIndex). */
  swipe_index: number | null;
}

/** Stored messages not yet written to D1 (writeCounters): how many, and the latest one's time (ms) and preview. */
type PendingCounters = Omit<ChatActivity, "conversationId" | "characterId">;

/** A reply being written. */
interface ActiveReply {
  id: string;
  replaces: string | null;
  alternatives: string[];
  /** Everything the model wrote so far. */
  content: string;
  /** What the sockets have been sent of it (deltas are coalesced, DELTA_INTERVAL_MS). */
  sent: string;
  stopped: boolean;
  controller: AbortController;
}

/**
 * The object's SQL schema, one list of statements per version. Never edit a
 * shipped version; append a new one (cloudflare/agents `_ensureSchema`).
 */
const MIGRATIONS: string[][] = [
  [
    `CREATE TABLE room (
       id INTEGER PRIMARY KEY CHECK (id = 1),
       conversation_id TEXT NOT NULL,
       user_id TEXT NOT NULL,
       character_id INTEGER NOT NULL,
       user_name TEXT NOT NULL,
       created_at INTEGER NOT NULL
     )`,
    `CREATE TABLE messages (
       seq INTEGER PRIMARY KEY AUTOINCREMENT,
       id TEXT NOT NULL UNIQUE,
       role TEXT NOT NULL CHECK (role IN ('user', 'character')),
       content TEXT NOT NULL,
       created_at INTEGER NOT NULL,
       client_id TEXT UNIQUE,
       status TEXT NOT NULL DEFAULT 'complete' CHECK (status IN ('complete', 'streaming', 'superseded')),
       rating INTEGER CHECK (rating IN (1, -1)),
       alternatives TEXT NOT NULL DEFAULT '[]',
       replaces TEXT
     )`,
    "CREATE INDEX messages_status_idx ON messages (status, seq)",
  ],
  // 2: swipes — which version of a reply is its content.
  ["ALTER TABLE messages ADD COLUMN swipe_index INTEGER"],
  // 3: the character's card as last read from D1, so a room woken from
  // hibernation answers without reading D1 first (see loadCharacter).
  [
    `CREATE TABLE character_card (
       id INTEGER PRIMARY KEY CHECK (id = 1),
       card TEXT NOT NULL,
       read_at INTEGER NOT NULL
     )`,
  ],
];

/** Newest schema version. */
export const ROOM_SCHEMA_VERSION = MIGRATIONS.length;

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

export class ConversationRoom extends DurableObject<Env> {
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

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    void ctx.blockConcurrencyWhile(async () => {
      this.migrate();
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

  private migrate(): void {
    this.ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS _schema (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)");
    const current = this.sql<{ version: number }>("SELECT version FROM _schema WHERE id = 1")[0]?.version ?? 0;
    for (let version = current + 1; version <= MIGRATIONS.length; version++) {
      this.ctx.storage.transactionSync(() => {
        for (const statement of MIGRATIONS[version - 1]!) this.ctx.storage.sql.exec(statement);
        this.ctx.storage.sql.exec(
          "INSERT INTO _schema (id, version) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET version = excluded.version",
          version,
        );
      });
    }
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
        this.countMessage(row);
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
    if (row.status === "streaming") {
      message.status = "streaming";
      // Exactly what this socket's later deltas continue from.
      if (this.reply?.id === row.id) message.content = this.reply.sent;
    }
    return message;
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
        "INSERT INTO room (id, conversation_id, user_id, character_id, user_name, created_at) VALUES (1, ?, ?, ?, ?, ?)",
        facts.conversationId,
        facts.userId,
        facts.characterId,
        facts.userName,
        facts.createdAt,
      );
      if (facts.greeting) {
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

  /** The messages, oldest first, for their owner; null for anyone else (the Worker answers 404). */
  async listMessages(userId: string): Promise<ChatMessage[] | null> {
    if (this.deleted || !this.room || this.room.user_id !== userId) return null;
    return this.visibleMessages().filter((m) => m.status !== "streaming");
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
    const { conversationId, userId, userName } = readRoomVisitor(request.headers);
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
    this.ctx.acceptWebSocket(server);
    this.sockets = null;
    server.serializeAttachment({ conversationId, userId } satisfies SocketState);
    if (userName && userName !== this.room!.user_name) {
      this.sql("UPDATE room SET user_name = ? WHERE id = 1", userName);
      this.room!.user_name = userName;
    }
    return new Response(null, { status: 101, webSocket: client });
  }

  private async wipe(): Promise<void> {
    this.deleted = true;
    if (this.reply) {
      this.reply.stopped = true;
      this.reply.controller.abort();
    }
    for (const ws of this.ctx.getWebSockets()) {
      try {
        ws.close(CLOSE_CODES.policyViolation, "Conversation deleted");
      } catch {
        // already closed
      }
    }
    this.room = null;
    this.sockets = null;
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
        send(ws, {
          type: "history_sync",
          conversationId: state.conversationId,
          messages: this.visibleMessages(),
          chatModel: chatModelName(this.env),
        });
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
    }
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    this.sockets = null;
    // Answer a close with a close, or the client sees 1006 (1005/1006 cannot be sent).
    try {
      ws.close(code === 1005 || code === 1006 ? CLOSE_CODES.normal : code, reason);
    } catch {
      // already closed
    }
  }

  override async webSocketError(ws: WebSocket, error: unknown): Promise<void> {
    this.sockets = null;
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
   * the message rate limit, which the sender is told (with `clientId`, when
   * given). One admission at a time: others meanwhile get `busy`.
   */
  private async admit(ws: WebSocket, state: SocketState, clientId: string | null, start: () => void): Promise<void> {
    this.admitting = true;
    try {
      if (!(await this.withinRateLimit(state.userId))) {
        send(ws, { type: "error", code: "rate_limited", message: RATE_LIMITED_MESSAGE, ...(clientId ? { clientId } : {}) });
        return;
      }
      if (this.deleted) return;
      start();
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
    await this.admit(ws, state, clientId, () => {
      const row = this.sql<MessageRow>(
        "INSERT INTO messages (id, role, content, created_at, client_id) VALUES (?, 'user', ?, ?, ?) RETURNING *",
        crypto.randomUUID(),
        content,
        Date.now(),
        clientId,
      )[0]!;
      this.broadcast({ type: "message_saved", clientId, messageId: row.id, message: this.toWire(row) });
      // Counted in D1 with the reply it starts, whose end (or failure) always writes the counters.
      this.countMessage(row);
      this.startReply(null);
    });
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
    await this.admit(ws, state, null, () => this.startReply(target));
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

  /** Starts writing a reply (replacing `replaces`, when given); it runs on its own. */
  private startReply(replaces: MessageRow | null): void {
    // Every version of the replaced reply in written order; the new one will be the newest.
    const alternatives = replaces ? replyVersions(versionFields(replaces)).versions : [];
    const reply: ActiveReply = {
      id: crypto.randomUUID(),
      replaces: replaces?.id ?? null,
      alternatives,
      content: "",
      sent: "",
      stopped: false,
      controller: new AbortController(),
    };
    this.ctx.storage.transactionSync(() => {
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
    this.broadcast({ type: "reply_started", messageId: reply.id, replaces: reply.replaces });
    const running = this.writeReply(reply).finally(() => {
      if (this.reply === reply) this.reply = null;
    });
    // The reply is the object's, not a socket's: it completes with nobody connected.
    this.ctx.waitUntil(running);
  }

  private async writeReply(reply: ActiveReply): Promise<void> {
    const room = this.room!;
    let characterName = "The character";
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
      const character = await this.loadCharacter();
      if (!character) throw new Error(`character ${room.character_id} not found`);
      characterName = character.name;
      const history: HistoryMessage[] = this.sql<MessageRow>(
        "SELECT * FROM messages WHERE status = 'complete' ORDER BY seq",
      ).map((row) => ({ role: row.role === "user" ? "user" : "assistant", content: row.content }));
      const maxTokens = positive(this.env.AI_MAX_TOKENS, 512);
      const prompt = buildPrompt(character, history, {
        userName: room.user_name,
        contextTokens: positive(this.env.AI_CONTEXT_TOKENS, 8192),
        maxTokens,
      });
      const model = this.modelFactory(character, room.user_name);
      const pieces = withTokenTimeout(
        model.stream(prompt.messages, { maxTokens, signal: reply.controller.signal, attempt: reply.alternatives.length }),
        this.tokenTimeoutMs,
        () => reply.controller.abort(),
      );
      let flushed = Date.now();
      for await (const piece of pieces) {
        if (reply.stopped || this.deleted) break;
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
    if (this.deleted) {
      clearTimeout(deltaTimer);
      return;
    }
    // Whatever is still buffered goes out before the final frame (a client may build the text from deltas).
    flushDelta();
    const content = reply.content.trim();
    if (content === "") {
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
    this.countMessage(row);
    await this.writeCounters();
    this.broadcast({
      type: "character_response",
      content,
      timestamp: new Date(now).toISOString(),
      messageId: reply.id,
      message: this.toWire(row),
      stopped: reply.stopped,
    });
  }

  /** Drops a failed reply (the person's message stays), puts back the one it replaced, and says so. */
  private failReply(reply: ActiveReply, code: ChatErrorCode, message: string): void {
    if (this.deleted) return;
    this.dropReply(reply.id, reply.replaces);
    this.ctx.waitUntil(this.writeCounters());
    this.broadcast({ type: "error", code, message, messageId: reply.id });
    if (reply.replaces) {
      // The replaced reply is visible again: every tab gets the list as it is.
      this.broadcast({
        type: "history_sync",
        conversationId: this.room!.conversation_id,
        messages: this.visibleMessages(),
        chatModel: chatModelName(this.env),
      });
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

function send(ws: WebSocket, frame: ServerFrame): void {
  try {
    ws.send(JSON.stringify(frame));
  } catch {
    // closing
  }
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
