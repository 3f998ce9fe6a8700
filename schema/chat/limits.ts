/**
 * The chat's limits, fixed texts and defaults (SPEC.md §7, DESIGN.md): how
 * long a message, memory or note may be, what a person sees in place of a
 * refused or removed text, reply orders, the author's note and the chat
 * models (schema/chat.ts re-exports them).
 */

/** Longest chat message a person may send, in characters (after trimming); also the longest edit of one. */
export const MAX_CHAT_MESSAGE_LENGTH = 4000;
/**
 * Longest text an edit may give a character's reply, in characters (after
 * trimming). Replies are at most AI_MAX_TOKENS long (512 tokens ≈ 2,000
 * characters by default); 5,000 characters of any text (at most 3 bytes of
 * UTF-8 each) still fit in one frame of MAX_FRAME_BYTES.
 */
export const MAX_EDITED_REPLY_LENGTH = 5000;

/**
 * What a chat message an operator hid shows instead of its text (an upheld
 * report, docs/decisions/0008-trust-and-safety.md). Its other versions go too.
 */
export const MODERATED_MESSAGE_TEXT = "This message was removed by moderation.";

/**
 * What a conversation shows for a cast member an operator removed (issue 42,
 * docs/decisions/0025), to everyone: its name, avatar and creator are not
 * shown, its messages read MODERATED_MESSAGE_TEXT.
 */
export const REMOVED_CHARACTER_NAME = "Removed character";

/** The sentence of a `message_refused` error frame (docs/decisions/0008-trust-and-safety.md). */
export const MESSAGE_REFUSED_TEXT =
  "That message was not sent: Fabled does not allow sexual content involving minors, in any form.";

/** The sentence of a `message_refused` error frame answering an `edit_message` (issue 21): the message keeps its text. */
export const EDIT_REFUSED_TEXT =
  "That edit was not saved: Fabled does not allow sexual content involving minors, in any form.";

/** The sentence of a `message_refused` error frame answering a `set_memory` (issue 21): the memory note keeps its text. */
export const MEMORY_REFUSED_TEXT =
  "That memory note was not saved: Fabled does not allow sexual content involving minors, in any form.";

/** The sentence of a `message_refused` error frame answering a `set_author_note`: the note keeps its text. */
export const AUTHOR_NOTE_REFUSED_TEXT =
  "That author's note was not saved: Fabled does not allow sexual content involving minors, in any form.";

/**
 * What a generated reply becomes when screening finds sexual content
 * involving minors in it (the original is kept only in the operator's log).
 */
export const REFUSED_REPLY_TEXT = "This reply was withheld because it broke Fabled's content rules.";
/** The sentence of a `message_refused` error frame answering a `set_summary` (issue 26): the summary keeps its text. */
export const SUMMARY_REFUSED_TEXT =
  "That summary was not saved: Fabled does not allow sexual content involving minors, in any form.";

/**
 * Longest running summary, in characters (after trimming): what the room
 * keeps of the model's summary, and the longest a person may write.
 */
export const MAX_SUMMARY_LENGTH = 2000;
/** Longest memory note of a conversation, in characters (after trimming). */
export const MAX_MEMORY_LENGTH = 2000;
/** Largest frame a client may send, in bytes (UTF-8); larger ones close the socket with 1009. */
export const MAX_FRAME_BYTES = 16 * 1024;
/** Longest conversation title, in characters. */
export const MAX_CONVERSATION_TITLE_LENGTH = 200;

/** Most characters in one conversation (a group chat's cast; DESIGN.md "Group chats"). */
export const MAX_CAST_SIZE = 8;
/** A member's talkativeness when none was given (0–1; SillyTavern's default). */
export const DEFAULT_TALKATIVENESS = 0.5;

/**
 * Who replies after a person's message in a group chat (SillyTavern's group
 * "reply order", DESIGN.md "Group chats"; durable-objects/room/reply-order.ts):
 * - `natural` (default): members named in the message first, in the order
 *   named; then each member whose talkativeness roll succeeds, shuffled; if
 *   nobody, one at random; the last speaker is not rolled again unless alone;
 * - `list`: every unmuted member in member order;
 * - `pooled`: one member who has not spoken since the person's previous
 *   message, else any;
 * - `manual`: nobody until asked (`generate`).
 * Muted members reply only when asked.
 */
export const REPLY_ORDERS = ["natural", "list", "pooled", "manual"] as const;
export type ReplyOrder = (typeof REPLY_ORDERS)[number];

/** Longest author's note, in characters (after trimming). */
export const MAX_AUTHOR_NOTE_LENGTH = 2000;

/**
 * The conversation's author's note (SillyTavern's): a text inserted into the
 * prompt `depth` messages before the end of the history (0: after the last
 * one), on every `interval`-th message of the person (1: always; 0: never).
 * "" for none.
 */
export interface AuthorNote {
  text: string;
  depth: number;
  interval: number;
}

export const DEFAULT_AUTHOR_NOTE: AuthorNote = { text: "", depth: 4, interval: 1 };

/** Which chat model answers: DESIGN.md "Chat models". `offline` must be shown to people as such. */
export const CHAT_MODELS = ["workers-ai", "openai", "offline"] as const;
export type ChatModelName = (typeof CHAT_MODELS)[number];
