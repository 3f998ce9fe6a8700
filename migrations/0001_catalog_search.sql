-- Hand-written (drizzle-kit cannot express these): full-text search over the
-- catalog and the trigger-maintained counters that keep list totals O(1).
--
-- Invariants kept here:
--   catalog_counts['all'] = active characters; catalog_counts['sfw'] = active, non-NSFW.
--   tags.count = active characters with the tag; tags.sfw_count = of those, non-NSFW.
--   character_tags.is_listed / is_nsfw mirror the character's is_active / is_nsfw.
-- Writers insert character_tags rows with the character's current flags
-- (INSERT ... SELECT from characters; see worker/lib/catalog.ts linkTags);
-- after that, the triggers below keep everything in step.

CREATE VIRTUAL TABLE `characters_fts` USING fts5(
	name,
	description,
	tags,
	content='characters',
	content_rowid='id',
	tokenize='unicode61 remove_diacritics 2',
	prefix='2 3'
);
--> statement-breakpoint
INSERT INTO `catalog_counts` (`key`, `count`) VALUES ('all', 0), ('sfw', 0);
--> statement-breakpoint
CREATE TRIGGER `characters_after_insert` AFTER INSERT ON `characters` BEGIN
	INSERT INTO `characters_fts` (rowid, name, description, tags)
		VALUES (NEW.id, NEW.name, NEW.description, NEW.tags);
	UPDATE `catalog_counts` SET `count` = `count` + NEW.is_active WHERE `key` = 'all';
	UPDATE `catalog_counts` SET `count` = `count` + (NEW.is_active AND NOT NEW.is_nsfw) WHERE `key` = 'sfw';
END;
--> statement-breakpoint
CREATE TRIGGER `characters_after_delete` AFTER DELETE ON `characters` BEGIN
	INSERT INTO `characters_fts` (`characters_fts`, rowid, name, description, tags)
		VALUES ('delete', OLD.id, OLD.name, OLD.description, OLD.tags);
	UPDATE `catalog_counts` SET `count` = `count` - OLD.is_active WHERE `key` = 'all';
	UPDATE `catalog_counts` SET `count` = `count` - (OLD.is_active AND NOT OLD.is_nsfw) WHERE `key` = 'sfw';
END;
--> statement-breakpoint
CREATE TRIGGER `characters_after_update_text` AFTER UPDATE OF `name`, `description`, `tags` ON `characters` BEGIN
	INSERT INTO `characters_fts` (`characters_fts`, rowid, name, description, tags)
		VALUES ('delete', OLD.id, OLD.name, OLD.description, OLD.tags);
	INSERT INTO `characters_fts` (rowid, name, description, tags)
		VALUES (NEW.id, NEW.name, NEW.description, NEW.tags);
END;
--> statement-breakpoint
CREATE TRIGGER `characters_after_update_flags` AFTER UPDATE OF `is_active`, `is_nsfw` ON `characters`
	WHEN OLD.is_active IS NOT NEW.is_active OR OLD.is_nsfw IS NOT NEW.is_nsfw
BEGIN
	UPDATE `catalog_counts` SET `count` = `count` + NEW.is_active - OLD.is_active WHERE `key` = 'all';
	UPDATE `catalog_counts`
		SET `count` = `count` + (NEW.is_active AND NOT NEW.is_nsfw) - (OLD.is_active AND NOT OLD.is_nsfw)
		WHERE `key` = 'sfw';
	UPDATE `character_tags` SET `is_listed` = NEW.is_active, `is_nsfw` = NEW.is_nsfw
		WHERE `character_id` = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER `character_tags_after_insert` AFTER INSERT ON `character_tags` BEGIN
	UPDATE `tags`
		SET `count` = `count` + NEW.is_listed,
			`sfw_count` = `sfw_count` + (NEW.is_listed AND NOT NEW.is_nsfw)
		WHERE `id` = NEW.tag_id;
END;
--> statement-breakpoint
CREATE TRIGGER `character_tags_after_delete` AFTER DELETE ON `character_tags` BEGIN
	UPDATE `tags`
		SET `count` = `count` - OLD.is_listed,
			`sfw_count` = `sfw_count` - (OLD.is_listed AND NOT OLD.is_nsfw)
		WHERE `id` = OLD.tag_id;
END;
--> statement-breakpoint
CREATE TRIGGER `character_tags_after_update` AFTER UPDATE OF `is_listed`, `is_nsfw` ON `character_tags` BEGIN
	UPDATE `tags`
		SET `count` = `count` + NEW.is_listed - OLD.is_listed,
			`sfw_count` = `sfw_count` + (NEW.is_listed AND NOT NEW.is_nsfw) - (OLD.is_listed AND NOT OLD.is_nsfw)
		WHERE `id` = NEW.tag_id;
END;
