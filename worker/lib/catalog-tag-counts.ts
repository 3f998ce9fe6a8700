/**
 * Tag filters and list totals, independent of the database driver: the
 * filter a query asks for (tagFilterNames), the first round trip that looks
 * its tags up with the catalog size and pair counter (resolveTags), the
 * conditions a row must meet (tagConditions), and the exact total of a list
 * without search (planTotal) — O(1) from the counters the triggers of
 * migrations/0001_catalog_search.sql and 0003_tag_pairs.sql keep
 * (`catalog_counts`, `tags.count`/`sfw_count`, `tag_pairs`), which count
 * listed characters as worker/lib/listable.ts defines them.
 */
import type { TagMode } from "../../schema/constants.ts";
import type { CatalogQuery } from "../../schema/inputs.ts";
import type { Row, SqlBatch, Statement } from "./catalog-rows.ts";
import { listedTagLinksSql } from "./listable.ts";

export interface TagStat {
  id: number;
  /** The name as requested (lower case). */
  name: string;
  /** Listable characters with the tag under the requested NSFW setting. */
  count: number;
}

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

/** What the first round trip of a tag-filtered list learns. */
export interface TagFacts {
  /**
   * The included tags that exist, rarest first; null when nothing can match
   * (an included tag does not exist under `all`, none exists under `any`).
   */
  tags: TagStat[] | null;
  /** How the included tags combine. */
  mode: TagMode;
  /** The excluded tags that exist (one that does not excludes nothing). */
  excluded: TagStat[];
  /** Listable characters in the whole catalog (same NSFW setting). */
  listed: number;
  /**
   * Listable characters carrying both tags, when exactly two tags (included
   * and excluded together) were requested.
   */
  pairCount: number | null;
  /** Rows of the walking plan, when it was run speculatively in the same round trip. */
  walkedPage?: Row[];
}

export const NO_TAGS: TagFacts = { tags: [], mode: "all", excluded: [], listed: 0, pairCount: null };

export const catalogCountStatement = (showNsfw: boolean): Statement => ({
  sql: "SELECT count AS total FROM catalog_counts WHERE key = ?",
  params: [showNsfw ? "all" : "sfw"],
});

/**
 * Looks up the requested tags (included and excluded), the catalog size and
 * (for two tags in all) the pair counter in one round trip.
 */
export async function resolveTags(run: SqlBatch, filter: TagFilterNames, showNsfw: boolean, walk?: Statement): Promise<TagFacts> {
  const names = [...filter.include, ...filter.exclude];
  const placeholders = names.map(() => "?").join(", ");
  const statements: Statement[] = [
    {
      sql: `SELECT id, lower(name) AS name, count, sfw_count AS sfwCount FROM tags WHERE lower(name) IN (${placeholders})`,
      params: names,
    },
    catalogCountStatement(showNsfw),
  ];
  if (names.length === 2) {
    statements.push({
      sql: `SELECT p.count, p.sfw_count AS sfwCount FROM tag_pairs p
        JOIN tags a ON a.id = p.tag_a JOIN tags b ON b.id = p.tag_b
        WHERE lower(a.name) IN (?, ?) AND lower(b.name) IN (?, ?)`,
      params: [...names, ...names],
    });
  }
  if (walk) statements.push(walk);
  const results = await run(statements);
  const [rows = [], [catalog] = []] = results;
  const pairRows = names.length === 2 ? results[2] : undefined;
  const walkedPage = walk ? results[results.length - 1] : undefined;
  const listed = Number(catalog?.total ?? 0);
  const pair = pairRows?.[0];
  const pairCount = names.length === 2 ? Number((showNsfw ? pair?.count : pair?.sfwCount) ?? 0) : null;
  const found = new Map(
    rows.map((t) => [String(t.name), { id: Number(t.id), name: String(t.name), count: Number(showNsfw ? t.count : t.sfwCount) }]),
  );
  const pick = (list: string[]) => list.flatMap((n) => found.get(n) ?? []).sort((a, b) => a.count - b.count);
  const tags = pick(filter.include);
  const missing = tags.length < filter.include.length;
  const nothing = filter.include.length > 0 && (filter.mode === "all" ? missing : tags.length === 0);
  const excluded = pick(filter.exclude);
  // A pair counter only describes the filter when both of its tags exist.
  const exact = tags.length + excluded.length === names.length;
  return {
    tags: nothing ? null : tags,
    mode: tags.length > 1 ? filter.mode : "all",
    excluded,
    listed,
    pairCount: exact ? pairCount : null,
    walkedPage,
  };
}

/**
 * The conditions a row (its id is `outer`) must meet for a tag filter, as
 * ` AND …` SQL: each included tag a primary-key probe into `character_tags`
 * (`all`), or one probe for any of them (`any`); then one NOT EXISTS over the
 * character's rows for the excluded tags. `list` renders the inside of an
 * `IN (…)` for some tags (bound ids, or a subquery over names) and binds them.
 * `skip`: `rarest` leaves out the first included tag (the plan starts from
 * its range), `include` all included tags (the plan starts from their union).
 */
export function tagConditions<T>(
  filter: { include: T[]; mode: TagMode; exclude: T[] },
  outer: string,
  list: (tags: T[]) => string,
  skip: "none" | "rarest" | "include" = "none",
): string {
  let sql = "";
  const probe = (alias: string, tags: T[]) =>
    `EXISTS (SELECT 1 FROM character_tags ${alias} WHERE ${alias}.character_id = ${outer} AND ${alias}.tag_id IN (${list(tags)}))`;
  if (skip !== "include" && filter.include.length > 0) {
    if (filter.mode === "any") sql += ` AND ${probe("ct", filter.include)}`;
    else for (const tag of filter.include.slice(skip === "rarest" ? 1 : 0)) sql += ` AND ${probe("ct", [tag])}`;
  }
  if (filter.exclude.length > 0) sql += ` AND NOT ${probe("cx", filter.exclude)}`;
  return sql;
}

/** The bound ids of some tags, as the inside of `IN (…)`; `bind` records each value and returns its placeholder. */
export const idList = (bind: (value: unknown) => string) => (tags: TagStat[]) => tags.map((t) => bind(t.id)).join(", ");

/** Positional placeholders: each call records `value` in `params` and returns "?". */
export const positional = (params: unknown[]) => (value: unknown) => (params.push(value), "?");

/** Rows a plan starting from the included tags reads: the rarest tag's (`all`) or all of theirs (`any`). */
export function includedRows(facts: TagFacts): number {
  const tags = facts.tags ?? [];
  if (tags.length === 0) return 0;
  return facts.mode === "any" ? tags.reduce((sum, t) => sum + t.count, 0) : tags[0]!.count;
}

/**
 * The exact total of a list (no search). O(1) from the trigger-maintained
 * counters whenever at most two tags are involved, by inclusion–exclusion
 * over `tags` and `tag_pairs` (I included, E excluded, L the catalog):
 *   none: L;  I: I;  I ∧ J: pair(I, J);  I ∨ J: I + J − pair(I, J);
 *   ¬E: L − E;  ¬E ∧ ¬F: L − E − F + pair(E, F);  I ∧ ¬E: I − pair(I, E).
 * Otherwise one counting statement that reads only the tags' own index
 * ranges, never the catalog: from the rarest included tag (`all`), from the
 * union of the included tags (`any`), or, with exclusions only, the catalog
 * size minus the distinct characters carrying an excluded tag.
 */
export function planTotal(query: CatalogQuery, facts: TagFacts): Statement | number {
  const showNsfw = query.showNsfw === "true";
  const listedRows = listedTagLinksSql("r", { showNsfw });
  const tags = facts.tags ?? [];
  const excluded = facts.excluded;
  const pair = facts.pairCount;
  const [rarest, second] = tags;
  const [e1, e2] = excluded;
  if (!rarest && !e1) return catalogCountStatement(showNsfw);
  if (pair !== null) {
    if (rarest && second && !e1) return facts.mode === "any" ? rarest.count + second.count - pair : pair;
    if (e1 && e2 && !rarest) return facts.listed - e1.count - e2.count + pair;
    if (rarest && e1 && !second && !e2) return rarest.count - pair;
  }
  if (!second && !e1) return rarest!.count;
  if (!rarest && !e2) return facts.listed - e1!.count;
  const params: unknown[] = [];
  const bind = positional(params);
  const ids = idList(bind);
  if (!rarest) {
    const sql = `SELECT ${bind(facts.listed)} - count(DISTINCT r.character_id) AS total FROM character_tags r
      WHERE r.tag_id IN (${ids(excluded)}) AND ${listedRows}`;
    return { sql, params };
  }
  const filter = { include: tags, mode: facts.mode, exclude: excluded };
  const sql =
    facts.mode === "any"
      ? `SELECT count(DISTINCT r.character_id) AS total FROM character_tags r
        WHERE r.tag_id IN (${ids(tags)}) AND ${listedRows}${tagConditions(filter, "r.character_id", ids, "include")}`
      : `SELECT count(*) AS total FROM character_tags r
        WHERE r.tag_id = ${bind(rarest.id)} AND ${listedRows}${tagConditions(filter, "r.character_id", ids, "rarest")}`;
  return { sql, params };
}

/** How many rows a list's filter probably matches, for the cost model when no counter knows it. */
export function estimatedMatching(facts: TagFacts): number {
  const tags = facts.tags ?? [];
  if (tags.length === 0) return facts.listed;
  return Math.min(facts.listed, includedRows(facts));
}
