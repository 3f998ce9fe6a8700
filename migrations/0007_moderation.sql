-- drizzle-kit output, with one hand correction: drizzle-kit 0.31 adds a CHECK
-- constraint by rebuilding the whole `characters` table (dropping its FTS5 and
-- counter triggers and rewriting up to 10^6 rows); SQLite's ALTER TABLE ADD
-- COLUMN takes the constraint directly, so `moderation_status` is added in place,
-- as schema/db.ts and meta/0007_snapshot.json describe it.
CREATE TABLE `hidden_messages` (
	`conversation_id` text NOT NULL,
	`message_id` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`conversation_id`, `message_id`),
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `moderation_actions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`actor` text NOT NULL,
	`action` text NOT NULL,
	`target_type` text NOT NULL,
	`target_id` text NOT NULL,
	`report_id` integer,
	`reason` text,
	`details` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `moderation_actions_target_idx` ON `moderation_actions` (`target_type`,`target_id`);--> statement-breakpoint
CREATE TABLE `moderation_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`subject_type` text NOT NULL,
	`subject_id` text,
	`user_id` text,
	`character_id` integer,
	`conversation_id` text,
	`outcome` text NOT NULL,
	`categories` text DEFAULT '[]' NOT NULL,
	`provider` text NOT NULL,
	`content` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `moderation_log_created_idx` ON `moderation_log` (`created_at`);--> statement-breakpoint
CREATE TABLE `reports` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`reporter_id` text,
	`target_type` text NOT NULL,
	`target_id` text NOT NULL,
	`conversation_id` text,
	`character_id` integer,
	`target_owner_id` text,
	`reason` text NOT NULL,
	`details` text,
	`excerpt` text NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`resolved_at` integer,
	FOREIGN KEY (`reporter_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "reports_status" CHECK("reports"."status" IN ('open', 'upheld', 'dismissed'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `reports_one_open_per_reporter` ON `reports` (`reporter_id`,`target_type`,`target_id`) WHERE status = 'open' AND reporter_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX `reports_open_idx` ON `reports` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `reports_target_idx` ON `reports` (`target_type`,`target_id`);--> statement-breakpoint
ALTER TABLE `characters` ADD `moderation_status` text DEFAULT 'ok' NOT NULL CONSTRAINT `characters_moderation_status` CHECK(`moderation_status` IN ('ok', 'flagged', 'removed'));--> statement-breakpoint
ALTER TABLE `users` ADD `suspended_at` integer;