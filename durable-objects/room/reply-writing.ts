/**
 * Writing one reply (reply rounds are replies.ts): it starts (`start`:
 * `reply_started`, a new row or the continued one streaming), streams
 * (deltas, drafts saved, stop strings and the speaker's own `Name:`
 * handled), and ends stored (`character_response` to every socket, D1's
 * counters, then screening and the summary off its path) or failed (an
 * error frame in plain words, the person's message kept, a replaced reply
 * put back).
 *
 * - Deltas go out every DELTA_INTERVAL_MS (ms; the first at once, then
 *   what arrived meanwhile on each tick of one interval timer per reply),
 *   SHARED_DELTA_INTERVAL_MS when the room has several sockets;
 *   the text is saved every FLUSH_EVERY_MS (ms) while streaming; a reply is
 *   cut at MAX_REPLY_CHARS characters; no token for `tokenTimeoutMs` (ms,
 *   default TOKEN_TIMEOUT_MS in replies.ts) fails it.
 * - The reply belongs to the object, not a socket: it runs in
 *   `ctx.waitUntil` and finishes and is stored even when every client has
 *   gone; a client that comes back gets it in `history_sync`.
 * - In a group chat a reply that starts with its speaker's own `Name:` has
 *   it stripped, and one that goes on to another member's or the person's
 *   line (`\nName:`, the prompt's stop sequences) is cut there.
 * - Every version of a regenerated reply is kept (the swipes), each with
 *   the tokens its endpoint reported for it (`usage` on the stored reply and
 *   the `character_response` frame; null when it reported none, or when the
 *   reply was stopped or cut before the report came).
 * - Memory (memory.ts, DESIGN.md "Memory"): before the prompt is built the
 *   newest turn is embedded as the recall's query (the offline embedder:
 *   well under a millisecond); the prompt recalls from before its history
 *   window (the recall and the lorebook entries: reply-context.ts). The
 *   stored reply keeps what its version recalled and its prompt record;
 *   then the new messages are embedded, off the reply's path.
 * - D1 learns of the exchange once, when the reply is stored or fails
 *   (D1Sync). After a stored reply: screening (screening.ts) and, when the
 *   history overflows, the summary (summary.ts, by the reply's own model),
 *   both off the reply's path.
 *
 * A model failure is never thrown: the sockets get an error frame in plain
 * words (`model_failed`, `stopped_empty`) and the person's message stays.
 */
import { chatModelName, withTokenTimeout } from "../../ai/chat-models.ts";
import { createExpressionClassifier, type ExpressionClassifier } from "../../ai/expressions/classifier.ts";
import { siteModels } from "../../ai/model-connection.ts";
import type { ReplyUsage } from "../../schema/chat.ts";
import { type ChatErrorCode, replyVersions, type ServerFrame } from "../../schema/chat-frames.ts";
import { type BuiltPrompt, buildPrompt } from "../prompt.ts";
import type { ActivationResult } from "../../schema/lorebook/activation.ts";
import type { D1Sync, ReplyCharacter } from "./d1-sync.ts";
import { versionFields } from "./message-rows.ts";
import { ModelChoice, type ReplyModel, withBudget } from "./model-choice.ts";
import type { PromptInputs } from "./prompt-inputs.ts";
import { ReplyContext } from "./reply-context.ts";
import { continuationPiece, StopScanner } from "./reply-text.ts";
import type { RoomScreening } from "./screening.ts";
import type { RoomSeams } from "./seams.ts";
import { refusal, type RoomSockets } from "./sockets.ts";
import type { MessageRow, RoomStore } from "./store.ts";
import type { RoomSummary } from "./summary.ts";

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
  /** A check-in (check-ins.ts): the character writes first; told the stored row. Null: a reply. */
  checkIn: CheckInRequest | null;
}

/** A check-in's reply: how long the person has been away (ms, for the nudge), and what follows once it is stored. */
export interface CheckInRequest {
  awayMs: number;
  onStored: (row: MessageRow) => void;
}

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

/** What ReplyWriting works with: the room's other modules. */
export interface WritingParts {
  store: RoomStore;
  sockets: RoomSockets;
  d1: D1Sync;
  inputs: PromptInputs;
  screening: RoomScreening;
  summary: RoomSummary;
  seams: RoomSeams;
}

/** The round a reply belongs to (rounds.ts): told when the reply ends, or that the round must end. */
export interface ReplyRound {
  /** The reply ended (stored, stopped or failed): the round goes on with its next speaker. */
  next(): Promise<void> | void;
  /** The reply failed: nobody else speaks in this round. */
  end(): void;
}

export class ReplyWriting {
  /** The reply being written, if any. */
  active: ActiveReply | null = null;
  private readonly ctx: DurableObjectState;
  private readonly env: Env;
  private readonly store: RoomStore;
  private readonly sockets: RoomSockets;
  private readonly d1: D1Sync;
  private readonly inputs: PromptInputs;
  private readonly screening: RoomScreening;
  private readonly summary: RoomSummary;
  private readonly seams: RoomSeams;
  private readonly round: ReplyRound;
  /** Which model writes each reply: the person's connection or the site's (model-choice.ts). */
  private readonly modelChoice: ModelChoice;
  /** What memory and the lorebooks add to a reply's prompt (reply-context.ts). */
  private readonly context: ReplyContext;

  constructor(ctx: DurableObjectState, env: Env, parts: WritingParts, round: ReplyRound) {
    this.ctx = ctx;
    this.env = env;
    ({ store: this.store, sockets: this.sockets, d1: this.d1, inputs: this.inputs, screening: this.screening, summary: this.summary, seams: this.seams } =
      parts);
    this.round = round;
    this.modelChoice = new ModelChoice(env, this.d1, () => this.store.room!.user_id);
    this.context = new ReplyContext(env, this.store);
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
      messages: this.store.wireHistory(viewer, active, true),
      chatModel: chatModelName(this.env),
      memory: room.memory,
      summary: room.summary,
      authorNote: this.store.authorNote(),
    };
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
    checkIn: CheckInRequest | null = null,
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
      checkIn,
    };
    this.store.replyRows.beginReply({ id: reply.id, replaces: reply.replaces, alternatives, continuing: continuing !== null, characterId });
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
      .then(() => this.round.next());
    // The reply is the object's, not a socket's: it completes with nobody connected.
    this.ctx.waitUntil(running);
  }

  /**
   * The ExpressionClassifier of a reply written by `choice` for `character`:
   * `EXPRESSION_CLASSIFIER=model` asks that same model (ai/expressions),
   * else the offline lexicon.
   */
  private expressions(choice: ReplyModel | null, character: ReplyCharacter | null): ExpressionClassifier {
    const setting = (this.env as { EXPRESSION_CLASSIFIER?: string }).EXPRESSION_CLASSIFIER;
    if (setting !== "model" || !choice || !character) return createExpressionClassifier(undefined);
    const userName = this.store.room?.user_name ?? "User";
    const model = choice.model ? choice.model(character, userName) : this.seams.modelFactory(character, userName);
    return createExpressionClassifier(setting, async (system, user, signal) => {
      let text = "";
      for await (const piece of model.stream(
        [
          { role: "system", content: system },
          { role: "user", content: user },
        ],
        { maxTokens: 8, purpose: "summary", signal },
      )) {
        text += piece;
        if (text.length > 64) break;
      }
      return text;
    });
  }

  private async write(reply: ActiveReply): Promise<void> {
    const store = this.store;
    const room = store.room!;
    let characterName = "The character";
    let character: ReplyCharacter | null = null;
    let choice: ReplyModel | null = null;
    let prompt: BuiltPrompt | null = null;
    let lore: ActivationResult | null = null;
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
      const [inputs, replyModel, pinned] = await Promise.all([
        this.inputs.forReply(reply.characterId),
        this.modelChoice.forReply(),
        store.memory.pinned(() => this.d1.readPinned()),
      ]);
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
      const recall = await this.context.recallFor(history, reply.characterId, character.name);
      lore = await this.context.loreFor(reply, character, history, options);
      prompt = buildPrompt(character, history, {
        ...options,
        pinned,
        continueLast: reply.continues !== null,
        ...(reply.checkIn ? { checkInAfterMs: reply.checkIn.awayMs } : {}),
        ...(recall ? { recall } : {}),
        lore: lore.entries,
      });
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
      // A continued reply's own text is not searched: a stop ends only what the model adds.
      const scanner = new StopScanner(stops);
      scanner.restart(reply.continues ?? "");
      for await (const text of pieces) {
        if (reply.stopped || store.deleted) break;
        const piece = reply.continues !== null && reply.content === reply.continues ? continuationPiece(reply.continues, text) : text;
        reply.content += piece;
        let cut: number;
        if (!prefixDone) {
          const start = reply.content.trimStart();
          // Not yet known whether it begins with the name: nothing goes out.
          if (start.length < ownPrefix!.length && ownPrefix!.startsWith(start)) continue;
          if (start.startsWith(ownPrefix!)) reply.content = start.slice(ownPrefix!.length).trimStart();
          prefixDone = true;
          cut = scanner.restart(reply.content);
        } else cut = scanner.push(piece);
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
          store.replyRows.saveDraft(reply.id, reply.content);
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
    let row = store.replyRows.completeReply(reply.id, content, now, reply.usage);
    // The face this reply shows, among its speaker's expressions (DESIGN.md "Character assets"); null without any.
    const expression = await this.expressions(choice, character).classify(content, character?.expressions ?? []);
    if (store.deleted || reply.retracted) return;
    row = store.replyRows.setExpression(reply.id, expression) ?? row;
    if (prompt) {
      // What this version recalled and was sent (the prompt inspector), before any frame names it.
      const version = replyVersions(versionFields(row)).current;
      const modelName = choice?.modelName ?? siteModels(this.env)[0]!;
      store.memory.noteReply(
        reply.id,
        version,
        {
          messages: prompt.messages,
          sections: prompt.sections,
          recalled: prompt.recalled,
          lorebook: prompt.lorebook.map(({ lorebookId, entryId, reason, lorebookName, title, key, secondaryKey, decorator }) => ({
            lorebookId,
            entryId,
            reason,
            lorebookName,
            title,
            key,
            secondaryKey,
            decorator,
          })),
          model: modelName,
          tokens: prompt.estimatedTokens,
        },
        now,
      );
      row = store.row(reply.id) ?? row;
    }
    // The timers count from this reply on (a failed reply keeps the state it found).
    if (lore) store.lore.keep(lore.timedState, reply.id);
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
    if (reply.checkIn) reply.checkIn.onStored(row);
    this.ctx.waitUntil(this.screening.screenReply(row).catch((error) => console.warn("reply screening failed", room.conversation_id, String(error))));
    // The person's message and this reply get their vectors, off the reply's path.
    this.ctx.waitUntil(store.memory.embedPending());
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
    this.round.end();
    if (reply.continues !== null) {
      const row = this.store.replyRows.restoreContinued(reply.id, reply.continues);
      if (row) this.sockets.broadcastEach((viewer) => ({ type: "message_updated", messageId: reply.id, message: this.store.toWire(row, this.active, viewer) }));
      this.sockets.broadcast(refusal(code, message, reply.clientId ?? undefined));
      return;
    }
    this.store.replyRows.dropReply(reply.id, reply.replaces);
    this.ctx.waitUntil(this.d1.writeCounters());
    this.sockets.broadcast({ type: "error", code, message, messageId: reply.id });
    if (reply.replaces) {
      // The replaced reply is visible again: every tab gets the list as it is.
      this.sockets.broadcastEach((viewer) => this.historySync(viewer));
    }
  }
}
