/**
 * Sessions (DESIGN.md "Data", STYLE.md "Sessions", after lucia-auth's
 * `auth_session` guide):
 * - the cookie holds a random 32-byte token (base64url);
 * - the `sessions` table stores only its SHA-256 (hex) as `sid`, with
 *   `sess = { userId }` and `expire` (ms since the epoch). A stolen row cannot
 *   be turned back into a cookie;
 * - sliding expiry of 30 days, renewed at most once a day;
 * - each row also keeps a public id, its person as a column, when it was
 *   created and last seen (to within LAST_SEEN_STEP_MS, written with the
 *   renewal: no write per request) and the browser's User-Agent, for the
 *   list of signed-in devices (worker/lib/account/sessions.ts);
 * - cookie `HttpOnly; SameSite=Lax; Path=/`, plus `Secure` (and the `__Host-`
 *   name prefix) everywhere but plain-http localhost.
 *
 * The lookup is by the token's hash, so no secret is ever compared byte by
 * byte in a way an attacker could time.
 */
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { CurrentUser } from "../../schema/api.ts";
import type { Row, Statement, ViewerSql } from "./catalog-rows.ts";
import { isLoopbackUrl } from "./loopback.ts";

/** Session lifetime, ms (30 days). */
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** A session is renewed once less than this much of its lifetime is left, ms (29 days: at most daily). */
export const SESSION_RENEW_BELOW_MS = SESSION_TTL_MS - 24 * 60 * 60 * 1000;

/**
 * How stale a session's `last_seen_at` may get before a request writes it
 * again, ms (5 minutes): "last seen" is shown to within this, and an active
 * session costs at most one write per step.
 */
export const LAST_SEEN_STEP_MS = 5 * 60 * 1000;

/** Longest stored User-Agent, characters (real ones are under 300). */
const MAX_USER_AGENT = 512;

/** The signed-in person as the API reads it (`GET /api/auth/user`). */
export type SessionUser = CurrentUser;

const USER_COLUMNS = `u.id, u.first_name AS firstName, u.last_name AS lastName, u.name,
  u.username, u.email, u.profile_image_url AS profileImageUrl, u.bio`;

/** Lower-case hex SHA-256 of a string's UTF-8 bytes. */
export async function sha256Hex(value: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(value));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** A new random session token: 32 bytes, base64url without padding (43 characters). */
export function generateSessionToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * Creates a session for `userId` with a new public id, created and last
 * seen `now` (ms), and the browser's `userAgent` (cut to 512 characters;
 * null when none was sent); returns the cookie token, its expiry (ms) and
 * the public id.
 */
export async function createSession(
  db: D1Database,
  userId: string,
  now = Date.now(),
  userAgent: string | null = null,
): Promise<{ token: string; expire: number; id: string }> {
  const token = generateSessionToken();
  const expire = now + SESSION_TTL_MS;
  const id = crypto.randomUUID();
  await db
    .prepare(
      `INSERT INTO sessions (sid, sess, expire, id, user_id, created_at, last_seen_at, user_agent)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(await sha256Hex(token), JSON.stringify({ userId }), expire, id, userId, now, now, userAgent?.slice(0, MAX_USER_AGENT) || null)
    .run();
  return { token, expire, id };
}

/** Whether `token` has the shape of a session token (43 base64url characters); others are never looked up. */
export function isSessionTokenShape(token: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(token);
}

/**
 * The statement that reads the session whose token hashes to `sid`, with its
 * person: one row (`expire`, `suspendedAt` and the CurrentUser fields) or
 * none. Read by `sessionOutcome`; run alone (validateSessionToken) or first
 * in a route's own batch (worker/middleware/session.ts, pending sessions).
 */
export function sessionLookupStatement(sid: string): Statement {
  return {
    sql: `SELECT s.expire, s.last_seen_at AS lastSeenAt, s.id AS sessionId, u.suspended_at AS suspendedAt, ${USER_COLUMNS} FROM sessions s
       JOIN users u ON u.id = json_extract(s.sess, '$.userId')
       WHERE s.sid = ?`,
    params: [sid],
  };
}

/**
 * The id of the signed-in, not suspended person of session `sid` at `now`
 * (ms) as SQL, for statements that compute personal parts without waiting
 * for the session (catalog-rows.ts ViewerSql); NULL when the session is
 * unknown, expired or a suspended person's.
 */
export function sessionUserSql(sid: string, now: number): ViewerSql {
  return (bind) => `(SELECT u.id FROM sessions s JOIN users u ON u.id = json_extract(s.sess, '$.userId')
    WHERE s.sid = ${bind(sid)} AND s.expire > ${bind(now)} AND u.suspended_at IS NULL)`;
}

/** What a session row means at a given time (sessionOutcome). */
export type SessionOutcome =
  | { kind: "none" }
  | { kind: "expired" }
  | {
      kind: "valid";
      user: SessionUser;
      expire: number;
      renewedExpire: number | null;
      suspendedAt: number | null;
      /** The session's public id (null for a row older than public ids). */
      sessionId: string | null;
      /** `last_seen_at` is LAST_SEEN_STEP_MS old (or unknown): the write sets it to now. */
      seen: boolean;
      now: number;
    };

/**
 * The meaning of the row of `sessionLookupStatement` at `now` (ms): none
 * (unknown token), expired (the caller deletes the row), or valid — with
 * `renewedExpire` set when less than 29 days were left (the caller writes it
 * and renews the cookie). `suspendedAt` (ms since the epoch) is set when an
 * operator suspended the person: callers must not let such a session act.
 */
export function sessionOutcome(row: Row | undefined | null, now: number): SessionOutcome {
  if (!row) return { kind: "none" };
  const { expire, suspendedAt, lastSeenAt, sessionId, ...user } = row as unknown as SessionUser & {
    expire: number;
    suspendedAt: number | null;
    lastSeenAt: number | null;
    sessionId: string | null;
  };
  if (expire <= now) return { kind: "expired" };
  const renewedExpire = expire - now < SESSION_RENEW_BELOW_MS ? now + SESSION_TTL_MS : null;
  const seen = lastSeenAt === null || now - lastSeenAt >= LAST_SEEN_STEP_MS;
  return { kind: "valid", user, expire: renewedExpire ?? expire, renewedExpire, suspendedAt, sessionId, seen, now };
}

/**
 * The write an outcome asks for: delete an expired session, or slide a
 * renewed one and move its "last seen" (one statement, at most once per
 * LAST_SEEN_STEP_MS while the session is used); null when none.
 */
export function sessionWrite(db: D1Database, sid: string, outcome: SessionOutcome): D1PreparedStatement | null {
  if (outcome.kind === "expired") return db.prepare("DELETE FROM sessions WHERE sid = ?").bind(sid);
  if (outcome.kind === "valid" && (outcome.renewedExpire !== null || outcome.seen)) {
    return db.prepare("UPDATE sessions SET expire = ?, last_seen_at = ? WHERE sid = ?").bind(outcome.expire, outcome.now, sid);
  }
  return null;
}

/**
 * The user of a session token, or null when the token is unknown, malformed
 * or expired (an expired row is deleted). When less than 29 days are left the
 * expiry slides to 30 days from now and `renewedExpire` says so.
 * `suspendedAt` (ms since the epoch) is set when an operator suspended the
 * person: callers must not let such a session act (worker/middleware/session.ts).
 */
export async function validateSessionToken(
  db: D1Database,
  token: string,
  now = Date.now(),
): Promise<{ user: SessionUser; expire: number; renewedExpire: number | null; suspendedAt: number | null; sessionId: string | null } | null> {
  if (!isSessionTokenShape(token)) return null;
  const sid = await sha256Hex(token);
  const lookup = sessionLookupStatement(sid);
  const row = await db.prepare(lookup.sql).bind(...lookup.params).first<Row>();
  const outcome = sessionOutcome(row, now);
  await sessionWrite(db, sid, outcome)?.run();
  if (outcome.kind !== "valid") return null;
  const { user, expire, renewedExpire, suspendedAt, sessionId } = outcome;
  return { user, expire, renewedExpire, suspendedAt, sessionId };
}

/** Deletes the session of a token (sign-out). */
export async function invalidateSessionToken(db: D1Database, token: string): Promise<void> {
  await db.prepare("DELETE FROM sessions WHERE sid = ?").bind(await sha256Hex(token)).run();
}

/** Deletes every expired session (the daily cron). Returns how many. */
export async function deleteExpiredSessions(db: D1Database, now = Date.now()): Promise<number> {
  const result = await db.prepare("DELETE FROM sessions WHERE expire <= ?").bind(now).run();
  return result.meta.changes ?? 0;
}

/** True when cookies must be `Secure`: everything but plain http on localhost. */
export function isSecureRequest(url: string): boolean {
  return !(new URL(url).protocol === "http:" && isLoopbackUrl(url));
}

/** Name of the session cookie for this request's scheme. */
export function sessionCookieName(url: string): string {
  return isSecureRequest(url) ? "__Host-fabled_session" : "fabled_session";
}

export function readSessionCookie(c: Context): string | undefined {
  return getCookie(c, sessionCookieName(c.req.url));
}

export function setSessionCookie(c: Context, token: string, expire: number): void {
  const secure = isSecureRequest(c.req.url);
  setCookie(c, sessionCookieName(c.req.url), token, {
    httpOnly: true,
    secure,
    sameSite: "Lax",
    path: "/",
    expires: new Date(expire),
  });
}

export function clearSessionCookie(c: Context): void {
  const secure = isSecureRequest(c.req.url);
  deleteCookie(c, sessionCookieName(c.req.url), { path: "/", secure, httpOnly: true, sameSite: "Lax" });
}
