CREATE TABLE `tag_pairs` (
	`tag_a` integer NOT NULL,
	`tag_b` integer NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	`sfw_count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`tag_a`, `tag_b`),
	FOREIGN KEY (`tag_a`) REFERENCES `tags`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`tag_b`) REFERENCES `tags`(`id`) ON UPDATE no action ON DELETE cascade
);
