/**
 * Catalog reads: the character list with its filters, tabs and search, one
 * character by id, and popular tags. Functions take the D1 database and are
 * tested directly (worker/test/catalog.test.ts) and through the routes.
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
import type { CatalogSort, Character, CharacterSummary, Tag } from "../../schema/api.ts";
import type { CatalogQuery } from "../../schema/inputs.ts";

type Row = Record<string, unknown>;

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
const DETAIL_FIELDS: [string, string][] = [
  ...SUMMARY_FIELDS,
  ["alternate_greetings", "alternateGreetings"], ["system_prompt", "systemPrompt"],
  ["post_history_instructions", "postHistoryInstructions"], ["creator_notes", "creatorNotes"],
  ["character_book", "characterBook"], ["extensions", "extensions"], ["rating_up", "ratingUp"],
  ["rating_down", "ratingDown"], ["updated_at", "updatedAt"],
];
const selectList = (fields: [string, string][], prefix: string) =>
  fields.map(([column, alias]) => `${prefix}${column} AS ${alias}`).join(", ");

const SUMMARY_COLUMNS = selectList(SUMMARY_FIELDS, "c.");
const DETAIL_COLUMNS = selectList(DETAIL_FIELDS, "c.");

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
}

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

function toSummary(row: Row): CharacterSummary {
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

function toCharacter(row: Row): Character {
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

/**
 * Looks up the requested tags; null when any of them does not exist (then no
 * character can carry them all). Sorted rarest first.
 */
async function resolveTags(db: D1Database, names: string[], showNsfw: boolean): Promise<TagStat[] | null> {
  if (names.length === 0) return [];
  const placeholders = names.map(() => "?").join(", ");
  const { results } = await db
    .prepare(`SELECT id, count, sfw_count AS sfwCount FROM tags WHERE lower(name) IN (${placeholders})`)
    .bind(...names)
    .all<{ id: number; count: number; sfwCount: number }>();
  if (results.length < names.length) return null;
  return results
    .map((t) => ({ id: t.id, count: showNsfw ? t.count : t.sfwCount }))
    .sort((a, b) => a.count - b.count);
}

/**
 * `GET /api/characters`: one page of listable characters and the exact total.
 * Pages are stable: every ordering ends with the unique id.
 */
export async function listCharacters(
  db: D1Database,
  query: CatalogQuery,
  options: ListOptions = {},
): Promise<{ characters: CharacterSummary[]; total: number }> {
  const showNsfw = query.showNsfw === "true";
  const tagStats = await resolveTags(db, query.tags, showNsfw);
  if (tagStats === null) return { characters: [], total: 0 };

  const visible = showNsfw ? "c.is_active = 1" : "c.is_active = 1 AND c.is_nsfw = 0";
  const tagExists = tagStats
    .map(() => "EXISTS (SELECT 1 FROM character_tags ct WHERE ct.character_id = c.id AND ct.tag_id = ?)")
    .map((clause) => ` AND ${clause}`)
    .join("");
  const tagIds = tagStats.map((t) => t.id);

  if (query.search !== undefined) {
    const match = toFtsQuery(query.search);
    if (match === null) return { characters: [], total: 0 };
    const { results } = await db
      .prepare(
        // bm25() must be computed inside the FTS query itself (it cannot be
        // used beside a window function), hence the materialized CTE.
        `WITH matches AS MATERIALIZED (
           SELECT rowid AS id, bm25(characters_fts, 10.0, 1.0, 4.0) AS score
           FROM characters_fts WHERE characters_fts MATCH ?
         )
         SELECT ${SUMMARY_COLUMNS}, count(*) OVER () AS total
         FROM matches m JOIN characters c ON c.id = m.id
         WHERE ${visible}${tagExists}
         ORDER BY m.score, c.id DESC
         LIMIT ? OFFSET ?`,
      )
      .bind(match, ...tagIds, query.limit, query.offset)
      .all<Row>();
    const total = results.length > 0 ? Number(results[0]!.total) : await countSearch(db, match, visible, tagExists, tagIds);
    return { characters: results.map(toSummary), total };
  }

  const ordering = ORDERINGS[query.sort];
  const rarest = tagStats[0];
  let pageSql: string;
  let pageParams: unknown[];
  if (rarest && rarest.count <= (options.rareTagThreshold ?? RARE_TAG_THRESHOLD)) {
    // Few candidates: start from the rare tag's index range, sort them.
    const others = tagStats.slice(1);
    const otherExists = others
      .map(() => " AND EXISTS (SELECT 1 FROM character_tags ct WHERE ct.character_id = c.id AND ct.tag_id = ?)")
      .join("");
    pageSql = `SELECT ${SUMMARY_COLUMNS}
      FROM character_tags r JOIN characters c ON c.id = r.character_id
      WHERE r.tag_id = ? AND r.is_listed = 1${showNsfw ? "" : " AND r.is_nsfw = 0"} AND ${visible}${otherExists}
      ORDER BY ${ordering.orderBy} LIMIT ? OFFSET ?`;
    pageParams = [rarest.id, ...others.map((t) => t.id), query.limit, query.offset];
  } else {
    const index = showNsfw ? ordering.index : ordering.sfwIndex;
    pageSql = `SELECT ${SUMMARY_COLUMNS}
      FROM characters c INDEXED BY ${index}
      WHERE ${visible}${tagExists}
      ORDER BY ${ordering.orderBy} LIMIT ? OFFSET ?`;
    pageParams = [...tagIds, query.limit, query.offset];
  }

  const [page, total] = await Promise.all([
    db.prepare(pageSql).bind(...pageParams).all<Row>(),
    countListed(db, tagStats, showNsfw),
  ]);
  return { characters: page.results.map(toSummary), total };
}

/** Exact number of listable characters carrying every tag in `tagStats`. */
async function countListed(db: D1Database, tagStats: TagStat[], showNsfw: boolean): Promise<number> {
  if (tagStats.length === 0) {
    const row = await db
      .prepare("SELECT count FROM catalog_counts WHERE key = ?")
      .bind(showNsfw ? "all" : "sfw")
      .first<{ count: number }>();
    return row?.count ?? 0;
  }
  if (tagStats.length === 1) return tagStats[0]!.count;
  const [rarest, ...others] = tagStats;
  const otherExists = others
    .map(() => " AND EXISTS (SELECT 1 FROM character_tags o WHERE o.character_id = r.character_id AND o.tag_id = ?)")
    .join("");
  const row = await db
    .prepare(
      `SELECT count(*) AS total FROM character_tags r
       WHERE r.tag_id = ? AND r.is_listed = 1${showNsfw ? "" : " AND r.is_nsfw = 0"}${otherExists}`,
    )
    .bind(rarest!.id, ...others.map((t) => t.id))
    .first<{ total: number }>();
  return row?.total ?? 0;
}

/** Total of a search when the requested page came back empty (offset past the end). */
async function countSearch(
  db: D1Database,
  match: string,
  visible: string,
  tagExists: string,
  tagIds: number[],
): Promise<number> {
  const row = await db
    .prepare(
      `SELECT count(*) AS total FROM characters_fts f JOIN characters c ON c.id = f.rowid
       WHERE characters_fts MATCH ? AND ${visible}${tagExists}`,
    )
    .bind(match, ...tagIds)
    .first<{ total: number }>();
  return row?.total ?? 0;
}

/**
 * `GET /api/characters/:id`: the character with its view counted, or null when
 * it does not exist or is inactive and `viewerId` is not its creator (inactive
 * characters are visible to their owner only; their views are not counted).
 */
export async function viewCharacter(db: D1Database, id: number, viewerId?: string | null): Promise<Character | null> {
  const counted = await db
    .prepare(
      `UPDATE characters SET view_count = view_count + 1
       WHERE id = ? AND is_active = 1 RETURNING ${selectList(DETAIL_FIELDS, "")}`,
    )
    .bind(id)
    .first<Row>();
  if (counted) return toCharacter(counted);
  if (!viewerId) return null;
  const own = await db
    .prepare(`SELECT ${DETAIL_COLUMNS} FROM characters c WHERE c.id = ? AND c.creator_id = ?`)
    .bind(id, viewerId)
    .first<Row>();
  return own ? toCharacter(own) : null;
}

/** One character by id regardless of visibility (for owners' pages and exports). */
export async function getCharacter(db: D1Database, id: number): Promise<Character | null> {
  const row = await db.prepare(`SELECT ${DETAIL_COLUMNS} FROM characters c WHERE c.id = ?`).bind(id).first<Row>();
  return row ? toCharacter(row) : null;
}

/** `GET /api/tags?popular=true`: tags of active characters, most used first. */
export async function listPopularTags(db: D1Database, limit = 200): Promise<Tag[]> {
  const { results } = await db
    .prepare("SELECT id, name, count FROM tags WHERE count > 0 ORDER BY count DESC, name LIMIT ?")
    .bind(limit)
    .all<Tag>();
  return results;
}

/**
 * Links a character to tags by name, creating missing tags. Rows copy the
 * character's flags so the counting triggers of migrations/0001 stay exact.
 * Returns the D1 statements to run in the caller's `batch()`.
 */
export function linkTagsStatements(db: D1Database, characterId: number, names: string[]): D1PreparedStatement[] {
  return names.flatMap((name) => [
    db.prepare("INSERT INTO tags (name) VALUES (?) ON CONFLICT DO NOTHING").bind(name),
    db
      .prepare(
        `INSERT OR IGNORE INTO character_tags (character_id, tag_id, is_listed, is_nsfw)
         SELECT c.id, t.id, c.is_active, c.is_nsfw FROM characters c, tags t
         WHERE c.id = ? AND lower(t.name) = lower(?)`,
      )
      .bind(characterId, name),
  ]);
}
