CREATE TABLE `character_lorebooks` (
	`character_id` integer NOT NULL,
	`lorebook_id` text NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`character_id`, `lorebook_id`),
	FOREIGN KEY (`character_id`) REFERENCES `characters`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`lorebook_id`) REFERENCES `lorebooks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `character_lorebooks_lorebook_idx` ON `character_lorebooks` (`lorebook_id`);--> statement-breakpoint
CREATE TABLE `conversation_lorebooks` (
	`conversation_id` text NOT NULL,
	`lorebook_id` text NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`conversation_id`, `lorebook_id`),
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`lorebook_id`) REFERENCES `lorebooks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `conversation_lorebooks_lorebook_idx` ON `conversation_lorebooks` (`lorebook_id`);--> statement-breakpoint
CREATE TABLE `lorebooks` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`character_id` integer,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`settings` text DEFAULT '{}' NOT NULL,
	`entries` text DEFAULT '[]' NOT NULL,
	`extensions` text DEFAULT '{}' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`character_id`) REFERENCES `characters`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `lorebooks_owner_idx` ON `lorebooks` (`owner_id`,`updated_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `lorebooks_character_idx` ON `lorebooks` (`character_id`);