-- Hand-written: the trending score's one definition in SQL (DESIGN.md "Tabs";
-- the same formula in TypeScript is worker/lib/trending.ts, and
-- worker/test/trending.test.ts checks that the two agree).
--
-- An event of weight w at time t (ms) adds to a character's score S as
--   S' = max(S, x) + log2(1 + 2^-|S - x|),  x = log2(w) + t / half_life_ms.
-- Every writer adds events by inserting into the view `trending_events`
-- (nothing is stored; its INSTEAD OF trigger updates the character):
--   INSERT INTO trending_events (character_id, log2_weight) VALUES (?, ?)
-- so the formula and its constant are written once, here. Before this
-- migration they were written out in each trigger of 0002 and in the chat's
-- own statement.

-- The half-life of engagement, ms (3 days): TRENDING_HALF_LIFE_MS.
CREATE VIEW `trending_constants` AS SELECT 259200000 AS `half_life_ms`;
--> statement-breakpoint
CREATE VIEW `trending_events` AS SELECT NULL AS `character_id`, NULL AS `log2_weight` WHERE 0;
--> statement-breakpoint
CREATE TRIGGER `trending_events_instead_of_insert` INSTEAD OF INSERT ON `trending_events` BEGIN
	UPDATE `characters` SET
		`trending_score` = max(`trending_score`, `event`.`x`) + log2(1 + pow(2, -abs(`trending_score` - `event`.`x`)))
	FROM (
		SELECT NEW.log2_weight + (unixepoch('subsec') * 1000.0) / `half_life_ms` AS `x` FROM `trending_constants`
	) AS `event`
	WHERE `characters`.`id` = NEW.character_id;
END;
--> statement-breakpoint
-- A favorite is an event of weight 1; a comment of weight 2 (as in 0002).
DROP TRIGGER `favorites_after_insert`;
--> statement-breakpoint
CREATE TRIGGER `favorites_after_insert` AFTER INSERT ON `favorites` BEGIN
	UPDATE `characters` SET `favorite_count` = `favorite_count` + 1 WHERE `id` = NEW.character_id;
	INSERT INTO `trending_events` (`character_id`, `log2_weight`) VALUES (NEW.character_id, 0);
END;
--> statement-breakpoint
DROP TRIGGER `comments_after_insert`;
--> statement-breakpoint
CREATE TRIGGER `comments_after_insert` AFTER INSERT ON `comments` BEGIN
	UPDATE `characters` SET `comment_count` = `comment_count` + 1 WHERE `id` = NEW.character_id;
	INSERT INTO `trending_events` (`character_id`, `log2_weight`) VALUES (NEW.character_id, 1);
END;
