-- Usernames get their confusable skeleton (schema/skeleton.ts `nameSkeleton`;
-- Unicode TR #39 §4), so a counterfeit of someone's name ("@nightowI" with a
-- capital i, "@nightowl_", "@night0wl") is found by one indexed lookup and
-- refused (worker/lib/users.ts; docs/decisions/0014-normalising-pre-screen.md).
-- Usernames are ASCII ("@" + letters, digits, "_"), so SQLite computes the
-- skeleton itself as a generated column: every row has it, whichever path
-- wrote it (sign-in, profile, seed, operator). The expression is
-- schema/skeleton.ts `usernameSkeletonSql` (kept in step with `asciiSkeleton`
-- by worker/test/counterfeit-names.test.ts). The index is not unique: existing rows
-- may already collide, and the first holder keeps the name; writes check
-- before they save (users.ts `updateProfile`: one conditional UPDATE).
-- Numbered 0012 because another branch adds 0011_removed_is_inactive.sql.
ALTER TABLE `users` ADD `username_skeleton` text GENERATED ALWAYS AS (replace(replace(replace(replace(replace(replace(lower(replace(username, 'I', 'l')), '1', 'l'), '0', 'o'), 'rn', 'm'), 'vv', 'w'), '@', ''), '_', '')) VIRTUAL;--> statement-breakpoint
CREATE INDEX `users_username_skeleton_idx` ON `users` (`username_skeleton`);
