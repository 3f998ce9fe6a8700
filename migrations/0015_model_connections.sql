CREATE TABLE `model_connections` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`kind` text NOT NULL,
	`base_url` text,
	`model` text NOT NULL,
	`api_key_encrypted` text,
	`key_hint` text,
	`settings` text DEFAULT '{}' NOT NULL,
	`is_default` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `model_connections_user_idx` ON `model_connections` (`user_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `model_connections_one_default_per_user` ON `model_connections` (`user_id`) WHERE is_default = 1;--> statement-breakpoint
ALTER TABLE `conversations` ADD `model_connection_id` text REFERENCES model_connections(id) ON DELETE SET NULL;--> statement-breakpoint
CREATE INDEX `conversations_model_connection_idx` ON `conversations` (`model_connection_id`);