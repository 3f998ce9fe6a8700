-- Group chats (issue 22, DESIGN.md "Group chats"): a conversation's cast in
-- member order, and its reply order. conversations.character_id stays the
-- first member.
CREATE TABLE `conversation_characters` (
	`conversation_id` text NOT NULL,
	`character_id` integer NOT NULL,
	`position` integer NOT NULL,
	`muted` integer DEFAULT false NOT NULL,
	`talkativeness` real DEFAULT 0.5 NOT NULL,
	`added_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`conversation_id`, `character_id`),
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`character_id`) REFERENCES `characters`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "conversation_characters_talkativeness" CHECK("conversation_characters"."talkativeness" BETWEEN 0 AND 1)
);
--> statement-breakpoint
CREATE INDEX `conversation_characters_character_idx` ON `conversation_characters` (`character_id`);--> statement-breakpoint
ALTER TABLE `conversations` ADD `reply_order` text DEFAULT 'natural' NOT NULL;--> statement-breakpoint
-- Every existing conversation is a cast of one: its character (DESIGN.md "Group chats").
INSERT INTO `conversation_characters` (`conversation_id`, `character_id`, `position`, `added_at`)
  SELECT `id`, `character_id`, 0, `created_at` FROM `conversations`;
