ALTER TABLE `share_messages` ADD `kind` text DEFAULT 'text' NOT NULL;--> statement-breakpoint
ALTER TABLE `share_messages` ADD `message_id` text;--> statement-breakpoint
ALTER TABLE `share_messages` ADD `prompt` text;--> statement-breakpoint
ALTER TABLE `share_messages` ADD `width` integer;--> statement-breakpoint
ALTER TABLE `share_messages` ADD `height` integer;