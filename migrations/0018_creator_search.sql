-- Hand-written: catalog search also matches the creator's shown name (issue 26
-- "Browsing you can share"), from the same FTS5 index, so a search stays one
-- indexed lookup (docs/decisions/0002-catalog-queries.md).
--
-- `characters_fts` gets a sixth column, `creator` (characters.creator, shown
-- as "@" + creator), appended after `flags` so the other columns keep their
-- places; bm25 weights: name 10, description 1, tags 4, creator 6. The index
-- is rebuilt from `characters` and the triggers that keep it are recreated
-- with the new column (and fire on a change of `creator` too).

DROP TRIGGER `characters_after_insert`;
--> statement-breakpoint
DROP TRIGGER `characters_after_update_search`;
--> statement-breakpoint
DROP TABLE `characters_fts`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `characters_fts` USING fts5(
	name,
	description,
	tags,
	tag_keys,
	flags,
	creator,
	content='',
	contentless_delete=1,
	detail=column,
	tokenize="unicode61 remove_diacritics 2 tokenchars '_'",
	prefix='2 3'
);
--> statement-breakpoint
INSERT INTO `characters_fts` (`characters_fts`, `rank`) VALUES ('rank', 'bm25(10.0, 1.0, 4.0, 0.0, 0.0, 6.0)');
--> statement-breakpoint
INSERT INTO `characters_fts` (rowid, name, description, tags, tag_keys, flags, creator)
	SELECT c.id, c.name, c.description, c.tags,
		(SELECT group_concat(replace(replace(replace(replace(replace(value, '-', '_'), ' ', '_'), '''', '_'), '&', '_'), '+', '_'), ' ') FROM json_each(c.tags)),
		trim(CASE WHEN c.is_nsfw THEN 'nsfw ' ELSE '' END || CASE WHEN c.is_active THEN '' ELSE 'inactive' END),
		c.creator
	FROM `characters` c;
--> statement-breakpoint
CREATE TRIGGER `characters_after_insert` AFTER INSERT ON `characters` BEGIN
	INSERT INTO `characters_fts` (rowid, name, description, tags, tag_keys, flags, creator) VALUES (
		NEW.id, NEW.name, NEW.description, NEW.tags,
		(SELECT group_concat(replace(replace(replace(replace(replace(value, '-', '_'), ' ', '_'), '''', '_'), '&', '_'), '+', '_'), ' ') FROM json_each(NEW.tags)),
		trim(CASE WHEN NEW.is_nsfw THEN 'nsfw ' ELSE '' END || CASE WHEN NEW.is_active THEN '' ELSE 'inactive' END),
		NEW.creator);
	UPDATE `catalog_counts` SET `count` = `count` + NEW.is_active WHERE `key` = 'all';
	UPDATE `catalog_counts` SET `count` = `count` + (NEW.is_active AND NOT NEW.is_nsfw) WHERE `key` = 'sfw';
END;
--> statement-breakpoint
CREATE TRIGGER `characters_after_update_search` AFTER UPDATE OF `name`, `description`, `tags`, `is_active`, `is_nsfw`, `creator` ON `characters` BEGIN
	DELETE FROM `characters_fts` WHERE rowid = OLD.id;
	INSERT INTO `characters_fts` (rowid, name, description, tags, tag_keys, flags, creator) VALUES (
		NEW.id, NEW.name, NEW.description, NEW.tags,
		(SELECT group_concat(replace(replace(replace(replace(replace(value, '-', '_'), ' ', '_'), '''', '_'), '&', '_'), '+', '_'), ' ') FROM json_each(NEW.tags)),
		trim(CASE WHEN NEW.is_nsfw THEN 'nsfw ' ELSE '' END || CASE WHEN NEW.is_active THEN '' ELSE 'inactive' END),
		NEW.creator);
END;
