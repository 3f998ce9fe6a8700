/**
 * `/api/invites/:token` (DESIGN.md "Shared rooms"): what an invitation link
 * leads to, and joining by it.
 *
 * - `GET` (anyone holding the link): the join page's preview — the chat's
 *   title, cast and owner (InvitePreview); 404 for an unknown, revoked or
 *   expired link.
 * - `POST` (signed in), optional body `{personaId?: string | null}` (the
 *   persona played there; absent: their default; null: none): joins the
 *   room → 200 `{conversationId}` (the chat is no longer one-to-one: its
 *   check-ins end, worker/lib/conversations.ts endCheckIns); again is harmless; 404 as above or for a
 *   persona not theirs; 403 for someone the owner removed while this link
 *   was open; 409 when the room has 10 people.
 * - Both: 404 as for an unknown link to someone the owner blocked
 *   (worker/middleware/blocks.ts).
 */
import { Hono } from "hono";
import type { AppEnv } from "../env.ts";
import { joinInviteInputSchema } from "../../schema/chat.ts";
import { afterResponse } from "../lib/after-response.ts";
import { endCheckIns } from "../lib/conversations.ts";
import { roomJoined } from "../lib/notifications/producers.ts";
import { invitePreview, joinByInvite } from "../lib/shared-rooms.ts";
import { refuseBlockedInvite } from "../middleware/blocks.ts";
import { validate } from "../lib/validate.ts";
import { limitWrites } from "../middleware/rate-limit.ts";
import { requireUser } from "../middleware/session.ts";

export const invitesRoutes = new Hono<AppEnv>()
  .use("/:token", refuseBlockedInvite)
  .get("/:token", async (c) => {
    return c.json(await invitePreview(c.env.DB, c.req.param("token")), 200);
  })
  .post("/:token", requireUser, limitWrites("WRITE_RATE_LIMITER"), validate("json", joinInviteInputSchema), async (c) => {
    const user = c.get("user")!;
    const { conversationId, joined } = await joinByInvite(c.env.DB, c.req.param("token"), user.id, { personaId: c.req.valid("json").personaId });
    // The room's people are told after the answer (worker/lib/notifications/); joining again tells nobody.
    if (joined) {
      // A shared room is no longer one-to-one: its check-ins end before the answer, so the chat reads them off.
      await endCheckIns(c.env, conversationId);
      await afterResponse(c, roomJoined(c.env, conversationId, user.id));
    }
    return c.json({ conversationId }, 200);
  });
