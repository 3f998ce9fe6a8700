CREATE TABLE `share_messages` (
	`share_token` text NOT NULL,
	`position` integer NOT NULL,
	`role` text NOT NULL,
	`content` text NOT NULL,
	`character_id` integer,
	`author_id` text,
	`author_name` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`share_token`, `position`),
	FOREIGN KEY (`share_token`) REFERENCES `shares`(`token`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`author_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `share_messages_author_idx` ON `share_messages` (`author_id`);--> statement-breakpoint
CREATE TABLE `shares` (
	`token` text PRIMARY KEY NOT NULL,
	`conversation_id` text NOT NULL,
	`user_id` text NOT NULL,
	`title` text NOT NULL,
	`characters` text NOT NULL,
	`shared_by` text NOT NULL,
	`is_nsfw` integer DEFAULT false NOT NULL,
	`message_count` integer NOT NULL,
	`last_message_id` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `shares_conversation_idx` ON `shares` (`conversation_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `shares_user_idx` ON `shares` (`user_id`);