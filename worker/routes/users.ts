/**
 * `/api/users/:username` — creators' public pages and following them
 * (issue 16). `:username` is any spelling of the name ("nightowl",
 * "@nightowl", "@NightOwl"; schema/usernames.ts). A creator's characters are
 * `GET /api/characters?creator=…` (the catalog's query and rules).
 *
 * | call | answer |
 * | --- | --- |
 * | `GET /:username` | 200 `CreatorProfile`; `isFollowing` and `isBlocked` for a signed-in caller other than the creator; 404 "Creator not found" |
 * | `PUT /:username/follow` | 200 `FollowStatus` (following; idempotent); 401 visitors; 400 "You cannot follow yourself"; 404; 403 across a block (worker/lib/blocks.ts) |
 * | `DELETE /:username/follow` | 200 `FollowStatus` (not following; idempotent); same errors |
 *
 * What a signed-in caller gets depends on who asks: `Cache-Control:
 * private, no-store`. A visitor's profile is the same for everyone and kept
 * in the edge cache (worker/middleware/edge-cache.ts) under the name's
 * canonical, lower-case spelling, within the cache's staleness bound.
 * Follows count against WRITE_RATE_LIMITER.
 */
import { Hono } from "hono";
import type { CreatorProfile, FollowStatus } from "../../schema/api.ts";
import type { AppEnv } from "../env.ts";
import { afterResponse } from "../lib/after-response.ts";
import { creatorNotFound, getCreatorProfile, setFollowing } from "../lib/creators.ts";
import { followStarted } from "../lib/notifications/producers.ts";
import { usernameKey } from "../lib/users.ts";
import { edgeCache } from "../middleware/edge-cache.ts";
import { limitWrites } from "../middleware/rate-limit.ts";
import { requireUser } from "../middleware/session.ts";

const cachedProfile = edgeCache({
  target: (c) => ({ path: `/api/users/${encodeURIComponent(usernameKey(c.req.param("username") ?? ""))}` }),
});

export const usersRoutes = new Hono<AppEnv>()
  .get("/:username", cachedProfile, async (c) => {
    const viewer = c.get("user");
    const profile = await getCreatorProfile(c.env.DB, c.req.param("username"), viewer?.id ?? null);
    if (!profile) throw creatorNotFound();
    if (viewer) c.header("Cache-Control", "private, no-store");
    return c.json(profile satisfies CreatorProfile, 200);
  })
  .put("/:username/follow", requireUser, limitWrites("WRITE_RATE_LIMITER"), async (c) => {
    const { followeeId, started, ...status } = await setFollowing(c.env.DB, c.var.user.id, c.req.param("username"), true);
    if (started) await afterResponse(c, followStarted(c.env, c.var.user.id, followeeId));
    c.header("Cache-Control", "private, no-store");
    return c.json(status satisfies FollowStatus, 200);
  })
  .delete("/:username/follow", requireUser, limitWrites("WRITE_RATE_LIMITER"), async (c) => {
    const { followeeId: _followee, started: _started, ...status } = await setFollowing(c.env.DB, c.var.user.id, c.req.param("username"), false);
    c.header("Cache-Control", "private, no-store");
    return c.json(status satisfies FollowStatus, 200);
  });
