/**
 * `/api/enforcement` — makes an operator's decision, already written to D1,
 * take effect at once where only D1 was told (docs/decisions/0008
 * "Enforcement"; `npm run moderation -- suspend @name --site URL` calls it).
 *
 * - `POST /suspensions/:userId` → 200 `{closedSockets}`: when the person is
 *   suspended in D1, every chat socket of theirs closes now (1008,
 *   CLOSE_REASONS.suspended) through their PersonSockets, instead of at
 *   their next frame. 404 when there is no such suspended person.
 * - `POST /removals/:conversationId` → 200 `{removed}`: the messages an
 *   operator removed from the chat (`hidden_messages`) are applied by its
 *   room now — a text hidden, a picture deleted with its R2 object — instead
 *   of the next time the chat is opened (`npm run moderation -- uphold N
 *   --site URL` calls it). `removed`: how many changed now (0 when all
 *   were applied already). The share links' copies of its removed pictures
 *   are deleted too (worker/lib/share-pictures.ts). 404 when the chat has
 *   no removed message.
 *
 * It needs no credentials on purpose: it only enforces what D1 already
 * says (anyone may ask for a suspended person's sockets to be closed; that
 * is what must happen anyway) and can do nothing to anyone else, so the
 * operator's tool needs no secret shared with the Worker. Counted per
 * client address against WRITE_RATE_LIMITER (429 beyond it).
 */
import { Hono } from "hono";
import type { PersonSockets } from "../../durable-objects/person-sockets.ts";
import { CLOSE_REASONS } from "../../durable-objects/socket-limits.ts";
import type { AppEnv } from "../env.ts";
import { conversationRoom, isConversationId } from "../lib/conversations.ts";
import { ApiError, notFound } from "../lib/errors.ts";
import { deleteRemovedSharePictures } from "../lib/share-pictures.ts";

/** Counts the caller's address against WRITE_RATE_LIMITER; throws 429 beyond it. */
async function limitCaller(env: Env, address: string | undefined): Promise<void> {
  if (!(await env.WRITE_RATE_LIMITER.limit({ key: `enforcement:${address ?? "unknown"}` })).success) {
    throw new ApiError("rate_limited", "You're doing that too often. Please wait a minute and try again.", { retryAfter: 60 });
  }
}

export const enforcementRoutes = new Hono<AppEnv>()
  .post("/removals/:conversationId", async (c) => {
    await limitCaller(c.env, c.req.header("cf-connecting-ip"));
    const conversationId = c.req.param("conversationId").toLowerCase();
    if (!isConversationId(conversationId)) throw notFound("No removed message in this conversation");
    const { results } = await c.env.DB.prepare("SELECT message_id AS messageId FROM hidden_messages WHERE conversation_id = ?")
      .bind(conversationId)
      .all<{ messageId: string }>();
    if (results.length === 0) throw notFound("No removed message in this conversation");
    const removed = await conversationRoom(c.env, conversationId).hideMessages(results.map((row) => row.messageId));
    await deleteRemovedSharePictures(c.env, { conversationId });
    return c.json({ removed }, 200);
  })
  .post("/suspensions/:userId", async (c) => {
    await limitCaller(c.env, c.req.header("cf-connecting-ip"));
    const userId = c.req.param("userId");
    const row = await c.env.DB.prepare("SELECT suspended_at AS suspendedAt FROM users WHERE id = ?")
      .bind(userId)
      .first<{ suspendedAt: number | null }>();
    if (!row || row.suspendedAt === null) throw notFound("No suspended person with this id");
    const namespace = c.env.PERSON_SOCKETS as unknown as DurableObjectNamespace<PersonSockets>;
    const closedSockets = await namespace.get(namespace.idFromName(userId)).closeAll(CLOSE_REASONS.suspended);
    return c.json({ closedSockets }, 200);
  });
