ALTER TABLE `characters` ADD `allow_forks` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `characters` ADD `forked_from_id` integer;--> statement-breakpoint
ALTER TABLE `characters` ADD `fork_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `characters_forked_from_idx` ON `characters` (`forked_from_id`,"created_at" DESC) WHERE forked_from_id IS NOT NULL;--> statement-breakpoint
-- `fork_count` follows the forks stored (issue 40): one atomic increment per
-- insert, so concurrent forks all count; a fork deleted (by its owner, or with
-- their account through the creator_id cascade, which fires these triggers too)
-- gives its count back. `forked_from_id` is never updated after the insert.
CREATE TRIGGER `characters_fork_after_insert` AFTER INSERT ON `characters`
WHEN NEW.forked_from_id IS NOT NULL BEGIN
  UPDATE characters SET fork_count = fork_count + 1 WHERE id = NEW.forked_from_id;
END;
--> statement-breakpoint
CREATE TRIGGER `characters_fork_after_delete` AFTER DELETE ON `characters`
WHEN OLD.forked_from_id IS NOT NULL BEGIN
  UPDATE characters SET fork_count = max(0, fork_count - 1) WHERE id = OLD.forked_from_id;
END;
