/**
 * `/api/conversations` (SPEC.md §7, issue "Real-time chat"): start a
 * conversation, read it and its messages (the owner only; 404 for anyone
 * else, DESIGN.md "Ownership"), list the person's conversations ("My
 * Chats"), and rate a character's reply. Every conversation answer embeds
 * its `character` (schema/chat.ts `ConversationCharacter`), inactive or not,
 * so the chat page needs no `GET /api/characters/:id`.
 *
 * Messages live in the conversation's Durable Object; the live chat itself
 * is the WebSocket of worker/routes/ws.ts.
 */
import { Hono } from "hono";
import { chatModelName } from "../../durable-objects/chat-models.ts";
import type { ConversationCharacter, MessageRating } from "../../schema/chat.ts";
import {
  conversationInputSchema,
  conversationListQuerySchema,
  newConversationInputSchema,
  ratingInputSchema,
} from "../../schema/chat.ts";
import type { AppEnv } from "../env.ts";
import { findVisibleCharacter } from "../lib/community.ts";
import { conversationRoom, createConversation, findOwnConversation, listConversations } from "../lib/conversations.ts";
import { ApiError, notFound } from "../lib/errors.ts";
import { validate } from "../lib/validate.ts";
import { limitWrites } from "../middleware/rate-limit.ts";
import { requireUser } from "../middleware/session.ts";
import type { SessionUser } from "../lib/sessions.ts";

const CONVERSATION_NOT_FOUND = "Conversation not found";

type StartingCharacter = ConversationCharacter & { greeting: string | null };

/**
 * The character a person may start a chat with (active, or inactive and
 * their own), with what the conversation needs: its greeting and what the
 * answer embeds. Throws 404 "Character not found" otherwise.
 */
async function chatCharacter(db: D1Database, characterId: number, userId: string): Promise<StartingCharacter> {
  if (!(await findVisibleCharacter(db, characterId, userId))) throw notFound("Character not found");
  const character = await db
    .prepare("SELECT id, name, avatar_url AS avatarUrl, creator, greeting FROM characters WHERE id = ?")
    .bind(characterId)
    .first<StartingCharacter>();
  if (!character) throw notFound("Character not found");
  return character;
}

async function start(env: Env, user: SessionUser, characterId: number, title: string | null) {
  const character = await chatCharacter(env.DB, characterId, user.id);
  return createConversation(env, { user, character, title }, chatModelName(env));
}

export const conversationsRoutes = new Hono<AppEnv>()
  .get("/", requireUser, validate("query", conversationListQuerySchema), async (c) => {
    const list = await listConversations(c.env.DB, c.get("user")!.id, chatModelName(c.env), c.req.valid("query"));
    return c.json(list, 200);
  })
  .post("/", requireUser, limitWrites("WRITE_RATE_LIMITER"), validate("json", conversationInputSchema), async (c) => {
    const { characterId, title } = c.req.valid("json");
    return c.json(await start(c.env, c.get("user")!, characterId, title), 201);
  })
  .post("/new", requireUser, limitWrites("WRITE_RATE_LIMITER"), validate("json", newConversationInputSchema), async (c) => {
    return c.json(await start(c.env, c.get("user")!, c.req.valid("json").characterId, null), 201);
  })
  .get("/:id", requireUser, async (c) => {
    const conversation = await findOwnConversation(c.env.DB, c.req.param("id"), c.get("user")!.id, chatModelName(c.env));
    if (!conversation) throw notFound(CONVERSATION_NOT_FOUND);
    return c.json(conversation, 200);
  })
  .get("/:id/messages", requireUser, async (c) => {
    const user = c.get("user")!;
    const conversation = await findOwnConversation(c.env.DB, c.req.param("id"), user.id, chatModelName(c.env));
    if (!conversation) throw notFound(CONVERSATION_NOT_FOUND);
    const messages = await conversationRoom(c.env, conversation.id).listMessages(user.id);
    if (!messages) throw notFound(CONVERSATION_NOT_FOUND);
    return c.json(messages, 200);
  })
  .post(
    "/:id/messages/:messageId/rating",
    requireUser,
    limitWrites("WRITE_RATE_LIMITER"),
    validate("json", ratingInputSchema),
    async (c) => {
      const user = c.get("user")!;
      const conversation = await findOwnConversation(c.env.DB, c.req.param("id"), user.id, chatModelName(c.env));
      if (!conversation) throw notFound(CONVERSATION_NOT_FOUND);
      const messageId = c.req.param("messageId");
      if (messageId.length > 100) throw notFound("Message not found");
      const result = await conversationRoom(c.env, conversation.id).rateMessage(user.id, messageId, c.req.valid("json").value);
      if (!result.ok) {
        if (result.reason === "not_a_reply") {
          throw new ApiError("validation_failed", "Only the character's replies can be rated", {
            issues: [{ path: "messageId", message: "Only the character's replies can be rated" }],
          });
        }
        throw notFound("Message not found");
      }
      return c.json({ messageId, rating: result.rating } satisfies MessageRating, 200);
    },
  );
