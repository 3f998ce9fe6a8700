CREATE TABLE `counted_views` (
	`view_id` text PRIMARY KEY NOT NULL,
	`character_id` integer NOT NULL,
	`batch_id` text NOT NULL,
	`counted_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `counted_views_batch_idx` ON `counted_views` (`batch_id`);--> statement-breakpoint
CREATE INDEX `counted_views_counted_at_idx` ON `counted_views` (`counted_at`);