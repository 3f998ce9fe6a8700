/**
 * Blocking (issue 35; DESIGN.md turn 4 "Your account, your data"; rules in
 * worker/lib/blocks.ts and docs/decisions/0030-blocking.md). Mounted at /api.
 *
 * | call | answer |
 * | --- | --- |
 * | `PUT /users/:username/block` | 204; idempotent; ends both follows and each one's place in the other's rooms; 400 "You cannot block yourself"; 404 "Person not found"; 409 past MAX_BLOCKS |
 * | `DELETE /users/:username/block` | 204; idempotent; same 400 / 404 |
 * | `GET /blocks` | 200 `BlockedPerson[]`, the caller's own list, newest first |
 *
 * Visitors get 401. Every answer is `private, no-store` (the `/api/*`
 * default). Blocking and unblocking count against WRITE_RATE_LIMITER.
 */
import { Hono } from "hono";
import type { BlockedPerson } from "../../schema/api.ts";
import type { AppEnv } from "../env.ts";
import { afterResponse } from "../lib/after-response.ts";
import { blockPerson, listBlocks, unblockPerson } from "../lib/blocks.ts";
import { inbox } from "../lib/notifications/notify.ts";
import { conversationRoom } from "../lib/conversations.ts";
import { limitWrites } from "../middleware/rate-limit.ts";
import { requireUser } from "../middleware/session.ts";

export const blocksRoutes = new Hono<AppEnv>()
  .get("/blocks", requireUser, async (c) => {
    return c.json((await listBlocks(c.env.DB, c.var.user.id)) satisfies BlockedPerson[], 200);
  })
  .put("/users/:username/block", requireUser, limitWrites("WRITE_RATE_LIMITER"), async (c) => {
    const { blockedId, left } = await blockPerson(c.env.DB, c.var.user.id, c.req.param("username"));
    // Neither hears of the other any more: each one's part leaves the other's notifications (their badges follow).
    await afterResponse(
      c,
      Promise.all([inbox(c.env, c.var.user.id).forgetActor(blockedId), inbox(c.env, blockedId).forgetActor(c.var.user.id)]).catch((error: unknown) =>
        console.warn("block: could not take notifications back", String(error)),
      ),
    );
    // The rows are gone, so every later read or socket upgrade of theirs is a 404; open sockets close now.
    await Promise.all(
      left.map(({ conversationId, userId }) =>
        conversationRoom(c.env, conversationId)
          .removePerson(userId)
          .catch((error: unknown) => console.error("block: the room did not close a removed person's sockets", conversationId, error)),
      ),
    );
    return c.body(null, 204);
  })
  .delete("/users/:username/block", requireUser, limitWrites("WRITE_RATE_LIMITER"), async (c) => {
    await unblockPerson(c.env.DB, c.var.user.id, c.req.param("username"));
    return c.body(null, 204);
  });
