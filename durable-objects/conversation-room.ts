/**
 * ConversationRoom — one Durable Object per conversation (DESIGN.md "Shape",
 * "Real-time chat protocol"), addressed by `idFromName(conversationId)`.
 *
 * A thin shell (STYLE.md "Durable Object"; cloudflare/agents
 * `capabilities/`): the runtime's entry points — `fetch`, `webSocketMessage`,
 * `webSocketClose`, `webSocketError`, `alarm` and the RPC methods the
 * Worker and PersonSockets call — hand each job to the module in `room/`
 * that owns it:
 *
 * | job | module |
 * |---|---|
 * | the object's SQLite: tables, migrations (`_schema` row) | room/migrations.ts |
 * | every statement on it, the `room` row in memory | room/store.ts (its parts: cast.ts, people.ts, kept.ts, message-edits.ts, reply-rows.ts) |
 * | sockets: accept, caps, idle alarm, broadcast, close answers | room/sockets.ts (limits: socket-limits.ts) |
 * | replies: when a reply starts (admission, busy, rate limits), stop, recover | room/replies.ts (limits: rate-limits.ts) |
 * | writing one reply: stream, store, fail, `history_sync` | room/reply-writing.ts (text rules: reply-text.ts) |
 * | reply rounds: who answers a message, one reply after another, ending the round | room/rounds.ts |
 * | the running summary | room/summary.ts |
| memory: vectors, recall, what each reply recalled and was sent | room/memory.ts (embedders: ai/embeddings/) |
 * | the card, history and settings a prompt is made of | room/prompt-inputs.ts (assembly: prompt.ts) |
 * | steering: edit, delete, rewind, continue, memory, swipe, rating, branch | room/steering.ts |
 * | pictures imagined in the chat: imagine, cancel, delete, their R2 objects | room/images.ts (rows: image-rows.ts; allowance: image-quota.ts) |
 * | screening messages and replies, operator removals | room/screening.ts |
 * | refusing a suspended person's frames, closing their sockets | room/suspension.ts |
 * | check-ins: the character writes first after a quiet spell (the alarm's other job) | room/check-ins.ts |
 * | what D1 learns from the room (counters, last message, log) and reads | room/d1-sync.ts |
 * | client frames: who may send each, which module it goes to | room/client-frames.ts |
 * | what a test may replace | room/seams.ts |
 *
 * What the shell itself decides: the facts a new room is given
 * (`initialize`) and whether a socket may join at all (the owner of this
 * conversation). Frames are read by room-protocol.ts (the zod union of
 * schema/chat.ts); anything else gets an error frame or a close with a
 * clear code and reason (CLOSE_CODES). A frame read is handed to
 * room/client-frames.ts, which checks its powers and picks its module.
 *
 * The object's imports: `schema/`, `ai/` and its own folder — never
 * `worker/` (docs/decisions/0012-room-modules-and-ai.md).
 */
import { DurableObject } from "cloudflare:workers";
import type { ChatModel } from "../ai/chat-model.ts";
import { createChatModel } from "../ai/chat-models.ts";
import { createImageGenerator } from "../ai/images/generators.ts";
import type { ImageGenerator } from "../ai/images/image-generator.ts";
import { moderatorFor } from "../ai/moderation/choose.ts";
import { type Moderator } from "../ai/moderation/moderator.ts";
import { type ChatMessage, CLOSE_CODES, GONE_CLOSE_REASONS, MODERATED_MESSAGE_TEXT, type PromptRecord, type ReplyOrder } from "../schema/chat.ts";
import { PING_FRAME, PONG_FRAME, type ServerFrame } from "../schema/chat-frames.ts";
import { DELETED_ACCOUNT_ID, DELETED_AUTHOR_NAME } from "../schema/account.ts";
import { addReplyRating, D1Sync, type ReplyCharacter } from "./room/d1-sync.ts";
import { chatEmbedder } from "./room/model-choice.ts";
import { PromptInputs } from "./room/prompt-inputs.ts";
import { ReplyRounds, TOKEN_TIMEOUT_MS } from "./room/replies.ts";
import { RoomScreening } from "./room/screening.ts";
import type { RoomSeams } from "./room/seams.ts";
import { RoomSockets, send, type SocketState } from "./room/sockets.ts";
import { forgetSpeechLater } from "./room/speech-audio.ts";
import { Steering } from "./room/steering.ts";
import { pictureUrl } from "./room/image-rows.ts";
import { RoomImages } from "./room/images.ts";
import { RoomStore } from "./room/store.ts";
import { RoomSummary } from "./room/summary.ts";
import { RoomSuspension } from "./room/suspension.ts";
import type { TimedState } from "../schema/lorebook/activation.ts";
import { CheckInRows, RoomCheckIns } from "./room/check-ins.ts";
import { ClientFrames } from "./room/client-frames.ts";
import { readClientMessage, readRoomVisitor, type RoomCastMember, type RoomFacts, type SeedMessage, type SeedPicture } from "./room-protocol.ts";
import { CLOSE_REASONS, type SocketHolder } from "./socket-limits.ts";
import { type ConversationSearchMatch, searchPattern } from "../schema/chat-search.ts";


export class ConversationRoom extends DurableObject<Env> implements SocketHolder, RoomSeams {
  private readonly store: RoomStore;
  private readonly sockets: RoomSockets;
  private readonly d1: D1Sync;
  private readonly inputs: PromptInputs;
  private readonly screening: RoomScreening;
  private readonly replies: ReplyRounds;
  private readonly steering: Steering;
  private readonly images: RoomImages;
  private readonly checkIns: RoomCheckIns;
  private readonly frames: ClientFrames;

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
  /** The painter of pictures imagined in the chat (IMAGE_PROVIDER). A seam for tests that need a failing or slow one. */
  imageGeneratorFactory: () => ImageGenerator = () => createImageGenerator(this.env);
  /** The prompt's budget in tokens; unset: AI_CONTEXT_TOKENS and AI_MAX_TOKENS. A seam for tests of the summary. */
  budget: { contextTokens: number; maxTokens: number } | null = null;
  /** The clock of the socket limits (opened, last seen, idle check), ms since the epoch. A seam for tests. */
  now: () => number = () => Date.now();
  /** The reply orders' random source, [0, 1). A seam for tests (schema/seeded-random.ts mulberry32). */
  random: () => number = Math.random;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // The store is made before `this.d1`: the chooser reads it at its first use.
    this.store = new RoomStore(ctx.storage, chatEmbedder(env, () => this.d1, () => this.store.room?.user_id ?? null));
    // Audio read aloud of words no message shows any more is deleted (DESIGN.md "Voices").
    this.store.onWordsChanged = (messageIds) => this.forgetSpeech(messageIds);
    this.sockets = new RoomSockets(ctx, env, () => this.now());
    this.d1 = new D1Sync(env.DB, this.store);
    const suspension = new RoomSuspension(ctx, env, this.sockets, () => this.now(), (userId, startsReply) => this.d1.readSuspended(userId, startsReply));
    this.inputs = new PromptInputs(env, this.store, this.d1, this);
    this.screening = new RoomScreening(ctx, this.store, this.sockets, this.d1, this.inputs, this);
    const summary = new RoomSummary(this.store, this.inputs, this);
    this.replies = new ReplyRounds(ctx, env, {
      store: this.store,
      sockets: this.sockets,
      d1: this.d1,
      inputs: this.inputs,
      screening: this.screening,
      summary,
      seams: this,
    });
    this.steering = new Steering(this.store, this.sockets, this.d1, this.replies, this.screening);
    this.images = new RoomImages(ctx, env, { store: this.store, sockets: this.sockets, screening: this.screening, inputs: this.inputs, d1: this.d1, seams: this });
    this.store.onPicturesGone = (objectKeys) => this.images.forgetLater(objectKeys);
    this.checkIns = new RoomCheckIns(ctx, env, { store: this.store, rows: new CheckInRows(ctx.storage), replies: this.replies, sockets: this.sockets, now: () => this.now() });
    this.frames = new ClientFrames(ctx, env, {
      store: this.store,
      sockets: this.sockets,
      inputs: this.inputs,
      replies: this.replies,
      steering: this.steering,
      suspension,
      images: this.images,
      checkIns: this.checkIns,
    });
    void ctx.blockConcurrencyWhile(async () => {
      this.store.open();
      this.replies.recoverInterrupted();
      // A chat from before memory (or another embedder) is embedded in bounded batches, one per wake (room/memory.ts).
      if (this.store.room && !this.store.deleted) ctx.waitUntil(this.store.memory.embedPending());
      // A room of several people that stopped with messages waiting for a round answers them now (rounds.ts).
      if (this.store.room && !this.store.deleted) ctx.waitUntil(this.replies.answerPending());
    });
    // Keep-alives are answered by the runtime without waking the object.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(PING_FRAME, PONG_FRAME));
  }

  /** The room exists and is `userId`'s. */
  private owns(userId: string): boolean {
    return !this.store.deleted && this.store.room !== null && this.store.room.user_id === userId;
  }

  /**
   * `userId` may read the room: its owner, or — `asMember` — a member of the
   * shared room the Worker checked in D1 (DESIGN.md "Shared rooms").
   */
  private reads(userId: string, asMember: boolean): boolean {
    return this.owns(userId) || (asMember && !this.store.deleted && this.store.room !== null);
  }

  /** Deletes, after this event, the stored audio of `messageIds` (every message's when omitted): speech-audio.ts. */
  private forgetSpeech(messageIds?: string[]): void {
    forgetSpeechLater(this.ctx, this.env.AVATARS, this.store.room?.conversation_id, messageIds);
  }

  /** Every socket gets who is here now (a socket opened or closed). */
  private announcePresence(): void {
    if (this.store.deleted || !this.store.room) return;
    this.sockets.broadcast({ type: "presence", people: this.sockets.people().map((person) => ({ ...person, typing: false })) });
  }

  /**
   * A member left or was removed (the Worker already deleted their row):
   * their sockets here close with 1008, and the others see them go.
   */
  async removePerson(userId: string): Promise<void> {
    if (this.owns(userId)) return;
    if (this.store.room && !this.store.deleted) this.store.people.markRemoved(userId);
    this.sockets.closeUser(userId, GONE_CLOSE_REASONS.removed);
    this.announcePresence();
  }

  // -------------------------------------------------------------------------
  // Calls from the Worker (RPC).

  /**
   * Stores the conversation's facts and its greeting. Idempotent for the
   * same conversation id. Throws when the object already belongs to another.
   */
  async initialize(facts: RoomFacts): Promise<void> {
    if (this.store.deleted) throw new Error("conversation deleted");
    if (this.store.room) {
      if (this.store.room.conversation_id !== facts.conversationId) throw new Error("room belongs to another conversation");
      return;
    }
    const copies = this.store.create(facts);
    // A branch's pictures: their files are copied before the branch is answered, so none is missing when it opens.
    if (copies.length > 0) await this.images.copyIn(copies);
    // A branch or an imported chat starts with messages: they are embedded at once, off the path (room/memory.ts).
    this.ctx.waitUntil(this.store.memory.embedPending());
  }

  /** The chat's pinned memories changed (worker/routes/memories.ts): the next prompt reads them from D1. */
  async pinnedChanged(): Promise<void> {
    this.store.memory.forgetPinned();
  }

  /**
   * The prompt inspector (DESIGN.md "Memory"): what was sent for the
   * version shown of reply `messageId`. Null — the Worker's 404 — for anyone
   * but the owner, a person's message, an unknown id, and a reply whose
   * record is no longer kept (room/memory.ts PROMPT_RECORDS_KEPT) or was
   * written before the inspector existed.
   */
  async promptRecord(userId: string, messageId: string): Promise<PromptRecord | null> {
    if (!this.owns(userId)) return null;
    const row = this.store.visibleRow(messageId);
    if (!row || row.role !== "character") return null;
    return this.store.memory.record(row);
  }

  /** "Branch from here" (Steering.branchSource): the messages up to `messageId`, the memory note, pictures and lorebook timers; "busy"; or null. */
  async branchSource(
    userId: string,
    messageId: string,
    asMember = false,
  ): Promise<{ messages: SeedMessage[]; memory: string; pictures: SeedPicture[]; lorebookState: TimedState | null } | "busy" | null> {
    if (!this.reads(userId, asMember)) return null;
    return this.steering.branchSource(this.store.room!.user_id, messageId);
  }

  /** The messages, oldest first, for their owner; null for anyone else (the Worker answers 404). */
  async listMessages(userId: string, asMember = false): Promise<ChatMessage[] | null> {
    if (!this.reads(userId, asMember)) return null;
    return this.store.wireHistory(userId, null, false);
  }

  /**
   * My Chats search (schema/chat-search.ts): the newest message whose words
   * contain `q`, case-insensitively, with its excerpt; null when none does
   * or the room is not `userId`'s to read.
   */
  async searchMessages(userId: string, q: string, asMember = false): Promise<ConversationSearchMatch | null> {
    if (!this.reads(userId, asMember) || q.trim() === "") return null;
    return this.store.findText(searchPattern(q));
  }

  /**
   * The cast or the reply order changed (the Worker's conversation routes,
   * DESIGN.md "Group chats"): the room keeps them, and every socket gets
   * `cast_updated`. A member removed in the middle of a round does not
   * speak in it any more (Rounds.next). False when the room is not `userId`'s.
   */
  async setCast(userId: string, cast: RoomCastMember[], replyOrder: ReplyOrder): Promise<boolean> {
    if (!this.owns(userId) || cast.length === 0) return false;
    this.store.setCast(cast, replyOrder);
    this.sockets.broadcast({
      type: "cast_updated",
      characters: cast.map((member) => ({ id: member.characterId, name: member.name, muted: member.muted, talkativeness: member.talkativeness })),
      replyOrder,
    });
    return true;
  }

  /**
   * Messages an operator removed: a picture among them is deleted with its
   * R2 object (RoomImages.removeByOperator), a message's text is hidden
   * (RoomScreening.hideMessages); how many changed.
   */
  async hideMessages(messageIds: string[]): Promise<number> {
    const pictures = new Set(await this.images.removeByOperator(messageIds));
    return pictures.size + (await this.screening.hideMessages(messageIds.filter((id) => !pictures.has(id))));
  }

  /**
   * Characters `characterIds` were removed by an operator: every message of
   * theirs here (a greeting included) reads MODERATED_MESSAGE_TEXT from now
   * on, as a hidden message does (docs/decisions/0025); how many changed.
   */
  async hideCharacterMessages(characterIds: number[]): Promise<number> {
    const ids = this.store.messageIdsOfCharacters(characterIds, MODERATED_MESSAGE_TEXT);
    let changed = 0;
    for (let at = 0; at < ids.length; at += 1000) changed += await this.screening.hideMessages(ids.slice(at, at + 1000));
    return changed;
  }

  /**
   * One stored message as its owner sees it (what a report copies); null
   * when the room is not `userId`'s or has no such complete message.
   */
  async readMessage(
    userId: string,
    messageId: string,
    asMember = false,
  ): Promise<{ isUser: boolean; content: string; characterId: number | null } | null> {
    if (!this.reads(userId, asMember)) return null;
    const row = this.store.visibleRow(messageId);
    return row ? { isUser: row.role === "user", content: row.content, characterId: row.character_id } : null;
  }

  /**
   * One picture of the chat (DESIGN.md "Pictures") as a report copies it:
   * its prompt as `content`, its `imageUrl`, its speaker and who asked for
   * it (`authorId`); null when the room is not `userId`'s or has no such
   * picture. Apart from readMessage so that no text path (memories, speech)
   * ever reads a picture's prompt as a message.
   */
  async readPicture(
    userId: string,
    pictureId: string,
    asMember = false,
  ): Promise<{ isUser: false; content: string; characterId: number | null; kind: "image"; imageUrl: string; authorId: string } | null> {
    if (!this.reads(userId, asMember)) return null;
    const picture = this.images.get(pictureId);
    if (!picture) return null;
    return { isUser: false, content: picture.prompt, characterId: picture.character_id, kind: "image", imageUrl: pictureUrl(picture.object_key), authorId: picture.author_id };
  }

  /**
   * `userId`'s thumb on a character reply (Steering.rateMessage), the owner's
   * or — `asMember` — a member's of the shared room: thumbs are per person.
   * `not_found` for anyone else. Throws when D1 cannot be updated.
   */
  async rateMessage(
    userId: string,
    messageId: string,
    value: 1 | -1 | 0,
    asMember = false,
  ): Promise<{ ok: true; rating: 1 | -1 | null } | { ok: false; reason: "not_found" | "not_a_reply" }> {
    if (!this.reads(userId, asMember)) return { ok: false, reason: "not_found" };
    return this.steering.rateMessage(userId, messageId, value);
  }

  /**
   * The person picked another persona for this conversation (or the
   * default; a member of a shared room, possibly none): their name for
   * `{{user}}` and the persona's description, from their next message on
   * (the Worker checked the membership). False when the room is gone.
   */
  async setPersona(userId: string, person: { userName: string; personaDescription: string }): Promise<boolean> {
    if (this.owns(userId)) {
      this.store.notePerson(person.userName, person.personaDescription);
      return true;
    }
    if (this.store.deleted || !this.store.room) return false;
    // A member who never connected is noted when they do (the Worker reads their persona then).
    if (this.store.people.of(userId)) {
      this.store.people.note(userId, { name: person.userName, personaDescription: person.personaDescription, role: "member" });
      this.sockets.rename(userId, person.userName);
    }
    return true;
  }

  /** RPC (PersonSockets): the ids of this room's open sockets. */
  async openSocketIds(): Promise<string[]> {
    return this.sockets.openSocketIds();
  }

  /** RPC (PersonSockets): closes socket `socketId` with 1008 and `reason`; false when it is not open here. */
  async closeSocket(socketId: string, reason: string): Promise<boolean> {
    return this.sockets.closeSocket(socketId, reason);
  }

  /**
   * - `DELETE https://room/delete`: the conversation was deleted in D1
   *   (worker/lib/characters.ts deleteConversationStorage); sockets are
   *   closed and the storage wiped.
   * - A WebSocket upgrade from the Worker (`roomUpgradeHeaders`): accepted
   *   for the conversation's owner; anyone else gets a `forbidden` error
   *   frame and a close with 1008.
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
    const { conversationId, userId, userName, personaDescription, role, sessionId } = readRoomVisitor(request.headers);
    const { 0: client, 1: server } = new WebSocketPair();
    const room = this.store.room;
    const refusal =
      this.store.deleted || !room || room.conversation_id !== conversationId
        ? GONE_CLOSE_REASONS.notFound
        : room.user_id !== userId && role !== "member"
          ? "This conversation belongs to someone else"
          : null;
    if (refusal) {
      // Not accepted for hibernation: it never joins the conversation's sockets.
      server.accept();
      server.send(JSON.stringify({ type: "error", code: "forbidden", message: refusal } satisfies ServerFrame));
      server.close(CLOSE_CODES.policyViolation, refusal);
      return new Response(null, { status: 101, webSocket: client });
    }
    // Each person's name and persona are kept: `{{user}}` when their message is answered (PromptInputs.forReply).
    if (role !== "member") this.store.notePerson(userName, personaDescription);
    else this.store.people.note(userId, { name: userName, personaDescription, role: "member" });
    await this.sockets.accept(server, conversationId, userId, { role: role === "member" ? "member" : "owner", name: userName, sessionId: sessionId ?? null });
    this.announcePresence();
    return new Response(null, { status: 101, webSocket: client });
  }

  /**
   * RPC (`PATCH /api/conversations/{id}` `{checkIns}`, the Worker checked the
   * chat is one-to-one): the owner turns check-ins on or off. False when the
   * room is not `userId`'s.
   */
  async setCheckIns(userId: string, enabled: boolean): Promise<boolean> {
    if (!this.owns(userId)) return false;
    await this.checkIns.set(enabled);
    return true;
  }

  /** The alarm, shared: the idle check (RoomSockets.closeIdle) and check-ins (room/check-ins.ts), each arming its next time. */
  override async alarm(): Promise<void> {
    if (this.store.deleted) return;
    await this.sockets.closeIdle();
    await this.checkIns.run();
  }

  /**
   * The conversation was deleted: the reply stops, sockets close (1008, `reason`), its audio
   * read aloud and the storage are deleted.
   */
  private async wipe(reason: string = GONE_CLOSE_REASONS.deleted): Promise<void> {
    this.forgetSpeech();
    const conversationId = this.store.room?.conversation_id;
    // Its pictures' objects go too (DESIGN.md "Pictures"); a failure leaves unreachable objects, logged.
    if (conversationId) await this.images.forgetAll(conversationId).catch((error: unknown) => console.error("forgetting pictures failed", String(error)));
    this.store.deleted = true;
    this.replies.stop();
    this.sockets.closeAll(reason);
    await this.store.wipe();
  }

  /**
   * RPC: person `userId` deleted their account (worker/lib/account/deletion.ts;
   * D1 has already forgotten them). Their thumbs here are taken back from
   * the characters' ratings. A room they owned tells every open socket why
   * (an error frame, then a close with GONE_CLOSE_REASONS.ownerLeft) and is
   * wiped; in a room they joined, their messages stay, shown as from
   * DELETED_AUTHOR_NAME, and their sockets close. Returns what happened.
   * Throws when D1 cannot take the thumbs back.
   */
  async accountDeleted(userId: string): Promise<"wiped" | "forgotten" | "absent"> {
    if (this.store.deleted || !this.store.room) return "absent";
    const owner = this.owns(userId);
    const thumbs = this.store.people.forgetPerson(userId);
    for (const { characterId, up, down } of thumbs) await addReplyRating(this.env.DB, characterId, { up: -up, down: -down });
    if (owner) {
      this.sockets.broadcast({ type: "error", code: "forbidden", message: `${GONE_CLOSE_REASONS.ownerLeft}.` });
      await this.wipe(GONE_CLOSE_REASONS.ownerLeft);
      return "wiped";
    }
    this.store.relabelAuthor(userId, { id: DELETED_ACCOUNT_ID, name: DELETED_AUTHOR_NAME });
    this.sockets.closeUser(userId, CLOSE_REASONS.accountDeleted);
    this.announcePresence();
    return "forgotten";
  }

  // -------------------------------------------------------------------------
  // WebSocket events (Hibernation API).

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    const state = ws.deserializeAttachment() as SocketState | null;
    if (!state || this.store.deleted || !this.store.room) {
      ws.close(CLOSE_CODES.policyViolation, GONE_CLOSE_REASONS.notFound);
      return;
    }
    this.sockets.noteSeen(ws, state);
    const read = readClientMessage(message);
    if (read.kind === "close") {
      ws.close(read.code, read.reason);
      return;
    }
    if (read.kind === "answer") {
      send(ws, read.frame);
      return;
    }
    await this.frames.receive(ws, state, read.frame);
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    this.sockets.closed(ws, code, reason);
    this.announcePresence();
  }

  override async webSocketError(ws: WebSocket, error: unknown): Promise<void> {
    this.sockets.failed(ws, error);
  }
}
