/**
 * Reply rounds (DESIGN.md "Group chats"): who answers a person's message,
 * and running those replies one after another until the round ends.
 *
 * - Planning: the members that reply to a message, in order, by the
 *   conversation's reply order (reply-order.ts) among those that may speak.
 * - Running: the first speaker starts at once; each next one as soon as the
 *   previous reply is stored (`next`, called when a reply ends). A member
 *   removed, muted out of the cast or no longer able to speak meanwhile is
 *   skipped.
 * - Ending: `stop`, a failed reply or a retracted message ends the round
 *   (`end`). The round's queue lives in memory: a restart in the middle of a
 *   round keeps what was stored, and the round ends there.
 * - Waiting messages (DESIGN.md "Shared rooms"): in a room of several
 *   people a message that arrives while a round runs is stored at once and
 *   waits. When the round ends — finished, stopped or failed — ONE round
 *   answers every message that waited (`answerPending`), planned for the
 *   newest of them. Which messages a round has taken up is stored
 *   (`room.answered_through`, the seq up to which a round began), so a room
 *   that stopped with messages waiting answers them when it wakes. Messages
 *   that arrive while a round is being planned are taken up by it: one
 *   round for messages that arrived together. A later speaker of a group
 *   round reads the story as it stands (a waiting message included); the
 *   waiting message still gets its own round after it. A one-to-one chat
 *   never has waiting messages (it refuses with `busy`, SPEC.md).
 *
 * Writing one reply (streaming, storing, failing) is replies.ts's.
 */
import { chooseSpeakers, type Speaker } from "./reply-order.ts";
import type { PromptInputs } from "./prompt-inputs.ts";
import type { RoomSeams } from "./seams.ts";
import type { MessageRow, RoomStore } from "./store.ts";

/** How a round starts one reply and knows one is being written (ReplyRounds). */
export interface ReplyWriter {
  /** Starts a new reply by member `speakerId`; it runs on its own and calls `Rounds.next` when it ends. */
  startReply(speakerId: number): void;
  /** A reply is being written now. */
  writing(): boolean;
  /** A regenerate, `generate` or a one-to-one message is being admitted (it starts its own round). */
  admitting(): boolean;
}

/** The speakers of the round being run, and who chooses them. */
export class Rounds {
  /** Speakers still to reply in this round, in order. */
  private queue: number[] = [];
  /** The next speaker of the round is being readied. */
  private advancing = false;
  /** A round for waiting messages is being planned (answerPending). */
  private planning = false;
  private readonly store: RoomStore;
  private readonly inputs: PromptInputs;
  private readonly seams: RoomSeams;
  private readonly writer: ReplyWriter;

  constructor(store: RoomStore, inputs: PromptInputs, seams: RoomSeams, writer: ReplyWriter) {
    this.store = store;
    this.inputs = inputs;
    this.seams = seams;
    this.writer = writer;
  }

  /** A round has speakers still to come (or the next is being readied). */
  get running(): boolean {
    return this.advancing || this.planning || this.queue.length > 0;
  }

  /**
   * The members that reply to the person's message `row`, in order, by the
   * conversation's reply order (reply-order.ts) among those that may speak:
   * unmuted and, in a group chat, still able to (PromptInputs.canSpeak). In
   * a one-to-one chat the character answers even when its card can no
   * longer be read (the reply then fails in plain words).
   */
  async speakersFor(row: MessageRow): Promise<number[]> {
    const group = this.inputs.isGroup();
    const cast = await this.inputs.loadCast().catch(() => this.store.cast.list().map((m) => ({ characterId: m.character_id, card: null })));
    const eligible: Speaker[] = [];
    for (const member of this.store.cast.list()) {
      if (member.muted) continue;
      const card = cast.find((c) => c.characterId === member.character_id)?.card ?? null;
      if (group && !this.inputs.canSpeak(card)) continue;
      eligible.push({ characterId: member.character_id, name: card?.name ?? member.name, talkativeness: member.talkativeness });
    }
    // Who spoke last matters only when there is a choice (reply-order.ts): one speaker reads nothing.
    const recent = eligible.length > 1 ? this.store.recentBefore(row.seq) : [];
    const lastSpeakerId = recent.find((r) => r.role === "character")?.character_id ?? null;
    const spokeLastRound = new Set<number>();
    for (const r of recent) {
      if (r.role === "user") break;
      if (r.character_id !== null) spokeLastRound.add(r.character_id);
    }
    return chooseSpeakers(this.store.room!.reply_order, eligible, { message: row.content, lastSpeakerId, spokeLastRound }, this.seams.random);
  }

  /**
   * Starts a round: `speakers` reply one after another (the first now). The
   * round takes up every message stored so far (its first reply comes after
   * them).
   */
  begin(speakers: number[]): void {
    const [first, ...rest] = speakers;
    if (first === undefined) return;
    this.store.markAllAnswered();
    this.queue = rest;
    this.writer.startReply(first);
  }

  /** Ends the round: nobody else speaks in it (the reply being written, if any, is the caller's to stop). */
  end(): void {
    this.queue = [];
  }

  /**
   * The next speaker of the round, once the previous reply is stored: one
   * that is still in the cast and (in a group chat) can still speak;
   * others are skipped.
   */
  async next(): Promise<void> {
    if (this.advancing) return;
    this.advancing = true;
    try {
      while (this.queue.length > 0 && !this.store.deleted && !this.writer.writing()) {
        const id = this.queue.shift()!;
        if (!this.store.cast.member(id)) continue;
        if (this.inputs.isGroup() && !this.inputs.canSpeak(await this.inputs.loadCharacter(id).catch(() => null))) continue;
        if (this.writer.writing() || this.store.deleted) return;
        this.writer.startReply(id);
        return;
      }
    } finally {
      this.advancing = false;
    }
    // The round is over: the messages that waited for it get one of their own.
    await this.answerPending();
  }

  /**
   * In a room of several people (RoomStore.isShared), when no round runs:
   * one round for every message no round has taken up, planned for the
   * newest of them. Does nothing while a reply is written, a round runs or
   * is planned, or something is admitted (their end calls this again). A
   * round with nobody to speak (manual order, everyone muted) takes the
   * messages up all the same.
   */
  async answerPending(): Promise<void> {
    if (this.running || this.writer.writing() || this.writer.admitting()) return;
    if (this.store.deleted || !this.store.room || !this.store.people.isShared()) return;
    const newest = this.store.latestUnanswered();
    if (!newest) return;
    this.planning = true;
    let speakers: number[];
    try {
      speakers = await this.speakersFor(newest);
    } finally {
      this.planning = false;
    }
    if (this.store.deleted || this.writer.writing() || this.queue.length > 0) return;
    if (speakers.length === 0) this.store.markAllAnswered();
    else this.begin(speakers);
  }
}
