-- Hand-written: a character removed by moderation is inactive, always, so
-- "listed" has one definition, `is_active = 1` (worker/lib/listable.ts), which
-- the catalog's partial indexes, the FTS5 `flags` and the counters of
-- migrations/0001 (catalog_counts, tags.count through character_tags.is_listed)
-- already follow. The operator's uphold sets both columns itself
-- (worker/lib/moderation-actions.ts); here:
-- - marking a character `removed` (without touching `is_active`) makes it
--   inactive: the nested UPDATE fires the flag triggers of 0001 and 0004, so
--   counters and the search index stay exact;
-- - writing `is_active = 1` on a removed character, or inserting a removed
--   active one, fails (ABORT). Correcting such a row after the fact instead
--   would race the flag triggers of the same statement, whose order SQLite
--   does not define.
-- worker/test/listable.test.ts checks it.
UPDATE `characters` SET `is_active` = 0 WHERE `moderation_status` = 'removed' AND `is_active` = 1;
--> statement-breakpoint
CREATE TRIGGER `characters_removed_after_update_status` AFTER UPDATE OF `moderation_status` ON `characters`
	WHEN NEW.moderation_status = 'removed' AND NEW.is_active = 1
BEGIN
	UPDATE `characters` SET `is_active` = 0 WHERE `id` = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER `characters_removed_before_update_active` BEFORE UPDATE OF `is_active` ON `characters`
	WHEN NEW.moderation_status = 'removed' AND NEW.is_active = 1
BEGIN
	SELECT RAISE(ABORT, 'A character removed by moderation cannot be active');
END;
--> statement-breakpoint
CREATE TRIGGER `characters_removed_before_insert` BEFORE INSERT ON `characters`
	WHEN NEW.moderation_status = 'removed' AND NEW.is_active = 1
BEGIN
	SELECT RAISE(ABORT, 'A character removed by moderation cannot be active');
END;
