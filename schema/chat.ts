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
import type { ConversationSearchMatch } from "./chat-search.ts";
import { z } from "zod";
import { visibleName } from "./names.ts";
import type { CharacterAsset } from "./api.ts";
import { lorebookIdsSchema } from "./lorebook/ids.ts";
import { type ChatModelName, MAX_CAST_SIZE, MAX_CONVERSATION_TITLE_LENGTH, REPLY_ORDERS, type ReplyOrder } from "./chat/limits.ts";

// The chat's limits and texts, close codes, messages and pinned memories live
// in schema/chat/, one file an area; re-exported here for the many importers.
export * from "./chat/close-codes.ts";
export * from "./chat/limits.ts";
export * from "./chat/memories.ts";
export * from "./chat/messages.ts";

// ---------------------------------------------------------------------------
// HTTP: conversations and messages.


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

/**
 * A lorebook entry that fired and why (DESIGN.md turn 4 "Lorebooks",
 * schema/lorebook/activation.ts ActivatedEntry): named as it was when the
 * reply was written, so the inspector shows it even after the book changed
 * or when the book is someone else's (a character's creator's).
 */
export interface PromptLorebookEntry {
  lorebookId: string;
  entryId: string;
  reason: "key" | "secondary" | "regex" | "constant" | "recursion" | "sticky";
  /** The book's name then ("" when unknown: a record written before names were kept). */
  lorebookName: string;
  /** The entry's comment, else its first key; "" when it has neither (show its id). */
  title: string;
  /** The primary key that matched (`key`, `secondary`, `regex`, `recursion`), else null. */
  key: string | null;
  /** `secondary` with AND_ANY/AND_ALL: the secondary key that matched, else null. */
  secondaryKey: string | null;
  /** The Card V3 decorator that made it fire (`@@activate`, `@@keep_activate_after_match`), else null. */
  decorator: string | null;
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
export type ConversationSummary = Conversation & {
  /** With `q`: the newest message whose words contain it, when the title, character and preview do not (schema/chat-search.ts). */
  match?: ConversationSearchMatch;
};

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
 * title, a character's name or the words of a message (case-insensitive,
 * anywhere in them; blank: everything; worker/lib/conversation-list.ts); `characterId` keeps the conversations with that character
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
