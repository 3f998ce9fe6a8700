/**
 * The catalog list query, independent of the database driver: its orderings
 * and SQL plans (planList, planForYou, the creator and following scopes) and
 * its execution over any SqlBatch (queryCatalog). worker/lib/catalog.ts runs
 * it on D1; the benchmark on node:sqlite. Its parts: the rows and statement
 * types (catalog-rows.ts), tag filters and totals (catalog-tag-counts.ts),
 * search (catalog-search.ts); what is listed at all, worker/lib/listable.ts.
 *
 * The list is hand-written SQL because its plan matters at 10^6 characters
 * (see docs/decisions/0002-catalog-queries.md):
 * - without search it walks one of the partial sort indexes of schema/db.ts in
 *   order and stops after `offset + limit` rows, probing `character_tags` by
 *   primary key for each included tag (`tagMode=all`), once for any of them
 *   (`tagMode=any`) and once for the excluded tags (`excludeTags`); when the
 *   included tags are rare it starts from their index ranges instead (the
 *   rarest tag's under `all`, the union under `any`) and sorts the few rows;
 * - totals come from trigger-maintained counters (`catalog_counts`,
 *   `tags.count`/`sfw_count`, `tag_pairs`) when no search and at most two
 *   tags (included and excluded together) are given, by inclusion–exclusion
 *   (planTotal); otherwise from one counting query over the tags' own index
 *   ranges, never a scan of the catalog;
 * - search goes through FTS5 (`characters_fts`) with prefix terms and bm25
 *   ranking (name weighted above tags above description); tag modes and
 *   exclusions are `tag_keys` terms of the same FTS5 query;
 * - for a signed-in caller each page row carries `isFavorited`, probed after
 *   the page is picked (withFavorites), in the page's own statement.
 */
import type { CatalogCharacter, CatalogSort } from "../../schema/api.ts";
import type { CatalogQuery } from "../../schema/inputs.ts";
import { favoritedColumn, SUMMARY_COLUMNS, type SqlBatch, type Statement, toCatalogCharacter, withFavorites } from "./catalog-rows.ts";
import { querySearch, searchExpressions } from "./catalog-search.ts";
import {
  estimatedMatching,
  idList,
  includedRows,
  NO_TAGS,
  planTotal,
  positional,
  resolveTags,
  type TagFacts,
  type TagFilterNames,
  tagConditions,
  tagFilterNames,
} from "./catalog-tag-counts.ts";
import { listedSql, listedTagLinksSql } from "./listable.ts";

/** ORDER BY and the partial indexes (all / SFW-only) that serve each tab. */
const ORDERINGS: Record<CatalogSort, { orderBy: string; index: string; sfwIndex: string }> = {
  // for-you is personal once accounts and favorites exist; until then, and for
  // visitors, it is trending (DESIGN.md "Tabs").
  "for-you": {
    orderBy: "c.trending_score DESC, c.id DESC",
    index: "characters_trending_idx",
    sfwIndex: "characters_trending_sfw_idx",
  },
  trending: {
    orderBy: "c.trending_score DESC, c.id DESC",
    index: "characters_trending_idx",
    sfwIndex: "characters_trending_sfw_idx",
  },
  new: {
    orderBy: "c.created_at DESC, c.id DESC",
    index: "characters_new_idx",
    sfwIndex: "characters_new_sfw_idx",
  },
  popular: {
    orderBy: "c.favorite_count DESC, c.message_count DESC, c.id DESC",
    index: "characters_popular_idx",
    sfwIndex: "characters_popular_sfw_idx",
  },
};

/**
 * For You picks: below this many characters carrying the person's interest
 * tags, the picks start from those tags and sort; above it, they walk the
 * trending index.
 */
export const RARE_TAG_THRESHOLD = 5_000;

export interface ListOptions {
  /**
   * Forces the plan of tag-filtered lists and For You picks: start from the
   * rarest tag when it has at most this many characters, else walk the tab's
   * index (tests exercise both plans with it). Unset: chosen by cost.
   */
  rareTagThreshold?: number;
  /**
   * The signed-in person: `sort=for-you` is personal for them, and every row
   * carries their `isFavorited`.
   */
  userId?: string | null;
  /** Overrides SEARCH_RANK_LIMIT (tests exercise broad searches with it). */
  searchRankLimit?: number;
}

/** How many personal picks lead the for-you tab before it continues as trending. */
export const FOR_YOU_PICKS = 100;
/** How many of a person's most frequent tags define their interests. */
export const INTEREST_TAGS = 5;








/**
 * The walking plan's page with the tags given by name, so it can run in the
 * same round trip as the tag lookup; it is used when the lookup confirms
 * walking is the right plan (common tags — the usual case).
 */
function walkByTagNames(query: CatalogQuery, filter: TagFilterNames, userId: string | null | undefined): Statement {
  const showNsfw = query.showNsfw === "true";
  const ordering = ORDERINGS[query.sort];
  const params: unknown[] = [];
  const bind = positional(params);
  const byName = (names: string[]) =>
    `SELECT id FROM tags WHERE lower(name) IN (${names.map((n) => bind(n)).join(", ")})`;
  const conditions = tagConditions(filter, "c.id", byName);
  const page = {
    sql: `SELECT ${SUMMARY_COLUMNS}
      FROM characters c INDEXED BY ${showNsfw ? ordering.index : ordering.sfwIndex}
      WHERE ${listedSql("c", { showNsfw })}${conditions}
      ORDER BY ${ordering.orderBy} LIMIT ? OFFSET ?`,
    params: [...params, query.limit, query.offset],
  };
  return withFavorites(page, userId);
}


/**
 * Whether to start from the included tags' index range (and sort) rather
 * than walk the tab's index: walking visits about (offset + limit) × listed
 * / matching rows, one probe per included tag (`all`) or one in all (`any`),
 * plus one for the exclusions; starting from the tags visits their rows once
 * (the rarest tag's under `all`, every included tag's under `any`) and sorts
 * them. Exclusions alone never start from tags: they describe what is left
 * out, not where to look.
 */
function startFromTag(query: CatalogQuery, facts: TagFacts, matching: number, options: ListOptions): boolean {
  const tags = facts.tags ?? [];
  if (tags.length === 0) return false;
  const rows = includedRows(facts);
  if (options.rareTagThreshold !== undefined) return rows <= options.rareTagThreshold;
  const probes = (facts.mode === "any" ? 1 : tags.length) + (facts.excluded.length > 0 ? 1 : 0);
  const walk = ((query.offset + query.limit) * facts.listed * probes) / Math.max(matching, 1);
  return rows < walk;
}


/**
 * `FROM … WHERE …` of a list's candidate rows (alias `c`), without ORDER BY:
 * - walking the tab's partial index `index` in order (SQLite stops after
 *   `offset + limit` rows), each visited row probing the tag conditions;
 * - or starting from the included tags (`fromTags`): the rarest tag's range
 *   of `character_tags_tag_idx` (`all`), or the distinct characters of all
 *   included tags' ranges (`any`, CROSS JOIN so SQLite keeps that order of
 *   the loops), then the character by rowid; the caller sorts.
 */
function candidateRows(
  facts: TagFacts,
  showNsfw: boolean,
  index: string,
  fromTags: boolean,
  bind: (value: unknown) => string,
): string {
  const visible = listedSql("c", { showNsfw });
  const listedRows = listedTagLinksSql("r", { showNsfw });
  const tags = facts.tags ?? [];
  const filter = { include: tags, mode: facts.mode, exclude: facts.excluded };
  const ids = idList(bind);
  if (fromTags && tags.length > 0 && facts.mode === "any") {
    const union = `(SELECT DISTINCT r.character_id AS id FROM character_tags r WHERE r.tag_id IN (${ids(tags)}) AND ${listedRows})`;
    return `${union} m CROSS JOIN characters c WHERE c.id = m.id AND ${visible}${tagConditions(filter, "c.id", ids, "include")}`;
  }
  if (fromTags && tags.length > 0) {
    return `character_tags r JOIN characters c ON c.id = r.character_id
        WHERE r.tag_id = ${bind(tags[0]!.id)} AND ${listedRows} AND ${visible}${tagConditions(filter, "c.id", ids, "rarest")}`;
  }
  return `characters c INDEXED BY ${index} WHERE ${visible}${tagConditions(filter, "c.id", ids)}`;
}


/**
 * The statements that answer a list query (no search) once its tags are
 * resolved: the page (with `isFavorited` when `options.userId` is set), and
 * the total (a number when counters already know it).
 */
export function planList(
  query: CatalogQuery,
  facts: TagFacts,
  options: ListOptions = {},
): { page: Statement; total: Statement | number } {
  const showNsfw = query.showNsfw === "true";
  const ordering = ORDERINGS[query.sort];
  const total = planTotal(query, facts);
  const matching = typeof total === "number" ? total : estimatedMatching(facts);
  const params: unknown[] = [];
  const from = candidateRows(
    facts,
    showNsfw,
    showNsfw ? ordering.index : ordering.sfwIndex,
    startFromTag(query, facts, matching, options),
    positional(params),
  );
  const page = {
    sql: `SELECT ${SUMMARY_COLUMNS} FROM ${from} ORDER BY ${ordering.orderBy} LIMIT ? OFFSET ?`,
    params: [...params, query.limit, query.offset],
  };
  return { page: withFavorites(page, options.userId), total };
}


/**
 * `GET /api/characters`: one page of listable characters and the exact total.
 * Pages are stable: every ordering ends with the unique id. At most two round
 * trips: the tags (when filtering by tag), then page and total in one batch
 * (a signed-in person's For You included: planForYou is one statement).
 * With `options.userId` every character carries `isFavorited` (computed in
 * the page's statement); without it the field is absent.
 */
export async function queryCatalog(
  run: SqlBatch,
  query: CatalogQuery,
  options: ListOptions = {},
): Promise<{ characters: CatalogCharacter[]; total: number }> {
  if (query.creator !== undefined || query.following === "true") return queryScoped(run, query, options);
  if (query.search !== undefined) return querySearch(run, query, options);
  const filter = tagFilterNames(query);
  if (!filter) return { characters: [], total: 0 };
  const showNsfw = query.showNsfw === "true";
  const personal = query.sort === "for-you" && Boolean(options.userId);
  let facts: TagFacts = NO_TAGS;
  if (filter.include.length > 0 || filter.exclude.length > 0) {
    const speculate = !personal && options.rareTagThreshold === undefined;
    const walk = speculate ? walkByTagNames(query, filter, options.userId) : undefined;
    facts = await resolveTags(run, filter, showNsfw, walk);
    if (facts.tags === null) return { characters: [], total: 0 };
    if (facts.walkedPage) {
      const total = planTotal(query, facts);
      const matching = typeof total === "number" ? total : estimatedMatching(facts);
      if (!startFromTag(query, facts, matching, options)) {
        const characters = facts.walkedPage.map(toCatalogCharacter);
        if (typeof total === "number") return { characters, total };
        const [[counted] = []] = await run([total]);
        return { characters, total: Number(counted?.total ?? 0) };
      }
    }
  }
  const plan =
    personal && options.userId
      ? { page: planForYou(query, facts, options.userId, options), total: planTotal(query, facts) }
      : planList(query, facts, options);
  const statements = typeof plan.total === "number" ? [plan.page] : [plan.page, plan.total];
  const [rows = [], counted = []] = await run(statements);
  const total = typeof plan.total === "number" ? plan.total : Number(counted[0]?.total ?? 0);
  return { characters: rows.map(toCatalogCharacter), total };
}

/**
 * `sort=for-you` for a signed-in person (DESIGN.md "Tabs"), as one statement:
 * - interests: the most frequent tags (at most INTEREST_TAGS) among the
 *   characters they favorited or chatted with, with how many listable
 *   characters carry each;
 * - picks: up to FOR_YOU_PICKS listable characters carrying an interest tag,
 *   by trending — starting from those tags when they carry at most
 *   `rareTagThreshold` characters in all, else walking the trending index.
 *   Both plans are in the statement; the LIMIT of the one not chosen is 0,
 *   so SQLite never starts it;
 * - the page: the picks at `offset`, then every other character by trending
 *   (the plan planList would choose for trending: walking its index, or
 *   starting from the rarest tag filter), each part sliced with LIMIT/OFFSET
 *   so nothing larger than the picks is ever sorted.
 * The picks are a deterministic set, so pages never repeat or skip; a person
 * without history gets no picks (plain trending). The total is trending's
 * (planTotal). Rows carry `isFavorited`. Parameters are numbered (?1 the
 * user, ?2 the threshold, ?3 limit, ?4 offset, ?5… the ids of the tag
 * filter: included rarest first, then excluded) because several parts use them.
 */
function planForYou(query: CatalogQuery, facts: TagFacts, userId: string, options: ListOptions = {}): Statement {
  const showNsfw = query.showNsfw === "true";
  const visible = listedSql("c", { showNsfw });
  const tagStats = facts.tags ?? [];
  // The tag filter's ids are ?5, ?6, …: each id gets one number, used wherever the filter appears.
  const tagParams: unknown[] = [];
  const numbers = new Map<unknown, number>();
  const bind = (value: unknown) => {
    if (!numbers.has(value)) numbers.set(value, 5 + tagParams.push(value) - 1);
    return `?${numbers.get(value)}`;
  };
  const filter = { include: tagStats, mode: facts.mode, exclude: facts.excluded };
  const filters = tagConditions(filter, "c.id", idList(bind));
  const { orderBy, index, sfwIndex } = ORDERINGS.trending;
  const trendingIndex = showNsfw ? index : sfwIndex;
  const total = planTotal(query, facts);
  const matching = typeof total === "number" ? total : estimatedMatching(facts);
  // The rest as planList would find it for trending (same cost model).
  const restSource = candidateRows(
    facts,
    showNsfw,
    trendingIndex,
    startFromTag({ ...query, sort: "trending" }, facts, matching, options),
    bind,
  );
  return {
    sql: `WITH interest AS (
        SELECT ct.tag_id AS id, ${showNsfw ? "t.count" : "t.sfw_count"} AS listed
        FROM (SELECT character_id FROM favorites WHERE user_id = ?1
              UNION SELECT character_id FROM conversations WHERE user_id = ?1) mine
        JOIN character_tags ct ON ct.character_id = mine.character_id
        JOIN tags t ON t.id = ct.tag_id
        GROUP BY ct.tag_id ORDER BY count(*) DESC, ct.tag_id LIMIT ${INTEREST_TAGS}),
      from_tags AS (
        SELECT DISTINCT c.id, c.trending_score FROM character_tags p JOIN characters c ON c.id = p.character_id
        WHERE p.tag_id IN (SELECT id FROM interest) AND ${listedTagLinksSql("p", { showNsfw: true })} AND ${visible}${filters}
        ORDER BY ${orderBy}
        LIMIT (SELECT CASE WHEN total(listed) <= ?2 THEN ${FOR_YOU_PICKS} ELSE 0 END FROM interest)),
      walked AS (
        SELECT c.id, c.trending_score FROM characters c INDEXED BY ${trendingIndex}
        WHERE ${visible}${filters}
          AND EXISTS (SELECT 1 FROM character_tags p WHERE p.character_id = c.id AND p.tag_id IN (SELECT id FROM interest))
        ORDER BY ${orderBy}
        LIMIT (SELECT CASE WHEN total(listed) > ?2 AND count(*) > 0 THEN ${FOR_YOU_PICKS} ELSE 0 END FROM interest)),
      picks AS MATERIALIZED (SELECT id, trending_score FROM from_tags UNION ALL SELECT id, trending_score FROM walked),
      shown_picks AS MATERIALIZED (
        SELECT id, trending_score, 0 AS tier FROM picks ORDER BY trending_score DESC, id DESC LIMIT ?3 OFFSET ?4),
      shown_rest AS (
        SELECT c.id, c.trending_score, 1 AS tier FROM ${restSource} AND c.id NOT IN (SELECT id FROM picks)
        ORDER BY ${orderBy}
        LIMIT ?3 - (SELECT count(*) FROM shown_picks) OFFSET max(0, ?4 - (SELECT count(*) FROM picks))),
      shown AS (SELECT * FROM shown_picks UNION ALL SELECT * FROM shown_rest)
      SELECT ${SUMMARY_COLUMNS}${favoritedColumn("c.id", "?1")}
      FROM shown JOIN characters c ON c.id = shown.id
      ORDER BY shown.tier, ${orderBy}`,
    params: [userId, options.rareTagThreshold ?? RARE_TAG_THRESHOLD, query.limit, query.offset, ...tagParams],
  };
}

/**
 * `creator=` (one person's characters: their creator page) or else
 * `following=true` (the characters of everyone `options.userId` follows:
 * Home's Following tab; nothing without a user). Same visibility, tag
 * filters (`tagMode`, `excludeTags`), search and orderings as the catalog, over a small set: the
 * scope is one or a few creators, found through `characters_creator_idx`,
 * so the page sorts that set instead of walking a tab's index. A search
 * narrows it with the FTS5 expression of the catalog's search (which also
 * applies the tag and NSFW filters); pages are then in the tab's order, not
 * by relevance. Page and exact total in one round trip.
 */
async function queryScoped(
  run: SqlBatch,
  query: CatalogQuery,
  options: ListOptions,
): Promise<{ characters: CatalogCharacter[]; total: number }> {
  let scope: Statement;
  if (query.creator !== undefined) {
    scope = { sql: "c.creator_id = (SELECT id FROM users WHERE lower(username) = lower(?))", params: [query.creator] };
  } else if (options.userId) {
    scope = { sql: "c.creator_id IN (SELECT followee_id FROM follows WHERE follower_id = ?)", params: [options.userId] };
  } else {
    return { characters: [], total: 0 };
  }
  const conditions = [listedSql("c", { showNsfw: query.showNsfw === "true" }), scope.sql];
  const params: unknown[] = [...scope.params];
  const filter = tagFilterNames(query);
  if (!filter) return { characters: [], total: 0 };
  const carries = (names: string[]) => {
    params.push(...names);
    return `EXISTS (SELECT 1 FROM character_tags ct WHERE ct.character_id = c.id
      AND ct.tag_id IN (SELECT id FROM tags WHERE lower(name) IN (${names.map(() => "?").join(", ")})))`;
  };
  if (filter.mode === "any") conditions.push(carries(filter.include));
  else for (const tag of filter.include) conditions.push(carries([tag]));
  if (filter.exclude.length > 0) conditions.push(`NOT ${carries(filter.exclude)}`);
  if (query.search !== undefined) {
    const expressions = searchExpressions(query);
    if (!expressions) return { characters: [], total: 0 };
    conditions.push("c.id IN (SELECT rowid FROM characters_fts WHERE characters_fts MATCH ?)");
    params.push(expressions.all);
  }
  const where = conditions.join(" AND ");
  const page = withFavorites(
    {
      sql: `SELECT ${SUMMARY_COLUMNS} FROM characters c WHERE ${where}
        ORDER BY ${ORDERINGS[query.sort].orderBy} LIMIT ? OFFSET ?`,
      params: [...params, query.limit, query.offset],
    },
    options.userId,
  );
  const [rows = [], [counted] = []] = await run([page, { sql: `SELECT count(*) AS total FROM characters c WHERE ${where}`, params }]);
  return { characters: rows.map(toCatalogCharacter), total: Number(counted?.total ?? 0) };
}
