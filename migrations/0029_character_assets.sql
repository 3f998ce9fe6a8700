CREATE TABLE `character_assets` (
	`character_id` integer NOT NULL,
	`type` text NOT NULL,
	`name` text NOT NULL,
	`ext` text NOT NULL,
	`url` text NOT NULL,
	`object_key` text,
	`size` integer,
	`position` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`character_id`, `type`, `name`),
	FOREIGN KEY (`character_id`) REFERENCES `characters`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `character_assets_order_idx` ON `character_assets` (`character_id`,`position`);--> statement-breakpoint
CREATE INDEX `character_assets_object_idx` ON `character_assets` (`object_key`);--> statement-breakpoint
ALTER TABLE `conversations` ADD `background` text;