/**
 * Session and request-origin middleware for `/api/*`.
 */
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env.ts";
import { ApiError, suspended, unauthorized } from "../lib/errors.ts";
import { clearSessionCookie, readSessionCookie, setSessionCookie, validateSessionToken } from "../lib/sessions.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Reads the session cookie and sets `c.var.user` (null for visitors). A
 * renewed session gets a fresh cookie; an unknown or expired one is cleared.
 *
 * A suspended person's session stops working: `user` stays null (public
 * reads are a visitor's), `suspended` is set so `requireUser` answers 403
 * with the reason, and any write (POST, PUT, PATCH, DELETE) is refused here
 * with 403, whatever route it was meant for. Signing out stays possible.
 */
export const session = createMiddleware<AppEnv>(async (c, next) => {
  c.set("user", null);
  c.set("suspended", false);
  const token = readSessionCookie(c);
  if (token) {
    const result = await validateSessionToken(c.env.DB, token);
    if (result?.suspendedAt != null) {
      c.set("suspended", true);
      if (!SAFE_METHODS.has(c.req.method) && !c.req.path.startsWith("/api/logout")) throw suspended();
    } else if (result) {
      c.set("user", result.user);
      if (result.renewedExpire !== null) setSessionCookie(c, token, result.renewedExpire);
    } else {
      clearSessionCookie(c);
    }
  }
  await next();
});

/**
 * 401 `{"error":"Unauthorized","code":"unauthorized"}` for visitors; 403
 * `forbidden` with the suspension sentence for a suspended person.
 */
export const requireUser = createMiddleware<AppEnv & { Variables: { user: NonNullable<AppEnv["Variables"]["user"]> } }>(
  async (c, next) => {
    if (!c.get("user")) throw c.get("suspended") ? suspended() : unauthorized();
    await next();
  },
);

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
