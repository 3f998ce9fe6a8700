CREATE TABLE `conversation_invite_removals` (
	`token_hash` text NOT NULL,
	`user_id` text NOT NULL,
	`removed_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`token_hash`, `user_id`),
	FOREIGN KEY (`token_hash`) REFERENCES `conversation_invites`(`token_hash`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `conversation_invite_removals_user_idx` ON `conversation_invite_removals` (`user_id`);