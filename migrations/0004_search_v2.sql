-- Hand-written: search and tag totals that stay fast at 10^6 characters
-- (docs/decisions/0002-catalog-queries.md).
--
-- 1. `characters_fts` becomes a contentless FTS5 index (contentless_delete,
--    detail=column: small and fast) that also indexes each character's tags
--    as one token per tag (`tag_keys`, tag name with every non-alphanumeric
--    character turned into "_") and its visibility (`flags`: "nsfw" and/or
--    "inactive"), so a search with tag and NSFW filters, and its exact total,
--    are answered by the index alone. Search terms are limited to the
--    name/description/tags columns by the query (worker/lib/catalog-sql.ts).
--    bm25 weights: name 10, description 1, tags 4.
-- 2. `tag_pairs` counts, per pair of tags, the characters carrying both, so a
--    two-tag filter's total is O(1). Invariant: tag_pairs(a, b).count = active
--    characters with tags a and b (a < b); sfw_count = of those, non-NSFW.

DROP TRIGGER `characters_after_insert`;
--> statement-breakpoint
DROP TRIGGER `characters_after_delete`;
--> statement-breakpoint
DROP TRIGGER `characters_after_update_text`;
--> statement-breakpoint
DROP TABLE `characters_fts`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `characters_fts` USING fts5(
	name,
	description,
	tags,
	tag_keys,
	flags,
	content='',
	contentless_delete=1,
	detail=column,
	tokenize="unicode61 remove_diacritics 2 tokenchars '_'",
	prefix='2 3'
);
--> statement-breakpoint
INSERT INTO `characters_fts` (`characters_fts`, `rank`) VALUES ('rank', 'bm25(10.0, 1.0, 4.0, 0.0, 0.0)');
--> statement-breakpoint
INSERT INTO `characters_fts` (rowid, name, description, tags, tag_keys, flags)
	SELECT c.id, c.name, c.description, c.tags,
		(SELECT group_concat(replace(replace(replace(replace(replace(value, '-', '_'), ' ', '_'), '''', '_'), '&', '_'), '+', '_'), ' ') FROM json_each(c.tags)),
		trim(CASE WHEN c.is_nsfw THEN 'nsfw ' ELSE '' END || CASE WHEN c.is_active THEN '' ELSE 'inactive' END)
	FROM `characters` c;
--> statement-breakpoint
CREATE TRIGGER `characters_after_insert` AFTER INSERT ON `characters` BEGIN
	INSERT INTO `characters_fts` (rowid, name, description, tags, tag_keys, flags) VALUES (
		NEW.id, NEW.name, NEW.description, NEW.tags,
		(SELECT group_concat(replace(replace(replace(replace(replace(value, '-', '_'), ' ', '_'), '''', '_'), '&', '_'), '+', '_'), ' ') FROM json_each(NEW.tags)),
		trim(CASE WHEN NEW.is_nsfw THEN 'nsfw ' ELSE '' END || CASE WHEN NEW.is_active THEN '' ELSE 'inactive' END));
	UPDATE `catalog_counts` SET `count` = `count` + NEW.is_active WHERE `key` = 'all';
	UPDATE `catalog_counts` SET `count` = `count` + (NEW.is_active AND NOT NEW.is_nsfw) WHERE `key` = 'sfw';
END;
--> statement-breakpoint
CREATE TRIGGER `characters_after_delete` AFTER DELETE ON `characters` BEGIN
	DELETE FROM `characters_fts` WHERE rowid = OLD.id;
	UPDATE `catalog_counts` SET `count` = `count` - OLD.is_active WHERE `key` = 'all';
	UPDATE `catalog_counts` SET `count` = `count` - (OLD.is_active AND NOT OLD.is_nsfw) WHERE `key` = 'sfw';
END;
--> statement-breakpoint
CREATE TRIGGER `characters_after_update_search` AFTER UPDATE OF `name`, `description`, `tags`, `is_active`, `is_nsfw` ON `characters` BEGIN
	DELETE FROM `characters_fts` WHERE rowid = OLD.id;
	INSERT INTO `characters_fts` (rowid, name, description, tags, tag_keys, flags) VALUES (
		NEW.id, NEW.name, NEW.description, NEW.tags,
		(SELECT group_concat(replace(replace(replace(replace(replace(value, '-', '_'), ' ', '_'), '''', '_'), '&', '_'), '+', '_'), ' ') FROM json_each(NEW.tags)),
		trim(CASE WHEN NEW.is_nsfw THEN 'nsfw ' ELSE '' END || CASE WHEN NEW.is_active THEN '' ELSE 'inactive' END));
END;
--> statement-breakpoint
INSERT INTO `tag_pairs` (`tag_a`, `tag_b`, `count`, `sfw_count`)
	SELECT a.tag_id, b.tag_id, sum(a.is_listed), sum(a.is_listed AND NOT a.is_nsfw)
	FROM `character_tags` a JOIN `character_tags` b ON b.character_id = a.character_id AND b.tag_id > a.tag_id
	GROUP BY a.tag_id, b.tag_id;
--> statement-breakpoint
CREATE TRIGGER `character_tags_pairs_after_insert` AFTER INSERT ON `character_tags` BEGIN
	INSERT INTO `tag_pairs` (`tag_a`, `tag_b`, `count`, `sfw_count`)
		SELECT min(o.tag_id, NEW.tag_id), max(o.tag_id, NEW.tag_id), NEW.is_listed, (NEW.is_listed AND NOT NEW.is_nsfw)
		FROM `character_tags` o WHERE o.character_id = NEW.character_id AND o.tag_id != NEW.tag_id
		ON CONFLICT (`tag_a`, `tag_b`) DO UPDATE SET
			`count` = `count` + excluded.`count`,
			`sfw_count` = `sfw_count` + excluded.`sfw_count`;
END;
--> statement-breakpoint
CREATE TRIGGER `character_tags_pairs_after_delete` AFTER DELETE ON `character_tags` BEGIN
	UPDATE `tag_pairs`
		SET `count` = `count` - OLD.is_listed,
			`sfw_count` = `sfw_count` - (OLD.is_listed AND NOT OLD.is_nsfw)
		WHERE (`tag_a`, `tag_b`) IN (
			SELECT min(o.tag_id, OLD.tag_id), max(o.tag_id, OLD.tag_id)
			FROM `character_tags` o WHERE o.character_id = OLD.character_id AND o.tag_id != OLD.tag_id);
END;
--> statement-breakpoint
-- When a character's flags change, all its rows change; each pair is adjusted
-- once, by the row holding the pair's smaller tag id.
CREATE TRIGGER `character_tags_pairs_after_update` AFTER UPDATE OF `is_listed`, `is_nsfw` ON `character_tags` BEGIN
	UPDATE `tag_pairs`
		SET `count` = `count` + NEW.is_listed - OLD.is_listed,
			`sfw_count` = `sfw_count` + (NEW.is_listed AND NOT NEW.is_nsfw) - (OLD.is_listed AND NOT OLD.is_nsfw)
		WHERE `tag_a` = NEW.tag_id AND `tag_b` IN (
			SELECT o.tag_id FROM `character_tags` o WHERE o.character_id = NEW.character_id AND o.tag_id > NEW.tag_id);
END;
