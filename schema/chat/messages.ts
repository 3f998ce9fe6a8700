/**
 * A chat message as the API and the room send it, with the token usage of a
 * reply (schema/chat.ts re-exports them).
 */

/**
 * Tokens one version of a reply cost, as the model's endpoint reported them
 * (OpenAI's final stream chunk `usage: {prompt_tokens, completion_tokens}`
 * with `stream_options.include_usage`; Workers AI streams the same field):
 * `promptTokens` read, `completionTokens` written. A continued reply counts
 * every request that wrote it. Never estimated: unknown when the endpoint
 * said nothing.
 */
export interface ReplyUsage {
  promptTokens: number;
  completionTokens: number;
}

/** A stored chat message as `GET /api/conversations/:id/messages` and `history_sync` return it. */
export interface ChatMessage {
  /** Random UUID. */
  id: string;
  conversationId: string;
  content: string;
  isUser: boolean;
  /** ISO 8601; for a character reply, when it was finished. */
  createdAt: string;
  /** The `clientId` the sender gave a user message (null otherwise), to match an optimistic bubble. */
  clientId: string | null;
  /**
   * The reading person's own thumb on a character reply: 1, -1, or null
   * (none, and always null on user messages). Thumbs are per person
   * (DESIGN.md "Shared rooms"): each socket and each read gets its person's.
   */
  rating: 1 | -1 | null;
  /**
   * The reply's other versions (the swipes), in the order they were written:
   * every `regenerate` adds a version at the end. Without `swipeIndex`,
   * `content` is the newest version and these are the earlier ones, oldest first.
   */
  alternatives: string[];
  /**
   * Where `content` stands among all the versions (0-based, written order)
   * after a `swipe` chose an earlier one: the versions are
   * `[...alternatives.slice(0, swipeIndex), content, ...alternatives.slice(swipeIndex)]`.
   * Absent when `content` is the newest (`alternatives.length`). See `replyVersions`.
   */
  swipeIndex?: number;
  /**
   * "streaming" only on a reply still being written (history_sync after a
   * reconnect): its `content` is what exists so far, and deltas with its id follow.
   */
  status?: "streaming";
  /** ISO 8601: when the person last edited the text; absent when never edited. */
  editedAt?: string;
  /** A character reply's speaker (a member of the cast, or one that was). Absent on the person's messages. */
  characterId?: number;
  /** The person who wrote a user message (their user id). Absent on replies. */
  authorId?: string;
  /** The name the author wrote under (their persona's, else their first name). Absent on replies. */
  authorName?: string;
  /** "Hide from context": kept and shown (dimmed) but left out of every prompt. Absent when false. */
  hidden?: boolean;
  /** A reply's tokens for the version shown (ReplyUsage). Absent when its endpoint reported none, and on the person's messages. */
  usage?: ReplyUsage;
  /**
   * Each version's tokens in the order written (as `replyVersions` lists
   * them), null where unknown. Only on a reply with several versions and at
   * least one known.
   */
  versionUsage?: (ReplyUsage | null)[];
  /**
   * A character reply's recalled memories for the version shown (DESIGN.md
   * "Memory"): ids of the earlier messages the room put in its prompt,
   * oldest first; [] when none. Absent on the person's messages.
   */
  recalled?: string[];
  /**
   * "image": a picture imagined in the chat (DESIGN.md "Pictures"), with
   * `imageUrl`, `prompt`, `width` and `height`; `content` is "", `authorId`
   * and `authorName` name who asked for it, `characterId` whose scene it is.
   * It is never sent to a text model. Absent on text messages.
   */
  kind?: "image";
  /** The picture's path (`/objects/pictures/…`, immutable). Only with `kind: "image"`. */
  imageUrl?: string;
  /** The words it was painted from. Only with `kind: "image"`. */
  prompt?: string;
  /** Pixels. Only with `kind: "image"`. */
  width?: number;
  height?: number;
  /**
   * A character reply's expression: one of its speaker's emotion labels
   * (the `name` of an `emotion` asset), chosen by the room's
   * ExpressionClassifier when the reply finished; null when the speaker has
   * none (DESIGN.md "Character assets"). Absent on the person's messages.
   */
  expression?: string | null;
}
