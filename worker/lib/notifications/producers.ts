/**
 * The acts of the Worker that notify someone (notify.ts says the rules:
 * never one's own act, never across a block). Each runs after the act's
 * answer (`afterResponse`) and never throws: a notification that cannot be
 * delivered is logged, the act stands.
 */
import { isFavoriteMilestone } from "../../../schema/notifications.ts";
import { notifyLater, targets } from "./notify.ts";

/**
 * A comment was posted: the author of the comment it replies to gets
 * `comment_reply` (folded per parent comment); the character's creator
 * gets `character_comment` (folded per character) unless they are that
 * parent's author (their reply notification says it already).
 */
export async function commentPosted(
  env: Env,
  comment: { id: number; characterId: number; authorId: string; parentId: number | null },
): Promise<void> {
  const row = await env.DB.prepare(
    `SELECT c.name, c.creator_id AS creatorId, (SELECT p.user_id FROM comments p WHERE p.id = ?2) AS parentAuthorId
     FROM characters c WHERE c.id = ?1`,
  )
    .bind(comment.characterId, comment.parentId)
    .first<{ name: string; creatorId: string | null; parentAuthorId: string | null }>()
    .catch((error: unknown) => {
      console.warn("could not read a comment's character for its notifications", String(error));
      return null;
    });
  if (!row) return;
  const target = targets.comment(comment.id, comment.characterId, row.name);
  const scope = { type: "character" as const, id: String(comment.characterId) };
  const work: Promise<void>[] = [];
  if (comment.parentId !== null && row.parentAuthorId) {
    work.push(notifyLater(env, row.parentAuthorId, comment.authorId, { kind: "comment_reply", target, scope, foldKey: `comment_reply:${comment.parentId}` }));
  }
  if (row.creatorId && row.creatorId !== row.parentAuthorId) {
    work.push(notifyLater(env, row.creatorId, comment.authorId, { kind: "character_comment", target, scope, foldKey: `character_comment:${comment.characterId}` }));
  }
  await Promise.all(work);
}

/** `followerId` started following `followeeId`: one `new_follower`, folded with the others while unread. */
export async function followStarted(env: Env, followerId: string, followeeId: string): Promise<void> {
  await notifyLater(env, followeeId, followerId, { kind: "new_follower", target: targets.person, foldKey: "new_follower", scope: null });
}

/**
 * `userId` joined the room `conversationId`: its owner and the members
 * already in get `room_joined` (folded per room).
 */
export async function roomJoined(env: Env, conversationId: string, userId: string): Promise<void> {
  const { results } = await env.DB.prepare(
    `SELECT v.title, v.user_id AS personId FROM conversations v WHERE v.id = ?1
     UNION ALL SELECT v.title, m.user_id FROM conversation_members m JOIN conversations v ON v.id = m.conversation_id
     WHERE m.conversation_id = ?1 AND m.user_id != ?2`,
  )
    .bind(conversationId, userId)
    .all<{ title: string; personId: string }>();
  const target = targets.conversation(conversationId, results[0]?.title ?? "a shared chat");
  await Promise.all(
    results.map((row) =>
      notifyLater(env, row.personId, userId, {
        kind: "room_joined",
        target,
        scope: { type: "conversation", id: conversationId },
        foldKey: `room_joined:${conversationId}`,
      }),
    ),
  );
}

/**
 * A favorite brought character `characterId` to `favoriteCount`: at 10,
 * 100, 1,000 … its creator gets `favorite_milestone`, once per milestone
 * (favoriting again after an unfavorite tells nothing new). The creator's
 * own favorite reaching it tells them nothing: it was their act.
 */
export async function favoriteCounted(env: Env, characterId: number, favoriteCount: number, favoritedBy: string): Promise<void> {
  if (!isFavoriteMilestone(favoriteCount)) return;
  const row = await env.DB.prepare("SELECT name, creator_id AS creatorId FROM characters WHERE id = ?")
    .bind(characterId)
    .first<{ name: string; creatorId: string | null }>();
  if (!row?.creatorId || row.creatorId === favoritedBy) return;
  await notifyLater(env, row.creatorId, null, {
    kind: "favorite_milestone",
    target: targets.character(characterId, row.name),
    scope: { type: "character", id: String(characterId) },
    foldKey: `favorite_milestone:${characterId}:${favoriteCount}`,
    milestone: favoriteCount,
    once: true,
  });
}
