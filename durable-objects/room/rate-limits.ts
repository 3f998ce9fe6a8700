/**
 * Rate limits of reply rounds (docs/decisions/0020): which limiter a round
 * counts against, asking it, and the `rate_limited` error frame a refused
 * person gets (with how long to wait).
 */
import type { ServerFrame } from "../../schema/chat-frames.ts";

/**
 * What a round counts against: a person's new message (MESSAGE_RATE_LIMITER,
 * 20 a minute) or a new version of a reply — regenerate, continue
 * (REPLY_RATE_LIMITER, 60 a minute). Limits are in wrangler.toml.
 */
export type RoundKind = "message" | "reply";

const RATE_LIMITERS = { message: "MESSAGE_RATE_LIMITER", reply: "REPLY_RATE_LIMITER" } as const satisfies Record<RoundKind, keyof Env>;

/**
 * The limiters' window, ms (`period = 60` in wrangler.toml). Cloudflare's and
 * miniflare's limiters count in windows aligned to the clock
 * (`floor(now / period)`), so a refused request is admitted again when the
 * current window ends.
 */
export const RATE_WINDOW_MS = 60_000;

/**
 * The `rate_limited` error frame for a round of `kind` refused at `now` (ms
 * since the epoch): `retryAfterMs` until the limiter's window ends, and the
 * same wait in whole seconds (rounded up) in its sentence.
 */
export function rateLimitedFrame(kind: RoundKind, now: number, clientId?: string): ServerFrame {
  const retryAfterMs = RATE_WINDOW_MS - (now % RATE_WINDOW_MS);
  const seconds = Math.ceil(retryAfterMs / 1000);
  const what = kind === "message" ? "You're sending messages too fast." : "You're asking for new replies too fast.";
  return { type: "error", code: "rate_limited", message: `${what} Please try again in ${seconds} s.`, retryAfterMs, ...(clientId ? { clientId } : {}) };
}

/**
 * True when `userId` may start a round of `kind` now (its limiter, keyed by
 * user). Never throws: a limiter outage admits (it must not stop conversations).
 */
export async function withinRateLimit(env: Env, kind: RoundKind, userId: string): Promise<boolean> {
  try {
    return (await env[RATE_LIMITERS[kind]].limit({ key: userId })).success;
  } catch (error) {
    console.warn("message rate limiter failed", String(error));
    return true;
  }
}
