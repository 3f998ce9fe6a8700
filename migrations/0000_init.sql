CREATE TABLE `catalog_counts` (
	`key` text PRIMARY KEY NOT NULL,
	`count` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `character_tags` (
	`character_id` integer NOT NULL,
	`tag_id` integer NOT NULL,
	`is_listed` integer DEFAULT true NOT NULL,
	`is_nsfw` integer DEFAULT false NOT NULL,
	PRIMARY KEY(`character_id`, `tag_id`),
	FOREIGN KEY (`character_id`) REFERENCES `characters`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`tag_id`) REFERENCES `tags`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `character_tags_tag_idx` ON `character_tags` (`tag_id`,`is_listed`,`is_nsfw`,`character_id`);--> statement-breakpoint
CREATE TABLE `characters` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`description` text NOT NULL,
	`long_description` text,
	`creator` text NOT NULL,
	`creator_id` text,
	`avatar_url` text,
	`tags` text DEFAULT '[]' NOT NULL,
	`is_nsfw` integer DEFAULT false NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`view_count` integer DEFAULT 0 NOT NULL,
	`rating` integer DEFAULT 80 NOT NULL,
	`rating_up` integer DEFAULT 0 NOT NULL,
	`rating_down` integer DEFAULT 0 NOT NULL,
	`favorite_count` integer DEFAULT 0 NOT NULL,
	`message_count` integer DEFAULT 0 NOT NULL,
	`comment_count` integer DEFAULT 0 NOT NULL,
	`trending_score` real DEFAULT 0 NOT NULL,
	`personality` text NOT NULL,
	`scenario` text,
	`example_conversation` text,
	`greeting` text,
	`alternate_greetings` text DEFAULT '[]' NOT NULL,
	`system_prompt` text,
	`post_history_instructions` text,
	`creator_notes` text,
	`character_book` text,
	`extensions` text DEFAULT '{}' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`creator_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "characters_rating_range" CHECK("characters"."rating" BETWEEN 0 AND 100)
);
--> statement-breakpoint
CREATE INDEX `characters_trending_idx` ON `characters` ("trending_score" DESC,"id" DESC) WHERE is_active = 1;--> statement-breakpoint
CREATE INDEX `characters_trending_sfw_idx` ON `characters` ("trending_score" DESC,"id" DESC) WHERE is_active = 1 AND is_nsfw = 0;--> statement-breakpoint
CREATE INDEX `characters_new_idx` ON `characters` ("created_at" DESC,"id" DESC) WHERE is_active = 1;--> statement-breakpoint
CREATE INDEX `characters_new_sfw_idx` ON `characters` ("created_at" DESC,"id" DESC) WHERE is_active = 1 AND is_nsfw = 0;--> statement-breakpoint
CREATE INDEX `characters_popular_idx` ON `characters` ("favorite_count" DESC,"message_count" DESC,"id" DESC) WHERE is_active = 1;--> statement-breakpoint
CREATE INDEX `characters_popular_sfw_idx` ON `characters` ("favorite_count" DESC,"message_count" DESC,"id" DESC) WHERE is_active = 1 AND is_nsfw = 0;--> statement-breakpoint
CREATE INDEX `characters_creator_idx` ON `characters` (`creator_id`,"created_at" DESC);--> statement-breakpoint
CREATE TABLE `comment_votes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`comment_id` integer NOT NULL,
	`user_id` text NOT NULL,
	`value` integer NOT NULL,
	FOREIGN KEY (`comment_id`) REFERENCES `comments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "comment_votes_value" CHECK("comment_votes"."value" IN (1, -1))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `comment_votes_user_comment_unique` ON `comment_votes` (`comment_id`,`user_id`);--> statement-breakpoint
CREATE TABLE `comments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`character_id` integer NOT NULL,
	`user_id` text NOT NULL,
	`content` text NOT NULL,
	`parent_id` integer,
	`votes` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`character_id`) REFERENCES `characters`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`parent_id`) REFERENCES `comments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `comments_character_idx` ON `comments` (`character_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `comments_parent_idx` ON `comments` (`parent_id`);--> statement-breakpoint
CREATE TABLE `conversations` (
	`id` text PRIMARY KEY NOT NULL,
	`character_id` integer NOT NULL,
	`user_id` text NOT NULL,
	`title` text,
	`last_message_at` integer,
	`last_message_preview` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`character_id`) REFERENCES `characters`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `conversations_user_activity_idx` ON `conversations` (`user_id`,"updated_at" DESC);--> statement-breakpoint
CREATE INDEX `conversations_character_idx` ON `conversations` (`character_id`);--> statement-breakpoint
CREATE TABLE `favorites` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`character_id` integer NOT NULL,
	`user_id` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`character_id`) REFERENCES `characters`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `favorites_user_character_unique` ON `favorites` (`user_id`,`character_id`);--> statement-breakpoint
CREATE INDEX `favorites_character_idx` ON `favorites` (`character_id`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`sid` text PRIMARY KEY NOT NULL,
	`sess` text NOT NULL,
	`expire` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `sessions_expire_idx` ON `sessions` (`expire`);--> statement-breakpoint
CREATE TABLE `tags` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	`sfw_count` integer DEFAULT 0 NOT NULL,
	`category` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tags_name_unique` ON `tags` (lower("name"));--> statement-breakpoint
CREATE INDEX `tags_count_idx` ON `tags` ("count" DESC,`name`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text,
	`first_name` text,
	`last_name` text,
	`name` text,
	`username` text NOT NULL,
	`profile_image_url` text,
	`auth_subject` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX `users_username_unique` ON `users` (lower("username"));--> statement-breakpoint
CREATE UNIQUE INDEX `users_auth_subject_unique` ON `users` (`auth_subject`);