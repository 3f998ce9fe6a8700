/**
 * Memory (DESIGN.md "Memory"): the prompt inspector — `GET
 * /api/conversations/{id}/messages/{messageId}/prompt` (the owner) answers
 * what was sent for the version shown of a character reply
 * (schema/chat.ts PromptRecord). A person's message, an unknown id, a reply
 * whose record is no longer kept, and anyone but the owner (a member of the
 * shared room included) → 404.
 */
import { Hono } from "hono";
import { chatModelName } from "../../ai/chat-models.ts";
import type { PromptRecord } from "../../schema/chat.ts";
import type { AppEnv } from "../env.ts";
import { conversationRoom, findOwnConversation } from "../lib/conversations.ts";
import { notFound } from "../lib/errors.ts";
import { requireUser } from "../middleware/session.ts";

export const memoriesRoutes = new Hono<AppEnv>().get("/:id/messages/:messageId/prompt", requireUser, async (c) => {
  const user = c.get("user")!;
  const conversation = await findOwnConversation(c.env.DB, c.req.param("id"), user.id, chatModelName(c.env));
  if (!conversation) throw notFound("Conversation not found");
  const messageId = c.req.param("messageId");
  if (messageId.length > 100) throw notFound("Message not found");
  const record: PromptRecord | null = await conversationRoom(c.env, conversation.id).promptRecord(user.id, messageId);
  if (!record) throw notFound("No prompt is kept for that message");
  c.header("Cache-Control", "private, no-store");
  return c.json(record, 200);
});
