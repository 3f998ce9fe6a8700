/**
 * Which characters are listed, and which a person may see: the one
 * definition every surface uses (DESIGN.md "Inactive characters",
 * docs/decisions/0008-trust-and-safety.md "Enforcement").
 *
 * - **Listed** (catalog, search, tag counts, creator pages, the sitemap, link
 *   previews): `is_active = 1`. A character an operator removed is inactive,
 *   always: worker/lib/moderation-actions.ts sets `moderation_status =
 *   'removed'` and `is_active = 0` in one statement, `toggle-active` and
 *   `PATCH … isActive` answer 403 for it, and the triggers of
 *   migrations/0011_removed_is_inactive.sql make marking one removed
 *   deactivate it and refuse (ABORT) any write that would leave a removed
 *   character active. A suspended owner's characters are inactive too:
 *   `suspendUser` deactivates every listed one and records which, and
 *   `unsuspendUser` lists exactly those again. So "not removed" and "owner
 *   not suspended" need no second test, and the trigger-kept counters stay
 *   exact by following `is_active` alone.
 * - **Visible to a viewer** (the character page, its comments, favorites,
 *   cards, reports): listed, or the viewer's own. Starting a chat with one
 *   also needs it not removed by moderation (chattableSql).
 *
 * The SQL triggers of migrations/0001_catalog_search.sql and
 * 0004_search_v2.sql keep the same rule on their side:
 * `catalog_counts`, `tags.count`/`sfw_count` (through
 * `character_tags.is_listed`, a copy of `is_active`) and the FTS5 `flags`
 * column (`inactive` when `is_active = 0`). worker/test/listable.test.ts
 * checks that the two sides agree and that every surface hides a removed
 * character.
 */

/** The column a character's listing follows (SQL, unqualified). */
const LISTED_COLUMN = "is_active";

/**
 * SQL condition: the character aliased `alias` (e.g. "c"; "" for an
 * unqualified table) is listed; with `showNsfw: false` also not NSFW. The
 * text matches the partial indexes of schema/db.ts (`is_active = 1`,
 * `is_active = 1 AND is_nsfw = 0`) so SQLite can use them.
 */
export function listedSql(alias: string, options: { showNsfw: boolean } = { showNsfw: true }): string {
  const a = alias ? `${alias}.` : "";
  return options.showNsfw ? `${a}${LISTED_COLUMN} = 1` : `${a}${LISTED_COLUMN} = 1 AND ${a}is_nsfw = 0`;
}

/**
 * SQL condition on a `character_tags` row aliased `alias`: its character is
 * listed (`is_listed`, the copy of `is_active` the triggers of
 * migrations/0001_catalog_search.sql keep), and not NSFW unless `showNsfw`.
 */
export function listedTagLinksSql(alias: string, options: { showNsfw: boolean }): string {
  return `${alias}.is_listed = 1${options.showNsfw ? "" : ` AND ${alias}.is_nsfw = 0`}`;
}

/**
 * SQL condition: the character aliased `alias` is visible to the viewer whose
 * id is the SQL expression `viewer` (a placeholder such as "?" or "?2"; a
 * NULL viewer is a visitor): listed, or theirs.
 */
export function visibleToSql(alias: string, viewer: string): string {
  const a = alias ? `${alias}.` : "";
  return `(${listedSql(alias)} OR ${a}creator_id = ${viewer})`;
}

/**
 * SQL condition: the viewer `viewer` may start a chat with (or add to a cast)
 * the character aliased `alias`: visible to them (visibleToSql) and not
 * removed by moderation — its creator still sees a removed character of
 * theirs, but it starts nothing (issue 42, docs/decisions/0025).
 */
export function chattableSql(alias: string, viewer: string): string {
  const a = alias ? `${alias}.` : "";
  return `(${visibleToSql(alias, viewer)} AND ${a}moderation_status != 'removed')`;
}

/** The same rule as visibleToSql for a character already read: listed, or `viewerId`'s own. */
export function isVisibleTo(character: { isActive: boolean; creatorId: string | null }, viewerId: string | null): boolean {
  return character.isActive || (viewerId !== null && character.creatorId === viewerId);
}

/**
 * The FTS5 condition (on `characters_fts.flags`, written by the triggers of
 * migrations/0004_search_v2.sql) of what a search must leave out: unlisted
 * characters (`inactive`), and NSFW ones unless `showNsfw`.
 */
export function hiddenSearchFlags(showNsfw: boolean): string {
  return showNsfw ? "flags : inactive" : "flags : (nsfw OR inactive)";
}
