/**
 * The one place that chooses where a request's D1 queries run: a D1 Sessions
 * API session per request, continued across requests with the caller's
 * bookmark (docs/decisions/0009-d1-sessions-and-view-queue.md).
 *
 * Cloudflare's model (https://developers.cloudflare.com/d1/best-practices/read-replication/,
 * https://developers.cloudflare.com/d1/worker-api/d1-database/#withsession):
 * a session's queries are sequentially consistent — they may be served by
 * different read replicas, but never by one older than what the session has
 * already seen, and reads see the session's own writes. Writes always go to
 * the primary. `withSession("first-unconstrained")` lets the first query go
 * to any instance (nearest replica); `"first-primary"` sends it to the
 * primary; a bookmark (from `getBookmark()` of an earlier session) starts
 * the session at least as up to date as that earlier session.
 *
 * Rules of this middleware:
 * - **Incoming bookmark**: the `x-d1-bookmark` request header (Cloudflare's
 *   examples) or the `fabled_d1_bookmark` cookie; with both, the later one
 *   (bookmarks sort oldest to newest as strings, D1 glossary). A value that
 *   is not a bookmark's shape (BOOKMARK_PATTERN) is ignored, as if absent —
 *   never a 400 or a 500: a stale or mangled cookie must not lock anyone out.
 * - **Session**: the bookmark when there is one; otherwise `first-primary`
 *   for a request that writes (any method but GET/HEAD/OPTIONS, and the GETs
 *   of WRITING_GETS) and `first-unconstrained` for one that only reads.
 * - **Outgoing bookmark**: only a request that wrote or carried a bookmark
 *   gets the session's latest bookmark back, in the `x-d1-bookmark` response
 *   header and the cookie (HttpOnly, SameSite=Lax, Path=/, Secure except on
 *   plain-http localhost, Max-Age BOOKMARK_MAX_AGE_S). A visitor who only
 *   reads never gets a Set-Cookie from here, so visitor answers stay
 *   cacheable; a request carrying a bookmark reads through its session and is
 *   not one to answer from a shared cache.
 * - **Signing out** (a response that clears the session cookie) clears the
 *   bookmark cookie as well: from then on the browser reads as a visitor.
 * - **A server error** (5xx) clears the bookmark cookie and sends no
 *   bookmark: should D1 ever refuse a bookmark a client sent, that client
 *   gets one failed request, not a failing browser.
 *
 * For the rest of the request `c.env.DB` is the session (`sessionDatabase`),
 * so route and library code keep calling `c.env.DB.prepare`/`batch` and
 * never choose a session themselves. Durable Objects and the queue consumer
 * get the runtime's own `env` and use the plain binding.
 */
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env.ts";
import { isSecureRequest, sessionCookieName } from "../lib/sessions.ts";

/** Request and response header carrying a bookmark (the name of Cloudflare's examples). */
export const BOOKMARK_HEADER = "x-d1-bookmark";
/** Cookie carrying the browser's latest bookmark. */
export const BOOKMARK_COOKIE = "fabled_d1_bookmark";
/**
 * Lifetime of the bookmark cookie, seconds (one day, renewed by every request
 * that carries it). Replica lag is far shorter; a day keeps a person's reads
 * monotonic across a working session while staying well inside the 30 days
 * after which D1 bookmarks expire (https://developers.cloudflare.com/d1/reference/time-travel/).
 */
export const BOOKMARK_MAX_AGE_S = 24 * 60 * 60;
/**
 * A bookmark's shape: four hex groups, e.g.
 * `0000007b-0000b26e-00001538-0c3e87bb37b3db5cc52eedb93cd3b96b` (the example of
 * https://developers.cloudflare.com/durable-objects/api/sqlite-storage-api/ —
 * D1 is built on that storage, and local D1 hands out exactly these).
 */
export const BOOKMARK_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;

/** Methods that do not write (every other method starts at the primary). */
const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/**
 * GETs that write, so they start at the primary like any write: the sign-in
 * callback (creates or updates the person and their session) and sign-out by
 * link (deletes the session). The daily sliding renewal of a session on any
 * request is a write too, but an idempotent one that no read depends on; it
 * does not make a read start at the primary.
 */
const WRITING_GETS = new Set(["/api/callback", "/api/logout"]);

/** A valid bookmark, or null for anything else (absent, empty, malformed). */
export function parseBookmark(value: string | null | undefined): string | null {
  return value && BOOKMARK_PATTERN.test(value) ? value : null;
}

/**
 * The request's bookmark: the later of the `x-d1-bookmark` header and the
 * `fabled_d1_bookmark` cookie, each only when well-formed; null without one.
 * Exported for the edge cache, which must not answer such a request.
 */
export function requestBookmark(c: Context): string | null {
  const fromHeader = parseBookmark(c.req.header(BOOKMARK_HEADER));
  const fromCookie = parseBookmark(getCookie(c, BOOKMARK_COOKIE));
  if (fromHeader && fromCookie) return fromHeader > fromCookie ? fromHeader : fromCookie;
  return fromHeader ?? fromCookie;
}

/** True when the request writes: a method other than GET/HEAD/OPTIONS, or one of WRITING_GETS. */
export function requestWrites(method: string, path: string): boolean {
  return !READ_METHODS.has(method) || WRITING_GETS.has(path);
}

/**
 * A session dressed as the binding, for the code that takes a `D1Database`:
 * `prepare` and `batch` run in the session (all our D1 code uses only those);
 * `exec` and `dump` do not exist on a session and reject, and `withSession`
 * throws because this middleware alone chooses sessions.
 */
export function sessionDatabase(session: D1DatabaseSession): D1Database {
  const notInSession = (what: string) =>
    new Error(`D1 ${what} is not available inside a request's session (worker/middleware/d1-session.ts)`);
  return {
    prepare: (query) => session.prepare(query),
    batch: <T>(statements: D1PreparedStatement[]) => session.batch<T>(statements),
    exec: async () => {
      throw notInSession("exec()");
    },
    dump: async () => {
      throw notInSession("dump()");
    },
    withSession: () => {
      throw notInSession("withSession()");
    },
  };
}

/** True when `res` removes the session cookie (sign-out, or an unknown or expired session). */
function clearsSessionCookie(res: Response, url: string): boolean {
  const prefix = `${sessionCookieName(url)}=`;
  return res.headers.getSetCookie().some((line) => line.startsWith(prefix) && /;\s*max-age=0(;|$)/i.test(line));
}

/** Runs the rest of the request in one D1 session and hands its bookmark back (rules above). */
export const d1Session = createMiddleware<AppEnv>(async (c, next) => {
  const carried = requestBookmark(c);
  const writes = requestWrites(c.req.method, c.req.path);
  const session = c.env.DB.withSession(carried ?? (writes ? "first-primary" : "first-unconstrained"));
  c.env = { ...c.env, DB: sessionDatabase(session) };

  await next();

  // A WebSocket upgrade (101) reads only; its response cannot be rebuilt with new headers.
  if ((!writes && !carried) || c.res.status === 101) return;
  const secure = isSecureRequest(c.req.url);
  const clear = () => {
    if (getCookie(c, BOOKMARK_COOKIE) !== undefined) deleteCookie(c, BOOKMARK_COOKIE, { path: "/", secure, httpOnly: true, sameSite: "Lax" });
  };
  // Failed on our side: whatever the cause, do not hand the bookmark on, so one
  // that D1 refuses cannot fail every later request of this browser.
  if (c.res.status >= 500) return clear();
  const latest = session.getBookmark() ?? carried;
  if (!latest) return;
  c.res.headers.set(BOOKMARK_HEADER, latest);
  if (clearsSessionCookie(c.res, c.req.url)) return clear();
  setCookie(c, BOOKMARK_COOKIE, latest, { path: "/", secure, httpOnly: true, sameSite: "Lax", maxAge: BOOKMARK_MAX_AGE_S });
});
