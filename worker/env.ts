/**
 * Hono bindings and variables of the Worker. `Env` comes from `wrangler types`
 * (worker/worker-configuration.d.ts); `user` is set by the session middleware.
 */
import type { SessionUser } from "./lib/sessions.ts";

export type AppEnv = {
  Bindings: Env;
  Variables: {
    /** The signed-in person, or null for visitors (worker/middleware/session.ts). */
    user: SessionUser | null;
    /** The public id of the signed-in person's session (worker/lib/sessions.ts), null for visitors and for rows older than public ids. */
    sessionId?: string | null;
    /**
     * The session belongs to a suspended person (docs/decisions/0008-trust-and-safety.md):
     * `user` is then null, reads are a visitor's, and `requireUser` and every write answer 403.
     */
    suspended: boolean;
    /**
     * A session cookie whose lookup the route runs in its own D1 batch
     * (worker/middleware/session.ts BATCHED_SESSION_ROUTES; settled by
     * `settlePendingSession`): `sid` is the token's hash, null for a token
     * of the wrong shape; `now` the request's clock (ms).
     */
    pendingSession?: { sid: string | null; now: number };
  };
};
