/**
 * Reply rounds: when a reply starts (admission: busy, rate limits,
 * screening beside it), how a round goes on and stops, and how a reply
 * interrupted by a restart is recovered.
 *
 * - A round starts with a person's message (`receiveMessage`), a
 *   `regenerate` of the last reply, a `continue` (steering.ts) or a
 *   `generate` ("Let … speak"). One reply at a time: while one is written or
 *   a message admitted, others get `busy` — except a person's message in a
 *   room of several people, which is stored at once and answered when the
 *   round ends (rounds.ts). Each start is rate limited per
 *   person: a message by MESSAGE_RATE_LIMITER, a regenerate, continue or
 *   generate by REPLY_RATE_LIMITER (sized for swiping, docs/decisions/0020);
 *   a refusal says how long to wait (`retryAfterMs`).
 * - Group chats (DESIGN.md "Group chats"): a person's message is answered
 *   by the members the reply order picks, one reply after another
 *   (rounds.ts). `stop` ends the round; a failed reply ends it too.
 *   `regenerate`, `swipe` and `continue` keep the reply's speaker.
 * - Writing one reply — streaming, storing, failing, the deltas' pace — is
 *   reply-writing.ts (ReplyWriting); this module decides when one starts.
 */
import { noticeAwayPeople } from "./away-notices.ts";
import { isChildSafetyViolation, type ModerationVerdict } from "../../ai/moderation/moderator.ts";
import { MESSAGE_REFUSED_TEXT } from "../../schema/chat.ts";
import type { ServerFrame } from "../../schema/chat-frames.ts";
import type { D1Sync } from "./d1-sync.ts";
import type { PromptInputs } from "./prompt-inputs.ts";
import { type RoundKind, rateLimitedFrame, withinRateLimit } from "./rate-limits.ts";
import { type ActiveReply, type CheckInRequest, ReplyWriting, type WritingParts } from "./reply-writing.ts";
import { Rounds } from "./rounds.ts";
import type { RoomScreening } from "./screening.ts";
import { refusal, type RoomSockets, send, type SocketState } from "./sockets.ts";
import type { MessageRow, RoomStore } from "./store.ts";

/** What `admitEarly` found for a message in a room of several people. */
export interface EarlyAdmission {
  /** The row already stored under the message's clientId (a resend), else null. */
  stored: MessageRow | null;
  /** The rate limit's answer, asked beside the suspension check; absent for a resend. */
  rateLimit?: Promise<boolean>;
}

/** No token for this long ends a reply with an error, ms. */
export const TOKEN_TIMEOUT_MS = 60_000;

export class ReplyRounds {
  /** A message is between its checks and its storing (one at a time). */
  private admitting = false;
  /** A room of several people: settles when the last message that came has been screened (and stored or refused). */
  private screenedInOrder: Promise<void> = Promise.resolve();
  /** The round being run: who speaks next (rounds.ts). */
  private readonly rounds: Rounds;
  /** The reply being written and how (reply-writing.ts). */
  private readonly writing: ReplyWriting;
  private readonly ctx: DurableObjectState;
  private readonly env: Env;
  private readonly store: RoomStore;
  private readonly sockets: RoomSockets;
  private readonly d1: D1Sync;
  private readonly inputs: PromptInputs;
  private readonly screening: RoomScreening;

  constructor(ctx: DurableObjectState, env: Env, parts: WritingParts) {
    this.ctx = ctx;
    this.env = env;
    ({ store: this.store, sockets: this.sockets, d1: this.d1, inputs: this.inputs, screening: this.screening } = parts);
    this.writing = new ReplyWriting(ctx, env, parts, { next: () => this.rounds.next(), end: () => this.rounds.end() });
    this.rounds = new Rounds(this.store, this.inputs, parts.seams, {
      startReply: (speakerId) => this.start(null, null, speakerId),
      writing: () => this.active !== null,
      admitting: () => this.admitting,
    });
  }

  /** The reply being written, if any. */
  get active(): ActiveReply | null {
    return this.writing.active;
  }

  /** The `history_sync` frame for `viewer` (ReplyWriting.historySync). */
  historySync(viewer: string): ServerFrame {
    return this.writing.historySync(viewer);
  }

  /** Starts writing a reply (ReplyWriting.start); it runs on its own. */
  start(replaces: MessageRow | null, continuing: Parameters<ReplyWriting["start"]>[1] = null, speakerId?: number): void {
    this.writing.start(replaces, continuing, speakerId);
  }

  /** A reply is being written or a message admitted: a new round or a steering frame must wait. */
  get busy(): boolean {
    return this.active !== null || this.admitting || this.rounds.running;
  }

  /**
   * A reply that was being written when the object last stopped (a crash, a
   * deploy) keeps what was saved of it; an empty one is dropped and the
   * reply it was replacing comes back. Call on construction.
   */
  recoverInterrupted(): void {
    for (const row of this.store.streamingRows()) {
      if (row.content.trim() !== "") {
        this.store.replyRows.keepInterrupted(row.id);
        // A continued reply (it names itself in `replaces`) was counted when it was first written.
        if (row.replaces === row.id) this.d1.notePreview(row);
        else this.d1.countMessage(row);
        this.ctx.waitUntil(this.d1.writeCounters());
      } else {
        this.store.replyRows.dropReply(row.id, row.replaces);
      }
    }
  }

  /**
   * `stop`, or the conversation is deleted: the reply being written ends
   * (what was written so far is kept unless deleted), and its round with it.
   * In a room of several people, messages that arrived during the round are
   * still answered by a round of their own (rounds.ts `answerPending`): a
   * stop ends what is being written, not what others asked since.
   */
  stop(): void {
    this.rounds.end();
    if (this.active) {
      this.active.stopped = true;
      this.active.controller.abort();
    }
  }

  private busyError(ws: WebSocket, clientId: string | null): void {
    send(ws, {
      type: "error",
      code: "busy",
      message: "Please wait for the reply before sending another message.",
      ...(clientId ? { clientId } : {}),
    });
  }

  /**
   * Runs `start` (which stores and starts a reply) unless the person is over
   * the rate limit of `kind`: then the `rate_limited` frame (rateLimitedFrame,
   * with `clientId`) the caller sends to the sender; null when admitted. One
   * admission at a time: others meanwhile get `busy`.
   */
  async admit(state: SocketState, kind: RoundKind, start: () => void | Promise<void>, clientId?: string): Promise<ServerFrame | null> {
    this.admitting = true;
    try {
      if (!(await withinRateLimit(this.env, kind, state.userId))) return rateLimitedFrame(kind, Date.now(), clientId);
      if (!this.store.deleted) await start();
      return null;
    } finally {
      this.admitting = false;
    }
  }

  /**
   * In a room of several people, what a new message's admission can learn
   * before its suspension check: whether it is a resend already stored (that
   * row), else its rate limit (which it meets whatever the room is doing),
   * asked now so the caller runs it beside the suspension check — two round
   * trips at once instead of one after the other. Undefined in a one-to-one
   * chat (a message refused as busy uses up nothing). Pass the answer to
   * `receiveMessage`.
   */
  admitEarly(state: SocketState, clientId: string | null): EarlyAdmission | undefined {
    if (!this.store.people.isShared()) return undefined;
    const stored = clientId ? this.store.rowByClientId(clientId) : null;
    return stored ? { stored } : { stored: null, rateLimit: withinRateLimit(this.env, "message", state.userId) };
  }

  /**
   * `chat_message`: stores the person's message (once per clientId) and
   * starts the reply; screening runs beside it. A one-to-one chat refuses it
   * with `busy` while a reply is written (SPEC.md). In a room of several
   * people (DESIGN.md "Shared rooms") it is never refused as busy: once
   * screened — nobody but its author may read a message screening will
   * refuse (issue 42, docs/decisions/0025) — it is stored
   * (`message_saved` to everyone) and answered when the current round
   * ends, by one round for every message that arrived meanwhile (rounds.ts
   * `answerPending`). `early`: what `admitEarly` found and started, when
   * it was asked.
   */
  async receiveMessage(ws: WebSocket, state: SocketState, content: string, clientId: string | null, early?: EarlyAdmission): Promise<void> {
    // A resend after a reconnect: stored once, answered with the same id.
    const answerResend = (existing: MessageRow) =>
      send(ws, { type: "message_saved", clientId, messageId: existing.id, message: this.store.toWire(existing) });
    const existing = early ? early.stored : clientId ? this.store.rowByClientId(clientId) : null;
    if (existing) {
      answerResend(existing);
      return;
    }
    const rateLimit = early?.rateLimit;
    const shared = this.store.people.isShared();
    if (this.busy && !shared) {
      this.busyError(ws, clientId);
      return;
    }
    // Screening runs beside the rate limit and the reply, never before the first delta (docs/decisions/0008).
    let verdict: ModerationVerdict | null | undefined;
    const screening = this.screening.screen({ text: content, role: "user" }).then((result) => (verdict = result));
    let stored: MessageRow | null = null;
    const storeMessage = (): MessageRow | null => {
      if (verdict && isChildSafetyViolation(verdict)) {
        // Known before storing: nothing is kept.
        this.screening.logRefusedMessage(content, verdict, null);
        send(ws, refusal("message_refused", MESSAGE_REFUSED_TEXT, clientId ?? undefined));
        return null;
      }
      // A member of a shared room writes under their own name; the owner under the room's (their persona's).
      const name = state.role === "member" && state.name ? state.name : this.store.room!.user_name;
      const row = this.store.insertUserMessage(content, clientId, { id: state.userId, name });
      if (!row) {
        // The same clientId was stored meanwhile (a resend on another socket while this one waited).
        const first = clientId ? this.store.rowByClientId(clientId) : null;
        if (first) answerResend(first);
        return null;
      }
      stored = row;
      this.sockets.broadcast({ type: "message_saved", clientId, messageId: row.id, message: this.store.toWire(row) });
      // Counted in D1 with the reply it starts, whose end (or failure) always writes the counters.
      this.d1.countMessage(row);
      return row;
    };
    if (shared) {
      if (!(await (rateLimit ?? withinRateLimit(this.env, "message", state.userId)))) {
        send(ws, rateLimitedFrame("message", Date.now(), clientId ?? undefined));
        return;
      }
      // Others see a message only once it passed the screen (issue 42): the author keeps their pending bubble meanwhile.
      // Screens end in any order; messages are stored in the order they came.
      const turn = this.screenedInOrder.then(() => screening);
      this.screenedInOrder = turn.then(
        () => {},
        () => {},
      );
      await turn;
      const saved = this.store.deleted ? null : storeMessage();
      if (!saved) return;
      // People of the room away from it hear of it in their notifications (one per room until read).
      this.ctx.waitUntil(
        noticeAwayPeople(this.env, {
          conversationId: this.store.room!.conversation_id,
          authorId: state.userId,
          people: this.store.people.list().map((person) => person.user_id),
          present: new Set(this.sockets.people().map((person) => person.userId)),
        }),
      );
      await this.rounds.answerPending();
      // A reply being written writes the counters (this message's too) when it is stored or fails;
      // a message nobody answers is written now. One D1 write per round, not per message.
      if (!this.active) this.ctx.waitUntil(this.d1.writeCounters());
    } else {
      const storeAndReply = async () => {
        const row = storeMessage();
        if (!row) return;
        const speakers = await this.rounds.speakersFor(row);
        if (speakers.length > 0) this.startRound(speakers);
        else {
          // Nobody replies (manual order, everyone muted): the message alone is written to D1.
          this.store.markAllAnswered();
          this.ctx.waitUntil(this.d1.writeCounters());
        }
      };
      const limited = await this.admit(state, "message", storeAndReply, clientId ?? undefined);
      if (limited) {
        send(ws, limited);
        return;
      }
    }
    const message: MessageRow | null = stored;
    if (message) {
      this.ctx.waitUntil(
        screening.then((result) => {
          if (result && isChildSafetyViolation(result)) return this.screening.retractMessage(message, result, () => this.retractAfter(message));
        }),
      );
    }
  }

  /**
   * A room of several people: the messages no round has taken up yet (they
   * arrived while one ran, or the object stopped before answering them) get
   * one round, unless one is running (its end calls this again). Call when
   * the room wakes.
   */
  answerPending(): Promise<void> {
    return this.rounds.answerPending();
  }

  /**
   * A check-in (check-ins.ts): `characterId` writes first, with nobody's
   * message to answer. False (nothing starts) while a reply is written or a
   * message admitted.
   */
  checkIn(characterId: number, request: CheckInRequest): boolean {
    if (this.busy) return false;
    this.writing.start(null, null, characterId, request);
    return true;
  }

  /** Starts a round: `speakers` reply one after another (the first now). */
  startRound(speakers: number[]): void {
    this.rounds.begin(speakers);
  }

  /**
   * `generate` ("Let … speak"): member `characterId` replies now, muted or
   * not. Refused with `not_a_member` when it is not in the cast or can no
   * longer speak; `busy` while a reply is written; `rate_limited` like a message.
   */
  async generate(ws: WebSocket, state: SocketState, characterId: number, clientId: string | undefined): Promise<void> {
    if (this.busy) {
      this.busyError(ws, clientId ?? null);
      return;
    }
    const member = this.store.cast.member(characterId);
    const card = member ? await this.inputs.loadCharacter(characterId).catch(() => null) : null;
    if (!member || (this.inputs.isGroup() && !this.inputs.canSpeak(card))) {
      const message = member ? `${card?.name ?? member.name} can no longer speak in this chat.` : "That character is not in this chat.";
      send(ws, refusal("not_a_member", message, clientId));
      return;
    }
    if (this.busy) {
      this.busyError(ws, clientId ?? null);
      return;
    }
    const limited = await this.admit(state, "reply", () => this.startRound([characterId]), clientId);
    if (limited) send(ws, limited);
  }

  /**
   * Message `message` was retracted (everything after it is deleted): the
   * reply being written ends quietly when it came after it; one that began
   * before it (a round the message waited for) goes on.
   */
  private retractAfter(message: MessageRow): void {
    const reply = this.active;
    const row = reply ? this.store.row(reply.id) : null;
    if (row && row.seq < message.seq) return;
    this.retract();
  }

  /** Its message was retracted: the reply being written ends quietly (its rows are deleted with the message). */
  private retract(): void {
    this.rounds.end();
    const reply = this.active;
    if (reply) {
      reply.stopped = true;
      reply.retracted = true;
      reply.controller.abort();
    }
  }

  /** `regenerate`: a new version of the last reply (or a reply to the person's unanswered message). */
  async regenerate(ws: WebSocket, state: SocketState): Promise<void> {
    if (this.busy) {
      this.busyError(ws, null);
      return;
    }
    const [last] = this.store.lastTwo();
    // The last reply (in a group chat, whoever spoke last) after a message of the person, or a message of theirs still unanswered.
    const target =
      last?.role === "character" && this.store.userMessageBefore(last.seq) !== null ? last : last?.role === "user" ? null : undefined;
    if (target === undefined) {
      send(ws, { type: "error", code: "nothing_to_regenerate", message: "There is no reply to regenerate yet." });
      return;
    }
    // A new version keeps its speaker, who must still be in the cast.
    const speaker = target ? (target.character_id ?? this.store.room!.character_id) : null;
    if (speaker !== null && !this.store.cast.member(speaker)) {
      send(ws, refusal("not_a_member", "That character is no longer in this chat, so its reply cannot be regenerated."));
      return;
    }
    const limited = await this.admit(state, "reply", async () => {
      if (target) {
        this.start(target, null, speaker!);
        return;
      }
      // The person's message is still unanswered: the reply order picks, else the first member.
      const speakers = await this.rounds.speakersFor(last!);
      this.startRound(speakers.length > 0 ? speakers : [this.store.cast.list()[0]?.character_id ?? this.store.room!.character_id]);
    });
    if (limited) send(ws, limited);
  }
}
