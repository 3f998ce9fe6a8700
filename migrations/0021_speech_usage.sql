CREATE TABLE `speech_usage` (
	`user_id` text NOT NULL,
	`window_start` integer NOT NULL,
	`audio_ms` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_id`, `window_start`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `speech_usage_window_idx` ON `speech_usage` (`window_start`);