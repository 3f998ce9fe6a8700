/**
 * A room's invitation link, asked about by someone a block separates from
 * the room's owner (either way; worker/lib/blocks.ts): answered before the
 * route. The person the owner blocked gets the 404 of an unknown link, for
 * the preview and the join alike, so the block is not revealed; the person
 * who blocked the owner is told so (403). Visitors and everyone else pass.
 */
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env.ts";
import { inviteOwnerId, refuseIfBlocked } from "../lib/blocks.ts";

export const refuseBlockedInvite = createMiddleware<AppEnv>(async (c, next) => {
  const user = c.get("user");
  if (user) {
    const ownerId = await inviteOwnerId(c.env.DB, c.req.param("token") ?? "");
    await refuseIfBlocked(c.env.DB, user.id, ownerId, "join");
  }
  await next();
});
