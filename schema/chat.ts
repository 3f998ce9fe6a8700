/**
 * Real-time chat: the conversation API's wire shapes, limits and texts
 * (SPEC.md §7), shared by the Worker, the ConversationRoom Durable Object and
 * the web client. The WebSocket frames of `/ws` themselves are
 * schema/chat-frames.ts's.
 *
 * Every frame is JSON text. The spec's messages are kept exactly; everything
 * else is additive, so a client that ignores unknown types and fields works.
 *
 * client → server: `join`, `chat_message` (spec), `regenerate`, `stop`,
 * `swipe`, `edit_message`, `delete_message`, `rewind`, `continue`,
 * `set_memory`, `set_summary`, and for casts (DESIGN.md "Group chats"):
 * `generate`, `set_author_note`, `hide_message`.
 * server → client: `history_sync`, `message_saved`, `reply_started`,
 * `character_response_delta`, `character_response` (spec), `message_rated`,
 * `message_updated`, `messages_deleted`, `memory_updated`, `summary_updated`,
 * `author_note_updated`, `cast_updated`, `error` (spec).
 *
 * Steering frames (edit, delete, rewind, continue, memory) are refused with
 * `busy` while a reply is being written, are the owner's alone (the socket
 * is), and with a `clientId` are applied once: a resend gets the first
 * answer again (docs/decisions/0007-steering-a-chat.md).
 */
import { z } from "zod";
import { visibleName } from "./names.ts";
import type { CharacterAsset } from "./api.ts";
import { lorebookIdsSchema } from "./lorebook/ids.ts";

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

/**
 * Close codes the server uses (RFC 6455 §7.4.1): 1000 normal, 1003 binary
 * frames, 1008 policy violation (not your conversation, join first, wrong
 * conversation), 1009 frame over MAX_FRAME_BYTES, 1011 server error.
 */
export const CLOSE_CODES = {
  normal: 1000,
  unsupportedData: 1003,
  policyViolation: 1008,
  tooBig: 1009,
  serverError: 1011,
} as const;

/**
 * Reasons of a 1008 close after which the chat is not there for this person
 * any more (DESIGN.md "Shared rooms": a member removed or leaving, the
 * conversation deleted, an upgrade refused as not found — the Worker's 404
 * for a WebSocket): the web client stops reconnecting and says so.
 */
export const GONE_CLOSE_REASONS = {
  removed: "You are no longer in this chat",
  notFound: "Conversation not found",
  deleted: "Conversation deleted",
  /** The room's owner deleted their account (worker/lib/account/deletion.ts): the room is gone for every member. */
  ownerLeft: "The owner deleted their account, so this chat is gone",
  /**
   * The person was suspended (durable-objects/socket-limits.ts CLOSE_REASONS.suspended):
   * they may not chat any more, so the page turns read-only instead of reconnecting.
   */
  suspended: "Account suspended",
} as const;

/**
 * The line a read-only chat page shows for each GONE_CLOSE_REASONS reason
 * (issue 41: one clear line and a way back to My Chats).
 */
export const GONE_TEXTS: Record<keyof typeof GONE_CLOSE_REASONS, string> = {
  removed: "You are no longer in this chat.",
  notFound: "This chat no longer exists.",
  deleted: "This chat was deleted.",
  ownerLeft: "The owner deleted their account, so this chat is gone.",
  suspended: "Your account is suspended, so this chat is read-only.",
};

/** The GONE_TEXTS line for a gone close's `reason` (an unknown one reads as removed). */
export function goneText(reason: string): string {
  const key = (Object.keys(GONE_CLOSE_REASONS) as (keyof typeof GONE_CLOSE_REASONS)[]).find((k) => GONE_CLOSE_REASONS[k] === reason);
  return GONE_TEXTS[key ?? "removed"];
}

/** Whether a close with `code` and `reason` means the chat is gone for this person (GONE_CLOSE_REASONS). */
export function isGoneClose(code: number, reason: string): boolean {
  return code === CLOSE_CODES.policyViolation && (Object.values(GONE_CLOSE_REASONS) as string[]).includes(reason);
}

/**
 * What a suspended person is told: every write and signed-in read (403), and
 * the error frame before their chat sockets close (docs/decisions/0008).
 */
export const SUSPENDED_MESSAGE =
  "Your account has been suspended for breaking Fabled's rules. You can no longer post, chat or create characters.";

// ---------------------------------------------------------------------------
// HTTP: conversations and messages.

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

/** Longest prompt a person writes for a picture (`imagine`), characters. */
export const MAX_IMAGINE_PROMPT_LENGTH = 1000;

/** The kinds of a prompt's sections (DESIGN.md "Memory", the prompt inspector). */
export const PROMPT_SECTION_KINDS = [
  "system",
  "character",
  "persona",
  "memory_note",
  "pinned",
  "recalled",
  "summary",
  "lorebook",
  "examples",
  "history",
  "author_note",
  "post_history",
] as const;
export type PromptSectionKind = (typeof PROMPT_SECTION_KINDS)[number];

/** Why a lorebook entry fired (the lorebook issue fills `PromptRecord.lorebook`). */
export interface PromptLorebookEntry {
  lorebookId: string;
  entryId: string;
  reason: "key" | "secondary" | "regex" | "constant" | "recursion" | "sticky";
}

/**
 * What was sent for one reply version: `GET
 * /api/conversations/{id}/messages/{messageId}/prompt` (the owner).
 * `sections` are in prompt order with their estimated tokens
 * (durable-objects/prompt.ts estimateTokens); `tokens` is the whole
 * prompt's estimate; `model` names the model that was asked.
 */
export interface PromptRecord {
  messages: { role: "system" | "user" | "assistant"; content: string }[];
  sections: { kind: PromptSectionKind; tokens: number }[];
  recalled: string[];
  lorebook: PromptLorebookEntry[];
  model: string;
  tokens: number;
}

/**
 * The conversation's character as every conversation answer embeds it: what
 * the chat page's header, bubbles and "My Chats" show. Read with the
 * conversation (one D1 query), so it is there even when the character has
 * been deactivated and `GET /api/characters/:id` answers 404 (DESIGN.md
 * "Inactive characters": chats already open keep working).
 */
export interface ConversationCharacter {
  /** Equals the conversation's `characterId`; the chat header links to `/character/{id}`. */
  id: number;
  name: string;
  avatarUrl: string | null;
  /** The creator's handle as shown after "@" (the character's `creator` field). */
  creator: string;
  /** The owner's canonical username, where "@creator" links (`/u/{name}`); null without an owner. */
  creatorUsername: string | null;
}

/** Most people in one shared room, the owner included (DESIGN.md "Shared rooms"). */
export const MAX_ROOM_PEOPLE = 10;
/** How long an invitation link works, ms (7 days). */
export const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** A person in a conversation (DESIGN.md "Shared rooms"): the owner first, then members in the order they joined. */
export interface ConversationMember {
  userId: string;
  username: string;
  /** Their display name (name, else first name, else username). */
  name: string;
  avatarUrl: string | null;
  role: "owner" | "member";
}

/** `POST /api/conversations/:id/invites` (201). */
export interface ConversationInvite {
  /** The secret of the link; only its SHA-256 is stored. */
  token: string;
  /** "/join/{token}". */
  url: string;
  /** ISO 8601. */
  expiresAt: string;
}

/** `GET /api/invites/:token`: what the join page shows before anyone joins. */
export interface InvitePreview {
  conversationId: string;
  title: string | null;
  characters: ConversationCharacter[];
  owner: { username: string; name: string; avatarUrl: string | null };
  /** People in the room now, owner included. */
  people: number;
  expiresAt: string;
}

/** A member of a conversation's cast: the character as embedded, and how it takes part. */
export interface CastMember extends ConversationCharacter {
  /** Replies only when asked ("Let … speak", `generate`). */
  muted: boolean;
  /** Chance of replying in the `natural` order, 0–1. */
  talkativeness: number;
  /** Its expressions (`emotion`) and backgrounds (`background`), which the chat shows (DESIGN.md "Character assets"). */
  assets: CharacterAsset[];
}

/**
 * `POST /api/conversations`, `POST /api/conversations/new` (201),
 * `GET /api/conversations/:id` (200): the SPEC.md §7 conversation with its
 * `characterId`, plus (additive) the embedded `character`.
 */
export interface Conversation {
  id: string;
  /** The first member of the cast. */
  characterId: number;
  userId: string;
  title: string | null;
  createdAt: string;
  updatedAt: string;
  lastMessageAt: string | null;
  lastMessagePreview: string | null;
  /** The model that answers in this deployment; the chat page says so when it is "offline". */
  chatModel: ChatModelName;
  /** The first member of the cast, whether or not it is still active. */
  character: ConversationCharacter;
  /** The cast in member order (one for a one-to-one chat); members stay listed when deactivated. */
  characters: CastMember[];
  /** Who replies after a person's message (REPLY_ORDERS). */
  replyOrder: ReplyOrder;
  /** The people of the conversation: the owner, then members of a shared room. */
  members: ConversationMember[];
  /** The persona picked for this conversation; null: the person's default persona (or, without one, their first name). */
  personaId: string | null;
  /** The conversation this one was branched from ("Branch from here"); null for none or once that one is deleted. */
  branchedFrom: { id: string; title: string | null } | null;
  /** The model connection picked for this conversation (`PATCH`); null: the person's default, else the site's model. */
  modelConnectionId: string | null;
  /** The chat's background (`PATCH`): the name of a `background` asset of its first character; null for none. */
  background: string | null;
  /**
   * The character checks in after a quiet spell (DESIGN.md turn 4
   * "Notifications", `PATCH` `{checkIns}`; one-to-one chats only).
   */
  checkIns: boolean;
  /**
   * The ids of the owner's lorebooks attached to the chat, in order (DESIGN.md turn 4 "Lorebooks"): only in the answers of
   * `GET` and `PATCH /api/conversations/{id}` to the owner; left out for a member of a shared room and in lists.
   */
  lorebookIds?: string[];
}

/**
 * One row of `GET /api/conversations` ("My Chats"): latest activity first
 * (`updatedAt`: the start, a message, an edit or delete of one), the time a
 * row shows, so the order is the one seen.
 */
export type ConversationSummary = Conversation;

/** `POST /api/conversations/:id/messages/:messageId/rating` answer. */
export interface MessageRating {
  messageId: string;
  rating: 1 | -1 | null;
}

const characterIdSchema = z.union(
  [z.number().int().positive(), z.string().regex(/^[1-9]\d{0,15}$/).transform(Number)],
  { error: "characterId must be a character id" },
);

/**
 * The title a conversation with the character named `characterName` gets
 * unless given one (SPEC.md §3 "conversations", DESIGN.md "Conversation
 * title"): "Chat with {name}". Also the chat page's title and the name of
 * an exported chat file.
 */
export function conversationTitle(characterName: string): string {
  return `Chat with ${characterName}`;
}

/**
 * The title of a conversation with `characterNames` (its cast, in member
 * order): "Chat with Ana", "Chat with Ana and Bo", "Chat with Ana, Bo and Cy".
 */
export function castTitle(characterNames: readonly string[]): string {
  const names = characterNames.length > 0 ? characterNames : ["…"];
  const list = names.length === 1 ? names[0]! : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
  return conversationTitle(list);
}

/** What a branch's title ends with, after its source's title (issue 41: told apart from an import in My Chats). */
export const BRANCH_TITLE_SUFFIX = " (branch)";

/**
 * The title of a chat branched from one titled `sourceTitle`: "Chat with Ana
 * (branch)". A branch of a branch keeps one suffix; the source's title is
 * shortened so the whole fits MAX_CONVERSATION_TITLE_LENGTH characters.
 */
export function branchTitle(sourceTitle: string): string {
  const base = sourceTitle.endsWith(BRANCH_TITLE_SUFFIX) ? sourceTitle.slice(0, -BRANCH_TITLE_SUFFIX.length) : sourceTitle;
  return `${base.slice(0, MAX_CONVERSATION_TITLE_LENGTH - BRANCH_TITLE_SUFFIX.length).trimEnd()}${BRANCH_TITLE_SUFFIX}`;
}

const titleField = z
  .string({ error: "title must be text" })
  .trim()
  .max(MAX_CONVERSATION_TITLE_LENGTH, `Titles can be at most ${MAX_CONVERSATION_TITLE_LENGTH} characters`)
  .refine(...visibleName);

/** A cast as given: 1–MAX_CAST_SIZE distinct character ids, in member order. */
const castIdsSchema = z
  .array(characterIdSchema, { error: "characterIds must be a list of character ids" })
  .min(1, "Choose at least one character")
  .max(MAX_CAST_SIZE, `A chat can have at most ${MAX_CAST_SIZE} characters`)
  .refine((ids) => new Set(ids).size === ids.length, "Each character can be in a chat only once");

/**
 * `POST /api/conversations` (SPEC.md §7: `{characterId, title}`; DESIGN.md
 * "Group chats": or `{characterIds}`, 1–8 distinct, member order kept). Read
 * as `characterIds`; the title defaults to castTitle.
 */
export const conversationInputSchema = z
  .object({
    characterId: characterIdSchema.optional(),
    characterIds: castIdsSchema.optional(),
    title: titleField.nullish().transform((v) => v || null),
  })
  .superRefine((input, ctx) => {
    if (input.characterId === undefined && input.characterIds === undefined) {
      ctx.addIssue({ code: "custom", path: ["characterId"], message: "characterId must be a character id" });
    }
    if (input.characterId !== undefined && input.characterIds !== undefined && input.characterIds[0] !== input.characterId) {
      ctx.addIssue({ code: "custom", path: ["characterIds"], message: "characterId must be the first of characterIds" });
    }
  })
  .transform(({ characterId, characterIds, title }) => ({ characterIds: characterIds ?? [characterId!], title }));
export type ConversationInput = z.output<typeof conversationInputSchema>;

/** `PATCH /api/conversations/:id`: rename (1–200 characters), choose the reply order or the model, attach lorebooks. */
export const conversationPatchSchema = z
  .object({
    title: titleField.min(1, "Titles cannot be empty").optional(),
    replyOrder: z.enum(REPLY_ORDERS, { error: `replyOrder must be one of ${REPLY_ORDERS.join(", ")}` }).optional(),
    /** The person's model connection that writes this chat; null: their default, else the site's (DESIGN.md "Your own model (turn 3)"). */
    modelConnectionId: z.string({ error: "modelConnectionId must be a connection id or null" }).max(64).nullable().optional(),
    /** The chat's background: the name of a `background` asset of its first character; null: none (DESIGN.md "Character assets"). */
    background: z.string({ error: "background must be a background's name or null" }).trim().min(1).max(64).nullable().optional(),
    /** The owner's standalone lorebooks that apply to every speaker, in order (DESIGN.md turn 4 "Lorebooks"); [] detaches them all. */
    lorebookIds: lorebookIdsSchema.optional(),
    /** The character writes first after a quiet spell (DESIGN.md turn 4 "Notifications"); one-to-one chats only. */
    checkIns: z.boolean({ error: "checkIns must be true or false" }).optional(),
  })
  .refine((patch) => Object.values(patch).some((v) => v !== undefined), "Nothing to change");
export type ConversationPatch = z.output<typeof conversationPatchSchema>;

/** `POST /api/conversations/:id/characters`: add a character to the cast. */
export const castAddInputSchema = z.object({ characterId: characterIdSchema });

/** `PATCH /api/conversations/:id/characters/:characterId`: mute and talkativeness. */
export const castMemberPatchSchema = z
  .object({
    muted: z.boolean({ error: "muted must be true or false" }).optional(),
    talkativeness: z
      .number({ error: "talkativeness must be a number from 0 to 1" })
      .min(0, "talkativeness must be a number from 0 to 1")
      .max(1, "talkativeness must be a number from 0 to 1")
      .optional(),
  })
  .refine((patch) => patch.muted !== undefined || patch.talkativeness !== undefined, "Nothing to change");

/** `POST /api/conversations/new` (SPEC.md §7: `{characterId}`). */
export const newConversationInputSchema = z.object({ characterId: characterIdSchema });

/** Longest search of "My Chats" (`q`), in characters. */
export const MAX_CONVERSATION_SEARCH_LENGTH = 100;

/**
 * `GET /api/conversations?limit=&offset=&q=&characterId=`: `q` matches the
 * title or the character's name (case-insensitive, anywhere in it; blank:
 * everything); `characterId` keeps the conversations with that character
 * (the character page's "Continue chat" asks for the latest one).
 */
export const conversationListQuerySchema = z.object({
  limit: z.coerce.number({ error: "limit must be a whole number" }).int().min(1).max(100).default(50),
  offset: z.coerce.number({ error: "offset must be a whole number" }).int().min(0).max(10_000).default(0),
  q: z
    .string()
    .trim()
    .max(MAX_CONVERSATION_SEARCH_LENGTH, `Searches can be at most ${MAX_CONVERSATION_SEARCH_LENGTH} characters`)
    .optional()
    .transform((v) => v || undefined),
  characterId: characterIdSchema.optional(),
});
export type ConversationListQuery = z.output<typeof conversationListQuerySchema>;

/** `POST /api/conversations/:id/branch`: a new conversation holding the messages up to and including `messageId`. */
export const branchInputSchema = z.object({
  messageId: z.string({ error: "messageId is required" }).min(1, "messageId is required").max(100),
});

/**
 * `PUT /api/conversations/:id/persona`: the persona to play in this
 * conversation. null: the owner's default one; for a member of a shared
 * room, none (their name only).
 */
export const conversationPersonaInputSchema = z.object({
  personaId: z.string({ error: "personaId must be a persona id or null" }).max(100).nullable(),
});

/**
 * `POST /api/invites/:token` (optional body): the persona the person plays in
 * the room (issue 42, docs/decisions/0025). Absent: their default persona,
 * if any; null: none — the room's model is told their name only.
 */
export const joinInviteInputSchema = z.object({
  personaId: z.string({ error: "personaId must be a persona id or null" }).max(100).nullable().optional(),
});
export type JoinInviteInput = z.infer<typeof joinInviteInputSchema>;

/** `GET /api/conversations/:id/export?format=`: SillyTavern chat JSONL (default) or Markdown. */
export const chatExportQuerySchema = z.object({
  format: z.enum(["jsonl", "markdown"], { error: 'format must be "jsonl" or "markdown"' }).default("jsonl"),
});

/**
 * `POST /api/conversations/import?characterId=` or `?characterIds=1,2,3`
 * (a SillyTavern group chat: each message's `name` is mapped onto one of
 * them): the chat file is the body. Read as `characterIds`.
 */
export const chatImportQuerySchema = z
  .object({
    characterId: characterIdSchema.optional(),
    characterIds: z
      .string({ error: "characterIds must be a comma-separated list of character ids" })
      .max(200, "characterIds must be a comma-separated list of character ids")
      .transform((text) => text.split(",").map((part) => part.trim()))
      .pipe(
        z
          .array(z.string().regex(/^[1-9]\d{0,15}$/, "characterIds must be a comma-separated list of character ids").transform(Number))
          .min(1, "Choose at least one character")
          .max(MAX_CAST_SIZE, `A chat can have at most ${MAX_CAST_SIZE} characters`)
          .refine((ids) => new Set(ids).size === ids.length, "Each character can be in a chat only once"),
      )
      .optional(),
  })
  .superRefine((input, ctx) => {
    if (input.characterId === undefined && input.characterIds === undefined) {
      ctx.addIssue({ code: "custom", path: ["characterId"], message: "characterId must be a character id" });
    }
  })
  .transform(({ characterId, characterIds }) => ({ characterIds: characterIds ?? [characterId!] }));

/** `POST /api/conversations/:id/messages/:messageId/rating`: thumbs up, down, or 0 to take it back. */
export const ratingInputSchema = z.object({
  value: z.union([z.literal(1), z.literal(-1), z.literal(0)], { error: "value must be 1, -1 or 0" }),
});

// ---------------------------------------------------------------------------
// Pinned memories (DESIGN.md "Memory").

/** Longest pinned memory, characters. */
export const MAX_PINNED_MEMORY_LENGTH = 1000;
/** Most pinned memories one chat holds (its own and its characters' of this person). */
export const MAX_PINNED_MEMORIES = 50;
export const MEMORY_SCOPES = ["chat", "character"] as const;
export type MemoryScope = (typeof MEMORY_SCOPES)[number];

/** A pinned memory as `GET /api/conversations/{id}/memories` lists it. */
export interface PinnedMemory {
  id: string;
  text: string;
  /** `chat`: this conversation; `character`: this person with `characterId`, in every chat of theirs with it. */
  scope: MemoryScope;
  /** The message it was pinned from, or null. */
  messageId: string | null;
  characterId: number;
  /** ISO 8601. */
  createdAt: string;
}

const memoryText = z
  .string({ error: "text must be text" })
  .trim()
  .min(1, "A memory needs some text")
  .max(MAX_PINNED_MEMORY_LENGTH, `A memory can be at most ${MAX_PINNED_MEMORY_LENGTH.toLocaleString("en-US")} characters`);

/** `POST /api/conversations/{id}/memories`: pin a message (its text by default) or write one; `text` or `messageId` is required. */
export const memoryInputSchema = z
  .object({
    text: memoryText.optional(),
    messageId: z.string({ error: "messageId must be text" }).min(1, "messageId must not be empty").max(100, "No such message").optional(),
    scope: z.enum(MEMORY_SCOPES, { error: 'scope must be "chat" or "character"' }).default("chat"),
  })
  .refine((input) => input.text !== undefined || input.messageId !== undefined, { error: "Give the memory's text or the message to pin", path: ["text"] });
export type MemoryInput = z.output<typeof memoryInputSchema>;

/** `PATCH /api/conversations/{id}/memories/{memoryId}`. */
export const memoryPatchSchema = z.object({ text: memoryText });
