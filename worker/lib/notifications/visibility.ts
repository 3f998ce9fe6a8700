/**
 * "Never about content you can no longer see" (issue 39): before a page of
 * notifications is shown, the characters, rooms and comments it is about
 * are checked against D1 as they are now. A character no longer listed
 * (deactivated, removed by moderation, deleted) unless it is the person's
 * own, a room they left or were removed from, a comment deleted: those
 * notifications are dropped from the inbox for good. Checked when read
 * rather than pushed from every place that hides something: three indexed
 * queries per page, and no path that hides content can forget to tell.
 * A notification whose only actor deleted their account goes too (a
 * fourth query, by username): their name is not shown after they left.
 */
import type { StoredNotification } from "../../../durable-objects/inbox/store.ts";
import { visibleToSql } from "../listable.ts";

/** The ids of the notifications of `page` that `viewerId` may no longer see. At most four D1 queries (none for an empty page). */
export async function invisibleNotifications(db: D1Database, viewerId: string, page: StoredNotification[]): Promise<string[]> {
  const characterIds = unique(page.filter((n) => n.scope?.type === "character").map((n) => Number(n.scope!.id)));
  const conversationIds = unique(page.filter((n) => n.scope?.type === "conversation").map((n) => n.scope!.id));
  const commentIds = unique(page.filter((n) => n.target.type === "comment").map((n) => Number(n.target.id)));
  const soloActors = unique(page.filter((n) => n.actor !== null && n.actorCount <= 1).map((n) => n.actor!.username));
  const [characters, conversations, comments, actors] = await Promise.all([
    visibleIds(
      db,
      characterIds,
      `SELECT c.id FROM characters c WHERE c.id IN (SELECT value FROM json_each(?1)) AND ${visibleToSql("c", "?2")} AND c.moderation_status != 'removed'`,
      viewerId,
    ),
    visibleIds(
      db,
      conversationIds,
      `SELECT v.id FROM conversations v WHERE v.id IN (SELECT value FROM json_each(?1))
       AND (v.user_id = ?2 OR EXISTS (SELECT 1 FROM conversation_members m WHERE m.conversation_id = v.id AND m.user_id = ?2))`,
      viewerId,
    ),
    visibleIds(db, commentIds, "SELECT id FROM comments WHERE id IN (SELECT value FROM json_each(?1)) AND ?2 IS NOT NULL", viewerId),
    visibleIds(db, soloActors, "SELECT username AS id FROM users WHERE username IN (SELECT value FROM json_each(?1)) AND ?2 IS NOT NULL", viewerId),
  ]);
  return page
    .filter((n) => {
      if (n.scope?.type === "character" && !characters.has(n.scope.id)) return true;
      if (n.scope?.type === "conversation" && !conversations.has(n.scope.id)) return true;
      if (n.actor !== null && n.actorCount <= 1 && !actors.has(n.actor.username)) return true;
      return n.target.type === "comment" && !comments.has(n.target.id);
    })
    .map((n) => n.id);
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}

async function visibleIds(db: D1Database, ids: (string | number)[], sql: string, viewerId: string): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const { results } = await db.prepare(sql).bind(JSON.stringify(ids), viewerId).all<{ id: string | number }>();
  return new Set(results.map((row) => String(row.id)));
}
