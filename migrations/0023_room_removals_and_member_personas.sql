CREATE TABLE `conversation_invite_removals` (
	`token_hash` text NOT NULL,
	`user_id` text NOT NULL,
	`removed_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`token_hash`, `user_id`),
	FOREIGN KEY (`token_hash`) REFERENCES `conversation_invites`(`token_hash`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `conversation_invite_removals_user_idx` ON `conversation_invite_removals` (`user_id`);--> statement-breakpoint
-- Hand-edited: drizzle-kit leaves out the ON DELETE of a column added to an existing table; a deleted persona leaves the member with none.
ALTER TABLE `conversation_members` ADD `persona_id` text REFERENCES personas(id) ON DELETE set null;--> statement-breakpoint
-- Hand-written: members who joined before keep playing what they played then, their default persona (docs/decisions/0025).
UPDATE `conversation_members` SET `persona_id` = (SELECT `p`.`id` FROM `personas` `p` WHERE `p`.`user_id` = `conversation_members`.`user_id` AND `p`.`is_default` = 1);