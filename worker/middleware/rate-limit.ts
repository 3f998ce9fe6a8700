/**
 * Per-person rate limits through the Workers rate-limit bindings
 * (wrangler.toml `[[ratelimits]]`). Keyed by the signed-in user's id, so it
 * must run after requireUser (a visitor passes unlimited: every route it
 * guards needs a session). Over the limit: 429 `rate_limited` with
 * `Retry-After` (the binding's window, seconds).
 *
 * - `WRITE_RATE_LIMITER` (120 a minute): writes — characters, comments and
 *   their deletion, votes, favorites, uploads and avatar registration,
 *   profile saves.
 * - `MESSAGE_RATE_LIMITER` (20 a minute): chat messages.
 * - `SPEECH_RATE_LIMITER` (30 a minute): voice previews not cached yet and
 *   transcriptions. Replies read aloud count audio seconds instead
 *   (worker/lib/speech-budget.ts).
 * - `LOOKUP_RATE_LIMITER` (60 a minute): reads that could enumerate, such as
 *   username availability.
 */
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env.ts";
import { ApiError } from "../lib/errors.ts";

/** The rate-limit bindings of wrangler.toml. */
export type RateLimiterBinding = "WRITE_RATE_LIMITER" | "MESSAGE_RATE_LIMITER" | "LOOKUP_RATE_LIMITER" | "SPEECH_RATE_LIMITER";

/**
 * Middleware counting each request of the signed-in person against
 * `binding`; over its limit it throws 429 `rate_limited` with
 * `Retry-After: windowSeconds`.
 */
export const limitWrites = (binding: RateLimiterBinding, windowSeconds = 60) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const user = c.get("user");
    if (user) await countAgainstLimit(c.env, binding, user.id, windowSeconds);
    await next();
  });

/**
 * Counts one request of `userId` against `binding`, for a route that counts
 * only some of its requests (a voice preview made, not one from the cache).
 *
 * @throws ApiError 429 `rate_limited` with `Retry-After: windowSeconds` over the limit.
 */
export async function countAgainstLimit(env: Env, binding: RateLimiterBinding, userId: string, windowSeconds = 60): Promise<void> {
  const { success } = await env[binding].limit({ key: userId });
  if (!success) {
    throw new ApiError("rate_limited", "You're doing that too often. Please wait a minute and try again.", {
      retryAfter: windowSeconds,
    });
  }
}
