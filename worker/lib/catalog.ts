/**
 * Catalog reads and writes on D1: the character list (catalog-list.ts holds its
 * plan), one character by id, popular tags, tag links. Functions take the D1
 * database and are tested directly (worker/test/catalog.test.ts) and through
 * the routes.
 */
import type { CatalogCharacter, Character, Tag } from "../../schema/api.ts";
import type { CatalogQuery } from "../../schema/inputs.ts";
import { type ListOptions, planCatalog } from "./catalog-list.ts";
import { DETAIL_COLUMNS, type Row, type SqlBatch, SqlParams, type Statement, toCharacter, type ViewerSql } from "./catalog-rows.ts";
import { hiddenCommentsSql } from "./blocks.ts";
import { visibleToSql } from "./listable.ts";

/** A SqlBatch over a D1 database. */
export function d1Batch(db: D1Database): SqlBatch {
  return async (statements) => {
    if (statements.length === 0) return [];
    const results = await db.batch<Row>(statements.map((s) => db.prepare(s.sql).bind(...s.params)));
    return results.map((r) => r.results);
  };
}

/**
 * `GET /api/characters`: one page of listable characters and the exact total
 * (catalog-list.ts planCatalog on D1), in one D1 round trip (one batch).
 * With `options.userId` (or `options.viewer`) each character carries that
 * person's `isFavorited`, from the same statement as the page.
 *
 * `lead`: statements to run first in the same batch (e.g. the session
 * lookup, worker/lib/sessions.ts); their rows come back as `leading`.
 */
export async function listCharacters(
  db: D1Database,
  query: CatalogQuery,
  options: ListOptions = {},
  lead: Statement[] = [],
): Promise<{ characters: CatalogCharacter[]; total: number; leading: Row[][] }> {
  const plan = planCatalog(query, options);
  const results = await d1Batch(db)([...lead, ...plan.statements]);
  return { ...plan.read(results.slice(lead.length)), leading: results.slice(0, lead.length) };
}

/**
 * `GET /api/characters/:id`: the character, or null when it does not exist or
 * is inactive and the viewer is not its creator (inactive characters are
 * visible to their owner only). One read, no write, one D1 round trip.
 * A signed-in viewer's `commentCount` leaves out the comments hidden from
 * them (worker/lib/blocks.ts hiddenCommentsSql).
 *
 * `viewer`: whose view it is, as SQL (catalog-rows.ts ViewerSql: a bound
 * user id, or the user of a session looked up inside the statement); null
 * for a visitor. `lead`: statements to run first in the same batch (the
 * session lookup of a pending session); their rows come back as `leading`.
 */
export async function viewCharacter(
  db: D1Database,
  id: number,
  viewer: ViewerSql | null,
  lead: Statement[] = [],
): Promise<{ character: Character | null; leading: Row[][] }> {
  const params = new SqlParams();
  const idParam = params.bind(id);
  const viewerSql = viewer ? viewer(params.bind) : "NULL";
  // A signed-in viewer's `commentCount` leaves out what their comment list leaves out (people they blocked).
  const hidden = viewer ? `, ${hiddenCommentsSql("c.id", viewerSql)} AS hiddenComments` : "";
  const detail = params.statement(
    `SELECT ${DETAIL_COLUMNS}${hidden} FROM characters c WHERE c.id = ${idParam} AND ${visibleToSql("c", viewerSql)}`,
  );
  const results = await d1Batch(db)([...lead, detail]);
  const row = results[lead.length]?.[0];
  if (row?.hiddenComments) row.commentCount = Math.max(0, Number(row.commentCount) - Number(row.hiddenComments));
  return { character: row ? toCharacter(row) : null, leading: results.slice(0, lead.length) };
}

/** One character by id regardless of visibility (for owners' pages and exports). */
export async function getCharacter(db: D1Database, id: number): Promise<Character | null> {
  const row = await db.prepare(`SELECT ${DETAIL_COLUMNS} FROM characters c WHERE c.id = ?`).bind(id).first<Row>();
  return row ? toCharacter(row) : null;
}

/**
 * `GET /api/tags?popular=true`: tags of listed characters, most used first,
 * at most `limit`. With `showNsfw` false (`showNsfw=false`, the NSFW switch
 * off) a tag's count is of its non-NSFW characters only, and tags carried
 * only by NSFW characters are left out, so a count is what a click on the
 * tag finds (issue 26).
 */
export async function listPopularTags(db: D1Database, limit = 200, showNsfw = true): Promise<Tag[]> {
  // Each order has its own index (tags_count_idx, tags_sfw_count_idx).
  const sql = showNsfw
    ? "SELECT id, name, count FROM tags WHERE count > 0 ORDER BY count DESC, name LIMIT ?"
    : "SELECT id, name, sfw_count AS count FROM tags WHERE sfw_count > 0 ORDER BY sfw_count DESC, name LIMIT ?";
  const { results } = await db.prepare(sql).bind(limit).all<Tag>();
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
