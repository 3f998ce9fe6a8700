/**
 * `POST /api/reports` (issue "Trust and safety"): a signed-in person reports a
 * character, a comment, or a character's reply or a picture in a
 * conversation they are in.
 *
 * Body `{ targetType, targetId, conversationId? (messages), reason, details? }`
 * (schema/inputs.ts reportInputSchema) → 201 with the report; 200 with the
 * person's open report on the same target (nothing written); 401 visitors;
 * 404 a target they cannot see; 400 their own content; 429 over the write
 * rate limit. Rules in worker/lib/reports.ts.
 *
 * `POST /api/reports/review` (issue 35): a refused writer asks for a review
 * of their latest refusal, in one click from the refusal. Body
 * `{ details? }` → 201 with the request (a report the operator sees), 200
 * with their open one; 404 when they have no refusal from the last day.
 */
import { Hono } from "hono";
import { reportInputSchema, reviewRequestInputSchema } from "../../schema/inputs.ts";
import type { AppEnv } from "../env.ts";
import { conversationRoom } from "../lib/conversations.ts";
import { fileReport, requestRefusalReview, resolveReportTarget } from "../lib/reports.ts";
import { validate } from "../lib/validate.ts";
import { limitWrites } from "../middleware/rate-limit.ts";
import { requireUser } from "../middleware/session.ts";

export const reportsRoutes = new Hono<AppEnv>()
  .post("/review", requireUser, limitWrites("WRITE_RATE_LIMITER"), validate("json", reviewRequestInputSchema), async (c) => {
    const { report, created } = await requestRefusalReview(c.env.DB, c.get("user")!.id, c.req.valid("json").details);
    return c.json(report, created ? 201 : 200);
  })
  .post(
  "/",
  requireUser,
  limitWrites("WRITE_RATE_LIMITER"),
  validate("json", reportInputSchema),
  async (c) => {
    const user = c.get("user")!;
    const input = c.req.valid("json");
    // A chat's message, else one of its pictures (reported as messages, DESIGN.md "Pictures").
    const target = await resolveReportTarget(c.env.DB, user.id, input, async (conversationId, messageId) => {
      const room = conversationRoom(c.env, conversationId);
      return (await room.readMessage(user.id, messageId, true)) ?? (await room.readPicture(user.id, messageId, true));
    });
    const { report, created } = await fileReport(c.env.DB, user.id, target, input.reason, input.details);
    return c.json(report, created ? 201 : 200);
  },
);
