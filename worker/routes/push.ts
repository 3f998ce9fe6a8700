/**
 * Web Push subscriptions (issue 39, DESIGN.md turn 4 "Notifications";
 * docs/decisions/0037-notifications.md):
 *
 * | call | answer |
 * |---|---|
 * | `GET /api/push/key` | 200 `{publicKey}`: the site's VAPID public key (base64url, uncompressed P-256); 503 `unavailable` when the site has none configured |
 * | `POST /api/push/subscriptions` `{endpoint, keys: {p256dh, auth}}` | 201 `{endpoint}`; the same endpoint again replaces its keys (a browser signed into another account moves to it); 400 an endpoint refused by the model connections' address rules (https only, no private or loopback address outside development, not this site) or malformed keys |
 * | `DELETE /api/push/subscriptions` `{endpoint}` | 204; an endpoint that is not one of the caller's is left alone (204 all the same: nothing tells whose it is) |
 *
 * Signed in only (401). The rows live in D1 (`push_subscriptions`), one
 * per device, deleted with the account (worker/lib/account/deletion.ts
 * PERSON_DATA).
 */
import { Hono } from "hono";
import { endpointProblem } from "../../ai/endpoint-guard.ts";
import { pushSubscriptionInputSchema, pushUnsubscribeInputSchema } from "../../schema/notifications.ts";
import type { AppEnv } from "../env.ts";
import { ApiError } from "../lib/errors.ts";
import { endpointPolicy } from "../lib/model-connections.ts";
import { validate } from "../lib/validate.ts";
import { limitWrites } from "../middleware/rate-limit.ts";
import { requireUser } from "../middleware/session.ts";

/** Devices one person may subscribe; the oldest beyond it is forgotten. */
export const MAX_PUSH_SUBSCRIPTIONS = 20;

function refused(message: string): ApiError {
  return new ApiError("validation_failed", message, { issues: [{ path: "endpoint", message }] });
}

/** Mounted at /api/push. */
export const pushRoutes = new Hono<AppEnv>()
  .get("/key", (c) => {
    const publicKey = (c.env as { VAPID_PUBLIC_KEY?: string }).VAPID_PUBLIC_KEY?.trim();
    if (!publicKey) throw new ApiError("unavailable", "Push notifications are not set up on this site.");
    return c.json({ publicKey }, 200);
  })
  .post("/subscriptions", requireUser, limitWrites("WRITE_RATE_LIMITER"), validate("json", pushSubscriptionInputSchema), async (c) => {
    const user = c.get("user")!;
    const { endpoint, keys } = c.req.valid("json");
    // A push service is an address the site fetches on the person's behalf: the model connections' rules (ai/endpoint-guard.ts), https always.
    const problem = endpointProblem(endpoint, endpointPolicy(c.env, c.req.url));
    if (problem) throw refused(problem.replace(/^Base URL/, "The push endpoint"));
    if (!endpoint.startsWith("https://")) throw refused("The push endpoint must start with https://");
    await c.env.DB.batch([
      c.env.DB.prepare(
        `INSERT INTO push_subscriptions (id, user_id, endpoint, p256dh, auth, user_agent) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (endpoint) DO UPDATE SET user_id = excluded.user_id, p256dh = excluded.p256dh, auth = excluded.auth,
           user_agent = excluded.user_agent, created_at = cast(unixepoch('subsec') * 1000 as integer)`,
      ).bind(crypto.randomUUID(), user.id, endpoint, keys.p256dh, keys.auth, c.req.header("user-agent")?.slice(0, 300) ?? null),
      c.env.DB.prepare(
        `DELETE FROM push_subscriptions WHERE user_id = ?1 AND id NOT IN
           (SELECT id FROM push_subscriptions WHERE user_id = ?1 ORDER BY created_at DESC LIMIT ?2)`,
      ).bind(user.id, MAX_PUSH_SUBSCRIPTIONS),
    ]);
    return c.json({ endpoint }, 201);
  })
  .delete("/subscriptions", requireUser, validate("json", pushUnsubscribeInputSchema), async (c) => {
    await c.env.DB.prepare("DELETE FROM push_subscriptions WHERE user_id = ? AND endpoint = ?").bind(c.get("user")!.id, c.req.valid("json").endpoint).run();
    return c.body(null, 204);
  });
