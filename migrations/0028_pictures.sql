CREATE TABLE `image_usage` (
	`user_id` text NOT NULL,
	`window` text NOT NULL,
	`window_start` integer NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_id`, `window`, `window_start`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `image_usage_window_idx` ON `image_usage` (`window_start`);--> statement-breakpoint
ALTER TABLE `model_connections` ADD `image_model` text;