/**
 * Blocking's rules as SQL fragments (docs/decisions/0030-blocking.md), for
 * queries that must stay one statement: the catalog's list rows and
 * character page, the notifications fan-out to come. Driver-independent
 * (no imports, no D1 types), like worker/lib/catalog-rows.ts, which uses
 * them; callers elsewhere take them from worker/lib/blocks.ts.
 */

/**
 * SQL boolean: a block exists between the people whose ids are the SQL
 * expressions `a` and `b`, either way (e.g. `blockedEitherWaySql("?1",
 * "f.follower_id")`). Two primary-key probes.
 */
export function blockedEitherWaySql(a: string, b: string): string {
  return `(EXISTS (SELECT 1 FROM blocks WHERE blocker_id = ${a} AND blocked_id = ${b})
    OR EXISTS (SELECT 1 FROM blocks WHERE blocker_id = ${b} AND blocked_id = ${a}))`;
}

/**
 * SQL scalar: how many comments of the character `characterId` (an SQL
 * expression, e.g. "c.id") the viewer `viewerId` (an SQL expression; NULL
 * for a visitor) does not see: those written by people they blocked, with
 * every reply beneath them. 0 without a block, read from the blocks index
 * alone.
 */
export function hiddenCommentsSql(characterId: string, viewerId: string): string {
  return `(CASE WHEN EXISTS (SELECT 1 FROM blocks WHERE blocker_id = ${viewerId}) THEN (
    WITH RECURSIVE hidden_thread(id) AS (
      SELECT hc.id FROM comments hc
      WHERE hc.character_id = ${characterId} AND hc.user_id IN (SELECT blocked_id FROM blocks WHERE blocker_id = ${viewerId})
      UNION SELECT hr.id FROM comments hr JOIN hidden_thread ht ON hr.parent_id = ht.id)
    SELECT count(*) FROM hidden_thread) ELSE 0 END)`;
}
