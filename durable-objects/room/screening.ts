/**
 * Screening the conversation (docs/decisions/0008-trust-and-safety.md): the
 * person's messages and the character's replies go through the moderator
 * (`moderatorFactory`, MODERATION_PROVIDER), with the character's NSFW flag
 * as context, beside the reply and never before its first delta.
 *
 * - A message refused (S4) before it is stored is not kept; one refused
 *   after it was stored is retracted with everything after it
 *   (`retractMessage`: `messages_deleted`, then `message_refused`).
 * - An `edit_message` or `set_memory` whose text is S4 is not applied
 *   (`refuses`; the steering frame gets `message_refused`), issue 21.
 * - Every text is screened whole, in overlapping windows
 *   (ai/moderation/whole-text.ts; docs/decisions/0014).
 * - A person's text (a message, an edit, a memory note) is judged with the
 *   conversation it joins (`conversation`: the memory note and the last
 *   CONTEXT_MESSAGES visible messages), as Llama Guard is given the
 *   conversation: an age said in one message or the memory note and a
 *   sexual request in the next are read together (docs/decisions/0028).
 * - A reply refused (S4) has its text replaced by REFUSED_REPLY_TEXT
 *   (`screenReply`: `message_updated`); the original stays only in the log.
 * - Messages an operator removed are hidden (`hideMessages`).
 * - Every outcome goes to D1's `moderation_log` (D1Sync.logScreening).
 *
 * A provider that fails is logged and lets the text through (fail-open):
 * `screen` resolves to null, never rejects.
 */
import { isChildSafetyViolation, type ModerationInput, type ModerationVerdict } from "../../ai/moderation/moderator.ts";
import { screenWholeText } from "../../ai/moderation/whole-text.ts";
import { NOT_TEXT, screenedText } from "../../schema/screened-text.ts";
import { MESSAGE_REFUSED_TEXT, MODERATED_MESSAGE_TEXT, REFUSED_REPLY_TEXT } from "../../schema/chat.ts";
import type { D1Sync } from "./d1-sync.ts";
import type { PromptInputs } from "./prompt-inputs.ts";
import type { RoomSeams } from "./seams.ts";
import { refusal, type RoomSockets } from "./sockets.ts";
import type { MessageRow, RoomStore } from "./store.ts";

/** Operator removals applied per call at most. */
const MAX_HIDDEN_PER_CALL = 1000;

/** Visible messages a person's text is judged with, the newest (a shared room's rounds included). */
export const CONTEXT_MESSAGES = 6;

export class RoomScreening {
  private readonly ctx: DurableObjectState;
  private readonly store: RoomStore;
  private readonly sockets: RoomSockets;
  private readonly d1: D1Sync;
  private readonly inputs: PromptInputs;
  private readonly seams: RoomSeams;

  constructor(ctx: DurableObjectState, store: RoomStore, sockets: RoomSockets, d1: D1Sync, inputs: PromptInputs, seams: RoomSeams) {
    this.ctx = ctx;
    this.store = store;
    this.sockets = sockets;
    this.d1 = d1;
    this.inputs = inputs;
    this.seams = seams;
  }

  /**
   * The texts a person's text is judged with, oldest first: the memory note,
   * the pinned memories (as the prompt holds them, memory.ts `pinned`; an
   * age pinned there and a request in the next message are read together),
   * then the last CONTEXT_MESSAGES visible messages (ModerationInput
   * `conversation`).
   */
  async conversation(): Promise<string[]> {
    const room = this.store.room;
    if (!room) return [];
    const pinned = await this.store.memory.pinned(() => this.d1.readPinned()).catch(() => []);
    const recent = this.store.recentBefore(Number.MAX_SAFE_INTEGER, CONTEXT_MESSAGES).reverse();
    return [room.memory, ...pinned, ...recent.map((row) => row.content)].filter((text) => text.trim() !== "");
  }

  /**
   * Screens a person's message or a reply with the moderator, the
   * character's NSFW flag as context; a person's text (`role: "user"`) with
   * the conversation too (`conversation()`, unless the input brings its
   * own). Null when the provider failed: chat fails open (the failure is
   * logged), so a provider outage loses nobody's message.
   */
  async screen(input: Omit<ModerationInput, "nsfw">): Promise<ModerationVerdict | null> {
    try {
      // A group chat is adult when any member is.
      const cast = await this.inputs.loadCast().catch(() => []);
      const nsfw = cast.some((member) => member.card?.isNsfw === true);
      const conversation = input.role === "user" ? (input.conversation ?? (await this.conversation())) : input.conversation;
      return await screenWholeText(this.seams.moderatorFactory(), { ...input, conversation, nsfw });
    } catch (error) {
      console.warn("screening failed", this.store.room?.conversation_id, String(error));
      this.ctx.waitUntil(
        this.d1.logScreening({
          subjectType: input.role === "user" ? "message" : "reply",
          subjectId: null,
          outcome: "error",
          categories: [],
          provider: "unknown",
          content: input.text,
        }),
      );
      return null;
    }
  }

  /**
   * Screens the text a person's frame would store (`chat_message`,
   * `edit_message`, `set_memory`, `set_summary`: every string of the frame but its type and
   * ids, frameText) and, when it is S4, logs the attempt under
   * `subjectType` and returns the verdict; null when it may be stored
   * (safe, another category, or the provider failed: fail open, logged).
   */
  async refuses(frame: object, subjectType: "message" | "memory" | "summary", subjectId: string | null): Promise<ModerationVerdict | null> {
    const text = frameText(frame);
    if (text.trim() === "") return null;
    const verdict = await this.screen({ text, role: "user" });
    if (!verdict || !isChildSafetyViolation(verdict)) return null;
    this.ctx.waitUntil(
      this.d1.logScreening({ subjectType, subjectId, outcome: "refused", categories: verdict.categories, provider: verdict.provider, content: text }),
    );
    return verdict;
  }

  /** Logs a refused message of the person (`messageId` null: it was never stored). */
  logRefusedMessage(content: string, verdict: ModerationVerdict, messageId: string | null): void {
    this.ctx.waitUntil(
      this.d1.logScreening({ subjectType: "message", subjectId: messageId, outcome: "refused", categories: verdict.categories, provider: verdict.provider, content }),
    );
  }

  /**
   * A stored message that screening refused after it was stored (the verdict
   * came after the reply began): the reply it started is stopped
   * (`stopReply`), the message and everything after it deleted, every socket
   * told (`messages_deleted`, then `message_refused`), and the attempt logged.
   */
  async retractMessage(message: MessageRow, verdict: ModerationVerdict, stopReply: () => void): Promise<void> {
    if (this.store.deleted || !this.store.room) return;
    this.logRefusedMessage(message.content, verdict, message.id);
    stopReply();
    const gone = this.store.edits.deleteFrom(message.id);
    if (gone.length === 0) return;
    await this.d1.writeLastMessage();
    this.sockets.broadcast({ type: "messages_deleted", messageIds: [message.id, ...gone.filter((id) => id !== message.id)] });
    this.sockets.broadcast(refusal("message_refused", MESSAGE_REFUSED_TEXT, message.client_id ?? undefined));
  }

  /**
   * Screens a complete reply (off its path: the person already has it). When
   * it is S4, its text becomes REFUSED_REPLY_TEXT (the other versions stay:
   * each was screened when written), every socket gets `message_updated`, and
   * the original is kept only in the moderation log.
   */
  async screenReply(row: MessageRow): Promise<void> {
    const previous = this.store.userMessageBefore(row.seq);
    const verdict = await this.screen({ text: row.content, role: "assistant", context: previous ?? undefined });
    if (!verdict || !isChildSafetyViolation(verdict) || this.store.deleted) return;
    const replaced = this.store.edits.replaceContent(row.id, row.content, REFUSED_REPLY_TEXT);
    if (!replaced) return;
    await this.d1.logScreening({
      subjectType: "reply",
      subjectId: row.id,
      outcome: "replaced",
      categories: verdict.categories,
      provider: verdict.provider,
      content: row.content,
    });
    if (this.store.lastVisible()?.id === row.id) await this.d1.writeLastMessage();
    if (replaced.status === "complete") this.sockets.broadcastEach((viewer) => ({ type: "message_updated", messageId: row.id, message: this.store.toWire(replaced, null, viewer) }));
  }

  /**
   * Hides messages an operator removed (`hidden_messages` in D1, handed over
   * by the Worker each time it opens the room): their text becomes
   * MODERATED_MESSAGE_TEXT and their other versions go. Idempotent; every
   * socket gets `message_updated` for each one changed now. Returns how many
   * changed.
   */
  async hideMessages(messageIds: string[]): Promise<number> {
    if (this.store.deleted || !this.store.room || messageIds.length === 0) return 0;
    const changed: MessageRow[] = [];
    for (const id of messageIds.slice(0, MAX_HIDDEN_PER_CALL)) {
      const row = this.store.edits.hideMessage(id, MODERATED_MESSAGE_TEXT);
      if (row) changed.push(row);
    }
    if (changed.some((row) => row.id === this.store.lastVisible()?.id)) await this.d1.writeLastMessage();
    for (const row of changed) {
      if (row.status === "complete") this.sockets.broadcastEach((viewer) => ({ type: "message_updated", messageId: row.id, message: this.store.toWire(row, null, viewer) }));
    }
    return changed.length;
  }
}

/** The text of a client frame that screening reads: every string but its type and ids (NOT_TEXT.frame). */
export function frameText(frame: object): string {
  return screenedText(frame, NOT_TEXT.frame);
}
