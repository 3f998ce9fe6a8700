CREATE TABLE `memories` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`conversation_id` text,
	`character_id` integer NOT NULL,
	`scope` text NOT NULL,
	`text` text NOT NULL,
	`message_id` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`character_id`) REFERENCES `characters`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "memories_scope_conversation" CHECK(("memories"."scope" = 'chat') = ("memories"."conversation_id" IS NOT NULL))
);
--> statement-breakpoint
CREATE INDEX `memories_conversation_idx` ON `memories` (`conversation_id`);--> statement-breakpoint
CREATE INDEX `memories_user_character_idx` ON `memories` (`user_id`,`character_id`);