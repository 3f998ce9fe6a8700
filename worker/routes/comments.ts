/**
 * Comments and comment votes (SPEC.md §7, DESIGN.md "Votes"):
 * `/api/characters/:id/comments` and `/api/comments/:id[/vote]`.
 *
 * A comment of a hidden character (inactive, or removed by moderation) is
 * 404 to everyone but the character's owner, for every verb: reading,
 * voting, replying and deleting (its author included, so a 403 never tells
 * that it exists). docs/decisions/0008-trust-and-safety.md "Enforcement".
 *
 * Blocks (worker/lib/blocks.ts, docs/decisions/0030-blocking.md): nobody
 * comments on the characters of, replies to or votes on the comments of a
 * person a block separates them from, either way (403); a signed-in
 * person's list leaves out the comments of people they blocked, with the
 * replies beneath them (their answer is never edge-cached: it depends on
 * who asks).
 */
import { Hono } from "hono";
import type { VoteStatus } from "../../schema/api.ts";
import { commentInputSchema, voteInputSchema } from "../../schema/inputs.ts";
import type { AppEnv } from "../env.ts";
import {
  castVote,
  commentVotes,
  deleteCommentThread,
  findVisibleComment,
  findVisibleCharacter,
  getVote,
  listComments,
  postComment,
} from "../lib/community.ts";
import { afterResponse } from "../lib/after-response.ts";
import { refuseIfBlocked } from "../lib/blocks.ts";
import { commentPosted } from "../lib/notifications/producers.ts";
import { ApiError, forbidden, notFound } from "../lib/errors.ts";
import { parseCharacterId, parseCommentId } from "../lib/ids.ts";
import { screenWrite, TEXT_OF } from "../lib/screening.ts";
import { validate } from "../lib/validate.ts";
import { limitWrites } from "../middleware/rate-limit.ts";
import { characterTarget, edgeCache, purgeCharacterCache } from "../middleware/edge-cache.ts";
import { requireUser } from "../middleware/session.ts";

/** Mounted at /api/characters. */
export const characterCommentsRoutes = new Hono<AppEnv>()
  .get("/:id/comments", edgeCache({ target: (c) => characterTarget(c, "/comments") }), async (c) => {
    const id = parseCharacterId(c.req.param("id"));
    const viewerId = c.get("user")?.id ?? null;
    if (!(await findVisibleCharacter(c.env.DB, id, viewerId))) throw notFound("Character not found");
    return c.json(await listComments(c.env.DB, id, viewerId), 200);
  })
  .post("/:id/comments", requireUser, limitWrites("WRITE_RATE_LIMITER"), validate("json", commentInputSchema), async (c) => {
    const id = parseCharacterId(c.req.param("id"));
    const user = c.get("user")!;
    const character = await findVisibleCharacter(c.env.DB, id, user.id);
    if (!character) throw notFound("Character not found");
    const { content, parentId } = c.req.valid("json");
    await refuseIfBlocked(c.env.DB, user.id, character.creatorId, "comment");
    if (parentId !== undefined && parentId !== null) {
      const parent = await findVisibleComment(c.env.DB, parentId, user.id);
      if (parent) await refuseIfBlocked(c.env.DB, user.id, parent.userId, "reply");
    }
    // Public text: screened whole before it is stored (issue 21); 422 / 503 store nothing.
    await screenWrite(c.env, {
      subjectType: "comment",
      text: TEXT_OF.comment(c.req.valid("json")),
      nsfw: character.isNsfw,
      who: { userId: user.id, characterId: id },
    });
    const result = await postComment(c.env.DB, { characterId: id, userId: user.id, content, parentId: parentId ?? null });
    if (!result.ok) {
      throw new ApiError("validation_failed", "You can only reply to a comment on this character", {
        issues: [{ path: "parentId", message: "You can only reply to a comment on this character" }],
      });
    }
    await purgeCharacterCache(c, id);
    // The creator and the author replied to are told after the answer (worker/lib/notifications/).
    await afterResponse(c, commentPosted(c.env, { id: result.comment.id, characterId: id, authorId: user.id, parentId: parentId ?? null }));
    return c.json(result.comment, 201);
  });

/** Mounted at /api/comments. */
export const commentsRoutes = new Hono<AppEnv>()
  .delete("/:id", requireUser, limitWrites("WRITE_RATE_LIMITER"), async (c) => {
    const id = parseCommentId(c.req.param("id"));
    const comment = await findVisibleComment(c.env.DB, id, c.get("user")!.id);
    if (!comment) throw notFound("Comment not found");
    if (comment.userId !== c.get("user")!.id) throw forbidden("Only the author can delete this comment");
    const deleted = await deleteCommentThread(c.env.DB, id);
    await purgeCharacterCache(c, comment.characterId);
    return c.json({ deleted }, 200);
  })
  .get("/:id/vote", requireUser, async (c) => {
    const id = parseCommentId(c.req.param("id"));
    if (!(await findVisibleComment(c.env.DB, id, c.get("user")!.id))) throw notFound("Comment not found");
    return c.json({ vote: await getVote(c.env.DB, id, c.get("user")!.id) } satisfies VoteStatus, 200);
  })
  .post("/:id/vote", requireUser, limitWrites("WRITE_RATE_LIMITER"), validate("json", voteInputSchema), async (c) => {
    const id = parseCommentId(c.req.param("id"));
    const comment = await findVisibleComment(c.env.DB, id, c.get("user")!.id);
    if (!comment) throw notFound("Comment not found");
    await refuseIfBlocked(c.env.DB, c.get("user")!.id, comment.userId, "vote");
    const vote = await castVote(c.env.DB, id, c.get("user")!.id, c.req.valid("json").value);
    return c.json({ vote, votes: await commentVotes(c.env.DB, id) }, 200);
  });
