/**
 * Creators and the people who follow them, and a person's favorites list
 * (issue 16 "Finding and following"), on D1.
 *
 * - A creator is any account, found by username in its canonical form
 *   ("@name", compared case-insensitively: schema/usernames.ts).
 * - Following is one `follows` row per (follower, creator); follower counts
 *   are `count(*)` over `follows_followee_idx`, so they are exact whatever
 *   the concurrency: a follow and its count are one batch (one transaction).
 * - The Favorites list shows what the person favorited, newest favorite
 *   first, with the visibility of the character page: active characters,
 *   plus the person's own inactive ones (DESIGN.md "Inactive characters");
 *   a character deactivated or removed by someone else is hidden and comes
 *   back if it is reactivated or restored. NSFW characters only with
 *   `showNsfw=true`, as on Home.
 */
import type { CatalogCharacter, CreatorProfile, FollowStatus } from "../../schema/api.ts";
import type { FavoritesQuery } from "../../schema/inputs.ts";
import { SUMMARY_COLUMNS, toCatalogCharacter, type Row } from "./catalog-rows.ts";
import { refuseIfBlocked } from "./blocks.ts";
import { ApiError, notFound } from "./errors.ts";
import { listedSql, visibleToSql } from "./listable.ts";
import { canonicalUsername } from "./users.ts";

/** 404 for a username nobody holds. */
export const creatorNotFound = () => notFound("Creator not found");

/**
 * The public page of the person holding `username` (any spelling), with
 * `isFollowing` and `isBlocked` (whether the viewer blocked them) when
 * `viewerId` is someone else signed in. Null when nobody
 * holds the name. Counts: see `CreatorProfile` (schema/api.ts).
 */
export async function getCreatorProfile(
  db: D1Database,
  username: string,
  viewerId: string | null,
): Promise<CreatorProfile | null> {
  const row = await db
    .prepare(
      `SELECT u.id, u.username, u.name, u.profile_image_url AS profileImageUrl, u.bio, u.created_at AS createdAt,
         (SELECT count(*) FROM characters c WHERE c.creator_id = u.id AND ${listedSql("c")}) AS characterCount,
         (SELECT coalesce(sum(c.favorite_count), 0) FROM characters c WHERE c.creator_id = u.id AND ${listedSql("c")}) AS favoriteCount,
         (SELECT count(*) FROM characters c JOIN conversations v ON v.character_id = c.id
           WHERE c.creator_id = u.id AND ${listedSql("c")}) AS chatCount,
         (SELECT count(*) FROM follows f WHERE f.followee_id = u.id) AS followerCount,
         EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = ?2 AND f.followee_id = u.id) AS isFollowing,
         EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_id = ?2 AND b.blocked_id = u.id) AS isBlocked
       FROM users u WHERE lower(u.username) = lower(?1)`,
    )
    .bind(canonicalUsername(username), viewerId)
    .first<Row>();
  if (!row) return null;
  const profile: CreatorProfile = {
    id: String(row.id),
    username: String(row.username),
    name: (row.name as string | null) || null,
    profileImageUrl: (row.profileImageUrl as string | null) ?? null,
    bio: (row.bio as string | null) || null,
    createdAt: new Date(Number(row.createdAt)).toISOString(),
    characterCount: Number(row.characterCount),
    favoriteCount: Number(row.favoriteCount),
    chatCount: Number(row.chatCount),
    followerCount: Number(row.followerCount),
  };
  if (viewerId && viewerId !== profile.id) {
    profile.isFollowing = Boolean(row.isFollowing);
    profile.isBlocked = Boolean(row.isBlocked);
  }
  return profile;
}

/**
 * Starts (`follow: true`) or stops following the person holding `username`.
 * Idempotent: following twice keeps one row. Returns the new state with the
 * exact follower count, read in the same transaction as the write.
 * Throws 404 for an unknown name, 400 when `followerId` holds it, 403 when
 * starting to follow across a block either way (worker/lib/blocks.ts; the
 * blocked person is not told why). Stopping is always allowed.
 */
export async function setFollowing(
  db: D1Database,
  followerId: string,
  username: string,
  follow: boolean,
): Promise<FollowStatus & { followeeId: string; started: boolean }> {
  const creator = await db
    .prepare("SELECT id FROM users WHERE lower(username) = lower(?)")
    .bind(canonicalUsername(username))
    .first<{ id: string }>();
  if (!creator) throw creatorNotFound();
  if (creator.id === followerId) throw new ApiError("validation_failed", "You cannot follow yourself");
  if (follow) await refuseIfBlocked(db, followerId, creator.id, "follow");
  const write = follow
    ? db.prepare("INSERT INTO follows (follower_id, followee_id) VALUES (?, ?) ON CONFLICT DO NOTHING RETURNING follower_id")
    : db.prepare("DELETE FROM follows WHERE follower_id = ? AND followee_id = ?");
  const [written, counted] = await db.batch<{ followerCount: number }>([
    write.bind(followerId, creator.id),
    db.prepare("SELECT count(*) AS followerCount FROM follows WHERE followee_id = ?").bind(creator.id),
  ]);
  return {
    isFollowing: follow,
    followerCount: Number(counted?.results[0]?.followerCount ?? 0),
    followeeId: creator.id,
    // A follow that began now (not one already there): its creator is notified.
    started: follow && (written?.results.length ?? 0) > 0,
  };
}

/**
 * `GET /api/favorites`: one page of `userId`'s favorites, newest favorite
 * first (ties: the later favorite row), each with `isFavorited: true`, and
 * the exact total, in one round trip. Visibility: see the module comment.
 */
export async function listFavorites(
  db: D1Database,
  userId: string,
  query: FavoritesQuery,
): Promise<{ characters: CatalogCharacter[]; total: number }> {
  const where = `f.user_id = ?1 AND ${visibleToSql("c", "?1")}${query.showNsfw === "true" ? "" : " AND c.is_nsfw = 0"}`;
  const [page, counted] = await db.batch<Row>([
    db
      .prepare(
        `SELECT ${SUMMARY_COLUMNS}, 1 AS isFavorited FROM favorites f JOIN characters c ON c.id = f.character_id
         WHERE ${where} ORDER BY f.created_at DESC, f.id DESC LIMIT ?2 OFFSET ?3`,
      )
      .bind(userId, query.limit, query.offset),
    db.prepare(`SELECT count(*) AS total FROM favorites f JOIN characters c ON c.id = f.character_id WHERE ${where}`).bind(userId),
  ]);
  return { characters: (page?.results ?? []).map(toCatalogCharacter), total: Number(counted?.results[0]?.total ?? 0) };
}
