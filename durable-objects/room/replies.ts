/**
 * Reply rounds: when a reply starts, how it streams, how it ends (stored,
 * stopped, failed), and how one interrupted by a restart is recovered.
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
 * - In a group chat a reply that starts with its speaker's own `Name:` has
 *   it stripped, and one that goes on to another member's or the person's
 *   line (`\nName:`, the prompt's stop sequences) is cut there.
 * - The reply belongs to the object, not a socket: it runs in
 *   `ctx.waitUntil` and finishes and is stored even when every client has
 *   gone; a client that comes back gets it in `history_sync`.
 * - Deltas go out every DELTA_INTERVAL_MS (ms; the first at once, then
 *   what arrived meanwhile on each tick of one interval timer per reply),
 *   SHARED_DELTA_INTERVAL_MS when the room has several sockets;
 *   the text is saved every FLUSH_EVERY_MS (ms) while streaming; a reply is
 *   cut at MAX_REPLY_CHARS characters; no token for `tokenTimeoutMs` (ms,
 *   default TOKEN_TIMEOUT_MS) fails it.
 * - Every version of a regenerated reply is kept (the swipes), each with
 *   the tokens its endpoint reported for it (`usage` on the stored reply and
 *   the `character_response` frame; null when it reported none, or when the
 *   reply was stopped or cut before the report came).
 * - D1 learns of the exchange once, when the reply is stored or fails
 *   (D1Sync). After a stored reply: screening (screening.ts) and, when the
 *   history overflows, the summary (summary.ts, by the reply's own model),
 *   both off the reply's path.
 *
 * A model failure is never thrown: the sockets get an error frame in plain
 * words (`model_failed`, `stopped_empty`) and the person's message stays.
 */
import { chatModelName, withTokenTimeout } from "../../ai/chat-models.ts";
import { isChildSafetyViolation, type ModerationVerdict } from "../../ai/moderation/moderator.ts";
import { MESSAGE_REFUSED_TEXT, type ReplyUsage } from "../../schema/chat.ts";
import { type ChatErrorCode, replyVersions, type ServerFrame } from "../../schema/chat-frames.ts";
import { buildPrompt } from "../prompt.ts";
import type { D1Sync, ReplyCharacter } from "./d1-sync.ts";
import { ModelChoice, type ReplyModel, withBudget } from "./model-choice.ts";
import type { PromptInputs } from "./prompt-inputs.ts";
import type { RoomScreening } from "./screening.ts";
import { type RoundKind, rateLimitedFrame, withinRateLimit } from "./rate-limits.ts";
import { continuationPiece, earliestStop } from "./reply-text.ts";
import { Rounds } from "./rounds.ts";
import type { RoomSeams } from "./seams.ts";
import { refusal, type RoomSockets, send, type SocketState } from "./sockets.ts";
import { versionFields } from "./message-rows.ts";
import type { MessageRow, RoomStore } from "./store.ts";
import type { RoomSummary } from "./summary.ts";

/** What `askRateLimitEarly` found for a message in a room of several people. */
export interface EarlyAdmission {
  /** The row already stored under the message's clientId (a resend), else null. */
  stored: MessageRow | null;
  /** The rate limit's answer, asked beside the suspension check; absent for a resend. */
  rateLimit?: Promise<boolean>;
}

/** A reply being written. */
export interface ActiveReply {
  id: string;
  /** The speaker: a member of the cast. */
  characterId: number;
  replaces: string | null;
  /** A `continue`: the reply's text before it, which the new text extends (and is put back on failure); else null. */
  continues: string | null;
  /** The steering frame's clientId that started it (`continue`), for its receipt. */
  clientId: string | null;
  /** Who sent that frame (user id): the receipt carries their own thumb. */
  requestedBy: string | null;
  alternatives: string[];
  /** Everything the model wrote so far. */
  content: string;
  /** What the sockets have been sent of it (deltas are coalesced, DELTA_INTERVAL_MS). */
  sent: string;
  stopped: boolean;
  /** Its message was refused by screening after the reply began: the reply ends quietly, its rows already gone. */
  retracted?: boolean;
  controller: AbortController;
  /** The tokens this request cost, once the endpoint reported them (ChatModelOptions.onUsage); null until then, or never. */
  usage: ReplyUsage | null;
}

/** No token for this long ends a reply with an error, ms. */
export const TOKEN_TIMEOUT_MS = 60_000;
/** A reply is cut at this many characters whatever the model does. */
const MAX_REPLY_CHARS = 16_000;
/**
 * Deltas of a reply go out at most this often, ms: the first piece at once,
 * then what arrived meanwhile in one frame. Fewer frames for the same text
 * (a fast model writes a token every few ms), still smooth to read.
 */
const DELTA_INTERVAL_MS = 50;
/**
 * The same with several sockets (a shared room, several tabs), ms: every
 * delta is sent once per socket, so a room of five costs five times the
 * frames. Ten updates a second is still smoother than anyone reads (about
 * four words a second), and it halves the frames of a busy object:
 * `npm run bench:chat -- --conversations 200 --people 5` (docs/decisions/0024).
 */
const SHARED_DELTA_INTERVAL_MS = 100;
/**
 * While streaming, the text so far is saved this often, ms (so a crash loses
 * at most this much of a reply; the person's message is stored before it
 * starts). Most replies end sooner and are stored once, at the end: every
 * save is a storage commit the frames sent after it wait for (output gate).
 */
const FLUSH_EVERY_MS = 5_000;

/** What ReplyRounds works with: the room's other modules. */
export interface ReplyParts {
  store: RoomStore;
  sockets: RoomSockets;
  d1: D1Sync;
  inputs: PromptInputs;
  screening: RoomScreening;
  summary: RoomSummary;
  seams: RoomSeams;
}

export class ReplyRounds {
  /** The reply being written, if any. */
  active: ActiveReply | null = null;
  /** A message is between its checks and its storing (one at a time). */
  private admitting = false;
  /** The round being run: who speaks next (rounds.ts). */
  private readonly rounds: Rounds;
  private readonly ctx: DurableObjectState;
  private readonly env: Env;
  private readonly store: RoomStore;
  private readonly sockets: RoomSockets;
  private readonly d1: D1Sync;
  private readonly inputs: PromptInputs;
  private readonly screening: RoomScreening;
  private readonly summary: RoomSummary;
  private readonly seams: RoomSeams;
  /** Which model writes each reply: the person's connection or the site's (model-choice.ts). */
  private readonly modelChoice: ModelChoice;

  constructor(ctx: DurableObjectState, env: Env, parts: ReplyParts) {
    this.ctx = ctx;
    this.env = env;
    ({ store: this.store, sockets: this.sockets, d1: this.d1, inputs: this.inputs, screening: this.screening, summary: this.summary, seams: this.seams } =
      parts);
    this.modelChoice = new ModelChoice(env, this.d1, () => this.store.room!.user_id);
    this.rounds = new Rounds(this.store, this.inputs, this.seams, {
      startReply: (speakerId) => this.start(null, null, speakerId),
      writing: () => this.active !== null,
      admitting: () => this.admitting,
    });
  }

  /** A reply is being written or a message admitted: a new round or a steering frame must wait. */
  get busy(): boolean {
    return this.active !== null || this.admitting || this.rounds.running;
  }

  /**
   * The `history_sync` frame for `viewer` (a user id; their own thumbs):
   * every visible message (a reply being written as its sockets have it),
   * the memory note and the running summary.
   */
  historySync(viewer: string): ServerFrame {
    const room = this.store.room!;
    const active = this.active;
    return {
      type: "history_sync",
      conversationId: room.conversation_id,
      messages: this.store.visibleRows().map((row) => this.store.toWire(row, active, viewer)),
      chatModel: chatModelName(this.env),
      memory: room.memory,
      summary: room.summary,
      authorNote: this.store.authorNote(),
    };
  }

  /**
   * A reply that was being written when the object last stopped (a crash, a
   * deploy) keeps what was saved of it; an empty one is dropped and the
   * reply it was replacing comes back. Call on construction.
   */
  recoverInterrupted(): void {
    for (const row of this.store.streamingRows()) {
      if (row.content.trim() !== "") {
        this.store.keepInterrupted(row.id);
        // A continued reply (it names itself in `replaces`) was counted when it was first written.
        if (row.replaces === row.id) this.d1.notePreview(row);
        else this.d1.countMessage(row);
        this.ctx.waitUntil(this.d1.writeCounters());
      } else {
        this.store.dropReply(row.id, row.replaces);
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
   * In a room of several people, a new message's rate limit (which it meets
   * whatever the room is doing) asked now, so the caller can run it beside
   * the suspension check: two round trips at once instead of one after the
   * other on the path of every message. Undefined in a one-to-one chat (a
   * message refused as busy uses up nothing); for a resend already stored,
   * that row and no rate limit. Pass the answer to `receiveMessage`.
   */
  askRateLimitEarly(state: SocketState, clientId: string | null): EarlyAdmission | undefined {
    if (!this.store.people.isShared()) return undefined;
    const stored = clientId ? this.store.rowByClientId(clientId) : null;
    return stored ? { stored } : { stored: null, rateLimit: withinRateLimit(this.env, "message", state.userId) };
  }

  /**
   * `chat_message`: stores the person's message (once per clientId) and
   * starts the reply; screening runs beside it. A one-to-one chat refuses it
   * with `busy` while a reply is written (SPEC.md). In a room of several
   * people (DESIGN.md "Shared rooms") it is never refused as busy: it is
   * stored at once (`message_saved` to everyone) and answered when the
   * current round ends, by one round for every message that arrived
   * meanwhile (rounds.ts `answerPending`). `early`: what
   * `askRateLimitEarly` found and started, when it was asked.
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
      if (this.store.deleted || !storeMessage()) return;
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

  /**
   * Starts writing a reply; it runs on its own. A new reply, or one
   * replacing `replaces` (regenerate), or — `continuing` — more text for an
   * existing reply: the same message goes back to "streaming" with its text,
   * marked by naming itself in `replaces` (so a crash recovery does not count
   * it again), and the deltas extend it.
   */
  start(
    replaces: MessageRow | null,
    continuing: { row: MessageRow; clientId: string | null; requestedBy?: string } | null = null,
    speakerId?: number,
  ): void {
    // Every version of the replaced reply in written order; the new one will be the newest.
    const alternatives = replaces ? replyVersions(versionFields(replaces)).versions : [];
    const base = continuing?.row.content ?? "";
    const existing = continuing?.row ?? replaces;
    const characterId = speakerId ?? existing?.character_id ?? this.store.room!.character_id;
    const reply: ActiveReply = {
      id: continuing?.row.id ?? crypto.randomUUID(),
      characterId,
      replaces: replaces?.id ?? null,
      continues: continuing ? base : null,
      clientId: continuing?.clientId ?? null,
      requestedBy: continuing?.requestedBy ?? null,
      alternatives,
      content: base,
      sent: base,
      stopped: false,
      controller: new AbortController(),
      usage: null,
    };
    this.store.beginReply({ id: reply.id, replaces: reply.replaces, alternatives, continuing: continuing !== null, characterId });
    this.active = reply;
    this.sockets.broadcast({
      type: "reply_started",
      messageId: reply.id,
      replaces: reply.replaces,
      ...(continuing ? { continues: true } : {}),
      characterId,
    });
    const running = this.write(reply)
      .finally(() => {
        if (this.active === reply) this.active = null;
      })
      // The round goes on with its next speaker.
      .then(() => this.rounds.next());
    // The reply is the object's, not a socket's: it completes with nobody connected.
    this.ctx.waitUntil(running);
  }

  private async write(reply: ActiveReply): Promise<void> {
    const store = this.store;
    const room = store.room!;
    let characterName = "The character";
    let character: ReplyCharacter | null = null;
    let choice: ReplyModel | null = null;
    // The first text goes out at once, then what arrived meanwhile on every tick of one timer per
    // reply (not a timer per frame: a busy object streams hundreds of replies at once).
    let deltaTicker: ReturnType<typeof setInterval> | undefined;
    const flushDelta = () => {
      if (reply.sent.length === reply.content.length || this.active !== reply) return;
      const delta = reply.content.slice(reply.sent.length);
      reply.sent = reply.content;
      this.sockets.broadcast({ type: "character_response_delta", messageId: reply.id, delta });
    };
    const stopDeltas = () => {
      clearInterval(deltaTicker);
      deltaTicker = undefined;
    };
    try {
      const [inputs, replyModel] = await Promise.all([this.inputs.forReply(reply.characterId), this.modelChoice.forReply()]);
      choice = replyModel;
      if (!inputs) throw new Error(`character ${reply.characterId} not found`);
      character = inputs.card;
      characterName = character.name;
      const { history } = inputs;
      const options = withBudget(inputs.options, replyModel.budget);
      // A group chat or a room of several people: history lines carry names (prompt.ts).
      const named = options.cast !== undefined || options.people !== undefined;
      // A continued reply is the last message of its own prompt, with the text it had.
      if (reply.continues !== null) history.push({ role: "assistant", content: reply.continues, ...(named ? { name: character.name } : {}) });
      const prompt = buildPrompt(character, history, { ...options, continueLast: reply.continues !== null });
      // The person's stop strings end a reply as another speaker's line does, whatever the provider.
      const stops = [...prompt.stop, ...(replyModel.sampling.stop ?? [])];
      // `{{user}}` is the author of the message being answered (PromptInputs.forReply).
      const model = replyModel.model ? replyModel.model(character, options.userName) : this.seams.modelFactory(character, options.userName);
      const pieces = withTokenTimeout(
        model.stream(prompt.messages, {
          maxTokens: options.maxTokens,
          sampling: replyModel.sampling,
          signal: reply.controller.signal,
          attempt: reply.alternatives.length,
          purpose: reply.continues !== null ? "continue" : "reply",
          ...(stops.length > 0 ? { stop: stops } : {}),
          onUsage: (usage) => {
            reply.usage = usage;
          },
        }),
        this.seams.tokenTimeoutMs,
        () => reply.controller.abort(),
      );
      // Named lines: the speaker's own "Name:" is stripped from the start; another's line ends the reply.
      const ownPrefix = named && reply.continues === null ? `${character.name}:` : null;
      let prefixDone = ownPrefix === null;
      let flushed = Date.now();
      for await (const text of pieces) {
        if (reply.stopped || store.deleted) break;
        const piece = reply.continues !== null && reply.content === reply.continues ? continuationPiece(reply.continues, text) : text;
        reply.content += piece;
        if (!prefixDone) {
          const start = reply.content.trimStart();
          // Not yet known whether it begins with the name: nothing goes out.
          if (start.length < ownPrefix!.length && ownPrefix!.startsWith(start)) continue;
          if (start.startsWith(ownPrefix!)) reply.content = start.slice(ownPrefix!.length).trimStart();
          prefixDone = true;
        }
        const cut = earliestStop(reply.content, stops);
        if (cut >= 0) {
          reply.content = reply.content.slice(0, cut);
          break;
        }
        if (deltaTicker === undefined) {
          flushDelta();
          deltaTicker = setInterval(flushDelta, this.sockets.count > 1 ? SHARED_DELTA_INTERVAL_MS : DELTA_INTERVAL_MS);
        }
        if (reply.content.length >= MAX_REPLY_CHARS) break;
        if (Date.now() - flushed >= FLUSH_EVERY_MS) {
          store.saveDraft(reply.id, reply.content);
          flushed = Date.now();
        }
      }
    } catch (error) {
      stopDeltas();
      if (!reply.stopped) {
        console.warn("reply failed", room.conversation_id, String(error));
        this.fail(reply, "model_failed", choice?.failureText(error) ?? `${characterName} couldn't reply just now. Please try again.`);
        return;
      }
      // A stop aborts the request; what was written so far is kept below.
    }
    stopDeltas();
    if (store.deleted || reply.retracted) return;
    // Whatever is still buffered goes out before the final frame (a client may build the text from deltas).
    flushDelta();
    const content = reply.content.trim();
    if (content === "" || (reply.continues !== null && content === reply.continues.trim())) {
      if (reply.stopped) this.fail(reply, "stopped_empty", `The reply was stopped before ${characterName} said anything.`);
      else this.fail(reply, "model_failed", `${characterName} couldn't reply just now. Please try again.`);
      return;
    }
    const now = Date.now();
    // Stored with the version it counts (a continue: added to what the reply had cost).
    const row = store.completeReply(reply.id, content, now, reply.usage);
    // D1 first, so a client that reloads its chat list on this frame sees the new preview.
    // A continued reply is not a new message: only the preview follows.
    if (reply.continues !== null) this.d1.notePreview(row);
    else this.d1.countMessage(row);
    await this.d1.writeCounters();
    // A continued reply keeps its thumbs: each person gets their own.
    const answerFor = (viewer: string | null): ServerFrame => {
      const message = store.toWire(row, this.active, viewer);
      return {
        type: "character_response",
        content,
        timestamp: new Date(now).toISOString(),
        messageId: reply.id,
        message,
        stopped: reply.stopped,
        usage: message.usage ?? null,
      };
    };
    // A new reply (not a continue) has a new id: nobody has rated it, so every socket reads the same frame.
    if (reply.continues === null) this.sockets.broadcast(answerFor(null));
    else this.sockets.broadcastEach(answerFor);
    if (reply.clientId) store.kept.keepReceipt(reply.clientId, answerFor(reply.requestedBy));
    this.ctx.waitUntil(this.screening.screenReply(row).catch((error) => console.warn("reply screening failed", room.conversation_id, String(error))));
    // The history may no longer fit the prompt: fold its oldest part into the summary, off the reply's path.
    // Written by the model (and under the budget) that wrote this reply.
    if (character && choice) {
      const card = character;
      const model = choice;
      this.ctx.waitUntil(
        this.summary.summarizeIfOverflowing(card, model).catch((error) => console.warn("summary failed", room.conversation_id, String(error))),
      );
    }
  }

  /**
   * Drops a failed reply (the person's message stays), puts back the one it
   * replaced, and says so. A failed continue puts the reply's text back
   * (`message_updated`) and says so without naming it (it is not dropped).
   */
  private fail(reply: ActiveReply, code: ChatErrorCode, message: string): void {
    if (this.store.deleted) return;
    this.rounds.end();
    if (reply.continues !== null) {
      const row = this.store.restoreContinued(reply.id, reply.continues);
      if (row) this.sockets.broadcastEach((viewer) => ({ type: "message_updated", messageId: reply.id, message: this.store.toWire(row, this.active, viewer) }));
      this.sockets.broadcast(refusal(code, message, reply.clientId ?? undefined));
      return;
    }
    this.store.dropReply(reply.id, reply.replaces);
    this.ctx.waitUntil(this.d1.writeCounters());
    this.sockets.broadcast({ type: "error", code, message, messageId: reply.id });
    if (reply.replaces) {
      // The replaced reply is visible again: every tab gets the list as it is.
      this.sockets.broadcastEach((viewer) => this.historySync(viewer));
    }
  }
}
