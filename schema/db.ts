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
 * Column names are snake_case in SQL and camelCase in TypeScript. The tables
 * of chats are schema/db-chat.ts's, those of trust and safety
 * schema/db-moderation.ts's (drizzle.config.ts lists all three).
 */
import { sql } from "drizzle-orm";
import {
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
export const nowMs = sql`(cast(unixepoch('subsec') * 1000 as integer))`;

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
    /**
     * When the person last started a data export (`GET /api/profile/export`,
     * ms since the epoch; null: never): a second one within a minute is 429
     * (worker/lib/account/export.ts, docs/decisions/0029).
     */
    lastExportAt: integer("last_export_at", { mode: "number" }),
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
    /**
     * The session's public id (a random UUID): what `GET /api/profile/sessions`
     * shows and `DELETE /api/profile/sessions/{id}` takes. Never the `sid`,
     * which is as good as the cookie for finding the row.
     */
    id: text("id"),
    /** The same person as `sess.userId`, as a column: their sessions are listed and ended by an index, and go with them. */
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    /** When the person signed in, ms since the epoch. */
    createdAt: integer("created_at", { mode: "number" }),
    /** When the session was last used, ms since the epoch, to within LAST_SEEN_STEP_MS (worker/lib/sessions.ts): no write per request. */
    lastSeenAt: integer("last_seen_at", { mode: "number" }),
    /** The browser's `User-Agent` at sign-in (at most 512 characters), to name the device. */
    userAgent: text("user_agent"),
  },
  (t) => [
    index("sessions_expire_idx").on(t.expire),
    uniqueIndex("sessions_id_unique").on(t.id),
    index("sessions_user_idx").on(t.userId),
  ],
);

/**
 * Usernames of deleted accounts, held for USERNAME_HOLD_MS (30 days) so
 * nobody can take the name, or one that looks like it, and pass for the
 * person who left (worker/lib/account/deletion.ts). `username` is lower
 * case; `skeleton` is schema/skeleton.ts `nameSkeleton` of it.
 */
export const usernameHolds = sqliteTable(
  "username_holds",
  {
    username: text("username").primaryKey(),
    skeleton: text("skeleton").notNull(),
    /** Until when it is held, ms since the epoch. */
    until: integer("until", { mode: "number" }).notNull(),
  },
  (t) => [index("username_holds_skeleton_idx").on(t.skeleton)],
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
    /** Whether others may fork it (`POST /api/characters/{id}/fork`; the creator's choice, on by default — issue 40). */
    allowForks: integer("allow_forks", { mode: "boolean" }).notNull().default(true),
    /**
     * The character this one was forked from. Deliberately no foreign key:
     * the id outlives the original (AUTOINCREMENT never reuses an id), so a
     * fork of a deleted character still knows it is a fork and says "a
     * deleted character" (docs/decisions/0035-forks.md).
     */
    forkedFromId: integer("forked_from_id"),
    /** Forks still stored, private ones included (trigger-maintained, migrations 0025_forks.sql: exact under concurrent forks). */
    forkCount: integer("fork_count").notNull().default(0),
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
    // `GET /api/characters/{id}/forks` and the lineage walk of search read forks by their original.
    index("characters_forked_from_idx").on(t.forkedFromId, sql`${t.createdAt} DESC`).where(sql`forked_from_id IS NOT NULL`),
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
 * A character's assets (Character Card V3 `data.assets`, DESIGN.md "Character
 * assets"): `type` as V3 names it (`icon`, `emotion`, `background`,
 * `user_icon`, `x_…` kept as given), `name` (an emotion label, a background's
 * name; unique per type), `ext` (the file extension without its dot) and
 * `url`: `/objects/assets/<sha256>` for a file we store (R2 key
 * `object_key`, `assets/<sha256 hex>`: the same bytes are stored once for
 * every character that has them) or an outside URL the card only named.
 * The character's avatar is its `icon`/`main` and is not repeated here.
 */
export const characterAssets = sqliteTable(
  "character_assets",
  {
    characterId: integer("character_id")
      .notNull()
      .references(() => characters.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    name: text("name").notNull(),
    ext: text("ext").notNull(),
    url: text("url").notNull(),
    /** R2 key of the stored file (`assets/<sha256 hex>`); null for an outside URL. */
    objectKey: text("object_key"),
    /** Bytes of the stored file; null for an outside URL. */
    size: integer("size"),
    /** Order of the card's `assets` list (export keeps it). */
    position: integer("position").notNull().default(0),
    createdAt: integer("created_at", { mode: "number" }).notNull().default(nowMs),
  },
  (t) => [
    primaryKey({ columns: [t.characterId, t.type, t.name] }),
    index("character_assets_order_idx").on(t.characterId, t.position),
    index("character_assets_object_idx").on(t.objectKey),
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

/**
 * Who blocked whom (issue 35 "Blocking", docs/decisions/0030-blocking.md):
 * one row per (blocker, blocked). Private: only the blocker reads their rows
 * (`GET /api/blocks`); the blocked person is never told. Either direction
 * refuses follows, comments, replies, votes and room joins between the two
 * (worker/lib/blocks.ts). Nobody blocks themselves (CHECK).
 */
export const blocks = sqliteTable(
  "blocks",
  {
    blockerId: text("blocker_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    blockedId: text("blocked_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: integer("created_at", { mode: "number" }).notNull().default(nowMs),
  },
  (t) => [
    primaryKey({ columns: [t.blockerId, t.blockedId] }),
    index("blocks_blocked_idx").on(t.blockedId),
    check("blocks_not_self", sql`${t.blockerId} != ${t.blockedId}`),
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
