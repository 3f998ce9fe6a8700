/**
 * A person's signed-in devices (DESIGN.md turn 4 "Your account, your data"):
 * `GET /api/profile/sessions` lists their live sessions, `DELETE
 * /api/profile/sessions/{id}` ends one, `DELETE /api/profile/sessions` every
 * one but the current. Sessions are found by the public id
 * (`sessions.id`), never by the `sid` (the token's hash), and only among
 * the person's own: another person's id is as unknown as a made-up one.
 *
 * Ending a session deletes its row, so its next request is a visitor's
 * (401 where a session is needed); its chat sockets close too
 * (PersonSockets.closeSessions), as a phone that was lost must stop
 * reading chats at once.
 */
import type { AccountSession } from "../../../schema/api.ts";
import type { PersonSockets } from "../../../durable-objects/person-sockets.ts";
import { CLOSE_REASONS } from "../../../durable-objects/socket-limits.ts";

interface SessionRow {
  id: string;
  createdAt: number | null;
  lastSeenAt: number | null;
  userAgent: string | null;
  expire: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The live sessions of `userId` at `now` (ms), the most recently seen first,
 * `current` on the one whose public id is `currentId`. A time that was never
 * recorded (a session older than these columns) reads as 30 days before its
 * expiry, the latest it can have started.
 */
export async function listSessions(db: D1Database, userId: string, currentId: string | null, now = Date.now()): Promise<AccountSession[]> {
  const { results } = await db
    .prepare(
      `SELECT id, created_at AS createdAt, last_seen_at AS lastSeenAt, user_agent AS userAgent, expire
       FROM sessions WHERE user_id = ? AND expire > ? AND id IS NOT NULL
       ORDER BY coalesce(last_seen_at, created_at, 0) DESC, id`,
    )
    .bind(userId, now)
    .all<SessionRow>();
  const rows = results.map((row) => {
    const createdAt = row.createdAt ?? row.expire - 30 * 24 * 60 * 60 * 1000;
    return {
      id: row.id,
      createdAt: iso(createdAt),
      lastSeenAt: iso(row.lastSeenAt ?? createdAt),
      userAgent: row.userAgent,
      current: row.id === currentId,
    };
  });
  // The device in hand comes first, whatever the others did since.
  return [...rows.filter((s) => s.current), ...rows.filter((s) => !s.current)];
}

/** Asks the person's PersonSockets to close the chat sockets opened under `sessionIds` (failures are logged: the rows are gone anyway). */
async function closeSessionSockets(env: Env, userId: string, sessionIds: string[]): Promise<void> {
  if (sessionIds.length === 0) return;
  const namespace = env.PERSON_SOCKETS as unknown as DurableObjectNamespace<PersonSockets>;
  try {
    await namespace.get(namespace.idFromName(userId)).closeSessions(sessionIds, CLOSE_REASONS.signedOut);
  } catch (error) {
    console.warn("could not close the sockets of ended sessions", String(error));
  }
}

/**
 * Ends session `id` of `userId` (its row deleted, its sockets closed).
 * False when the person has no session with that id.
 */
export async function endSession(env: Env, userId: string, id: string): Promise<boolean> {
  const ended = await env.DB.prepare("DELETE FROM sessions WHERE id = ? AND user_id = ? RETURNING id").bind(id, userId).first<{ id: string }>();
  if (!ended) return false;
  await closeSessionSockets(env, userId, [ended.id]);
  return true;
}

/**
 * Ends every session of `userId` but `keepId` (the one making the request;
 * null ends them all). Returns how many ended.
 */
export async function endOtherSessions(env: Env, userId: string, keepId: string | null): Promise<number> {
  const { results } = await env.DB.prepare("DELETE FROM sessions WHERE user_id = ? AND id IS NOT ? RETURNING id")
    .bind(userId, keepId)
    .all<{ id: string | null }>();
  await closeSessionSockets(env, userId, results.flatMap((row) => (row.id ? [row.id] : [])));
  return results.length;
}
