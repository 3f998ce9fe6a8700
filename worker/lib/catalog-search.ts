/**
 * Catalog search (`search=`), independent of the database driver: the words
 * of what a person typed (searchTerms), their FTS5 expression over
 * `characters_fts` with the tag filters and hidden flags
 * (searchExpressions), and the search list itself (querySearch): prefix
 * terms, bm25 ranking (name above creator above tags above description), tag
 * modes and exclusions as `tag_keys` terms of the same FTS5 query
 * (docs/decisions/0002-catalog-queries.md).
 */
import type { CatalogQuery } from "../../schema/inputs.ts";
import {
  type CatalogPlan,
  EMPTY_PLAN,
  favoritedColumn,
  SqlParams,
  SUMMARY_COLUMNS,
  toCatalogCharacter,
  type ViewerSql,
} from "./catalog-rows.ts";
import { tagFilterNames } from "./catalog-tag-counts.ts";
import { hiddenSearchFlags } from "./listable.ts";

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
 * The words of whatever a person typed: every run of letters, digits or "_", in
 * order, without duplicates and (when others remain) without stopwords.
 * Quotes, stars, parentheses, operators and column filters typed by a person
 * are separators, never FTS5 syntax.
 */
export function searchTerms(search: string): string[] {
  // "_" joins a word as the index's tokenizer does (tokenchars '_'), so "@mira_42" finds creator mira_42.
  const found = (search.normalize("NFKC").match(/[\p{L}\p{N}_]+/gu) ?? []).map((w) => w.replace(/^_+|_+$/g, "").toLowerCase());
  const words = [...new Set(found.filter(Boolean))];
  const meaningful = words.filter((w) => !STOPWORDS.has(w));
  return (meaningful.length > 0 ? meaningful : words).slice(0, MAX_SEARCH_TERMS);
}

/**
 * The columns of `characters_fts` a typed word may match: the texts and the
 * creator's shown name (migrations/0018_creator_search.sql), never the
 * filter columns `tag_keys` and `flags`.
 */
const SEARCHED_COLUMNS = "{name description tags creator}";

/**
 * FTS5 query for the typed words: each a quoted prefix term, all required,
 * matched in name, description, tags or creator only (never the filter
 * columns). Null when no word is left.
 */
export function toFtsQuery(search: string): string | null {
  const terms = searchTerms(search);
  if (terms.length === 0) return null;
  return `${SEARCHED_COLUMNS} : (${terms.map((t) => `"${t}"*`).join(" AND ")})`;
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

/**
 * Up to this many matches a search is ordered purely by bm25 (computing it
 * costs 1–6 µs per match at 10^6 characters, more with tag filters). Broader searches put the
 * characters whose name or tags match first — by bm25 while there are at most
 * this many of them — and the rest newest first.
 */
export const SEARCH_RANK_LIMIT = 2_000;

/**
 * The FTS5 expressions of a search: all matches, and those matching in name,
 * tags or creator. Included tags are `tag_keys` terms (each required under `all`, one
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
  const words = `${SEARCHED_COLUMNS} : (${terms.map((t) => `"${t}"*`).join(" AND ")})`;
  const tags =
    filter.mode === "any" ? ` AND (tag_keys : (${quoted(known)}))` : known.map((k) => ` AND (tag_keys : "${k}")`).join("");
  const excluded = filter.exclude.map(tagKey).filter((k) => k !== null);
  const flags = hiddenSearchFlags(query.showNsfw === "true");
  const hidden = excluded.length > 0 ? `(${flags}) OR (tag_keys : (${quoted(excluded)}))` : flags;
  return {
    all: `((${words})${tags}) NOT (${hidden})`,
    nameOrTags: `{name tags creator} : (${terms.map((t) => `"${t}"*`).join(" OR ")})`,
  };
}

/**
 * The CTEs `matched{n}`, `lineage{n}` and `placed{n}` of a search part
 * ordered by bm25, with forks kept below their originals (issue 40: a fork
 * may not impersonate its original, not even with a shorter text that
 * bm25 prefers, nor with the very same text, whose tie the newer id would
 * win). Each match's place `ord` is the worse of its own rank and the
 * ranks of its ancestors (the chain of `forked_from_id`, at most
 * MAX_LINEAGE_DEPTH long) that match too; `gen` counts those ancestors, so
 * at an equal place the original comes first, then its forks, then theirs.
 * Ancestors that do not match (renamed, or their text changed) do not
 * count. The part's matches (at most `rankLimit`) are read once, only when
 * `active` (SQL on `counts`) holds: else LIMIT 0 keeps FTS5 from running.
 */
function lineageRanking(n: number, match: string, active: string, rankLimit: string): string {
  return `matched${n} AS MATERIALIZED (SELECT rowid AS id, rank AS score FROM characters_fts
      WHERE characters_fts MATCH ${match} LIMIT (SELECT CASE WHEN ${active} THEN ${rankLimit} ELSE 0 END FROM counts)),
    lineage${n}(id, ancestor, depth) AS (
      SELECT r.id, c.forked_from_id, 1 FROM matched${n} r JOIN characters c ON c.id = r.id WHERE c.forked_from_id IS NOT NULL
      UNION ALL
      SELECT l.id, c.forked_from_id, l.depth + 1 FROM lineage${n} l JOIN characters c ON c.id = l.ancestor
      WHERE c.forked_from_id IS NOT NULL AND l.depth < ${MAX_LINEAGE_DEPTH}),
    placed${n} AS (SELECT r.id, r.score, max(r.score, coalesce(max(a.score), r.score)) AS ord, count(a.id) AS gen
      FROM matched${n} r LEFT JOIN lineage${n} l ON l.id = r.id LEFT JOIN matched${n} a ON a.id = l.ancestor
      GROUP BY r.id)`;
}

/** Longest chain of forks whose ancestors a search looks at (a fork of a fork of …). */
export const MAX_LINEAGE_DEPTH = 16;

/**
 * `search=`: every listable character whose name, description or tags contain
 * all the words (as prefixes), with the tag filters, from the FTS5 index
 * alone — counts and page in one statement, so one round trip:
 * - `counts` (materialized once): all matches, and those matching in name or tags;
 * - up to SEARCH_RANK_LIMIT matches, the page by bm25;
 * - broader searches: the name/tag matches first (by bm25 while there are at
 *   most SEARCH_RANK_LIMIT of them, else newest first), then the rest newest
 *   first, each part sliced by LIMIT/OFFSET computed from the counts. Parts
 *   not needed get LIMIT 0 and never run.
 * The characters are joined to at most `limit` matches, each with
 * `isFavorited` when there is a viewer. The counts ride on every row, and on
 * one row of NULL characters when the page is empty (LEFT JOIN).
 */
export function planSearch(query: CatalogQuery, options: { viewer?: ViewerSql | null; searchRankLimit?: number }): CatalogPlan {
  const expressions = searchExpressions(query);
  if (!expressions) return EMPTY_PLAN;
  const params = new SqlParams();
  const bind = params.bind;
  const all = bind(expressions.all);
  const nameOrTags = bind(`(${expressions.all}) AND (${expressions.nameOrTags})`);
  const rest = bind(`(${expressions.all}) NOT (${expressions.nameOrTags})`);
  const rankLimit = bind(options.searchRankLimit ?? SEARCH_RANK_LIMIT);
  const limit = bind(query.limit);
  const offset = bind(query.offset);
  const user = options.viewer ? options.viewer(bind) : null;
  const newest = (n: number, match: string, count: string, skip: string) =>
    `SELECT * FROM (SELECT ${n} AS part, -rowid AS ord, 0 AS gen, -rowid AS score, rowid AS id FROM characters_fts
      WHERE characters_fts MATCH ${match} ORDER BY rowid DESC
      LIMIT (SELECT ${count} FROM counts) OFFSET (SELECT ${skip} FROM counts))`;
  const ranked = (n: number, count: string, skip: string) =>
    `SELECT * FROM (SELECT ${n} AS part, ord, gen, score, id FROM placed${n}
      ORDER BY ord, gen, score, id DESC LIMIT (SELECT ${count} FROM counts) OFFSET (SELECT ${skip} FROM counts))`;
  const firstSlice = `max(0, min(${limit}, first - ${offset}))`;
  const sql = `WITH RECURSIVE counts AS MATERIALIZED (
      SELECT (SELECT count(*) FROM characters_fts WHERE characters_fts MATCH ${all}) AS total,
             (SELECT count(*) FROM characters_fts WHERE characters_fts MATCH ${nameOrTags}) AS first),
    ${lineageRanking(0, all, `total <= ${rankLimit}`, rankLimit)},
    ${lineageRanking(1, nameOrTags, `total > ${rankLimit} AND first <= ${rankLimit}`, rankLimit)},
    m AS (
      ${ranked(0, `CASE WHEN total <= ${rankLimit} THEN ${limit} ELSE 0 END`, offset)}
      UNION ALL ${ranked(1, `CASE WHEN total > ${rankLimit} AND first <= ${rankLimit} THEN ${firstSlice} ELSE 0 END`, offset)}
      UNION ALL ${newest(1, nameOrTags, `CASE WHEN total > ${rankLimit} AND first > ${rankLimit} THEN ${firstSlice} ELSE 0 END`, offset)}
      UNION ALL ${newest(2, rest, `CASE WHEN total > ${rankLimit} THEN max(0, ${limit} - max(0, first - ${offset})) ELSE 0 END`, `max(0, ${offset} - first)`)}),
    page AS (SELECT m.part, m.ord, m.gen, m.score, ${SUMMARY_COLUMNS}${user !== null ? favoritedColumn("c.id", user) : ""}
      FROM m JOIN characters c ON c.id = m.id)
    SELECT counts.total AS searchTotal, page.* FROM counts LEFT JOIN page ON 1
    ORDER BY page.part, page.ord, page.gen, page.score, page.id DESC`;
  return {
    statements: [params.statement(sql)],
    read: ([rows = []]) => ({
      characters: rows.filter((r) => r.id !== null && r.id !== undefined).map(toCatalogCharacter),
      total: Number(rows[0]?.searchTotal ?? 0),
    }),
  };
}
