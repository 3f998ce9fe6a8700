/**
 * Session and request-origin middleware for `/api/*`.
 */
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env.ts";
import { afterResponse } from "../lib/after-response.ts";
import type { Row, Statement } from "../lib/catalog-rows.ts";
import { ApiError, suspended, unauthorized } from "../lib/errors.ts";
import {
  clearSessionCookie,
  isSessionTokenShape,
  readSessionCookie,
  sessionLookupStatement,
  sessionOutcome,
  sessionWrite,
  setSessionCookie,
  sha256Hex,
  validateSessionToken,
} from "../lib/sessions.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Reads whose route looks the session up itself, in the same D1 batch as its
 * query (one round trip per answer, issue 27): the catalog list and a
 * character page. For these the middleware only hashes the token into
 * `pendingSession`; the route puts
 * `pendingSessionLookup` first in its batch, computes personal parts from
 * the session inside its statements (sessions.ts sessionUserSql), and calls
 * `settlePendingSession` with the row, which sets `user` and `suspended`
 * and renews or clears the cookie exactly as the middleware would. Only
 * reads are listed: a write must know its person before it starts.
 */
const BATCHED_SESSION_ROUTES = [/^GET \/api\/characters$/, /^GET \/api\/characters\/[1-9]\d{0,15}$/];

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
  if (token && BATCHED_SESSION_ROUTES.some((route) => route.test(`${c.req.method} ${c.req.path}`))) {
    c.set("pendingSession", { sid: isSessionTokenShape(token) ? await sha256Hex(token) : null, now: Date.now() });
  } else if (token) {
    const result = await validateSessionToken(c.env.DB, token);
    if (result?.suspendedAt != null) {
      c.set("suspended", true);
      if (!SAFE_METHODS.has(c.req.method) && !c.req.path.startsWith("/api/logout")) throw suspended();
    } else if (result) {
      c.set("user", result.user);
      c.set("sessionId", result.sessionId);
      if (result.renewedExpire !== null) setSessionCookie(c, token, result.renewedExpire);
    } else {
      clearSessionCookie(c);
    }
  }
  await next();
});

/** The session lookup a route with a pending session runs first in its batch; none without one. */
export function pendingSessionLookup(c: Context<AppEnv>): Statement[] {
  const pending = c.get("pendingSession");
  return pending?.sid ? [sessionLookupStatement(pending.sid)] : [];
}

/**
 * Settles a pending session from the row of `pendingSessionLookup` (undefined
 * when there was none): sets `user` / `suspended`, renews the cookie of a
 * session that slides (the write runs after the answer), clears the cookie of
 * an unknown or expired one (an expired row is deleted after the answer).
 * Returns the signed-in person, or null. Without a pending session it
 * returns `user` as the middleware set it.
 */
export async function settlePendingSession(c: Context<AppEnv>, row: Row | undefined): Promise<AppEnv["Variables"]["user"]> {
  const pending = c.get("pendingSession");
  if (!pending) return c.get("user");
  c.set("pendingSession", undefined);
  const outcome = sessionOutcome(row, pending.now);
  const write = pending.sid ? sessionWrite(c.env.DB, pending.sid, outcome) : null;
  if (write) await afterResponse(c, write.run());
  if (outcome.kind !== "valid") {
    clearSessionCookie(c);
    return null;
  }
  if (outcome.suspendedAt != null) {
    c.set("suspended", true);
    return null;
  }
  c.set("user", outcome.user);
  c.set("sessionId", outcome.sessionId);
  if (outcome.renewedExpire !== null) setSessionCookie(c, readSessionCookie(c)!, outcome.renewedExpire);
  return outcome.user;
}

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
