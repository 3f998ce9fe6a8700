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
import {
  type CatalogPlan,
  EMPTY_PLAN,
  favoritedColumn,
  type Row,
  SqlParams,
  SUMMARY_COLUMNS,
  type SqlBatch,
  toCatalogCharacter,
  type ViewerSql,
  viewerById,
  withFavorites,
} from "./catalog-rows.ts";
import { planSearch, searchExpressions } from "./catalog-search.ts";
import {
  type TagFilterSql,
  tagConditions,
  tagConditionsByName,
  tagFilterNames,
  tagFilterSql,
  totalStatement,
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
  /**
   * The viewer as SQL (overrides `userId`): e.g. the user of a session
   * looked up inside the statements, so the session costs no round trip of
   * its own. Rows then carry `isFavorited` (false for everything when the
   * expression is NULL: the caller drops the field for a visitor).
   */
  viewer?: ViewerSql | null;
  /** Overrides SEARCH_RANK_LIMIT (tests exercise broad searches with it). */
  searchRankLimit?: number;
}

/** How many personal picks lead the for-you tab before it continues as trending. */
export const FOR_YOU_PICKS = 100;
/** How many of a person's most frequent tags define their interests. */
export const INTEREST_TAGS = 5;

/** The viewer of `options` as SQL, or null for a visitor. */
function viewerOf(options: ListOptions): ViewerSql | null {
  if (options.viewer !== undefined) return options.viewer;
  return options.userId ? viewerById(options.userId) : null;
}

/** One slice of a list: SQL expressions for LIMIT and OFFSET and the `offset + limit` the cost model weighs. */
interface Slice {
  limit: string;
  offset: string;
  reach: string;
}

/**
 * The rows of a list in `sort`'s order as one SQL compound (no trailing
 * ORDER BY needed: each arm is ordered and at most one is non-empty), with
 * the select list `columns` and, optionally, one more condition `where` on
 * `c`. Two arms, chosen in SQL by the cost model:
 * - walking the tab's partial index in order (SQLite stops after
 *   `offset + limit` rows), each visited row probing the tag conditions —
 *   visiting about (offset + limit) × listed / matching rows with one probe
 *   per included tag (`all`) or one in all (`any`), plus one for exclusions;
 * - or starting from the included tags: the rarest tag's range of
 *   `character_tags_tag_idx` (`all`), or the distinct characters of all
 *   included tags' ranges (`any`, CROSS JOIN keeps that order of the loops),
 *   then the character by rowid, sorting the few rows — visiting the tags'
 *   rows once.
 * `probes`: the tag conditions as probes by id from a list of names
 * (tagConditions) or by joining the links' tag names (tagConditionsByName,
 * inside For You's statement). The cheaper arm gets the slice's LIMIT, the other LIMIT 0, so SQLite
 * never starts it; exclusions alone always walk (they describe what is left
 * out, not where to look). Nothing runs when the filter cannot match.
 */
function orderedRows(
  query: CatalogQuery,
  sort: CatalogSort,
  tags: TagFilterSql,
  params: SqlParams,
  columns: string,
  slice: Slice,
  options: ListOptions,
  where = "",
  probes: "ids" | "names" = "ids",
): string {
  const bind = params.bind;
  const conditions = (skip: "none" | "include" = "none") =>
    probes === "names" ? tagConditionsByName(tags.filter, "c.id", bind, skip) : tagConditions(tags.filter, "c.id", tags.ids, skip);
  const showNsfw = query.showNsfw === "true";
  const ordering = ORDERINGS[sort];
  const visible = listedSql("c", { showNsfw });
  const { filter } = tags;
  const extra = where ? ` AND ${where}` : "";
  const index = showNsfw ? ordering.index : ordering.sfwIndex;
  const walkRows = (limit: string) => `SELECT * FROM (SELECT ${columns} FROM characters c INDEXED BY ${index}
      WHERE ${visible}${conditions()}${extra}
      ORDER BY ${ordering.orderBy} LIMIT ${limit} OFFSET ${slice.offset})`;
  if (filter.include.length === 0) return walkRows(slice.limit);
  const probeCount = (filter.mode === "any" ? 1 : filter.include.length) + (filter.exclude.length > 0 ? 1 : 0);
  const walk =
    options.rareTagThreshold !== undefined
      ? `${tags.includedRows} > ${bind(options.rareTagThreshold)}`
      : `${tags.includedRows} >= (${slice.reach}) * 1.0 * ${tags.listed} * ${probeCount} / max(${tags.matching}, 1)`;
  const listedRows = listedTagLinksSql("r", { showNsfw });
  const fromTags =
    filter.mode === "any"
      ? `(SELECT DISTINCT r.character_id AS id FROM character_tags r WHERE r.tag_id IN (${tags.ids(filter.include)}) AND ${listedRows}) m
        CROSS JOIN characters c WHERE c.id = m.id AND ${visible}${conditions("include")}`
      : `character_tags r CROSS JOIN characters c
        WHERE r.tag_id = ${tags.rarestId} AND ${listedRows} AND c.id = r.character_id AND ${visible}${conditions()}`;
  return `${walkRows(`CASE WHEN ${tags.possible} AND ${walk} THEN ${slice.limit} ELSE 0 END`)}
    UNION ALL
    SELECT * FROM (SELECT ${columns} FROM ${fromTags}${extra}
      ORDER BY ${ordering.orderBy} LIMIT CASE WHEN ${tags.possible} AND NOT (${walk}) THEN ${slice.limit} ELSE 0 END OFFSET ${slice.offset})`;
}

/**
 * The statements of any `GET /api/characters` answer, run in one round trip
 * (one batch), and how to read their rows. Pages are stable: every ordering
 * ends with the unique id. With a viewer (`options.userId` or
 * `options.viewer`) every character carries `isFavorited`; without one the
 * field is absent.
 */
export function planCatalog(query: CatalogQuery, options: ListOptions = {}): CatalogPlan {
  const viewer = viewerOf(options);
  if (query.creator !== undefined || query.following === "true") return planScoped(query, viewer);
  if (query.search !== undefined) return planSearch(query, { viewer, searchRankLimit: options.searchRankLimit });
  const filter = tagFilterNames(query);
  if (!filter) return EMPTY_PLAN;
  const showNsfw = query.showNsfw === "true";
  const params = new SqlParams();
  const tags = tagFilterSql(filter, showNsfw, params);
  const user = viewer ? viewer(params.bind) : null;
  const slice = { limit: params.bind(query.limit), offset: params.bind(query.offset), reach: params.bind(query.offset + query.limit) };
  const page =
    query.sort === "for-you" && user !== null
      ? forYouSql(query, tags, user, params, options)
      : withFavorites(orderedRows(query, query.sort, tags, params, SUMMARY_COLUMNS, slice, options), user);
  const totalParams = new SqlParams();
  const total = totalStatement(tagFilterSql(filter, showNsfw, totalParams), showNsfw, totalParams);
  return {
    statements: [params.statement(page), total],
    read: readPageAndTotal,
  };
}

/** The answer of a plan whose statements are the page, then the total (column `total`). */
function readPageAndTotal(results: Row[][]): { characters: CatalogCharacter[]; total: number } {
  const [rows = [], totals = []] = results;
  return { characters: rows.map(toCatalogCharacter), total: Number(totals[0]?.total ?? 0) };
}

/**
 * `GET /api/characters`: one page of listable characters and the exact
 * total, in one round trip of `run` (planCatalog).
 */
export async function queryCatalog(
  run: SqlBatch,
  query: CatalogQuery,
  options: ListOptions = {},
): Promise<{ characters: CatalogCharacter[]; total: number }> {
  const plan = planCatalog(query, options);
  return plan.read(plan.statements.length > 0 ? await run(plan.statements) : []);
}

/**
 * `sort=for-you` for a signed-in person (DESIGN.md "Tabs"), as one statement
 * (`user` is the SQL of their id):
 * - interests: the most frequent tags (at most INTEREST_TAGS) among the
 *   characters they favorited or chatted with, with how many listable
 *   characters carry each;
 * - picks: up to FOR_YOU_PICKS listable characters carrying an interest tag,
 *   by trending — starting from those tags when they carry at most
 *   `rareTagThreshold` characters in all, else walking the trending index.
 *   Both plans are in the statement; the LIMIT of the one not chosen is 0,
 *   so SQLite never starts it;
 * - the page: the picks at `offset`, then every other character by trending
 *   (orderedRows for trending: walking its index, or starting from the
 *   included tags), each part sliced with LIMIT/OFFSET so nothing larger
 *   than the picks is ever sorted.
 * The picks are a deterministic set, so pages never repeat or skip; a person
 * without history gets no picks (plain trending). Rows carry `isFavorited`.
 */
function forYouSql(query: CatalogQuery, tags: TagFilterSql, user: string, params: SqlParams, options: ListOptions): string {
  const bind = params.bind;
  const showNsfw = query.showNsfw === "true";
  const visible = listedSql("c", { showNsfw });
  const filters = tagConditionsByName(tags.filter, "c.id", bind);
  const { orderBy, index, sfwIndex } = ORDERINGS.trending;
  const threshold = bind(options.rareTagThreshold ?? RARE_TAG_THRESHOLD);
  const limit = bind(query.limit);
  const offset = bind(query.offset);
  const rest = orderedRows(
    query,
    "trending",
    tags,
    params,
    "c.id, c.trending_score, 1 AS tier",
    {
      limit: `${limit} - (SELECT count(*) FROM shown_picks)`,
      offset: `max(0, ${offset} - (SELECT count(*) FROM picks))`,
      reach: `${offset} + ${limit}`,
    },
    options,
    "c.id NOT IN (SELECT id FROM picks)",
    "names",
  );
  return `WITH interest AS (
        SELECT ct.tag_id AS id, ${showNsfw ? "t.count" : "t.sfw_count"} AS listed
        FROM (SELECT character_id FROM favorites WHERE user_id = ${user}
              UNION SELECT character_id FROM conversations WHERE user_id = ${user}) mine
        JOIN character_tags ct ON ct.character_id = mine.character_id
        JOIN tags t ON t.id = ct.tag_id
        GROUP BY ct.tag_id ORDER BY count(*) DESC, ct.tag_id LIMIT ${INTEREST_TAGS}),
      from_tags AS (
        SELECT DISTINCT c.id, c.trending_score FROM character_tags p JOIN characters c ON c.id = p.character_id
        WHERE p.tag_id IN (SELECT id FROM interest) AND ${listedTagLinksSql("p", { showNsfw: true })} AND ${visible}${filters}
        ORDER BY ${orderBy}
        LIMIT (SELECT CASE WHEN ${tags.possible} AND total(listed) <= ${threshold} THEN ${FOR_YOU_PICKS} ELSE 0 END FROM interest)),
      walked AS (
        SELECT c.id, c.trending_score FROM characters c INDEXED BY ${showNsfw ? index : sfwIndex}
        WHERE ${visible}${filters}
          AND EXISTS (SELECT 1 FROM character_tags p WHERE p.character_id = c.id AND p.tag_id IN (SELECT id FROM interest))
        ORDER BY ${orderBy}
        LIMIT (SELECT CASE WHEN ${tags.possible} AND total(listed) > ${threshold} AND count(*) > 0 THEN ${FOR_YOU_PICKS} ELSE 0 END FROM interest)),
      picks AS MATERIALIZED (SELECT id, trending_score FROM from_tags UNION ALL SELECT id, trending_score FROM walked),
      shown_picks AS MATERIALIZED (
        SELECT id, trending_score, 0 AS tier FROM picks ORDER BY trending_score DESC, id DESC LIMIT ${limit} OFFSET ${offset}),
      shown_rest AS (${rest}),
      shown AS (SELECT id, tier FROM shown_picks UNION ALL SELECT id, tier FROM shown_rest)
      SELECT ${SUMMARY_COLUMNS}${favoritedColumn("c.id", user)}
      FROM shown JOIN characters c ON c.id = shown.id
      ORDER BY shown.tier, ${orderBy}`;
}

/**
 * `creator=` (one person's characters: their creator page) or else
 * `following=true` (the characters of everyone the viewer follows: Home's
 * Following tab; nothing without a viewer). Same visibility, tag filters
 * (`tagMode`, `excludeTags`), search and orderings as the catalog, over a
 * small set: the scope is one or a few creators, found through
 * `characters_creator_idx`, so the page sorts that set instead of walking a
 * tab's index. A search narrows it with the FTS5 expression of the
 * catalog's search (which also applies the tag and NSFW filters); pages are
 * then in the tab's order, not by relevance. Page and exact total in one
 * round trip.
 */
function planScoped(query: CatalogQuery, viewer: ViewerSql | null): CatalogPlan {
  const filter = tagFilterNames(query);
  if (!filter) return EMPTY_PLAN;
  if (query.creator === undefined && !viewer) return EMPTY_PLAN;
  const expressions = query.search !== undefined ? searchExpressions(query) : undefined;
  if (expressions === null) return EMPTY_PLAN;
  const where = (params: SqlParams) => {
    const bind = params.bind;
    const conditions = [
      listedSql("c", { showNsfw: query.showNsfw === "true" }),
      query.creator !== undefined
        ? `c.creator_id = (SELECT id FROM users WHERE lower(username) = lower(${bind(query.creator)}))`
        : `c.creator_id IN (SELECT followee_id FROM follows WHERE follower_id = ${viewer!(bind)})`,
    ];
    const carries = (names: string[]) => `EXISTS (SELECT 1 FROM character_tags ct WHERE ct.character_id = c.id
      AND ct.tag_id IN (SELECT id FROM tags WHERE lower(name) IN (${names.map(bind).join(", ")})))`;
    if (filter.mode === "any") conditions.push(carries(filter.include));
    else for (const tag of filter.include) conditions.push(carries([tag]));
    if (filter.exclude.length > 0) conditions.push(`NOT ${carries(filter.exclude)}`);
    if (expressions) conditions.push(`c.id IN (SELECT rowid FROM characters_fts WHERE characters_fts MATCH ${bind(expressions.all)})`);
    return conditions.join(" AND ");
  };
  const pageParams = new SqlParams();
  const user = viewer ? viewer(pageParams.bind) : null;
  const page = withFavorites(
    `SELECT ${SUMMARY_COLUMNS} FROM characters c WHERE ${where(pageParams)}
      ORDER BY ${ORDERINGS[query.sort].orderBy} LIMIT ${pageParams.bind(query.limit)} OFFSET ${pageParams.bind(query.offset)}`,
    user,
  );
  const countParams = new SqlParams();
  const count = countParams.statement(`SELECT count(*) AS total FROM characters c WHERE ${where(countParams)}`);
  return {
    statements: [pageParams.statement(page), count],
    read: readPageAndTotal,
  };
}
