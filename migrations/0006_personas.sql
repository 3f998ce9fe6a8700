-- drizzle-kit output, with one hand correction: drizzle-kit 0.31 drops the
-- ON DELETE action of a column added with REFERENCES (it writes a bare
-- `REFERENCES personas(id)`), so the two ALTER TABLE lines say ON DELETE SET
-- NULL themselves, as schema/db.ts and meta/0006_snapshot.json do.
CREATE TABLE `personas` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`avatar_url` text,
	`is_default` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `personas_user_idx` ON `personas` (`user_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `personas_one_default_per_user` ON `personas` (`user_id`) WHERE is_default = 1;--> statement-breakpoint
ALTER TABLE `conversations` ADD `persona_id` text REFERENCES personas(id) ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE `conversations` ADD `branched_from_id` text REFERENCES conversations(id) ON DELETE SET NULL;--> statement-breakpoint
CREATE INDEX `conversations_branched_from_idx` ON `conversations` (`branched_from_id`);
