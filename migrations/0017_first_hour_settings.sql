ALTER TABLE `users` ADD `bio` text;--> statement-breakpoint
ALTER TABLE `users` ADD `show_nsfw` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `adult_confirmed_at` integer;--> statement-breakpoint
CREATE INDEX `tags_sfw_count_idx` ON `tags` ("sfw_count" DESC,`name`);