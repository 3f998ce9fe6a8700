/**
 * D1 tables of trust and safety (drizzle-orm, SQLite dialect; the
 * conventions of schema/db.ts): reports, the moderation log, operators'
 * actions and the chat messages they hid.
 */
import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { conversations } from "./db-chat.ts";
import { characters, nowMs, users } from "./db.ts";

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
    targetType: text("target_type", { enum: ["character", "comment", "message", "share"] }).notNull(),
    /** Character or comment id (decimal text), chat message id, or share token. */
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
