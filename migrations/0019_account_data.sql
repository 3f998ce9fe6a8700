CREATE TABLE `username_holds` (
	`username` text PRIMARY KEY NOT NULL,
	`skeleton` text NOT NULL,
	`until` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `username_holds_skeleton_idx` ON `username_holds` (`skeleton`);--> statement-breakpoint
ALTER TABLE `sessions` ADD `id` text;--> statement-breakpoint
ALTER TABLE `sessions` ADD `user_id` text REFERENCES users(id) ON DELETE cascade;--> statement-breakpoint
ALTER TABLE `sessions` ADD `created_at` integer;--> statement-breakpoint
ALTER TABLE `sessions` ADD `last_seen_at` integer;--> statement-breakpoint
ALTER TABLE `sessions` ADD `user_agent` text;--> statement-breakpoint
CREATE UNIQUE INDEX `sessions_id_unique` ON `sessions` (`id`);--> statement-breakpoint
CREATE INDEX `sessions_user_idx` ON `sessions` (`user_id`);--> statement-breakpoint
ALTER TABLE `users` ADD `last_export_at` integer;--> statement-breakpoint
-- Hand-written (docs/decisions/0029-your-account-your-data.md): sessions
-- from before this migration get a public id, their person as a column and
-- their times as well as they are known (signed in: 30 days before expiry
-- at the latest; last seen: unknown, so the sign-in time).
UPDATE `sessions` SET
	`id` = lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))),
	`user_id` = json_extract(`sess`, '$.userId'),
	`created_at` = `expire` - 2592000000,
	`last_seen_at` = `expire` - 2592000000
WHERE `id` IS NULL;
--> statement-breakpoint
-- The deleted account (GitHub's "ghost"): a deleted person's comments that
-- others replied to stay under this row, shown as "[deleted]". It has no
-- e-mail and no provider subject, so nobody can sign in as it, and its
-- username is not one a person can choose (no "@").
INSERT OR IGNORE INTO `users` (`id`, `username`, `name`) VALUES ('00000000-0000-0000-0000-000000000000', '[deleted]', NULL);
