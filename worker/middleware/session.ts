/**
 * Session and request-origin middleware for `/api/*`.
 */
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env.ts";
import { ApiError, unauthorized } from "../lib/errors.ts";
import { clearSessionCookie, readSessionCookie, setSessionCookie, validateSessionToken } from "../lib/sessions.ts";

/**
 * Reads the session cookie and sets `c.var.user` (null for visitors). A
 * renewed session gets a fresh cookie; an unknown or expired one is cleared.
 */
export const session = createMiddleware<AppEnv>(async (c, next) => {
  c.set("user", null);
  const token = readSessionCookie(c);
  if (token) {
    const result = await validateSessionToken(c.env.DB, token);
    if (result) {
      c.set("user", result.user);
      if (result.renewedExpire !== null) setSessionCookie(c, token, result.renewedExpire);
    } else {
      clearSessionCookie(c);
    }
  }
  await next();
});

/** 401 `{"error":"Unauthorized","code":"unauthorized"}` for visitors. */
export const requireUser = createMiddleware<AppEnv & { Variables: { user: NonNullable<AppEnv["Variables"]["user"]> } }>(
  async (c, next) => {
    if (!c.get("user")) throw unauthorized();
    await next();
  },
);

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Cross-site request forgery guard: a state-changing request (anything but
 * GET/HEAD/OPTIONS) must come from our own origin. Browsers say so with
 * `Sec-Fetch-Site: same-origin`; where that header is missing, `Origin` must
 * equal ours. Requests with neither come from non-browser clients, which
 * cannot carry a victim's cookies, and pass.
 */
export const sameOrigin = createMiddleware<AppEnv>(async (c, next) => {
  if (!SAFE_METHODS.has(c.req.method)) {
    const site = c.req.header("sec-fetch-site");
    const origin = c.req.header("origin");
    const ours = new URL(c.req.url).origin;
    const allowed = site !== undefined ? site === "same-origin" : origin === undefined || origin === ours;
    if (!allowed) throw new ApiError("forbidden", "Cross-site requests are not allowed");
  }
  await next();
});
