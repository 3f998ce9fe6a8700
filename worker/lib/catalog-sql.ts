/**
 * The catalog list query, independent of the database driver: its SQL plan
 * (planList), its execution over any SqlBatch (queryCatalog) and the row
 * mappers. worker/lib/catalog.ts runs it on D1; the benchmark on node:sqlite.
 *
 * The list is hand-written SQL because its plan matters at 10^6 characters
 * (see docs/decisions/0002-catalog-queries.md):
 * - without search it walks one of the partial sort indexes of schema/db.ts in
 *   order and stops after `offset + limit` rows, probing `character_tags` by
 *   primary key for each tag filter; when the rarest requested tag is rare it
 *   starts from that tag's index range instead and sorts the few rows;
 * - totals come from trigger-maintained counters (`catalog_counts`,
 *   `tags.count`/`sfw_count`) when no search and at most one tag is given,
 *   otherwise from one counting query that starts at the rarest tag;
 * - search goes through FTS5 (`characters_fts`) with prefix terms and bm25
 *   ranking (name weighted above tags above description).
 */
import type { CatalogSort, Character, CharacterSummary } from "../../schema/api.ts";
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
  ["rating_down", "ratingDown"], ["updated_at", "updatedAt"],
];
export const selectList = (fields: [string, string][], prefix: string) =>
  fields.map(([column, alias]) => `${prefix}${column} AS ${alias}`).join(", ");

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
 * Below this many listable characters carrying the rarest requested tag, the
 * list starts from that tag and sorts; above it, it walks the sort index.
 * Walking visits about offset+limit / (share of characters with the tag) rows.
 */
export const RARE_TAG_THRESHOLD = 5_000;

export interface ListOptions {
  /** Overrides RARE_TAG_THRESHOLD (tests exercise both plans with it). */
  rareTagThreshold?: number;
  /** The signed-in person, for whom `sort=for-you` is personal. */
  userId?: string | null;
  /** Character ids left out of the page (the for-you picks shown before it). */
  exclude?: number[];
}

/** How many personal picks lead the for-you tab before it continues as trending. */
export const FOR_YOU_PICKS = 100;
/** How many of a person's most frequent tags define their interests. */
export const INTEREST_TAGS = 5;

/**
 * Turns whatever a person typed into a safe FTS5 query: every run of letters
 * or digits becomes a quoted prefix term ("word"*), all of them required.
 * Quotes, stars, parentheses, operators and column filters typed by a person
 * are therefore plain separators, never syntax. Returns null when no term is left.
 */
export function toFtsQuery(search: string): string | null {
  const terms = search.normalize("NFKC").match(/[\p{L}\p{N}]+/gu) ?? [];
  if (terms.length === 0) return null;
  return terms
    .slice(0, 12)
    .map((term) => `"${term}"*`)
    .join(" ");
}

export function toSummary(row: Row): CharacterSummary {
  return {
    id: Number(row.id),
    name: String(row.name),
    description: String(row.description),
    longDescription: (row.longDescription as string | null) ?? null,
    creator: String(row.creator),
    creatorId: (row.creatorId as string | null) ?? null,
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
  };
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
 * Looks up the requested tags; null when any of them does not exist (then no
 * character can carry them all). Sorted rarest first.
 */
async function resolveTags(run: SqlBatch, names: string[], showNsfw: boolean): Promise<TagStat[] | null> {
  if (names.length === 0) return [];
  const placeholders = names.map(() => "?").join(", ");
  const [rows = []] = await run([
    { sql: `SELECT id, count, sfw_count AS sfwCount FROM tags WHERE lower(name) IN (${placeholders})`, params: names },
  ]);
  if (rows.length < names.length) return null;
  return rows
    .map((t) => ({ id: Number(t.id), count: Number(showNsfw ? t.count : t.sfwCount) }))
    .sort((a, b) => a.count - b.count);
}

const tagProbe = (alias: string, outer: string) =>
  ` AND EXISTS (SELECT 1 FROM character_tags ${alias} WHERE ${alias}.character_id = ${outer} AND ${alias}.tag_id = ?)`;

/**
 * The statements that answer a list query once its tags are resolved: the
 * page, then (when not known from counters) the total. Exported for the
 * benchmark, which runs exactly these on the SQLite file.
 */
export function planList(
  query: CatalogQuery,
  tagStats: TagStat[],
  options: ListOptions = {},
): { page: Statement; total: Statement | number; totalFromPage: boolean } | null {
  const showNsfw = query.showNsfw === "true";
  const visible = showNsfw ? "c.is_active = 1" : "c.is_active = 1 AND c.is_nsfw = 0";
  const tagIds = tagStats.map((t) => t.id);

  if (query.search !== undefined) {
    const match = toFtsQuery(query.search);
    if (match === null) return null;
    const tagExists = tagStats.map(() => tagProbe("ct", "c.id")).join("");
    const from = `FROM matches m JOIN characters c ON c.id = m.id WHERE ${visible}${tagExists}`;
    // bm25() must be computed inside the FTS query itself (it cannot be used
    // beside a window function), hence the materialized CTE.
    const matches = `WITH matches AS MATERIALIZED (
        SELECT rowid AS id, bm25(characters_fts, 10.0, 1.0, 4.0) AS score
        FROM characters_fts WHERE characters_fts MATCH ?)`;
    return {
      page: {
        sql: `${matches} SELECT ${SUMMARY_COLUMNS}, count(*) OVER () AS total ${from}
          ORDER BY m.score, c.id DESC LIMIT ? OFFSET ?`,
        params: [match, ...tagIds, query.limit, query.offset],
      },
      // Used only when the page is empty (offset past the end).
      total: { sql: `${matches} SELECT count(*) AS total ${from}`, params: [match, ...tagIds] },
      totalFromPage: true,
    };
  }

  const ordering = ORDERINGS[query.sort];
  const [rarest, ...others] = tagStats;
  const exclude = options.exclude?.length ? " AND c.id NOT IN (SELECT value FROM json_each(?))" : "";
  const excludeParams = options.exclude?.length ? [JSON.stringify(options.exclude)] : [];
  let page: Statement;
  if (rarest && rarest.count <= (options.rareTagThreshold ?? RARE_TAG_THRESHOLD)) {
    // Few candidates: start from the rare tag's index range, sort them.
    page = {
      sql: `SELECT ${SUMMARY_COLUMNS}
        FROM character_tags r JOIN characters c ON c.id = r.character_id
        WHERE r.tag_id = ? AND r.is_listed = 1${showNsfw ? "" : " AND r.is_nsfw = 0"} AND ${visible}${others.map(() => tagProbe("ct", "c.id")).join("")}${exclude}
        ORDER BY ${ordering.orderBy} LIMIT ? OFFSET ?`,
      params: [rarest.id, ...others.map((t) => t.id), ...excludeParams, query.limit, query.offset],
    };
  } else {
    // Walk the tab's partial index in order; stop after offset + limit rows.
    page = {
      sql: `SELECT ${SUMMARY_COLUMNS}
        FROM characters c INDEXED BY ${showNsfw ? ordering.index : ordering.sfwIndex}
        WHERE ${visible}${tagStats.map(() => tagProbe("ct", "c.id")).join("")}${exclude}
        ORDER BY ${ordering.orderBy} LIMIT ? OFFSET ?`,
      params: [...tagIds, ...excludeParams, query.limit, query.offset],
    };
  }

  let total: Statement | number;
  if (!rarest) {
    total = { sql: "SELECT count AS total FROM catalog_counts WHERE key = ?", params: [showNsfw ? "all" : "sfw"] };
  } else if (others.length === 0) {
    total = rarest.count;
  } else {
    total = {
      sql: `SELECT count(*) AS total FROM character_tags r
        WHERE r.tag_id = ? AND r.is_listed = 1${showNsfw ? "" : " AND r.is_nsfw = 0"}${others.map(() => tagProbe("o", "r.character_id")).join("")}`,
      params: [rarest.id, ...others.map((t) => t.id)],
    };
  }
  return { page, total, totalFromPage: false };
}

/**
 * `GET /api/characters`: one page of listable characters and the exact total.
 * Pages are stable: every ordering ends with the unique id. At most two round
 * trips: the tags (when filtering by tag), then page and total in one batch.
 */
export async function queryCatalog(
  run: SqlBatch,
  query: CatalogQuery,
  options: ListOptions = {},
): Promise<{ characters: CharacterSummary[]; total: number }> {
  const tagStats = await resolveTags(run, query.tags, query.showNsfw === "true");
  if (tagStats === null) return { characters: [], total: 0 };
  if (query.sort === "for-you" && query.search === undefined && options.userId) {
    const personal = await queryForYou(run, query, tagStats, options.userId, options);
    if (personal) return personal;
  }
  const plan = planList(query, tagStats, options);
  if (plan === null) return { characters: [], total: 0 };

  if (plan.totalFromPage) {
    const [rows = []] = await run([plan.page]);
    if (rows.length > 0) return { characters: rows.map(toSummary), total: Number(rows[0]!.total) };
    const [[count] = []] = await run([plan.total as Statement]);
    return { characters: [], total: Number(count?.total ?? 0) };
  }
  const statements = typeof plan.total === "number" ? [plan.page] : [plan.page, plan.total];
  const [rows = [], counted = []] = await run(statements);
  const total = typeof plan.total === "number" ? plan.total : Number(counted[0]?.total ?? 0);
  return { characters: rows.map(toSummary), total };
}

/**
 * The tags a person cares about: the most frequent tags among the characters
 * they favorited or chatted with (at most INTEREST_TAGS), with how many
 * listable characters carry each.
 */
function interestStatement(userId: string, showNsfw: boolean): Statement {
  return {
    sql: `SELECT ct.tag_id AS id, ${showNsfw ? "t.count" : "t.sfw_count"} AS listed, count(*) AS weight
      FROM (SELECT character_id FROM favorites WHERE user_id = ?1
            UNION SELECT character_id FROM conversations WHERE user_id = ?1) mine
      JOIN character_tags ct ON ct.character_id = mine.character_id
      JOIN tags t ON t.id = ct.tag_id
      GROUP BY ct.tag_id ORDER BY weight DESC, ct.tag_id LIMIT ${INTEREST_TAGS}`,
    params: [userId],
  };
}

/**
 * `sort=for-you` for a signed-in person (DESIGN.md "Tabs"): up to
 * FOR_YOU_PICKS listable characters sharing a tag with what they favorited or
 * chatted with, by trending, then every other character by trending. The
 * picks are a deterministic set, so pages never repeat or skip; the total is
 * the same as trending's. Null when the person has no history (then it is
 * plain trending).
 */
async function queryForYou(
  run: SqlBatch,
  query: CatalogQuery,
  tagStats: TagStat[],
  userId: string,
  options: ListOptions,
): Promise<{ characters: CharacterSummary[]; total: number } | null> {
  const showNsfw = query.showNsfw === "true";
  const [interests = []] = await run([interestStatement(userId, showNsfw)]);
  if (interests.length === 0) return null;
  const interestIds = interests.map((t) => Number(t.id));
  const visible = showNsfw ? "c.is_active = 1" : "c.is_active = 1 AND c.is_nsfw = 0";
  const filters = tagStats.map(() => tagProbe("ct", "c.id")).join("");
  const inInterests = `IN (${interestIds.map(() => "?").join(", ")})`;
  const ordering = ORDERINGS.trending;
  // Few characters carry these tags: start from them. Otherwise walk trending.
  const candidates = interests.reduce((sum, t) => sum + Number(t.listed), 0);
  const picksSql =
    candidates <= (options.rareTagThreshold ?? RARE_TAG_THRESHOLD)
      ? `SELECT DISTINCT c.id, c.trending_score FROM character_tags p JOIN characters c ON c.id = p.character_id
         WHERE p.tag_id ${inInterests} AND p.is_listed = 1 AND ${visible}${filters}
         ORDER BY ${ordering.orderBy} LIMIT ${FOR_YOU_PICKS}`
      : `SELECT c.id FROM characters c INDEXED BY ${showNsfw ? ordering.index : ordering.sfwIndex}
         WHERE ${visible}${filters}
           AND EXISTS (SELECT 1 FROM character_tags p WHERE p.character_id = c.id AND p.tag_id ${inInterests})
         ORDER BY ${ordering.orderBy} LIMIT ${FOR_YOU_PICKS}`;
  const picksParams = picksSql.startsWith("SELECT DISTINCT")
    ? [...interestIds, ...tagStats.map((t) => t.id)]
    : [...tagStats.map((t) => t.id), ...interestIds];
  const [pickRows = []] = await run([{ sql: picksSql, params: picksParams }]);
  const picks = pickRows.map((r) => Number(r.id));

  const shown = picks.slice(query.offset, query.offset + query.limit);
  const statements: Statement[] = [];
  if (shown.length > 0) {
    statements.push({
      sql: `SELECT ${SUMMARY_COLUMNS} FROM characters c WHERE c.id IN (SELECT value FROM json_each(?))`,
      params: [JSON.stringify(shown)],
    });
  }
  const rest = planList(
    {
      ...query,
      sort: "trending",
      offset: Math.max(0, query.offset - picks.length),
      limit: Math.max(1, query.limit - shown.length),
    },
    tagStats,
    { ...options, exclude: picks },
  )!;
  const needRest = shown.length < query.limit;
  if (needRest) statements.push(rest.page);
  if (typeof rest.total !== "number") statements.push(rest.total);
  const results = await run(statements);
  let i = 0;
  const pickedRows = shown.length > 0 ? results[i++]! : [];
  const restRows = needRest ? results[i++]! : [];
  const total = typeof rest.total === "number" ? rest.total : Number(results[i]?.[0]?.total ?? 0);
  const byId = new Map(pickedRows.map((r) => [Number(r.id), r]));
  const ordered = shown.map((id) => byId.get(id)).filter((r): r is Row => r !== undefined);
  return { characters: [...ordered, ...restRows].map(toSummary), total };
}
