-- Usernames get their one canonical form, "@" + name (DESIGN.md "Usernames",
-- schema/usernames.ts). Until now the seed stored "nightowl" while the profile
-- and sign-in stored "@name", so "@nightowl" could be taken beside "nightowl".
--
-- Rewrite: every username without a leading "@" gets one. Where that would
-- collide with an existing "@" name (compared case-insensitively, as the
-- unique index `lower(username)` does), the account created first keeps the
-- name (ties: the smaller id) and the other becomes
-- "@" + the first 22 characters of its name + "_" + the first 6 hex digits of
-- its id (at most 30 characters, e.g. "@nightowl_3fa9c1"): the name's first
-- holder keeps it, and the later account (typically a copy taken through the
-- hole) is renamed. The renamed account's characters whose `creator` handle
-- was that name get the new handle too, so they stop showing the other
-- person's "@name". The order of the statements keeps the unique index
-- satisfied at every row.
--
-- 1. An "@name" account newer than a "name" account: renamed first, so the
--    older one can take "@name" below.
UPDATE characters SET creator = (
    SELECT substr(substr(u.username, 2), 1, 22) || '_' || lower(substr(replace(u.id, '-', ''), 1, 6))
    FROM users u WHERE u.id = characters.creator_id)
  WHERE creator_id IN (
    SELECT a.id FROM users a
    WHERE substr(a.username, 1, 1) = '@' AND EXISTS (
      SELECT 1 FROM users b
      WHERE substr(b.username, 1, 1) != '@' AND lower('@' || b.username) = lower(a.username)
        AND (b.created_at < a.created_at OR (b.created_at = a.created_at AND b.id < a.id))))
    AND lower(creator) = (SELECT lower(substr(u.username, 2)) FROM users u WHERE u.id = characters.creator_id);
--> statement-breakpoint
UPDATE users SET username = '@' || substr(substr(username, 2), 1, 22) || '_' || lower(substr(replace(id, '-', ''), 1, 6))
  WHERE substr(username, 1, 1) = '@' AND EXISTS (
    SELECT 1 FROM users b
    WHERE substr(b.username, 1, 1) != '@' AND lower('@' || b.username) = lower(users.username)
      AND (b.created_at < users.created_at OR (b.created_at = users.created_at AND b.id < users.id)));
--> statement-breakpoint
-- 2. A "name" account newer than an "@name" account (any "@name" still
--    colliding now is the older one): renamed.
UPDATE characters SET creator = (
    SELECT substr(u.username, 1, 22) || '_' || lower(substr(replace(u.id, '-', ''), 1, 6))
    FROM users u WHERE u.id = characters.creator_id)
  WHERE creator_id IN (
    SELECT b.id FROM users b
    WHERE substr(b.username, 1, 1) != '@' AND EXISTS (
      SELECT 1 FROM users a WHERE substr(a.username, 1, 1) = '@' AND lower(a.username) = lower('@' || b.username)))
    AND lower(creator) = (SELECT lower(u.username) FROM users u WHERE u.id = characters.creator_id);
--> statement-breakpoint
UPDATE users SET username = '@' || substr(username, 1, 22) || '_' || lower(substr(replace(id, '-', ''), 1, 6))
  WHERE substr(username, 1, 1) != '@' AND EXISTS (
    SELECT 1 FROM users a WHERE substr(a.username, 1, 1) = '@' AND lower(a.username) = lower('@' || users.username));
--> statement-breakpoint
-- 3. Every other name without "@" gets it.
UPDATE users SET username = '@' || username WHERE substr(username, 1, 1) != '@';
--> statement-breakpoint
-- Following creators, and the Favorites page's order (schema/db.ts `follows`, `favorites_user_created_idx`).
CREATE TABLE `follows` (
	`follower_id` text NOT NULL,
	`followee_id` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`follower_id`, `followee_id`),
	FOREIGN KEY (`follower_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`followee_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "follows_not_self" CHECK("follows"."follower_id" != "follows"."followee_id")
);
--> statement-breakpoint
CREATE INDEX `follows_followee_idx` ON `follows` (`followee_id`);--> statement-breakpoint
CREATE INDEX `favorites_user_created_idx` ON `favorites` (`user_id`,"created_at" DESC,"id" DESC);