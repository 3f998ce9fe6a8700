/**
 * Favorites, comments and comment votes on D1. Counters
 * (`characters.favorite_count`, `characters.comment_count`, `comments.votes`)
 * are kept by the triggers of migrations/0002_community_counters.sql in the
 * same transaction as each row change, so they always equal the rows that
 * exist, whatever the concurrency. Every function here is a single statement
 * or an atomic pair whose outcome does not depend on interleaving.
 */
import type { Comment } from "../../schema/api.ts";
import { visibleToSql } from "./listable.ts";

/**
 * A character the viewer may act on: active, or inactive and their own
 * (DESIGN.md "Inactive characters"), with its NSFW flag (what screening a
 * comment on it needs). Null when it does not exist for them.
 */
export async function findVisibleCharacter(
  db: D1Database,
  id: number,
  viewerId: string | null,
): Promise<{ id: number; creatorId: string | null; isNsfw: boolean } | null> {
  const row = await db
    .prepare(
      `SELECT id, creator_id AS creatorId, is_nsfw AS isNsfw FROM characters
       WHERE id = ? AND ${visibleToSql("", "?")}`,
    )
    .bind(id, viewerId)
    .first<{ id: number; creatorId: string | null; isNsfw: number }>();
  return row && { ...row, isNsfw: row.isNsfw === 1 };
}

/** A character's `favorite_count` (kept by the triggers of migrations/0002); 0 when it does not exist. */
export async function favoriteCount(db: D1Database, characterId: number): Promise<number> {
  const row = await db
    .prepare("SELECT favorite_count AS favoriteCount FROM characters WHERE id = ?")
    .bind(characterId)
    .first<{ favoriteCount: number }>();
  return row?.favoriteCount ?? 0;
}

export async function isFavorited(db: D1Database, characterId: number, userId: string): Promise<boolean> {
  const row = await db
    .prepare("SELECT 1 AS yes FROM favorites WHERE user_id = ? AND character_id = ?")
    .bind(userId, characterId)
    .first();
  return row !== null;
}

/**
 * Toggles a favorite: adds it when absent, removes it when present. Returns
 * the new state. The insert either creates the row or hits the unique index;
 * only in the latter case is the row deleted — so two toggles racing from one
 * person (a double click) end where they started, and the count always
 * equals the favorites that exist.
 */
export async function toggleFavorite(db: D1Database, characterId: number, userId: string): Promise<boolean> {
  const inserted = await db
    .prepare(
      `INSERT INTO favorites (character_id, user_id) VALUES (?, ?)
       ON CONFLICT (user_id, character_id) DO NOTHING RETURNING id`,
    )
    .bind(characterId, userId)
    .first();
  if (inserted) return true;
  await db.prepare("DELETE FROM favorites WHERE user_id = ? AND character_id = ?").bind(userId, characterId).run();
  return false;
}

interface CommentRow {
  id: number;
  characterId: number;
  userId: string;
  content: string;
  parentId: number | null;
  votes: number;
  createdAt: number;
  username: string;
  profileImageUrl: string | null;
}

const COMMENT_COLUMNS = `c.id, c.character_id AS characterId, c.user_id AS userId, c.content,
  c.parent_id AS parentId, c.votes, c.created_at AS createdAt, u.username,
  u.profile_image_url AS profileImageUrl`;

function toComment(row: CommentRow): Comment {
  return { ...row, createdAt: new Date(row.createdAt).toISOString(), replies: [] };
}

/**
 * The discussion of a character: top-level comments newest first, each with
 * its replies (any depth) nested oldest first. For a signed-in `viewerId`,
 * the comments of people they blocked are left out with every reply beneath
 * them (worker/lib/blocks.ts `hiddenCommentsSql` counts the same ones).
 */
export async function listComments(db: D1Database, characterId: number, viewerId: string | null = null): Promise<Comment[]> {
  const { results } = await db
    .prepare(
      `SELECT ${COMMENT_COLUMNS},
         EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_id = ?2 AND b.blocked_id = c.user_id) AS hidden
       FROM comments c JOIN users u ON u.id = c.user_id
       WHERE c.character_id = ?1 ORDER BY c.created_at, c.id`,
    )
    .bind(characterId, viewerId)
    .all<CommentRow & { hidden: number }>();
  const byId = new Map<number, Comment>();
  const hidden = new Set<number>();
  const roots: Comment[] = [];
  for (const { hidden: isHidden, ...row } of results) {
    byId.set(row.id, toComment(row));
    if (isHidden) hidden.add(row.id);
  }
  // Oldest first, so a parent is placed (or hidden) before its replies.
  for (const comment of byId.values()) {
    const parentHidden = comment.parentId !== null && hidden.has(comment.parentId);
    if (parentHidden) hidden.add(comment.id);
    if (hidden.has(comment.id)) continue;
    const parent = comment.parentId === null ? undefined : byId.get(comment.parentId);
    if (parent) parent.replies.push(comment);
    else roots.push(comment);
  }
  return roots.reverse();
}

export type PostCommentResult = { ok: true; comment: Comment } | { ok: false; reason: "parent_not_found" };

/**
 * Adds a comment (or a reply when `parentId` is given; the parent must be a
 * comment of the same character). The insert itself checks the parent, so a
 * parent deleted meanwhile cannot leave an orphan.
 *
 * The answer is built by the insert's own RETURNING (the author's name and
 * picture read in the same statement), never by a second read: the author's
 * account may be deleted just after, taking the comment with it (its
 * deletion batch, worker/lib/account/deletion.ts), and a read-back would
 * find nothing. An author already gone before the insert fails its foreign
 * key (`FOREIGN KEY constraint failed`, which worker/app.ts answers 404).
 */
export async function postComment(
  db: D1Database,
  input: { characterId: number; userId: string; content: string; parentId: number | null },
): Promise<PostCommentResult> {
  const row = await db
    .prepare(
      `INSERT INTO comments (character_id, user_id, content, parent_id)
       SELECT ?1, ?2, ?3, ?4
       WHERE ?4 IS NULL OR EXISTS (SELECT 1 FROM comments p WHERE p.id = ?4 AND p.character_id = ?1)
       RETURNING id, character_id AS characterId, user_id AS userId, content, parent_id AS parentId, votes,
         created_at AS createdAt,
         (SELECT username FROM users u WHERE u.id = user_id) AS username,
         (SELECT profile_image_url FROM users u WHERE u.id = user_id) AS profileImageUrl`,
    )
    .bind(input.characterId, input.userId, input.content, input.parentId)
    .first<CommentRow>();
  if (!row) return { ok: false, reason: "parent_not_found" };
  return { ok: true, comment: toComment(row) };
}

/**
 * A comment the viewer may see: its character is active, or inactive (or
 * removed by moderation, which makes it inactive) and the viewer's own
 * (DESIGN.md "Inactive characters": everything hanging off a hidden
 * character is 404 to everyone but its owner). Null otherwise.
 */
export async function findVisibleComment(
  db: D1Database,
  id: number,
  viewerId: string | null,
): Promise<{ id: number; userId: string; characterId: number } | null> {
  return db
    .prepare(
      `SELECT m.id, m.user_id AS userId, m.character_id AS characterId
       FROM comments m JOIN characters c ON c.id = m.character_id
       WHERE m.id = ? AND ${visibleToSql("c", "?")}`,
    )
    .bind(id, viewerId)
    .first();
}

/**
 * Deletes a comment with every reply beneath it and their votes (foreign-key
 * cascades; the count triggers fire for each). Returns how many comments went.
 */
export async function deleteCommentThread(db: D1Database, id: number): Promise<number> {
  const [counted] = await db.batch<{ n: number }>([
    db
      .prepare(
        `WITH RECURSIVE thread(id) AS (
           SELECT ?1 UNION ALL SELECT c.id FROM comments c JOIN thread t ON c.parent_id = t.id)
         SELECT count(*) AS n FROM thread`,
      )
      .bind(id),
    db.prepare("DELETE FROM comments WHERE id = ?").bind(id),
  ]);
  return counted?.results[0]?.n ?? 0;
}

/** A comment's net `votes` (up minus down, kept by the triggers of migrations/0002); 0 when it does not exist. */
export async function commentVotes(db: D1Database, commentId: number): Promise<number> {
  const row = await db.prepare("SELECT votes FROM comments WHERE id = ?").bind(commentId).first<{ votes: number }>();
  return row?.votes ?? 0;
}

export async function getVote(db: D1Database, commentId: number, userId: string): Promise<1 | -1 | null> {
  const row = await db
    .prepare("SELECT value FROM comment_votes WHERE comment_id = ? AND user_id = ?")
    .bind(commentId, userId)
    .first<{ value: 1 | -1 }>();
  return row?.value ?? null;
}

/**
 * Votes on a comment (DESIGN.md "Votes"): the same value again removes the
 * vote, the opposite value switches it. Returns the person's vote afterwards.
 * Step one removes a vote of exactly this value; only if there was none does
 * step two insert or switch it (upsert on the one-vote-per-person index).
 */
export async function castVote(db: D1Database, commentId: number, userId: string, value: 1 | -1): Promise<1 | -1 | null> {
  const removed = await db
    .prepare("DELETE FROM comment_votes WHERE comment_id = ? AND user_id = ? AND value = ? RETURNING id")
    .bind(commentId, userId, value)
    .first();
  if (removed) return null;
  await db
    .prepare(
      `INSERT INTO comment_votes (comment_id, user_id, value) VALUES (?, ?, ?)
       ON CONFLICT (comment_id, user_id) DO UPDATE SET value = excluded.value`,
    )
    .bind(commentId, userId, value)
    .run();
  return value;
}
