/**
 * Catalog search (`search=`), independent of the database driver: the words
 * of what a person typed (searchTerms), their FTS5 expression over
 * `characters_fts` with the tag filters and hidden flags
 * (searchExpressions), and the search list itself (querySearch): prefix
 * terms, bm25 ranking (name above creator above tags above description), tag
 * modes and exclusions as `tag_keys` terms of the same FTS5 query
 * (docs/decisions/0002-catalog-queries.md).
 */
import type { CatalogCharacter } from "../../schema/api.ts";
import type { CatalogQuery } from "../../schema/inputs.ts";
import { favoritedColumn, SUMMARY_COLUMNS, type SqlBatch, type Statement, toCatalogCharacter } from "./catalog-rows.ts";
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
 * creator's shown name (migrations/0015_creator_search.sql), never the
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
export async function querySearch(
  run: SqlBatch,
  query: CatalogQuery,
  options: { userId?: string | null; searchRankLimit?: number },
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
