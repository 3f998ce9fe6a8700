-- Usernames' confusable skeleton reads the digits of leetspeak and one letter
-- for i, l and 1 (schema/skeleton.ts ASCII_SKELETON_STEPS; issue 42), so
-- "@n1ghtowl" is refused beside "@nightowl". A generated column's expression
-- cannot be altered in SQLite: the column is dropped and added again (VIRTUAL,
-- so every row has the new skeleton at once; nothing is rewritten), and its
-- index with it, since SQLite will not drop an indexed column. The index stays
-- not unique: names that only now look alike both stay (the first holder
-- keeps theirs; new writes are checked, worker/lib/users.ts), so no existing
-- row can make this migration fail.
DROP INDEX IF EXISTS `users_username_skeleton_idx`;--> statement-breakpoint
ALTER TABLE `users` DROP COLUMN `username_skeleton`;--> statement-breakpoint
ALTER TABLE `users` ADD `username_skeleton` text GENERATED ALWAYS AS (replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(lower(username), 'i', 'l'), '1', 'l'), '0', 'o'), '3', 'e'), '4', 'a'), '5', 's'), '7', 't'), '8', 'b'), 'rn', 'm'), 'vv', 'w'), '@', ''), '_', '')) VIRTUAL;--> statement-breakpoint
CREATE INDEX `users_username_skeleton_idx` ON `users` (`username_skeleton`);
