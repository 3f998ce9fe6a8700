-- Hand-written: a character removed by moderation is inactive, always, so
-- "listed" has one definition, `is_active = 1` (worker/lib/listable.ts), which
-- the catalog's partial indexes, the FTS5 `flags` and the counters of
-- migrations/0001 (catalog_counts, tags.count through character_tags.is_listed)
-- already follow. The operator's uphold sets both columns itself
-- (worker/lib/moderation-actions.ts); these triggers make any other writer
-- that marks a character `removed`, or reactivates a removed one, leave it
-- inactive too — the nested UPDATE fires the flag triggers of 0001 and 0004,
-- so counters and the search index stay exact. worker/test/listable.test.ts
-- checks it.
UPDATE `characters` SET `is_active` = 0 WHERE `moderation_status` = 'removed' AND `is_active` = 1;
--> statement-breakpoint
CREATE TRIGGER `characters_removed_is_inactive_after_update` AFTER UPDATE OF `moderation_status`, `is_active` ON `characters`
	WHEN NEW.moderation_status = 'removed' AND NEW.is_active = 1
BEGIN
	UPDATE `characters` SET `is_active` = 0 WHERE `id` = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER `characters_removed_is_inactive_after_insert` AFTER INSERT ON `characters`
	WHEN NEW.moderation_status = 'removed' AND NEW.is_active = 1
BEGIN
	UPDATE `characters` SET `is_active` = 0 WHERE `id` = NEW.id;
END;
