-- Hand-written: counters that follow favorites, comments and comment votes in
-- the same transaction as the row that causes them (DESIGN.md "Data"), so they
-- always equal the rows that exist, under any concurrency.
--   characters.favorite_count = its favorites; characters.comment_count = its comments
--   (replies included); comments.votes = sum of its comment_votes.value.
-- Favorites and comments also add engagement to the trending score
-- (worker/lib/trending.ts: S' = max(S, x) + log2(1 + 2^-|S - x|),
-- x = log2(weight) + now / 3 days, now in ms).

CREATE TRIGGER `favorites_after_insert` AFTER INSERT ON `favorites` BEGIN
	UPDATE `characters` SET
		`favorite_count` = `favorite_count` + 1,
		`trending_score` = max(`trending_score`, (unixepoch('subsec') * 1000.0) / 259200000.0)
			+ log2(1 + pow(2, -abs(`trending_score` - (unixepoch('subsec') * 1000.0) / 259200000.0)))
	WHERE `id` = NEW.character_id;
END;
--> statement-breakpoint
CREATE TRIGGER `favorites_after_delete` AFTER DELETE ON `favorites` BEGIN
	UPDATE `characters` SET `favorite_count` = `favorite_count` - 1 WHERE `id` = OLD.character_id;
END;
--> statement-breakpoint
CREATE TRIGGER `comments_after_insert` AFTER INSERT ON `comments` BEGIN
	UPDATE `characters` SET
		`comment_count` = `comment_count` + 1,
		`trending_score` = max(`trending_score`, 1 + (unixepoch('subsec') * 1000.0) / 259200000.0)
			+ log2(1 + pow(2, -abs(`trending_score` - (1 + (unixepoch('subsec') * 1000.0) / 259200000.0))))
	WHERE `id` = NEW.character_id;
END;
--> statement-breakpoint
CREATE TRIGGER `comments_after_delete` AFTER DELETE ON `comments` BEGIN
	UPDATE `characters` SET `comment_count` = `comment_count` - 1 WHERE `id` = OLD.character_id;
END;
--> statement-breakpoint
CREATE TRIGGER `comment_votes_after_insert` AFTER INSERT ON `comment_votes` BEGIN
	UPDATE `comments` SET `votes` = `votes` + NEW.value WHERE `id` = NEW.comment_id;
END;
--> statement-breakpoint
CREATE TRIGGER `comment_votes_after_delete` AFTER DELETE ON `comment_votes` BEGIN
	UPDATE `comments` SET `votes` = `votes` - OLD.value WHERE `id` = OLD.comment_id;
END;
--> statement-breakpoint
CREATE TRIGGER `comment_votes_after_update` AFTER UPDATE OF `value` ON `comment_votes` BEGIN
	UPDATE `comments` SET `votes` = `votes` + NEW.value - OLD.value WHERE `id` = NEW.comment_id;
END;
