/**
 * Per-person rate limits on writes through the Workers rate-limit bindings
 * (wrangler.toml `[[ratelimits]]`). Keyed by the signed-in user's id, so it
 * must run after requireUser. Over the limit: 429 `rate_limited` with
 * `Retry-After` (the binding's window, seconds).
 */
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env.ts";
import { ApiError } from "../lib/errors.ts";

export const limitWrites = (binding: "WRITE_RATE_LIMITER" | "MESSAGE_RATE_LIMITER", windowSeconds = 60) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const user = c.get("user");
    if (user) {
      const { success } = await c.env[binding].limit({ key: user.id });
      if (!success) {
        throw new ApiError("rate_limited", "You're doing that too often. Please wait a minute and try again.", {
          retryAfter: windowSeconds,
        });
      }
    }
    await next();
  });
