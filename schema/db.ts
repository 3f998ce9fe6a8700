/**
 * D1 tables (drizzle-orm, SQLite dialect).
 *
 * The entities of SPEC.md §3 with the decisions of DESIGN.md "Data":
 * - users and conversations have random UUID text ids; characters and comments
 *   have integer rowids (the FTS5 content rowid and the cheapest key at 10^6 rows).
 * - Timestamps are integer milliseconds since the Unix epoch (`timestamp_ms`).
 * - Tags are stored twice on purpose: `characters.tags` (JSON list, what the API
 *   returns and what FTS5 indexes) and the `character_tags` join table (what
 *   filtering and counting use).
 * - `tags.count` / `tags.sfwCount` and the `catalog_counts` rows are maintained
 *   by triggers (migrations/0001_catalog_search.sql), so list totals are O(1).
 *
 * Column names are snake_case in SQL and camelCase in TypeScript.
 */
import { sql } from "drizzle-orm";
import {
  type AnySQLiteColumn,
  check,
  index,
  integer,
  primaryKey,
  real,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";
import { usernameSkeletonSql } from "./skeleton.ts";

/** Milliseconds since the epoch, filled by SQLite when the row is written. */
const nowMs = sql`(cast(unixepoch('subsec') * 1000 as integer))`;

export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    email: text("email"),
    firstName: text("first_name"),
    lastName: text("last_name"),
    name: text("name"),
    username: text("username").notNull(),
    /**
     * The username's confusable skeleton (schema/skeleton.ts `nameSkeleton`,
     * computed by SQLite: usernames are ASCII), so "@nightowI" and
     * "@nightowl_" are found as counterfeits of "@nightowl"
     * (docs/decisions/0016-normalising-pre-screen.md "Names").
     */
    usernameSkeleton: text("username_skeleton").generatedAlwaysAs(sql.raw(usernameSkeletonSql("username")), { mode: "virtual" }),
    profileImageUrl: text("profile_image_url"),
    /** `iss` + " " + `sub` of the identity provider's ID token (issue: Accounts). */
    authSubject: text("auth_subject"),
    /**
     * When an operator suspended the person (ms since the epoch; null: not
     * suspended). Suspending ends their sessions; every write of theirs is 403
     * (docs/decisions/0008-trust-and-safety.md).
     */
    suspendedAt: integer("suspended_at", { mode: "number" }),
    /**
     * The tags the person hides from every list and search (JSON list of
     * lower-case tag names, sorted, at most MAX_HIDDEN_TAGS; issue "Finding
     * and following"). Read and replaced by `/api/profile/hidden-tags`.
     */
    hiddenTags: text("hidden_tags", { mode: "json" }).notNull().default(sql`'[]'`).$type<string[]>(),
    /** A short introduction shown on the person's page `/u/{name}` (≤ 500 characters, screened; issue 26). */
    bio: text("bio"),
    /** Whether the person browses with NSFW content shown (issue 26 "Adult content, deliberately"); off for everyone new. */
    showNsfw: integer("show_nsfw", { mode: "boolean" }).notNull().default(false),
    /** When the person confirmed being 18 or older, to turn NSFW on the first time (ms since the epoch; null: never). */
    adultConfirmedAt: integer("adult_confirmed_at", { mode: "number" }),
    createdAt: integer("created_at", { mode: "number" }).notNull().default(nowMs),
    updatedAt: integer("updated_at", { mode: "number" }).notNull().default(nowMs),
  },
  (t) => [
    uniqueIndex("users_email_unique").on(sql`lower(${t.email})`),
    uniqueIndex("users_username_unique").on(sql`lower(${t.username})`),
    uniqueIndex("users_auth_subject_unique").on(t.authSubject),
    index("users_username_skeleton_idx").on(t.usernameSkeleton),
  ],
);

export const sessions = sqliteTable(
  "sessions",
  {
    /** Hex SHA-256 of the cookie's random 32-byte token; the token itself is never stored. */
    sid: text("sid").primaryKey(),
    /** JSON `{ userId }`. */
    sess: text("sess", { mode: "json" }).notNull().$type<{ userId: string }>(),
    /** Expiry, ms since the epoch. */
    expire: integer("expire", { mode: "number" }).notNull(),
  },
  (t) => [index("sessions_expire_idx").on(t.expire)],
);

export const characters = sqliteTable(
  "characters",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    description: text("description").notNull(),
    longDescription: text("long_description"),
    creator: text("creator").notNull(),
    creatorId: text("creator_id").references(() => users.id, { onDelete: "cascade" }),
    avatarUrl: text("avatar_url"),
    /** JSON list of lower-case tag names, in the creator's order. */
    tags: text("tags", { mode: "json" }).notNull().$type<string[]>().default(sql`'[]'`),
    isNsfw: integer("is_nsfw", { mode: "boolean" }).notNull().default(false),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
    /**
     * `ok`; `flagged` (screening found a category other than S4 on a character
     * not marked NSFW, awaiting an operator); `removed` (an operator upheld a
     * report: the character is also inactive and its owner cannot reactivate it).
     */
    moderationStatus: text("moderation_status", { enum: ["ok", "flagged", "removed"] }).notNull().default("ok"),
    viewCount: integer("view_count").notNull().default(0),
    /** 0–100, round(100 × (up + 8) / (up + down + 10)) — DESIGN.md "Rating". */
    rating: integer("rating").notNull().default(80),
    ratingUp: integer("rating_up").notNull().default(0),
    ratingDown: integer("rating_down").notNull().default(0),
    favoriteCount: integer("favorite_count").notNull().default(0),
    messageCount: integer("message_count").notNull().default(0),
    commentCount: integer("comment_count").notNull().default(0),
    /**
     * log2 of the engagement decayed with a 3-day half-life, expressed in
     * half-lives since the epoch so it never needs rewriting: see
     * worker/lib/trending.ts for the formula.
     */
    trendingScore: real("trending_score").notNull().default(0),
    personality: text("personality").notNull(),
    scenario: text("scenario"),
    exampleConversation: text("example_conversation"),
    /** Character card `first_mes`. */
    greeting: text("greeting"),
    /** Character card `alternate_greetings` (the swipes of the first message). */
    alternateGreetings: text("alternate_greetings", { mode: "json" })
      .notNull()
      .$type<string[]>()
      .default(sql`'[]'`),
    systemPrompt: text("system_prompt"),
    postHistoryInstructions: text("post_history_instructions"),
    /** Card `creator_notes`: shown to people, never sent to the model. */
    creatorNotes: text("creator_notes"),
    /** Card `character_book` (lorebook), kept verbatim. */
    characterBook: text("character_book", { mode: "json" }).$type<Record<string, unknown>>(),
    /** Voice id of GET /api/voices its replies are read in; null: the deployment's default (DESIGN.md "Voices"). */
    voice: text("voice"),
    /** Card `extensions` plus any unknown card fields, kept verbatim for round trips. */
    extensions: text("extensions", { mode: "json" })
      .notNull()
      .$type<Record<string, unknown>>()
      .default(sql`'{}'`),
    createdAt: integer("created_at", { mode: "number" }).notNull().default(nowMs),
    updatedAt: integer("updated_at", { mode: "number" }).notNull().default(nowMs),
  },
  (t) => [
    // One partial index per (tab, NSFW setting): the list walks an index in
    // order and stops after `offset + limit` rows. Queries must repeat the
    // `is_active = 1` predicate literally for SQLite to use them.
    index("characters_trending_idx")
      .on(sql`${t.trendingScore} DESC`, sql`${t.id} DESC`)
      .where(sql`is_active = 1`),
    index("characters_trending_sfw_idx")
      .on(sql`${t.trendingScore} DESC`, sql`${t.id} DESC`)
      .where(sql`is_active = 1 AND is_nsfw = 0`),
    index("characters_new_idx")
      .on(sql`${t.createdAt} DESC`, sql`${t.id} DESC`)
      .where(sql`is_active = 1`),
    index("characters_new_sfw_idx")
      .on(sql`${t.createdAt} DESC`, sql`${t.id} DESC`)
      .where(sql`is_active = 1 AND is_nsfw = 0`),
    index("characters_popular_idx")
      .on(sql`${t.favoriteCount} DESC`, sql`${t.messageCount} DESC`, sql`${t.id} DESC`)
      .where(sql`is_active = 1`),
    index("characters_popular_sfw_idx")
      .on(sql`${t.favoriteCount} DESC`, sql`${t.messageCount} DESC`, sql`${t.id} DESC`)
      .where(sql`is_active = 1 AND is_nsfw = 0`),
    index("characters_creator_idx").on(t.creatorId, sql`${t.createdAt} DESC`),
    check("characters_rating_range", sql`${t.rating} BETWEEN 0 AND 100`),
    check("characters_moderation_status", sql`${t.moderationStatus} IN ('ok', 'flagged', 'removed')`),
  ],
);

export const tags = sqliteTable(
  "tags",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** Lower case, 2–24 characters. */
    name: text("name").notNull(),
    /** Active characters carrying the tag (trigger-maintained). */
    count: integer("count").notNull().default(0),
    /** Active, non-NSFW characters carrying the tag (trigger-maintained). */
    sfwCount: integer("sfw_count").notNull().default(0),
    category: text("category"),
  },
  (t) => [
    uniqueIndex("tags_name_unique").on(sql`lower(${t.name})`),
    index("tags_count_idx").on(sql`${t.count} DESC`, t.name),
    // Popular tags with NSFW off (`GET /api/tags?showNsfw=false`) are read in this order.
    index("tags_sfw_count_idx").on(sql`${t.sfwCount} DESC`, t.name),
  ],
);

/**
 * Character ↔ tag links. `is_listed` and `is_nsfw` mirror the character's
 * flags (trigger-maintained) so a tag's listable members are one index range.
 */
export const characterTags = sqliteTable(
  "character_tags",
  {
    characterId: integer("character_id")
      .notNull()
      .references(() => characters.id, { onDelete: "cascade" }),
    tagId: integer("tag_id")
      .notNull()
      .references(() => tags.id, { onDelete: "cascade" }),
    /** Mirrors `characters.is_active`. */
    isListed: integer("is_listed", { mode: "boolean" }).notNull().default(true),
    /** Mirrors `characters.is_nsfw`. */
    isNsfw: integer("is_nsfw", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.characterId, t.tagId] }),
    index("character_tags_tag_idx").on(t.tagId, t.isListed, t.isNsfw, t.characterId),
  ],
);

/**
 * Characters carrying both tags of a pair (`tag_a` < `tag_b`), so the total
 * of a two-tag filter is O(1). Maintained by triggers on `character_tags`
 * (migrations/0004_search_v2.sql); same meaning as `tags.count`/`sfw_count`.
 */
export const tagPairs = sqliteTable(
  "tag_pairs",
  {
    tagA: integer("tag_a")
      .notNull()
      .references(() => tags.id, { onDelete: "cascade" }),
    tagB: integer("tag_b")
      .notNull()
      .references(() => tags.id, { onDelete: "cascade" }),
    count: integer("count").notNull().default(0),
    sfwCount: integer("sfw_count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tagA, t.tagB] })],
);

/**
 * Exact list totals without scanning: key `all` (active characters) and `sfw`
 * (active, non-NSFW). Maintained by triggers on `characters`.
 */
export const catalogCounts = sqliteTable("catalog_counts", {
  key: text("key").primaryKey(),
  count: integer("count").notNull().default(0),
});

export const favorites = sqliteTable(
  "favorites",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    characterId: integer("character_id")
      .notNull()
      .references(() => characters.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: integer("created_at", { mode: "number" }).notNull().default(nowMs),
  },
  (t) => [
    uniqueIndex("favorites_user_character_unique").on(t.userId, t.characterId),
    index("favorites_character_idx").on(t.characterId),
    // The Favorites page: a person's favorites, newest first.
    index("favorites_user_created_idx").on(t.userId, sql`${t.createdAt} DESC`, sql`${t.id} DESC`),
  ],
);

/**
 * Who follows which creator (issue 16, "Creator profiles and following"):
 * one row per pair, so follower counts are exact by construction
 * (`count(*)` over `follows_followee_idx`), also when many follow at once.
 * Nobody follows themselves (CHECK).
 */
export const follows = sqliteTable(
  "follows",
  {
    followerId: text("follower_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    followeeId: text("followee_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: integer("created_at", { mode: "number" }).notNull().default(nowMs),
  },
  (t) => [
    primaryKey({ columns: [t.followerId, t.followeeId] }),
    index("follows_followee_idx").on(t.followeeId),
    check("follows_not_self", sql`${t.followerId} != ${t.followeeId}`),
  ],
);

export const comments = sqliteTable(
  "comments",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    characterId: integer("character_id")
      .notNull()
      .references(() => characters.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    content: text("content").notNull(),
    parentId: integer("parent_id").references((): any => comments.id, { onDelete: "cascade" }),
    votes: integer("votes").notNull().default(0),
    createdAt: integer("created_at", { mode: "number" }).notNull().default(nowMs),
  },
  (t) => [
    index("comments_character_idx").on(t.characterId, t.createdAt),
    index("comments_parent_idx").on(t.parentId),
  ],
);

export const commentVotes = sqliteTable(
  "comment_votes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    commentId: integer("comment_id")
      .notNull()
      .references(() => comments.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    value: integer("value").notNull(),
  },
  (t) => [
    uniqueIndex("comment_votes_user_comment_unique").on(t.commentId, t.userId),
    check("comment_votes_value", sql`${t.value} IN (1, -1)`),
  ],
);

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
 * What people reported (issue "Trust and safety"): one row per person and
 * target while it is open (partial unique index), then `upheld` or
 * `dismissed` by an operator (`npm run moderation`). `excerpt` is a copy of
 * what the reporter saw (a chat message's text, a comment, the character's
 * name and description), kept because the target may be deleted later.
 * `reporterId` null: opened by automatic screening (a flagged character).
 */
export const reports = sqliteTable(
  "reports",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    reporterId: text("reporter_id").references(() => users.id, { onDelete: "set null" }),
    targetType: text("target_type", { enum: ["character", "comment", "message"] }).notNull(),
    /** Character or comment id (decimal text) or chat message id. */
    targetId: text("target_id").notNull(),
    /** For a message: its conversation (no foreign key: the report outlives it). */
    conversationId: text("conversation_id"),
    /** The character the target belongs to (no foreign key: the report outlives it). */
    characterId: integer("character_id"),
    /** Who wrote or owns the target: creator, comment author, conversation owner. */
    targetOwnerId: text("target_owner_id"),
    reason: text("reason", { enum: ["minors", "illegal", "hate", "spam", "impersonation", "other"] }).notNull(),
    details: text("details"),
    excerpt: text("excerpt").notNull(),
    status: text("status", { enum: ["open", "upheld", "dismissed"] }).notNull().default("open"),
    createdAt: integer("created_at", { mode: "number" }).notNull().default(nowMs),
    resolvedAt: integer("resolved_at", { mode: "number" }),
  },
  (t) => [
    uniqueIndex("reports_one_open_per_reporter")
      .on(t.reporterId, t.targetType, t.targetId)
      .where(sql`status = 'open' AND reporter_id IS NOT NULL`),
    index("reports_open_idx").on(t.status, t.createdAt),
    index("reports_target_idx").on(t.targetType, t.targetId),
    check("reports_status", sql`${t.status} IN ('open', 'upheld', 'dismissed')`),
  ],
);

/**
 * What screening found (ai/moderation/): refused characters and
 * messages, flagged characters, replaced replies (with the original reply,
 * which is kept nowhere else) and provider failures. Only the operator reads it.
 */
export const moderationLog = sqliteTable(
  "moderation_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** `character` (create, update, card import), `message` (a person's), `reply` (generated). */
    subjectType: text("subject_type", { enum: ["character", "message", "reply"] }).notNull(),
    /** Character id, or the message id once stored; null for something refused before it had one. */
    subjectId: text("subject_id"),
    userId: text("user_id"),
    characterId: integer("character_id"),
    conversationId: text("conversation_id"),
    /** `refused` (S4, nothing stored), `flagged`, `replaced` (reply swapped for the refusal line), `error` (provider failed). */
    outcome: text("outcome", { enum: ["refused", "flagged", "replaced", "error"] }).notNull(),
    /** JSON list of Llama Guard 3 categories, e.g. `["S4"]`. */
    categories: text("categories", { mode: "json" }).notNull().$type<string[]>().default(sql`'[]'`),
    provider: text("provider").notNull(),
    /** The screened text (at most 20,000 characters). */
    content: text("content").notNull(),
    createdAt: integer("created_at", { mode: "number" }).notNull().default(nowMs),
  },
  (t) => [index("moderation_log_created_idx").on(t.createdAt)],
);

/**
 * The operator's audit trail: every action of `npm run moderation` (who, what,
 * when, why). Rows are only ever inserted.
 */
export const moderationActions = sqliteTable(
  "moderation_actions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** Who acted: `--as`, else the operating-system user running the command. */
    actor: text("actor").notNull(),
    /** `uphold`, `dismiss`, `suspend`, `unsuspend`, `restore`. */
    action: text("action").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id").notNull(),
    reportId: integer("report_id"),
    /** Why (`--reason`), as the operator wrote it. */
    reason: text("reason"),
    /** JSON: what changed, e.g. the character's previous `is_active`. */
    details: text("details", { mode: "json" }).$type<Record<string, unknown>>(),
    createdAt: integer("created_at", { mode: "number" }).notNull().default(nowMs),
  },
  (t) => [index("moderation_actions_target_idx").on(t.targetType, t.targetId)],
);

/**
 * Chat messages an operator hid (an upheld report). The messages live in the
 * conversation's Durable Object; the Worker hands these ids to the room each
 * time it opens it, and the room replaces their text (durable-objects/room/store.ts).
 */
export const hiddenMessages = sqliteTable(
  "hidden_messages",
  {
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    messageId: text("message_id").notNull(),
    createdAt: integer("created_at", { mode: "number" }).notNull().default(nowMs),
  },
  (t) => [primaryKey({ columns: [t.conversationId, t.messageId] })],
);

/**
 * Character page views already added to `characters.view_count`, by the id
 * each view's queue message carries (worker/lib/views.ts). The queue consumer
 * inserts a batch's ids and adds only the new ones in the same D1 transaction,
 * so a batch delivered twice counts once; rows older than the queue's message
 * retention are deleted by the same transaction
 * (docs/decisions/0009-d1-sessions-and-view-queue.md).
 */
export const countedViews = sqliteTable(
  "counted_views",
  {
    /** The view's own id (a random UUID the producer puts in the message body). */
    viewId: text("view_id").primaryKey(),
    /** No foreign key: a view of a since-deleted character must still be recognised as counted. */
    characterId: integer("character_id").notNull(),
    /** The consumer invocation that counted it (a random UUID), so its UPDATE adds only its own new ids. */
    batchId: text("batch_id").notNull(),
    /** When it was counted, ms since the epoch. */
    countedAt: integer("counted_at", { mode: "number" }).notNull(),
  },
  (t) => [index("counted_views_batch_idx").on(t.batchId), index("counted_views_counted_at_idx").on(t.countedAt)],
);
