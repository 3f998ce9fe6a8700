/**
 * D1 tables of chats (drizzle-orm, SQLite dialect; the conventions of
 * schema/db.ts): conversations, their cast (group chats), their people and
 * invitations (shared rooms), personas and model connections.
 */
import { sql } from "drizzle-orm";
import { type AnySQLiteColumn, check, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { characters, nowMs, users } from "./db.ts";

export const conversations = sqliteTable(
  "conversations",
  {
    id: text("id").primaryKey(),
    characterId: integer("character_id")
      .notNull()
      .references(() => characters.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    title: text("title"),
    /** Who the person is in this chat (`{{user}}`); null: their default persona, else their first name. */
    personaId: text("persona_id").references((): AnySQLiteColumn => personas.id, { onDelete: "set null" }),
    /** The conversation this one was branched from (docs/decisions/0007-steering-a-chat.md); null once that one is deleted. */
    branchedFromId: text("branched_from_id").references((): AnySQLiteColumn => conversations.id, {
      onDelete: "set null",
    }),
    /** The model connection that answers in this chat; null: the person's default, else the site's (docs/decisions/0018). */
    modelConnectionId: text("model_connection_id").references((): AnySQLiteColumn => modelConnections.id, {
      onDelete: "set null",
    }),
    /** Who replies after a person's message (schema/chat.ts REPLY_ORDERS; DESIGN.md "Group chats"). */
    replyOrder: text("reply_order", { enum: ["natural", "list", "pooled", "manual"] }).notNull().default("natural"),
    lastMessageAt: integer("last_message_at", { mode: "number" }),
    /** The chat's background: the `name` of a `background` asset of its first character (DESIGN.md "Character assets"); null: none. */
    background: text("background"),
    /** The character checks in after a quiet spell (DESIGN.md turn 4 "Notifications"; durable-objects/room/check-ins.ts). */
    checkIns: integer("check_ins", { mode: "boolean" }).notNull().default(false),
    lastMessagePreview: text("last_message_preview"),
    createdAt: integer("created_at", { mode: "number" }).notNull().default(nowMs),
    updatedAt: integer("updated_at", { mode: "number" }).notNull().default(nowMs),
  },
  (t) => [
    index("conversations_user_activity_idx").on(t.userId, sql`${t.updatedAt} DESC`),
    index("conversations_character_idx").on(t.characterId),
    index("conversations_branched_from_idx").on(t.branchedFromId),
    index("conversations_model_connection_idx").on(t.modelConnectionId),
  ],
);

/**
 * A conversation's cast (DESIGN.md "Group chats"): 1–8 characters in member
 * order (`position`, ascending; gaps after a removal). `conversations.character_id`
 * is always the first member. A member that is later deactivated or removed
 * by moderation keeps its row (its replies stay readable) but no longer speaks.
 */
export const conversationCharacters = sqliteTable(
  "conversation_characters",
  {
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    characterId: integer("character_id")
      .notNull()
      .references(() => characters.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    /** Replies only when asked ("Let … speak"). */
    muted: integer("muted", { mode: "boolean" }).notNull().default(false),
    /** Chance of replying in the natural order, 0–1. */
    talkativeness: real("talkativeness").notNull().default(0.5),
    addedAt: integer("added_at", { mode: "number" }).notNull().default(nowMs),
  },
  (t) => [
    primaryKey({ columns: [t.conversationId, t.characterId] }),
    index("conversation_characters_character_idx").on(t.characterId),
    check("conversation_characters_talkativeness", sql`${t.talkativeness} BETWEEN 0 AND 1`),
  ],
);

/**
 * Shared rooms (DESIGN.md "Shared rooms"): the people a conversation's owner
 * let in by invitation. The owner is `conversations.user_id` and has no row
 * here; at most 10 people per room, owner included (worker/lib/shared-rooms.ts).
 */
export const conversationMembers = sqliteTable(
  "conversation_members",
  {
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    joinedAt: integer("joined_at", { mode: "number" }).notNull().default(nowMs),
    /**
     * The persona this member plays here, picked when joining or later (issue 42,
     * docs/decisions/0025); null: none — the room knows only their name.
     */
    personaId: text("persona_id").references((): AnySQLiteColumn => personas.id, { onDelete: "set null" }),
  },
  (t) => [primaryKey({ columns: [t.conversationId, t.userId] }), index("conversation_members_user_idx").on(t.userId)],
);

/**
 * Invitation links to a shared room: only the SHA-256 of the random token is
 * kept (like sessions); a link works until `expires_at` (7 days) unless revoked.
 */
export const conversationInvites = sqliteTable(
  "conversation_invites",
  {
    tokenHash: text("token_hash").primaryKey(),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    createdAt: integer("created_at", { mode: "number" }).notNull().default(nowMs),
    expiresAt: integer("expires_at", { mode: "number" }).notNull(),
    revokedAt: integer("revoked_at", { mode: "number" }),
  },
  (t) => [index("conversation_invites_conversation_idx").on(t.conversationId)],
);

/**
 * A removal outlives every link made before it (issue 42, docs/decisions/0025):
 * when the owner removes a member, each link of the room still open then is
 * written down for that person here, and none of them lets them back in. A
 * link made after the removal has no row and admits them. A member who left
 * by themselves gets no rows.
 */
export const conversationInviteRemovals = sqliteTable(
  "conversation_invite_removals",
  {
    tokenHash: text("token_hash")
      .notNull()
      .references(() => conversationInvites.tokenHash, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    removedAt: integer("removed_at", { mode: "number" }).notNull().default(nowMs),
  },
  (t) => [primaryKey({ columns: [t.tokenHash, t.userId] }), index("conversation_invite_removals_user_idx").on(t.userId)],
);

/**
 * Who a person is in chats (SillyTavern's personas): the name that replaces
 * `{{user}}` and a description the characters know (docs/decisions/0007-steering-a-chat.md,
 * "The prompt"). At most one default per person, enforced by
 * the partial unique index; without one, `{{user}}` is the first name.
 */
export const personas = sqliteTable(
  "personas",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    /** An `/objects/avatars/…` upload, an https URL or demo artwork, like a character's. */
    avatarUrl: text("avatar_url"),
    isDefault: integer("is_default", { mode: "boolean" }).notNull().default(false),
    createdAt: integer("created_at", { mode: "number" }).notNull().default(nowMs),
    updatedAt: integer("updated_at", { mode: "number" }).notNull().default(nowMs),
  },
  (t) => [
    index("personas_user_idx").on(t.userId),
    uniqueIndex("personas_one_default_per_user").on(t.userId).where(sql`is_default = 1`),
  ],
);

/**
 * A person's model connections (DESIGN.md "Your own model (turn 3)",
 * docs/decisions/0018-your-own-model.md): an OpenAI-compatible endpoint or
 * one of the site's models, with generation settings. The API key is stored
 * only encrypted (`apiKeyEncrypted`, ai/model-keys.ts: AES-GCM under
 * MODEL_KEYS_SECRET, bound to the row's id and owner) and its last four
 * characters (`keyHint`); rows go with their owner. At most one default per
 * person (partial unique index).
 */
export const modelConnections = sqliteTable(
  "model_connections",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    kind: text("kind", { enum: ["openai", "site"] }).notNull(),
    baseUrl: text("base_url"),
    model: text("model").notNull(),
    /** The endpoint's model that embeds this person's chats for memory (`openai` only); null: the site's embedder. */
    embeddingModel: text("embedding_model"),
    /** The endpoint's image model (`/images/generations`, DESIGN.md "Pictures"); null: pictures come from the site's generator. */
    imageModel: text("image_model"),
    apiKeyEncrypted: text("api_key_encrypted"),
    keyHint: text("key_hint"),
    /** JSON of schema/model-connections.ts `ModelSettings`. */
    settings: text("settings").notNull().default("{}"),
    isDefault: integer("is_default", { mode: "boolean" }).notNull().default(false),
    createdAt: integer("created_at", { mode: "number" }).notNull().default(nowMs),
    updatedAt: integer("updated_at", { mode: "number" }).notNull().default(nowMs),
  },
  (t) => [
    index("model_connections_user_idx").on(t.userId),
    uniqueIndex("model_connections_one_default_per_user").on(t.userId).where(sql`is_default = 1`),
  ],
);

/**
 * Audio read aloud per person and window (DESIGN.md "Voices": the rate
 * limit counts audio seconds; worker/lib/speech-budget.ts). A row per
 * person and fixed window (`window_start`, ms, a multiple of the window);
 * rows older than a day are removed by the daily cron.
 */
export const speechUsage = sqliteTable(
  "speech_usage",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    windowStart: integer("window_start", { mode: "number" }).notNull(),
    /** Audio made in the window (and reserved for what is being made), ms. */
    audioMs: integer("audio_ms", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.windowStart] }), index("speech_usage_window_idx").on(t.windowStart)],
);

/**
 * Pictures made per person and window (DESIGN.md "Pictures": at most
 * IMAGES_PER_MINUTE a minute and IMAGES_PER_DAY a UTC day;
 * durable-objects/room/image-quota.ts). A row per person, window kind and
 * fixed window (`window_start`, ms, a multiple of the window); rows older
 * than two days are removed as new ones are counted.
 */
export const imageUsage = sqliteTable(
  "image_usage",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    window: text("window", { enum: ["minute", "day"] }).notNull(),
    windowStart: integer("window_start", { mode: "number" }).notNull(),
    /** Pictures made (or being made) in the window. */
    count: integer("count", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.window, t.windowStart] }), index("image_usage_window_idx").on(t.windowStart)],
);

/**
 * Pinned memories (DESIGN.md "Memory"): what a person pinned so a chat never
 * forgets it. Scope `chat`: this conversation (`conversation_id`, deleted
 * with it). Scope `character`: this person with this character in every
 * chat of theirs with it (`conversation_id` null; deleted with the person or
 * the character). At most 50 in one chat (worker/lib/memories.ts). Both
 * scopes live here, not in the room: a character's memory crosses rooms, and
 * one place lists, limits and exports them.
 */
export const memories = sqliteTable(
  "memories",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The chat of a `chat` memory; null for `character`. */
    conversationId: text("conversation_id").references(() => conversations.id, { onDelete: "cascade" }),
    characterId: integer("character_id")
      .notNull()
      .references(() => characters.id, { onDelete: "cascade" }),
    scope: text("scope", { enum: ["chat", "character"] }).notNull(),
    text: text("text").notNull(),
    /** The message it was pinned from (a room's message id), if any. */
    messageId: text("message_id"),
    createdAt: integer("created_at", { mode: "number" }).notNull().default(nowMs),
    updatedAt: integer("updated_at", { mode: "number" }).notNull().default(nowMs),
  },
  (t) => [
    index("memories_conversation_idx").on(t.conversationId),
    index("memories_user_character_idx").on(t.userId, t.characterId),
    check("memories_scope_conversation", sql`(${t.scope} = 'chat') = (${t.conversationId} IS NOT NULL)`),
  ],
);

/**
 * Share links of chats (DESIGN.md "Sharing and forks"; docs/decisions/0036):
 * a snapshot of a chat's visible history taken when its owner shared it,
 * read by anyone with the link at `/s/{token}`. The snapshot is copied here
 * (the header row and `share_messages`), so later messages, edits, swipes
 * and deletions in the chat do not change it; the owner shares again for a
 * newer one. Gone with the chat or the owner's account (foreign keys), with
 * its owner's revoke, or when an operator upholds a report on it.
 */
export const shares = sqliteTable(
  "shares",
  {
    /** The link's secret: 128 random bits, base64url (22 characters). Not hashed: its owner lists the links again. */
    token: text("token").primaryKey(),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    /** Who shared it: the chat's owner. */
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    /** The cast then: JSON `[{id, name, avatarUrl}]` in member order. */
    characters: text("characters").notNull(),
    /** The owner's name in the chat then (their persona's), never their username. */
    sharedBy: text("shared_by").notNull(),
    /** Any member of the cast was NSFW then. */
    isNsfw: integer("is_nsfw", { mode: "boolean" }).notNull().default(false),
    messageCount: integer("message_count", { mode: "number" }).notNull(),
    /** The last message it holds (the room's message id). */
    lastMessageId: text("last_message_id"),
    createdAt: integer("created_at", { mode: "number" }).notNull().default(nowMs),
  },
  (t) => [index("shares_conversation_idx").on(t.conversationId, t.createdAt), index("shares_user_idx").on(t.userId)],
);

/**
 * The messages of a share, in order (`position` from 0): each as it was
 * shown then — the chosen version of a reply, hidden messages left out —
 * under the name it was written under. `author_id` lets deleting a member's
 * account rename their messages "a deleted account", as their rooms do.
 */
export const shareMessages = sqliteTable(
  "share_messages",
  {
    shareToken: text("share_token")
      .notNull()
      .references(() => shares.token, { onDelete: "cascade" }),
    position: integer("position", { mode: "number" }).notNull(),
    role: text("role", { enum: ["user", "character"] }).notNull(),
    content: text("content").notNull(),
    /** A reply's speaker (no foreign key: the snapshot keeps a former member's words). */
    characterId: integer("character_id", { mode: "number" }),
    /** A person's message: its writer, null once their account is deleted. */
    authorId: text("author_id").references(() => users.id, { onDelete: "set null" }),
    authorName: text("author_name").notNull(),
    createdAt: integer("created_at", { mode: "number" }).notNull(),
    /**
     * "image": a picture imagined in the chat (`content` empty), its shown
     * version copied at share time to the share's own R2 object
     * `shares/{token}/{position}` (worker/lib/share-pictures.ts), which goes
     * with the share; "text" otherwise.
     */
    kind: text("kind", { enum: ["text", "image"] }).notNull().default("text"),
    /** A picture: the room's message id it was copied from, so an operator's removal of it (`hidden_messages`) reaches the share too. */
    messageId: text("message_id"),
    /** A picture: the words it was drawn from (its alt text). */
    prompt: text("prompt"),
    /** A picture's size, px. */
    width: integer("width", { mode: "number" }),
    height: integer("height", { mode: "number" }),
  },
  (t) => [primaryKey({ columns: [t.shareToken, t.position] }), index("share_messages_author_idx").on(t.authorId)],
);

/**
 * Lorebooks (World Info, DESIGN.md turn 4 "Lorebooks"): a person's books.
 * A book is read and written whole (the activation scan reads every entry,
 * `PUT` replaces them, import and export are whole files), so its entries
 * are one JSON column of `LorebookEntry` (schema/lorebook/book.ts) rather
 * than a table of rows (docs/decisions/0034). `character_id`: the
 * character whose card `character_book` this book is (one at most; kept in
 * step with `characters.character_book` both ways; deleted with it).
 */
export const lorebooks = sqliteTable(
  "lorebooks",
  {
    id: text("id").primaryKey(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    characterId: integer("character_id").references(() => characters.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    /** `LorebookSettings` (schema/lorebook/activation.ts). */
    settings: text("settings", { mode: "json" }).notNull().$type<Record<string, unknown>>().default(sql`'{}'`),
    /** `LorebookEntry[]`, in the book's display order. */
    entries: text("entries", { mode: "json" }).notNull().$type<Record<string, unknown>[]>().default(sql`'[]'`),
    /** Top-level fields of an imported file this site does not read (kept for export). */
    extensions: text("extensions", { mode: "json" }).notNull().$type<Record<string, unknown>>().default(sql`'{}'`),
    createdAt: integer("created_at", { mode: "number" }).notNull().default(nowMs),
    updatedAt: integer("updated_at", { mode: "number" }).notNull().default(nowMs),
  },
  (t) => [index("lorebooks_owner_idx").on(t.ownerId, t.updatedAt), uniqueIndex("lorebooks_character_idx").on(t.characterId)],
);

/** Standalone books a character's creator attached to it (its own `character_book` needs no row), in order. */
export const characterLorebooks = sqliteTable(
  "character_lorebooks",
  {
    characterId: integer("character_id")
      .notNull()
      .references(() => characters.id, { onDelete: "cascade" }),
    lorebookId: text("lorebook_id")
      .notNull()
      .references(() => lorebooks.id, { onDelete: "cascade" }),
    position: integer("position").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.characterId, t.lorebookId] }), index("character_lorebooks_lorebook_idx").on(t.lorebookId)],
);

/** Books a chat's owner attached to the chat (apply to every speaker), in order. */
export const conversationLorebooks = sqliteTable(
  "conversation_lorebooks",
  {
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    lorebookId: text("lorebook_id")
      .notNull()
      .references(() => lorebooks.id, { onDelete: "cascade" }),
    position: integer("position").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.conversationId, t.lorebookId] }), index("conversation_lorebooks_lorebook_idx").on(t.lorebookId)],
);

/**
 * Web Push subscriptions (DESIGN.md turn 4 "Notifications", `POST
 * /api/push/subscriptions`): one row per device (browser profile) that
 * turned push on, its push service `endpoint` (unique: a browser signed
 * into another account moves to it) and the keys a message is encrypted to
 * (RFC 8291: `p256dh`, the device's P-256 public key, and the `auth`
 * secret, both base64url). Deleted with the account, and when the push
 * service answers 404 or 410.
 */
export const pushSubscriptions = sqliteTable(
  "push_subscriptions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    endpoint: text("endpoint").notNull(),
    p256dh: text("p256dh").notNull(),
    auth: text("auth").notNull(),
    userAgent: text("user_agent"),
    createdAt: integer("created_at", { mode: "number" }).notNull().default(nowMs),
  },
  (t) => [uniqueIndex("push_subscriptions_endpoint_idx").on(t.endpoint), index("push_subscriptions_user_idx").on(t.userId)],
);
