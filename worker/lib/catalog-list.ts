/**
 * The catalog list query, independent of the database driver: its SQL plan
 * (planList), its execution over any SqlBatch (queryCatalog) and the row
 * mappers. worker/lib/catalog.ts runs it on D1; the benchmark on node:sqlite.
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
import type { CatalogCharacter, CatalogSort, Character, CharacterSummary, ModerationStatus } from "../../schema/api.ts";
import type { TagMode } from "../../schema/constants.ts";
import type { CatalogQuery } from "../../schema/inputs.ts";

export type Row = Record<string, unknown>;

/** Columns of a list row as [SQL column, wire name]. */
const SUMMARY_FIELDS: [string, string][] = [
  ["id", "id"], ["name", "name"], ["description", "description"],
  ["long_description", "longDescription"], ["creator", "creator"], ["creator_id", "creatorId"],
  ["avatar_url", "avatarUrl"], ["tags", "tags"], ["is_nsfw", "isNsfw"], ["is_active", "isActive"],
  ["view_count", "viewCount"], ["rating", "rating"], ["favorite_count", "favoriteCount"],
  ["message_count", "messageCount"], ["comment_count", "commentCount"], ["personality", "personality"],
  ["scenario", "scenario"], ["example_conversation", "exampleConversation"], ["greeting", "greeting"],
  ["created_at", "createdAt"],
];
export const DETAIL_FIELDS: [string, string][] = [
  ...SUMMARY_FIELDS,
  ["alternate_greetings", "alternateGreetings"], ["system_prompt", "systemPrompt"],
  ["post_history_instructions", "postHistoryInstructions"], ["creator_notes", "creatorNotes"],
  ["character_book", "characterBook"], ["extensions", "extensions"], ["rating_up", "ratingUp"],
  ["rating_down", "ratingDown"], ["updated_at", "updatedAt"], ["moderation_status", "moderationStatus"],
];
/**
 * The select list of `fields` (`prefix` qualifies the columns, e.g. "c.").
 * Lists that carry `creator_id` also carry `creatorUsername`: the owner's
 * username, one primary-key probe of `users` per returned row.
 */
export const selectList = (fields: [string, string][], prefix: string) =>
  [
    ...fields.map(([column, alias]) => `${prefix}${column} AS ${alias}`),
    ...(fields.some(([column]) => column === "creator_id")
      ? [`(SELECT u.username FROM users u WHERE u.id = ${prefix}creator_id) AS creatorUsername`]
      : []),
  ].join(", ");

export const SUMMARY_COLUMNS = selectList(SUMMARY_FIELDS, "c.");
export const DETAIL_COLUMNS = selectList(DETAIL_FIELDS, "c.");

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
 * Words too common to narrow a search; dropped when the search has other words.
 * (A search made only of them still runs.)
 */
const STOPWORDS = new Set(
  "a an and are as at be but by for from has have he her his i in is it its of on or she so that the their them they this to was we were who with you your".split(" "),
);

/** Most words of a search that are used. */
const MAX_SEARCH_TERMS = 12;

/**
 * The words of whatever a person typed: every run of letters or digits, in
 * order, without duplicates and (when others remain) without stopwords.
 * Quotes, stars, parentheses, operators and column filters typed by a person
 * are separators, never FTS5 syntax.
 */
export function searchTerms(search: string): string[] {
  const words = [...new Set((search.normalize("NFKC").match(/[\p{L}\p{N}]+/gu) ?? []).map((w) => w.toLowerCase()))];
  const meaningful = words.filter((w) => !STOPWORDS.has(w));
  return (meaningful.length > 0 ? meaningful : words).slice(0, MAX_SEARCH_TERMS);
}

/**
 * FTS5 query for the typed words: each a quoted prefix term, all required,
 * matched in name, description or tags only (never the filter columns).
 * Null when no word is left.
 */
export function toFtsQuery(search: string): string | null {
  const terms = searchTerms(search);
  if (terms.length === 0) return null;
  return `{name description tags} : (${terms.map((t) => `"${t}"*`).join(" AND ")})`;
}

/**
 * The single token under which a tag is indexed in `characters_fts.tag_keys`:
 * the tag name with spaces, dashes, apostrophes, "&" and "+" turned into "_"
 * (the same expression as the triggers of migrations/0004_search_v2.sql).
 * Null for a name no tag can have.
 */
export function tagKey(name: string): string | null {
  const key = name.replace(/[-' &+]/g, "_");
  return /^[\p{L}\p{N}_]+$/u.test(key) ? key : null;
}

export function toSummary(row: Row): CharacterSummary {
  return {
    id: Number(row.id),
    name: String(row.name),
    description: String(row.description),
    longDescription: (row.longDescription as string | null) ?? null,
    creator: String(row.creator),
    creatorId: (row.creatorId as string | null) ?? null,
    creatorUsername: (row.creatorUsername as string | null) ?? null,
    avatarUrl: (row.avatarUrl as string | null) ?? null,
    tags: parseJson<string[]>(row.tags, []),
    isNsfw: Boolean(row.isNsfw),
    isActive: Boolean(row.isActive),
    viewCount: Number(row.viewCount),
    rating: Number(row.rating),
    favoriteCount: Number(row.favoriteCount),
    messageCount: Number(row.messageCount),
    commentCount: Number(row.commentCount),
    personality: String(row.personality),
    scenario: (row.scenario as string | null) ?? null,
    exampleConversation: (row.exampleConversation as string | null) ?? null,
    greeting: (row.greeting as string | null) ?? null,
    createdAt: new Date(Number(row.createdAt)).toISOString(),
  };
}

/**
 * A list row as the catalog returns it: the summary, plus `isFavorited` when
 * the statement computed it (withFavorites, signed-in callers only).
 */
export function toCatalogCharacter(row: Row): CatalogCharacter {
  const summary: CatalogCharacter = toSummary(row);
  if (row.isFavorited !== undefined) summary.isFavorited = Boolean(row.isFavorited);
  return summary;
}

export function toCharacter(row: Row): Character {
  return {
    ...toSummary(row),
    alternateGreetings: parseJson<string[]>(row.alternateGreetings, []),
    systemPrompt: (row.systemPrompt as string | null) ?? null,
    postHistoryInstructions: (row.postHistoryInstructions as string | null) ?? null,
    creatorNotes: (row.creatorNotes as string | null) ?? null,
    characterBook: parseJson<Record<string, unknown> | null>(row.characterBook, null),
    extensions: parseJson<Record<string, unknown>>(row.extensions, {}),
    ratingUp: Number(row.ratingUp),
    ratingDown: Number(row.ratingDown),
    updatedAt: new Date(Number(row.updatedAt)).toISOString(),
    moderationStatus: toModerationStatus(row.moderationStatus),
  };
}

/** `characters.moderation_status` as the wire has it (`ok` for anything unexpected). */
export function toModerationStatus(value: unknown): ModerationStatus {
  return value === "flagged" || value === "removed" ? value : "ok";
}

function parseJson<T>(value: unknown, fallback: T): T {
  if (typeof value !== "string") return fallback;
  try {
    return JSON.parse(value) as T;
  } catch {
    return fallback;
  }
}

interface TagStat {
  id: number;
  /** The name as requested (lower case). */
  name: string;
  /** Listable characters with the tag under the requested NSFW setting. */
  count: number;
}

/** One SQL statement with its positional parameters. */
export interface Statement {
  sql: string;
  params: unknown[];
}

/**
 * Runs statements in order in one round trip and returns each one's rows.
 * D1's `batch()` in the Worker (catalog.ts); node:sqlite in the benchmark,
 * which times the very same SQL directly on the database file
 * (scripts/bench-catalog.ts). This module therefore uses no Workers types.
 */
export type SqlBatch = (statements: Statement[]) => Promise<Row[][]>;

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
interface TagFacts {
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

const NO_TAGS: TagFacts = { tags: [], mode: "all", excluded: [], listed: 0, pairCount: null };

const catalogCountStatement = (showNsfw: boolean): Statement => ({
  sql: "SELECT count AS total FROM catalog_counts WHERE key = ?",
  params: [showNsfw ? "all" : "sfw"],
});

/** The `isFavorited` result column for the character id `id`; `user` is the placeholder of the user id. */
const favoritedColumn = (id: string, user = "?") =>
  `, EXISTS (SELECT 1 FROM favorites f WHERE f.user_id = ${user} AND f.character_id = ${id}) AS isFavorited`;

/**
 * A page statement whose rows also carry `isFavorited` (0/1) for `userId`;
 * the statement itself without a user. The page stays a subquery with its
 * own plan, ORDER BY, LIMIT and OFFSET, so its rows are picked first and
 * only those (at most `limit`) each probe the unique index on favorites
 * (user_id, character_id) — a sort over many candidates never pays for the
 * probe. SQLite runs such a subquery as a co-routine and the outer query,
 * having no ORDER BY of its own, keeps its order. One statement, so no
 * extra round trip.
 */
export function withFavorites(page: Statement, userId: string | null | undefined): Statement {
  if (!userId) return page;
  return {
    sql: `SELECT page.*${favoritedColumn("page.id")} FROM (${page.sql}) page`,
    params: [userId, ...page.params],
  };
}

/**
 * Looks up the requested tags (included and excluded), the catalog size and
 * (for two tags in all) the pair counter in one round trip.
 */
async function resolveTags(run: SqlBatch, filter: TagFilterNames, showNsfw: boolean, walk?: Statement): Promise<TagFacts> {
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
function tagConditions<T>(
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
const idList = (bind: (value: unknown) => string) => (tags: TagStat[]) => tags.map((t) => bind(t.id)).join(", ");

/** Positional placeholders: each call records `value` in `params` and returns "?". */
const positional = (params: unknown[]) => (value: unknown) => (params.push(value), "?");

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
      WHERE ${showNsfw ? "c.is_active = 1" : "c.is_active = 1 AND c.is_nsfw = 0"}${conditions}
      ORDER BY ${ordering.orderBy} LIMIT ? OFFSET ?`,
    params: [...params, query.limit, query.offset],
  };
  return withFavorites(page, userId);
}

/** Rows a plan starting from the included tags reads: the rarest tag's (`all`) or all of theirs (`any`). */
function includedRows(facts: TagFacts): number {
  const tags = facts.tags ?? [];
  if (tags.length === 0) return 0;
  return facts.mode === "any" ? tags.reduce((sum, t) => sum + t.count, 0) : tags[0]!.count;
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
function planTotal(query: CatalogQuery, facts: TagFacts): Statement | number {
  const showNsfw = query.showNsfw === "true";
  const listedRows = `r.is_listed = 1${showNsfw ? "" : " AND r.is_nsfw = 0"}`;
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
  const visible = showNsfw ? "c.is_active = 1" : "c.is_active = 1 AND c.is_nsfw = 0";
  const listedRows = `r.is_listed = 1${showNsfw ? "" : " AND r.is_nsfw = 0"}`;
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

/** How many rows a list's filter probably matches, for the cost model when no counter knows it. */
function estimatedMatching(facts: TagFacts): number {
  const tags = facts.tags ?? [];
  if (tags.length === 0) return facts.listed;
  return Math.min(facts.listed, includedRows(facts));
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
 * Up to this many matches a search is ordered purely by bm25 (computing it
 * costs 1–6 µs per match at 10^6 characters, more with tag filters). Broader searches put the
 * characters whose name or tags match first — by bm25 while there are at most
 * this many of them — and the rest newest first.
 */
export const SEARCH_RANK_LIMIT = 2_000;

/**
 * The FTS5 expressions of a search: all matches, and those matching in name
 * or tags. Included tags are `tag_keys` terms (each required under `all`, one
 * of them under `any`); excluded tags join the hidden flags after `NOT`, so
 * the index alone answers the whole filter. Null when nothing can match.
 */
export function searchExpressions(query: CatalogQuery): { all: string; nameOrTags: string } | null {
  const terms = searchTerms(query.search ?? "");
  const filter = tagFilterNames(query);
  if (terms.length === 0 || !filter) return null;
  const keys = filter.include.map(tagKey);
  const known = keys.filter((k) => k !== null);
  if (filter.mode === "all" ? known.length < keys.length : keys.length > 0 && known.length === 0) return null;
  const quoted = (list: string[]) => list.map((k) => `"${k}"`).join(" OR ");
  const words = `{name description tags} : (${terms.map((t) => `"${t}"*`).join(" AND ")})`;
  const tags =
    filter.mode === "any" ? ` AND (tag_keys : (${quoted(known)}))` : known.map((k) => ` AND (tag_keys : "${k}")`).join("");
  const excluded = filter.exclude.map(tagKey).filter((k) => k !== null);
  const flags = query.showNsfw === "true" ? "flags : inactive" : "flags : (nsfw OR inactive)";
  const hidden = excluded.length > 0 ? `(${flags}) OR (tag_keys : (${quoted(excluded)}))` : flags;
  return {
    all: `((${words})${tags}) NOT (${hidden})`,
    nameOrTags: `{name tags} : (${terms.map((t) => `"${t}"*`).join(" OR ")})`,
  };
}

const ftsCount = (match: string): Statement => ({
  sql: "SELECT count(*) AS total FROM characters_fts WHERE characters_fts MATCH ?",
  params: [match],
});

/**
 * A slice of FTS matches joined to their characters, by bm25 or newest
 * first, with `isFavorited` when `userId` is set. The probe sits in this
 * statement's own select list (at most `limit` rows reach it): wrapping it
 * like withFavorites would put its ORDER BY, which has no LIMIT, in a subquery.
 */
function ftsPage(match: string, by: "rank" | "newest", limit: number, offset: number, userId: string | null | undefined): Statement {
  const order = by === "rank" ? "rank, rowid DESC" : "rowid DESC";
  const favorited = userId ? favoritedColumn("c.id") : "";
  return {
    sql: `SELECT ${SUMMARY_COLUMNS}${favorited} FROM (
        SELECT rowid AS id, ${by === "rank" ? "rank" : "0"} AS score FROM characters_fts
        WHERE characters_fts MATCH ? ORDER BY ${order} LIMIT ? OFFSET ?) m
      JOIN characters c ON c.id = m.id ORDER BY ${by === "rank" ? "m.score, m.id DESC" : "m.id DESC"}`,
    params: userId ? [userId, match, limit, offset] : [match, limit, offset],
  };
}

/**
 * `search=`: every listable character whose name, description or tags contain
 * all the words (as prefixes), with the tag filters, from the FTS5 index alone.
 * Two round trips: the counts, then the page.
 */
async function querySearch(
  run: SqlBatch,
  query: CatalogQuery,
  options: ListOptions,
): Promise<{ characters: CatalogCharacter[]; total: number }> {
  const rankLimit = options.searchRankLimit ?? SEARCH_RANK_LIMIT;
  const expressions = searchExpressions(query);
  if (!expressions) return { characters: [], total: 0 };
  const nameOrTagsMatch = `(${expressions.all}) AND (${expressions.nameOrTags})`;
  const restMatch = `(${expressions.all}) NOT (${expressions.nameOrTags})`;
  const [[all] = [], [first] = []] = await run([ftsCount(expressions.all), ftsCount(nameOrTagsMatch)]);
  const total = Number(all?.total ?? 0);
  const { offset, limit } = query;
  if (total === 0 || offset >= total) return { characters: [], total };
  if (total <= rankLimit) {
    const [rows = []] = await run([ftsPage(expressions.all, "rank", limit, offset, options.userId)]);
    return { characters: rows.map(toCatalogCharacter), total };
  }
  // Broad search: name/tag matches first, then the rest newest first.
  const firstCount = Number(first?.total ?? 0);
  const statements: Statement[] = [];
  if (offset < firstCount) {
    const by = firstCount <= rankLimit ? "rank" : "newest";
    statements.push(ftsPage(nameOrTagsMatch, by, Math.min(limit, firstCount - offset), offset, options.userId));
  }
  if (offset + limit > firstCount) {
    const restOffset = Math.max(0, offset - firstCount);
    statements.push(ftsPage(restMatch, "newest", limit - Math.max(0, firstCount - offset), restOffset, options.userId));
  }
  const pages = await run(statements);
  return { characters: pages.flat().map(toCatalogCharacter), total };
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
  const visible = showNsfw ? "c.is_active = 1" : "c.is_active = 1 AND c.is_nsfw = 0";
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
        WHERE p.tag_id IN (SELECT id FROM interest) AND p.is_listed = 1 AND ${visible}${filters}
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
  const conditions = [query.showNsfw === "true" ? "c.is_active = 1" : "c.is_active = 1 AND c.is_nsfw = 0", scope.sql];
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
