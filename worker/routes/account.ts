/**
 * `/api/profile` — the person's account and data (DESIGN.md turn 4 "Your
 * account, your data"; docs/decisions/0029-your-account-your-data.md),
 * beside worker/routes/profile.ts on the same path. Signed-in people only,
 * each for themselves.
 *
 * - `GET /export` → 200 `application/zip`, streamed (worker/lib/account/export.ts);
 *   a second one within a minute → 429 `rate_limited` with `Retry-After`.
 * - `DELETE /` `{confirm: "<username>"}` → 204: the account is deleted
 *   (worker/lib/account/deletion.ts) and this browser's cookie cleared; a
 *   confirmation that is not their username (with or without "@", any
 *   letter case) → 400 `validation_failed`, nothing deleted.
 * - `GET /sessions` → 200 `[{id, createdAt, lastSeenAt, userAgent, current}]`;
 *   `DELETE /sessions/{id}` → 204 (someone else's or unknown → 404);
 *   `DELETE /sessions` → 204, every session but this one ended
 *   (worker/lib/account/sessions.ts).
 */
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { z } from "zod";
import type { AccountSession } from "../../schema/api.ts";
import type { AppEnv } from "../env.ts";
import { deleteAccount } from "../lib/account/deletion.ts";
import { claimExport, exportAccount } from "../lib/account/export.ts";
import { endOtherSessions, endSession, listSessions } from "../lib/account/sessions.ts";
import { attachmentDisposition } from "../lib/downloads.ts";
import { ApiError, notFound } from "../lib/errors.ts";
import { clearSessionCookie } from "../lib/sessions.ts";
import { canonicalUsername } from "../lib/users.ts";
import { validate } from "../lib/validate.ts";
import { purgeShareCache } from "../middleware/edge-cache.ts";
import { limitWrites } from "../middleware/rate-limit.ts";
import { requireUser } from "../middleware/session.ts";

/** `DELETE /api/profile`: the username typed again, as the confirmation. */
const deleteAccountSchema = z.object({
  confirm: z.string({ error: "Type your username to confirm" }).max(100, "Type your username to confirm"),
});

export const SESSION_NOT_FOUND = "Session not found";
export const CONFIRM_MISMATCH = "Type your username exactly to delete your account";

export const accountRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get("/export", async (c) => {
    const user = c.var.user;
    await claimExport(c.env.DB, user.id);
    const stream = exportAccount(c.env, user, new URL(c.req.url).origin, (promise) => c.executionCtx.waitUntil(promise));
    const date = new Date().toISOString().slice(0, 10);
    return c.body(stream, 200, {
      "Content-Type": "application/zip",
      "Content-Disposition": attachmentDisposition(`fabled-${user.username.replace(/^@/, "")}-${date}`, "zip"),
      "Cache-Control": "private, no-store",
    });
  })
  .delete("/", bodyLimit({ maxSize: 1024 }), validate("json", deleteAccountSchema), async (c) => {
    const user = c.var.user;
    const { confirm } = c.req.valid("json");
    if (canonicalUsername(confirm.trim()).toLowerCase() !== user.username.toLowerCase()) {
      throw new ApiError("validation_failed", CONFIRM_MISMATCH, { issues: [{ path: "confirm", message: CONFIRM_MISMATCH }] });
    }
    const { staleShares } = await deleteAccount(c.env, user.id);
    await purgeShareCache(c, staleShares);
    clearSessionCookie(c);
    return c.body(null, 204);
  })
  .get("/sessions", async (c) => {
    const sessions = await listSessions(c.env.DB, c.var.user.id, c.get("sessionId") ?? null);
    c.header("Cache-Control", "private, no-store");
    return c.json(sessions satisfies AccountSession[], 200);
  })
  .delete("/sessions", limitWrites("WRITE_RATE_LIMITER"), async (c) => {
    await endOtherSessions(c.env, c.var.user.id, c.get("sessionId") ?? null);
    return c.body(null, 204);
  })
  .delete("/sessions/:id", limitWrites("WRITE_RATE_LIMITER"), async (c) => {
    const id = c.req.param("id");
    if (!/^[0-9a-f-]{36}$/i.test(id) || !(await endSession(c.env, c.var.user.id, id.toLowerCase()))) throw notFound(SESSION_NOT_FOUND);
    // Ending the session in hand is signing out here.
    if (id.toLowerCase() === c.get("sessionId")) clearSessionCookie(c);
    return c.body(null, 204);
  });
