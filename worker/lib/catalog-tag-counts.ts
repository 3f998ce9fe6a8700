/**
 * Tag filters and list totals, independent of the database driver: the
 * filter a query asks for (tagFilterNames), and its SQL with the tags given
 * by name (tagFilterSql) — the names are resolved inside the statements that
 * use them, so a tag-filtered list needs no round trip of its own to look its
 * tags up. Totals are O(1) from the counters the triggers of
 * migrations/0001_catalog_search.sql and 0003_tag_pairs.sql keep
 * (`catalog_counts`, `tags.count`/`sfw_count`, `tag_pairs`), which count
 * listed characters as worker/lib/listable.ts defines them.
 */
import type { TagMode } from "../../schema/constants.ts";
import type { CatalogQuery } from "../../schema/inputs.ts";
import type { SqlParams, Statement } from "./catalog-rows.ts";
import { listedTagLinksSql } from "./listable.ts";

/**
 * The tag filter of a list once its names are checked against each other
 * (tagFilterNames): the tags to include and how they combine, and the tags
 * to exclude. A tag both included and excluded never reaches here.
 */
export interface TagFilterNames {
  include: string[];
  /** `all`: a character carries every included tag; `any`: at least one. Always `all` below two tags. */
  mode: TagMode;
  exclude: string[];
}

/**
 * The filter a query asks for, or null when nothing can match it: with
 * `tagMode=all`, a tag both included and excluded; with `any`, included tags
 * that are all excluded (excluded ones are dropped from the included).
 */
export function tagFilterNames(query: CatalogQuery): TagFilterNames | null {
  const excluded = new Set(query.excludeTags);
  if (query.tagMode === "all" && query.tags.some((t) => excluded.has(t))) return null;
  const include = query.tags.filter((t) => !excluded.has(t));
  if (query.tags.length > 0 && include.length === 0) return null;
  return { include, mode: include.length > 1 ? query.tagMode : "all", exclude: query.excludeTags };
}

export const catalogCountStatement = (showNsfw: boolean): Statement => ({
  sql: "SELECT count AS total FROM catalog_counts WHERE key = ?",
  params: [showNsfw ? "all" : "sfw"],
});

/**
 * The conditions a row (its id is `outer`) must meet for a tag filter, as
 * ` AND …` SQL: each included tag a primary-key probe into `character_tags`
 * (`all`), or one probe for any of them (`any`); then one NOT EXISTS over the
 * character's rows for the excluded tags. `list` renders the inside of an
 * `IN (…)` for some tags (bound ids, or a subquery over names) and binds them.
 * `skip`: `include` leaves out the included tags (the plan starts from their
 * union and already meets them).
 */
export function tagConditions<T>(
  filter: { include: T[]; mode: TagMode; exclude: T[] },
  outer: string,
  list: (tags: T[]) => string,
  skip: "none" | "include" = "none",
): string {
  let sql = "";
  const probe = (alias: string, tags: T[]) =>
    `EXISTS (SELECT 1 FROM character_tags ${alias} WHERE ${alias}.character_id = ${outer} AND ${alias}.tag_id IN (${list(tags)}))`;
  if (skip !== "include" && filter.include.length > 0) {
    if (filter.mode === "any") sql += ` AND ${probe("ct", filter.include)}`;
    else for (const tag of filter.include) sql += ` AND ${probe("ct", [tag])}`;
  }
  if (filter.exclude.length > 0) sql += ` AND NOT ${probe("cx", filter.exclude)}`;
  return sql;
}

/**
 * `tagConditions` with the tags matched by name through a join on each of
 * the character's links (a few per character), for statements where an
 * `IN (SELECT id FROM tags …)` list inside the correlated probe would be
 * evaluated again for every visited row (For You's picks, next to the
 * `interest` CTE: measured 5–20× slower at 10^5 characters). `bind` binds
 * the names.
 */
export function tagConditionsByName(
  filter: TagFilterNames,
  outer: string,
  bind: (value: unknown) => string,
  skip: "none" | "include" = "none",
): string {
  const probe = (alias: string, names: string[]) =>
    `EXISTS (SELECT 1 FROM character_tags ${alias} JOIN tags ${alias}t ON ${alias}t.id = ${alias}.tag_id
      WHERE ${alias}.character_id = ${outer} AND lower(${alias}t.name) IN (${names.map(bind).join(", ")}))`;
  let sql = "";
  if (skip !== "include" && filter.include.length > 0) {
    if (filter.mode === "any") sql += ` AND ${probe("ct", filter.include)}`;
    else for (const name of filter.include) sql += ` AND ${probe("ct", [name])}`;
  }
  if (filter.exclude.length > 0) sql += ` AND NOT ${probe("cx", filter.exclude)}`;
  return sql;
}

/**
 * A tag filter as SQL over tag names (`tags_name_unique` on lower(name)
 * answers every lookup): each member is an SQL expression or fragment whose
 * parameters are bound through `params`. Nothing here runs a query; the
 * pieces go into the statements of catalog-list.ts.
 */
export interface TagFilterSql {
  filter: TagFilterNames;
  /** SQL boolean: the filter can match something (every included tag exists under `all`, one under `any`). */
  possible: string;
  /** The inside of `IN (…)`: the ids of some tags, by name. */
  ids: (names: string[]) => string;
  /** SQL scalar: the id of the included tag with the fewest listable characters (`all`). */
  rarestId: string;
  /** SQL scalar: rows a plan starting from the included tags reads (the rarest tag's under `all`, all of theirs under `any`). */
  includedRows: string;
  /** SQL scalar: listable characters in the whole catalog (same NSFW setting). */
  listed: string;
  /** The exact total as an SQL scalar when counters know it (at most two tags in all), else null. */
  counterTotal: string | null;
  /** SQL scalar: how many rows the filter probably matches, for the cost model. */
  matching: string;
}

/**
 * The SQL pieces of `filter` under the NSFW setting `showNsfw`. Counts of a
 * tag that does not exist are 0, which keeps the counter formulas exact (an
 * excluded tag that does not exist excludes nothing).
 */
export function tagFilterSql(filter: TagFilterNames, showNsfw: boolean, params: SqlParams): TagFilterSql {
  const bind = params.bind;
  const count = showNsfw ? "count" : "sfw_count";
  const names = (list: string[]) => list.map((n) => bind(n)).join(", ");
  const ids = (list: string[]) => `SELECT id FROM tags WHERE lower(name) IN (${names(list)})`;
  const tagCount = (name: string) => `coalesce((SELECT ${count} FROM tags WHERE lower(name) = ${bind(name)}), 0)`;
  const listed = `(SELECT count FROM catalog_counts WHERE key = ${bind(showNsfw ? "all" : "sfw")})`;
  const { include, exclude, mode } = filter;
  let possible = "1";
  if (include.length > 0) {
    const found = `(SELECT count(*) FROM tags WHERE lower(name) IN (${names(include)}))`;
    possible = mode === "all" ? `${found} = ${include.length}` : `${found} > 0`;
  }
  const includedRows =
    include.length === 0
      ? "0"
      : mode === "any"
        ? `(SELECT total(${count}) FROM tags WHERE lower(name) IN (${names(include)}))`
        : `(SELECT min(${count}) FROM tags WHERE lower(name) IN (${names(include)}))`;
  const rarestId = `(SELECT id FROM tags WHERE lower(name) IN (${names(include)}) ORDER BY ${count}, id LIMIT 1)`;
  const all = [...include, ...exclude];
  const pair = () => {
    const both = names(all);
    return `coalesce((SELECT p.${count} FROM tag_pairs p JOIN tags a ON a.id = p.tag_a JOIN tags b ON b.id = p.tag_b
      WHERE lower(a.name) IN (${both}) AND lower(b.name) IN (${both})), 0)`;
  };
  let counterTotal: string | null = null;
  const [i1, i2] = include;
  const [e1, e2] = exclude;
  if (all.length === 0) counterTotal = listed;
  else if (all.length === 1) counterTotal = i1 !== undefined ? tagCount(i1) : `${listed} - ${tagCount(e1!)}`;
  else if (all.length === 2) {
    if (i1 !== undefined && i2 !== undefined) counterTotal = mode === "any" ? `${tagCount(i1)} + ${tagCount(i2)} - ${pair()}` : pair();
    else if (e1 !== undefined && e2 !== undefined) counterTotal = `${listed} - ${tagCount(e1)} - ${tagCount(e2)} + ${pair()}`;
    else counterTotal = `${tagCount(i1!)} - ${pair()}`;
  }
  const matching = counterTotal ?? (include.length === 0 ? listed : `min(${listed}, ${includedRows})`);
  return { filter, possible, ids, rarestId, includedRows, listed, counterTotal, matching };
}

/**
 * The exact total of a list without search, as one statement (column
 * `total`): from the counters when at most two tags (included and excluded
 * together) are given, by inclusion–exclusion; otherwise one counting query
 * over the tags' own index ranges — under `all` the rarest tag's, under
 * `any` all included tags', or with only exclusions the catalog size minus
 * the distinct characters carrying an excluded tag. 0 when nothing can match.
 */
export function totalStatement(tags: TagFilterSql, showNsfw: boolean, params: SqlParams): Statement {
  const { filter } = tags;
  const listedRows = listedTagLinksSql("r", { showNsfw });
  let total: string;
  if (tags.counterTotal !== null) {
    total = `SELECT ${tags.counterTotal} AS total`;
  } else if (filter.include.length === 0) {
    total = `SELECT ${tags.listed} - count(DISTINCT r.character_id) AS total FROM character_tags r
      WHERE r.tag_id IN (${tags.ids(filter.exclude)}) AND ${listedRows}`;
  } else if (filter.mode === "any") {
    total = `SELECT count(DISTINCT r.character_id) AS total FROM character_tags r
      WHERE r.tag_id IN (${tags.ids(filter.include)}) AND ${listedRows}${tagConditions(filter, "r.character_id", tags.ids, "include")}`;
  } else {
    total = `SELECT count(*) AS total FROM character_tags r
      WHERE r.tag_id = ${tags.rarestId} AND ${listedRows}${tagConditions(filter, "r.character_id", tags.ids)}`;
  }
  return params.statement(`SELECT CASE WHEN ${tags.possible} THEN (${total}) ELSE 0 END AS total`);
}
