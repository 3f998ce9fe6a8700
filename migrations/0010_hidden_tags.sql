-- Hidden tags (issue "Finding and following", Tag filters): the tags a person
-- hides from every list and search, a JSON list of lower-case tag names.
ALTER TABLE `users` ADD `hidden_tags` text DEFAULT '[]' NOT NULL;