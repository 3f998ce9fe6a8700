/**
 * The WebSocket frames of `/ws` (SPEC.md §7, DESIGN.md "Real-time chat
 * protocol"): what a client sends (`clientFrameSchema`) and what the room
 * answers (`serverFrameSchema`), with the stored message as a frame carries
 * it (`chatMessageSchema`) and its reply versions. The conversation API's
 * HTTP shapes and the chat's limits and texts are schema/chat.ts's.
 *
 * Every frame is JSON text. The spec's messages are kept exactly; everything
 * else is additive, so a client that ignores unknown types and fields works.
 */
import { z } from "zod";
import { type AuthorNote, CHAT_MODELS, type ChatMessage, DEFAULT_AUTHOR_NOTE, MAX_AUTHOR_NOTE_LENGTH, MAX_IMAGINE_PROMPT_LENGTH, MAX_CHAT_MESSAGE_LENGTH, MAX_EDITED_REPLY_LENGTH, MAX_MEMORY_LENGTH, MAX_SUMMARY_LENGTH, REPLY_ORDERS, type ReplyUsage } from "./chat.ts";
// Client → server.

const conversationIdField = z.string({ error: "conversationId is required" }).min(1).max(100);
const clientIdField = z.string({ error: "clientId must be text" }).min(1).max(100);

export const joinFrameSchema = z.object({
  type: z.literal("join"),
  conversationId: conversationIdField,
  clientId: clientIdField.optional(),
});

export const chatMessageFrameSchema = z.object({
  type: z.literal("chat_message"),
  conversationId: conversationIdField,
  content: z
    .string({ error: "content must be text" })
    .trim()
    .min(1, "Messages cannot be empty")
    .max(MAX_CHAT_MESSAGE_LENGTH, `Messages can be at most ${MAX_CHAT_MESSAGE_LENGTH.toLocaleString("en-US")} characters`),
  /** Always true: people only send their own messages (SPEC.md §7). */
  isUser: z.literal(true, { error: "isUser must be true" }).optional(),
  /** A uuid the client picks, so a resend after a reconnect is stored once. */
  clientId: clientIdField.optional(),
});

export const regenerateFrameSchema = z.object({
  type: z.literal("regenerate"),
  conversationId: conversationIdField.optional(),
});

export const stopFrameSchema = z.object({
  type: z.literal("stop"),
  conversationId: conversationIdField.optional(),
});

/**
 * Choose which version of the last character reply the conversation goes on
 * from (SillyTavern's swipe): `index` is the version's place among all of
 * them, 0-based in the order they were written (`replyVersions`). Allowed on
 * the last stored message when it is a character reply and no reply is being
 * written; answered with `message_updated` to every socket, else an `error`
 * (`message_not_found`, `not_last_reply`, `no_such_version`, `busy`).
 * Choosing the version already shown changes nothing and is answered to the
 * sender alone. The reply keeps its id and its rating. A `messageId` naming
 * a picture (any, not only the last) shows that version of it (`imagine`
 * with `imageId` made them).
 */
export const swipeFrameSchema = z.object({
  type: z.literal("swipe"),
  conversationId: conversationIdField.optional(),
  messageId: z.string({ error: "messageId is required" }).min(1).max(100),
  index: z
    .number({ error: "index must be a whole number" })
    .int({ error: "index must be a whole number" })
    .min(0, { error: "index must be a whole number" })
    .max(10_000, { error: "That reply has no such version." }),
});

const messageIdField = z.string({ error: "messageId is required" }).min(1).max(100);

/**
 * Change the text of any stored message, the person's or the character's
 * (the version shown, for a reply with swipes). Trimmed; at most
 * MAX_CHAT_MESSAGE_LENGTH for the person's, MAX_EDITED_REPLY_LENGTH for the
 * character's. Answered with `message_updated` (with `editedAt`) to every socket.
 */
export const editMessageFrameSchema = z.object({
  type: z.literal("edit_message"),
  conversationId: conversationIdField.optional(),
  messageId: messageIdField,
  content: z
    .string({ error: "content must be text" })
    .trim()
    .min(1, "Messages cannot be empty")
    .max(MAX_EDITED_REPLY_LENGTH, `Messages can be at most ${MAX_EDITED_REPLY_LENGTH.toLocaleString("en-US")} characters`),
  clientId: clientIdField.optional(),
});

/** Delete one stored message (a reply with all its versions). Answered with `messages_deleted` to every socket. */
export const deleteMessageFrameSchema = z.object({
  type: z.literal("delete_message"),
  conversationId: conversationIdField.optional(),
  messageId: messageIdField,
  clientId: clientIdField.optional(),
});

/** Delete a message and every message after it. Answered with `messages_deleted` to every socket. */
export const rewindFrameSchema = z.object({
  type: z.literal("rewind"),
  conversationId: conversationIdField.optional(),
  messageId: messageIdField,
  clientId: clientIdField.optional(),
});

/**
 * The character goes on with its last reply: `reply_started` with
 * `continues: true` and the reply's own id, deltas that extend its text,
 * then `character_response` with the whole text. Only when the last stored
 * message is a character reply (else `nothing_to_continue`).
 */
export const continueFrameSchema = z.object({
  type: z.literal("continue"),
  conversationId: conversationIdField.optional(),
  clientId: clientIdField.optional(),
});

/** Set the conversation's memory note (always in the prompt); empty clears it. Answered with `memory_updated` to every socket. */
export const setMemoryFrameSchema = z.object({
  type: z.literal("set_memory"),
  conversationId: conversationIdField.optional(),
  memory: z
    .string({ error: "memory must be text" })
    .trim()
    .max(MAX_MEMORY_LENGTH, `Memory can be at most ${MAX_MEMORY_LENGTH.toLocaleString("en-US")} characters`),
  clientId: clientIdField.optional(),
});

/**
 * Replace the conversation's running summary ("The story so far", written
 * by the model as the chat outgrows the prompt): it keeps covering the same
 * messages. Empty resets it: nothing is summarised any more, and the model
 * writes a new one when the history next overflows. Answered with
 * `summary_updated` to every socket.
 */
export const setSummaryFrameSchema = z.object({
  type: z.literal("set_summary"),
  conversationId: conversationIdField.optional(),
  summary: z
    .string({ error: "summary must be text" })
    .trim()
    .max(MAX_SUMMARY_LENGTH, `The summary can be at most ${MAX_SUMMARY_LENGTH.toLocaleString("en-US")} characters`),
  clientId: clientIdField.optional(),
});

/**
 * "Let … speak": member `characterId` replies now (one reply, muted or not).
 * Not a member of the cast, or no longer able to speak → `error`
 * (`not_a_member`); while a reply is written → `busy`.
 */
export const generateFrameSchema = z.object({
  type: z.literal("generate"),
  conversationId: conversationIdField.optional(),
  characterId: z.number({ error: "characterId must be a character id" }).int().positive({ error: "characterId must be a character id" }),
  clientId: clientIdField.optional(),
});

/** Set the author's note (AuthorNote); empty text clears it. Answered with `author_note_updated` to every socket. */
export const setAuthorNoteFrameSchema = z.object({
  type: z.literal("set_author_note"),
  conversationId: conversationIdField.optional(),
  text: z
    .string({ error: "text must be text" })
    .trim()
    .max(MAX_AUTHOR_NOTE_LENGTH, `The author's note can be at most ${MAX_AUTHOR_NOTE_LENGTH.toLocaleString("en-US")} characters`),
  depth: z.number({ error: "depth must be a whole number from 0 to 100" }).int().min(0).max(100).default(DEFAULT_AUTHOR_NOTE.depth),
  interval: z.number({ error: "interval must be a whole number from 0 to 100" }).int().min(0).max(100).default(DEFAULT_AUTHOR_NOTE.interval),
  clientId: clientIdField.optional(),
});

/** "Hide from context": the message stays (shown dimmed) but no prompt reads it; `hidden: false` brings it back. Answered with `message_updated`. */
export const hideMessageFrameSchema = z.object({
  type: z.literal("hide_message"),
  conversationId: conversationIdField.optional(),
  messageId: messageIdField,
  hidden: z.boolean({ error: "hidden must be true or false" }),
  clientId: clientIdField.optional(),
});

/** A shared room: the sender is typing; relayed to the others as `typing {userId, name}` (DESIGN.md "Shared rooms"). */
export const typingFrameSchema = z.object({
  type: z.literal("typing"),
  conversationId: conversationIdField.optional(),
});

/**
 * "Imagine": a picture of the scene (DESIGN.md "Pictures"), by any member.
 * With `prompt`, of those words; without, the chat model writes one from
 * the recent turns and the speaker's appearance. The prompt is screened.
 * Answered with `image_started` (`requestId`: the `clientId` when given)
 * to every socket, then `image_ready` with the picture as a message, or
 * `image_stopped` and, to the sender, an `error` (`image_refused`,
 * `image_failed`, `rate_limited`). With `imageId`, that picture is drawn
 * again and kept as a version (its versions are chosen with `swipe`).
 */
export const imagineFrameSchema = z.object({
  type: z.literal("imagine"),
  conversationId: conversationIdField.optional(),
  prompt: z
    .string({ error: "prompt must be text" })
    .trim()
    .max(MAX_IMAGINE_PROMPT_LENGTH, `A picture's prompt can be at most ${MAX_IMAGINE_PROMPT_LENGTH.toLocaleString("en-US")} characters`)
    .optional(),
  clientId: clientIdField.optional(),
  /** Regenerate this picture: its prompt is drawn again and the new picture kept as its newest version (a `prompt` given is ignored). */
  imageId: z.string().min(1).max(100).optional(),
});

/** Stops the picture `requestId` being made (its asker or the owner): `image_stopped` with `reason: "cancelled"`; nothing is stored. */
export const cancelImageFrameSchema = z.object({
  type: z.literal("cancel_image"),
  conversationId: conversationIdField.optional(),
  requestId: z.string({ error: "requestId is required" }).min(1).max(100),
});

/** Every frame a client may send. Parse with `clientFrameSchema.safeParse(JSON.parse(text))`. */
export const clientFrameSchema = z.discriminatedUnion("type", [
  joinFrameSchema,
  chatMessageFrameSchema,
  regenerateFrameSchema,
  stopFrameSchema,
  swipeFrameSchema,
  editMessageFrameSchema,
  deleteMessageFrameSchema,
  rewindFrameSchema,
  continueFrameSchema,
  setMemoryFrameSchema,
  setSummaryFrameSchema,
  generateFrameSchema,
  setAuthorNoteFrameSchema,
  hideMessageFrameSchema,
  typingFrameSchema,
  imagineFrameSchema,
  cancelImageFrameSchema,
]);
export type ClientFrame = z.output<typeof clientFrameSchema>;
export type ClientFrameInput = z.input<typeof clientFrameSchema>;

/**
 * Keep-alive: this exact text is answered with PONG_FRAME by the runtime
 * itself, without waking a hibernating conversation.
 */
export const PING_FRAME = '{"type":"ping"}';
export const PONG_FRAME = '{"type":"pong"}';

// ---------------------------------------------------------------------------
// WebSocket frames, server → client.

const isoDate = z.string();

const tokenCount = z.number().int().nonnegative();
const replyUsageSchema = z.object({ promptTokens: tokenCount, completionTokens: tokenCount }) satisfies z.ZodType<ReplyUsage>;

export const chatMessageSchema = z.object({
  id: z.string(),
  conversationId: z.string(),
  content: z.string(),
  isUser: z.boolean(),
  createdAt: isoDate,
  clientId: z.string().nullable(),
  rating: z.union([z.literal(1), z.literal(-1)]).nullable(),
  alternatives: z.array(z.string()),
  swipeIndex: z.number().int().min(0).optional(),
  status: z.literal("streaming").optional(),
  editedAt: isoDate.optional(),
  characterId: z.number().int().optional(),
  authorId: z.string().optional(),
  authorName: z.string().optional(),
  hidden: z.boolean().optional(),
  usage: replyUsageSchema.optional(),
  versionUsage: z.array(replyUsageSchema.nullable()).optional(),
  recalled: z.array(z.string()).optional(),
  kind: z.literal("image").optional(),
  imageUrl: z.string().optional(),
  prompt: z.string().optional(),
  width: z.number().int().optional(),
  height: z.number().int().optional(),
  expression: z.string().nullable().optional(),
}) satisfies z.ZodType<ChatMessage>;

const authorNoteSchema = z.object({ text: z.string(), depth: z.number().int(), interval: z.number().int() }) satisfies z.ZodType<AuthorNote>;

const castMemberFrameSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  muted: z.boolean(),
  talkativeness: z.number(),
});

/** The parts of a reply that say which of its versions is shown. */
export type ReplyVersionFields = Pick<ChatMessage, "content" | "alternatives" | "swipeIndex">;

/**
 * Every version of a reply in the order they were written, and the place of
 * its `content` among them (`swipeIndex`, else the last). A `swipeIndex`
 * out of range counts as the last.
 */
export function replyVersions(message: ReplyVersionFields): { versions: string[]; current: number } {
  const { content, alternatives } = message;
  const at = message.swipeIndex;
  const current = at !== undefined && Number.isInteger(at) && at >= 0 && at <= alternatives.length ? at : alternatives.length;
  return { versions: [...alternatives.slice(0, current), content, ...alternatives.slice(current)], current };
}

/**
 * The reply with version `index` (0-based, written order) as its `content`
 * and the others, still in written order, as `alternatives`; `swipeIndex`
 * left out when the newest is chosen. Null when there is no such version.
 */
export function chooseVersion(message: ReplyVersionFields, index: number): ReplyVersionFields | null {
  const { versions } = replyVersions(message);
  if (!Number.isInteger(index) || index < 0 || index >= versions.length) return null;
  const alternatives = versions.filter((_, i) => i !== index);
  return index === versions.length - 1
    ? { content: versions[index]!, alternatives }
    : { content: versions[index]!, alternatives, swipeIndex: index };
}

/** Machine words of error frames; `message` is the sentence for a person. */
export const CHAT_ERROR_CODES = [
  "invalid_frame",
  "too_big",
  "not_joined",
  "forbidden",
  "busy",
  "rate_limited",
  "nothing_to_regenerate",
  "message_not_found",
  "not_last_reply",
  "no_such_version",
  "nothing_to_continue",
  /** `generate` named a character that is not (or no longer) in the cast, or cannot speak any more. */
  "not_a_member",
  /**
   * Screening refused the person's text (sexual content involving minors):
   * a `chat_message` not kept, an `edit_message`, `set_memory` or `set_summary` not applied.
   */
  "message_refused",
  "model_failed",
  "stopped_empty",
  /** `imagine`: screening refused the picture's prompt; nothing was made or stored. */
  "image_refused",
  /** `imagine`: the image engine failed or refused (its own safety system); nothing was stored. */
  "image_failed",
  "internal",
] as const;
export type ChatErrorCode = (typeof CHAT_ERROR_CODES)[number];

export const serverFrameSchema = z.discriminatedUnion("type", [
  /** After `join`: every visible message, oldest first, and a reply still being written (status "streaming"). */
  z.object({
    type: z.literal("history_sync"),
    conversationId: z.string(),
    messages: z.array(chatMessageSchema),
    chatModel: z.enum(CHAT_MODELS),
    /** The conversation's memory note ("" for none). */
    memory: z.string().optional(),
    /** The running summary ("" for none). */
    summary: z.string().optional(),
    /** The conversation's author's note. */
    authorNote: authorNoteSchema.optional(),
  }),
  /** A user message is stored (sent to every socket of the conversation; match yours by clientId). */
  z.object({
    type: z.literal("message_saved"),
    clientId: z.string().nullable(),
    messageId: z.string(),
    message: chatMessageSchema,
  }),
  /**
   * A reply is being written; `replaces` is the reply it will replace
   * (regenerate), else null. `continues`: the deltas extend the text of the
   * existing reply `messageId` (`continue`); if it fails, `message_updated`
   * puts its text back.
   */
  z.object({
    type: z.literal("reply_started"),
    messageId: z.string(),
    replaces: z.string().nullable(),
    continues: z.boolean().optional(),
    /** The speaker. */
    characterId: z.number().int().optional(),
  }),
  z.object({
    type: z.literal("character_response_delta"),
    messageId: z.string(),
    delta: z.string(),
  }),
  /**
   * The finished reply (SPEC.md §7: `content`, `timestamp`), stored. `stopped`
   * when `stop` cut it short. `usage`: the tokens its endpoint reported for
   * it (a continue: for the whole reply), null when none; the room always sends it.
   */
  z.object({
    type: z.literal("character_response"),
    content: z.string(),
    timestamp: isoDate,
    messageId: z.string(),
    message: chatMessageSchema,
    stopped: z.boolean(),
    usage: replyUsageSchema.nullable().optional(),
  }),
  // Sent only to the rater's own sockets: `rating` is theirs (thumbs are per person).
  z.object({
    type: z.literal("message_rated"),
    messageId: z.string(),
    rating: z.union([z.literal(1), z.literal(-1)]).nullable(),
  }),
  /**
   * A stored message changed in place (a `swipe` chose another version, an
   * edit, a failed continue put back): show `message` instead. `clientId`
   * names the frame that caused it.
   */
  z.object({
    type: z.literal("message_updated"),
    messageId: z.string(),
    message: chatMessageSchema,
    clientId: z.string().optional(),
  }),
  /** Messages were deleted (`delete_message`, `rewind`): drop them. */
  z.object({
    type: z.literal("messages_deleted"),
    messageIds: z.array(z.string()),
    clientId: z.string().optional(),
  }),
  /** The memory note changed (`set_memory`). */
  z.object({
    type: z.literal("memory_updated"),
    memory: z.string(),
    clientId: z.string().optional(),
  }),
  /** The running summary changed (`set_summary`; "" once reset). */
  z.object({
    type: z.literal("summary_updated"),
    summary: z.string(),
    clientId: z.string().optional(),
  }),
  /** The author's note changed (`set_author_note`). */
  z.object({
    type: z.literal("author_note_updated"),
    authorNote: authorNoteSchema,
    clientId: z.string().optional(),
  }),
  /** Who is in the room now (a socket opened or closed): one entry per person, in the order they came. */
  z.object({
    type: z.literal("presence"),
    people: z.array(z.object({ userId: z.string(), name: z.string(), typing: z.boolean() })),
  }),
  /** Someone else in the room is typing (their `typing` frame). */
  z.object({
    type: z.literal("typing"),
    userId: z.string(),
    name: z.string(),
  }),
  /**
   * The cast or the reply order changed (the conversation's routes): refetch
   * the conversation for avatars; `characters` says who is in it and how.
   */
  z.object({
    type: z.literal("cast_updated"),
    characters: z.array(castMemberFrameSchema),
    replyOrder: z.enum(REPLY_ORDERS),
  }),
  /**
   * A picture is being made (`imagine`): show a placeholder for `requestId`
   * (with the time since `startedAt`) until `image_ready` or `image_stopped`
   * names it. `userId`: who asked (they, and the owner, may cancel it).
   */
  z.object({
    type: z.literal("image_started"),
    requestId: z.string(),
    userId: z.string(),
    startedAt: isoDate,
    /** The prompt when the person wrote one; absent while the chat model writes it. */
    prompt: z.string().optional(),
    /** A regenerate: the picture that gets a new version (the placeholder shows over it). */
    imageId: z.string().optional(),
  }),
  /** The picture `requestId` is stored: `message` (`kind: "image"`) takes its placeholder's place. */
  z.object({
    type: z.literal("image_ready"),
    requestId: z.string(),
    message: chatMessageSchema,
  }),
  /** The picture `requestId` will not come (cancelled, refused, failed): drop its placeholder. Nothing was stored. */
  z.object({
    type: z.literal("image_stopped"),
    requestId: z.string(),
    reason: z.enum(["cancelled", "refused", "failed"]),
  }),
  /**
   * Something went wrong (SPEC.md §7: `message`). `messageId` names a reply
   * that failed (drop its partial text); `clientId` a user message that was refused.
   * `retryAfterMs` (with `rate_limited`): how long until the same request would be
   * admitted, ms; `message` says it in seconds too.
   */
  z.object({
    type: z.literal("error"),
    message: z.string(),
    code: z.enum(CHAT_ERROR_CODES),
    messageId: z.string().optional(),
    clientId: z.string().optional(),
    retryAfterMs: z.number().int().nonnegative().optional(),
    /** The picture request (`imagine`) it is about. */
    requestId: z.string().optional(),
  }),
]);
export type ServerFrame = z.output<typeof serverFrameSchema>;
