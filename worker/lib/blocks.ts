/**
 * Blocking (issue 35, DESIGN.md turn 4 "Your account, your data" →
 * Blocking; docs/decisions/0030-blocking.md), on D1's `blocks` table: one
 * row per (blocker, blocked).
 *
 * The one place that answers "is there a block between these two, either
 * way?" — every path where one person acts toward another asks here:
 *
 * - `blockBetween` / `isBlockedEitherWay`: one primary-key probe each way.
 * - `refuseIfBlocked`: throws the refusal for an act (`BLOCKED_ACTS`). The
 *   blocker is told plainly ("You blocked @x…", 403); the blocked person gets
 *   a neutral 403 that does not say why, or the 404 of a thing that does
 *   not exist (a room's invitation link), so the block stays private.
 * - `blockedEitherWaySql`, `hiddenCommentsSql`: the same rules as SQL
 *   fragments, for queries that must stay one statement (fan-out of
 *   notifications, a character page's comment count).
 *
 * Blocking someone also ends both follows between the two and takes each
 * out of the rooms the other owns (the caller closes their sockets there);
 * unblocking restores neither. The SQL fragments live in
 * worker/lib/block-sql.ts (no imports, no D1 types: the catalog's
 * driver-independent rows use them too) and are re-exported here. Errors are ApiErrors (the JSON error shape); D1
 * failures are thrown as is.
 */
import type { BlockedPerson } from "../../schema/api.ts";
import { ApiError, forbidden, notFound } from "./errors.ts";
import { sha256Hex } from "./sessions.ts";
import { canonicalUsername } from "./users.ts";

export { blockedEitherWaySql, hiddenCommentsSql } from "./block-sql.ts";

/** Most people one person may block; one more is 409 (the list stays one answer). */
export const MAX_BLOCKS = 5_000;

/** Which way a block runs between an actor and the person their act reaches. */
export type BlockDirection = "none" | "actor_blocked" | "blocked_actor";

/**
 * The block between `actorId` and `otherId`: `actor_blocked` when the actor
 * blocked the other (checked first: the actor may be told), `blocked_actor`
 * when the other blocked the actor, else `none`. One D1 query.
 */
export async function blockBetween(db: D1Database, actorId: string, otherId: string): Promise<BlockDirection> {
  if (actorId === otherId) return "none";
  const row = await db
    .prepare(
      `SELECT max(blocker_id = ?1) AS actorBlocked, max(blocker_id = ?2) AS blockedActor FROM blocks
       WHERE (blocker_id = ?1 AND blocked_id = ?2) OR (blocker_id = ?2 AND blocked_id = ?1)`,
    )
    .bind(actorId, otherId)
    .first<{ actorBlocked: number | null; blockedActor: number | null }>();
  if (row?.actorBlocked) return "actor_blocked";
  if (row?.blockedActor) return "blocked_actor";
  return "none";
}

/** True when either of the two blocked the other (e.g. before notifying `b` of `a`'s act). One D1 query. */
export async function isBlockedEitherWay(db: D1Database, a: string, b: string): Promise<boolean> {
  return (await blockBetween(db, a, b)) !== "none";
}

/** The acts a block refuses, and what each side is told. */
export const BLOCKED_ACTS = {
  follow: "You can't follow this person.",
  comment: "You can't comment on this character.",
  reply: "You can't reply to this comment.",
  vote: "You can't vote on this comment.",
  fork: "You can't fork this character.",
  /** A room's invitation: the blocked person sees an unknown link (404). */
  join: null,
} as const satisfies Record<string, string | null>;

export type BlockedAct = keyof typeof BLOCKED_ACTS;

/** What the blocker is told when they try to act toward someone they blocked. */
const OWN_BLOCK: Record<BlockedAct, (name: string) => string> = {
  follow: (name) => `You blocked ${name}. Unblock them to follow them.`,
  comment: (name) => `You blocked ${name}, who made this character. Unblock them to comment.`,
  reply: (name) => `You blocked ${name}. Unblock them to reply.`,
  vote: (name) => `You blocked ${name}. Unblock them to vote on their comments.`,
  fork: (name) => `You blocked ${name}, who made this character. Unblock them to fork it.`,
  join: (name) => `You blocked ${name}, who owns this chat. Unblock them to join.`,
};

/**
 * Throws when a block stands between `actorId` and `otherId` (the person
 * the act reaches; null or the actor themselves: nothing to check). The
 * blocker gets 403 naming the block; the blocked person 403 with the act's
 * neutral sentence, or for `join` 404 "Invitation not found", the answer of
 * an unknown link. One D1 query (two when the actor blocked: their name).
 */
export async function refuseIfBlocked(db: D1Database, actorId: string, otherId: string | null, act: BlockedAct): Promise<void> {
  if (!otherId || otherId === actorId) return;
  const direction = await blockBetween(db, actorId, otherId);
  if (direction === "none") return;
  if (direction === "blocked_actor") {
    const neutral = BLOCKED_ACTS[act];
    throw neutral === null ? notFound("Invitation not found") : forbidden(neutral);
  }
  const other = await db.prepare("SELECT username FROM users WHERE id = ?").bind(otherId).first<{ username: string }>();
  throw forbidden(OWN_BLOCK[act](other?.username ?? "this person"));
}

/**
 * The owner of the room an invitation link leads to, whether or not the link
 * still works (the invitation's own rules answer that); null for a token that
 * names no link. One D1 query.
 */
export async function inviteOwnerId(db: D1Database, token: string): Promise<string | null> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const row = await db
    .prepare(
      `SELECT v.user_id AS ownerId FROM conversation_invites i JOIN conversations v ON v.id = i.conversation_id
       WHERE i.token_hash = ?`,
    )
    .bind(await sha256Hex(token))
    .first<{ ownerId: string }>();
  return row?.ownerId ?? null;
}

const personNotFound = () => notFound("Person not found");

/** The id of the person holding `username` (any spelling); throws 404 "Person not found". */
async function personId(db: D1Database, username: string): Promise<string> {
  const row = await db
    .prepare("SELECT id FROM users WHERE lower(username) = lower(?)")
    .bind(canonicalUsername(username))
    .first<{ id: string }>();
  if (!row) throw personNotFound();
  return row.id;
}

/** A membership a block ended: `userId` left the room `conversationId`. */
export interface LeftRoom {
  conversationId: string;
  userId: string;
}

/** What a block did: whom it blocked, and the memberships it ended. */
export interface Blocked {
  blockedId: string;
  left: LeftRoom[];
}

/**
 * `blockerId` blocks the person holding `username`. Idempotent (blocking
 * again keeps the first row and its time). In one D1 transaction: the row,
 * both follows between the two end, and each leaves the rooms the other
 * owns. Returns the blocked person's id and those memberships, whose
 * sockets the caller closes (the rooms' Durable Objects). Throws 404 for an unknown name, 400 for oneself,
 * 409 past MAX_BLOCKS.
 */
export async function blockPerson(db: D1Database, blockerId: string, username: string): Promise<Blocked> {
  const blockedId = await personId(db, username);
  if (blockedId === blockerId) throw new ApiError("validation_failed", "You cannot block yourself");
  const [inserted, , left] = await db.batch<LeftRoom>([
    // The cap is checked in the insert itself, so blocks racing in cannot pass it.
    db
      .prepare(
        `INSERT INTO blocks (blocker_id, blocked_id) SELECT ?1, ?2
         WHERE (SELECT count(*) FROM blocks WHERE blocker_id = ?1) < ?3
         ON CONFLICT DO NOTHING RETURNING blocked_id`,
      )
      .bind(blockerId, blockedId, MAX_BLOCKS),
    db
      .prepare("DELETE FROM follows WHERE (follower_id = ?1 AND followee_id = ?2) OR (follower_id = ?2 AND followee_id = ?1)")
      .bind(blockerId, blockedId),
    db
      .prepare(
        `DELETE FROM conversation_members WHERE
           (user_id = ?2 AND conversation_id IN (SELECT id FROM conversations WHERE user_id = ?1))
           OR (user_id = ?1 AND conversation_id IN (SELECT id FROM conversations WHERE user_id = ?2))
         RETURNING conversation_id AS conversationId, user_id AS userId`,
      )
      .bind(blockerId, blockedId),
  ]);
  if ((inserted?.results.length ?? 0) === 0) {
    const already = await db.prepare("SELECT 1 FROM blocks WHERE blocker_id = ? AND blocked_id = ?").bind(blockerId, blockedId).first();
    if (!already) {
      throw new ApiError("conflict", `You have blocked ${MAX_BLOCKS.toLocaleString("en")} people, the most one can. Unblock someone first.`);
    }
  }
  return { blockedId, left: left?.results ?? [] };
}

/** `blockerId` unblocks the person holding `username`; idempotent. Follows and rooms are not restored. Throws 404 for an unknown name, 400 for oneself. */
export async function unblockPerson(db: D1Database, blockerId: string, username: string): Promise<void> {
  const blockedId = await personId(db, username);
  if (blockedId === blockerId) throw new ApiError("validation_failed", "You cannot block yourself");
  await db.prepare("DELETE FROM blocks WHERE blocker_id = ? AND blocked_id = ?").bind(blockerId, blockedId).run();
}

/** `GET /api/blocks`: the people `blockerId` blocked, newest block first (at most MAX_BLOCKS). */
export async function listBlocks(db: D1Database, blockerId: string): Promise<BlockedPerson[]> {
  const { results } = await db
    .prepare(
      `SELECT u.username, nullif(trim(coalesce(u.name, '')), '') AS name, u.profile_image_url AS avatarUrl, b.created_at AS blockedAt
       FROM blocks b JOIN users u ON u.id = b.blocked_id
       WHERE b.blocker_id = ? ORDER BY b.created_at DESC, u.username`,
    )
    .bind(blockerId)
    .all<{ username: string; name: string | null; avatarUrl: string | null; blockedAt: number }>();
  return results.map((row) => ({ ...row, blockedAt: new Date(row.blockedAt).toISOString() }));
}
