/**
 * Memory (DESIGN.md "Memory"), under `/api/conversations/{id}`:
 *
 * - `GET …/memories` (the owner and the shared room's members) → 200
 *   `{memories: [{id, text, scope, messageId, characterId, createdAt}]}`,
 *   oldest first: the chat's own and its owner's with each member of the
 *   cast (worker/lib/memories.ts).
 * - `POST …/memories` `{text?, messageId?, scope?}` (the owner) → 201 the
 *   memory. `text` defaults to the message's text (cut at 1,000
 *   characters); a `character` memory belongs to the message's speaker in
 *   a group, else the first member. Screened (`memory`); 409 past 50.
 * - `PATCH …/memories/{memoryId}` `{text}` → 200; `DELETE` → 204 (the owner).
 *   After every write the chat's room forgets the pins it kept, so the
 *   next prompt sends them as they are now (other chats of the person with
 *   that character: within a minute, room/memory.ts PINNED_TTL_MS).
 * - `GET …/messages/{messageId}/prompt` (the owner): what was sent for the
 *   version shown of a character reply (schema/chat.ts PromptRecord).
 *
 * A member of the shared room who is not the owner → 403 on every write and
 * on the prompt → 404 (it is the owner's); anyone outside the chat → 404; a
 * visitor → 401.
 */
import { Hono } from "hono";
import { chatModelName } from "../../ai/chat-models.ts";
import { memoryInputSchema, memoryPatchSchema, type PinnedMemory, type PromptRecord } from "../../schema/chat.ts";
import type { AppEnv } from "../env.ts";
import { conversationRoom, findConversationFor, moderatedRoom } from "../lib/conversations.ts";
import { ApiError, notFound } from "../lib/errors.ts";
import { createMemory, deleteMemory, listMemories, type MemoryChat, memoryTextOf, updateMemory } from "../lib/memories.ts";
import { screenWrite } from "../lib/screening.ts";
import { requireOwner, roleOf } from "../lib/shared-rooms.ts";
import { validate } from "../lib/validate.ts";
import { limitWrites } from "../middleware/rate-limit.ts";
import { requireUser } from "../middleware/session.ts";

/** Conversation `id` as `userId` may read it, or 404. */
async function readable(env: Env, id: string, userId: string) {
  const conversation = await findConversationFor(env.DB, id, userId, chatModelName(env));
  if (!conversation) throw notFound("Conversation not found");
  return conversation;
}

/** The chat whose memories a route reads. */
function chatOf(conversation: Awaited<ReturnType<typeof readable>>): MemoryChat {
  return { id: conversation.id, userId: conversation.userId, characterIds: conversation.characters.map((member) => member.id) };
}

/**
 * Screens a memory's text as every write is (422 for what is refused, 503
 * when the screen is down), in the context of the cast (NSFW when any
 * member is, as the chat's own messages are judged).
 */
async function screenMemory(env: Env, chat: MemoryChat, userId: string, text: string, characterId: number): Promise<void> {
  const nsfw = await env.DB.prepare("SELECT 1 AS yes FROM characters WHERE id IN (SELECT value FROM json_each(?)) AND is_nsfw = 1 LIMIT 1")
    .bind(JSON.stringify(chat.characterIds))
    .first();
  await screenWrite(env, { subjectType: "memory", text, nsfw: nsfw !== null, who: { userId, characterId, conversationId: chat.id } });
}

export const memoriesRoutes = new Hono<AppEnv>()
  .get("/:id/memories", requireUser, async (c) => {
    const conversation = await readable(c.env, c.req.param("id"), c.get("user")!.id);
    const memories = await listMemories(c.env.DB, chatOf(conversation));
    c.header("Cache-Control", "private, no-store");
    return c.json({ memories } satisfies { memories: PinnedMemory[] }, 200);
  })
  .post("/:id/memories", requireUser, limitWrites("WRITE_RATE_LIMITER"), validate("json", memoryInputSchema), async (c) => {
    const user = c.get("user")!;
    const conversation = await readable(c.env, c.req.param("id"), user.id);
    requireOwner(conversation, user.id, "pin memories");
    const input = c.req.valid("json");
    const chat = chatOf(conversation);
    let text = input.text;
    let characterId = conversation.characterId;
    if (input.messageId !== undefined) {
      const message = await (await moderatedRoom(c.env, conversation.id)).readMessage(user.id, input.messageId);
      if (!message) throw notFound("Message not found");
      text ??= memoryTextOf(message.content);
      // In a group, a character memory belongs to the message's speaker.
      if (!message.isUser && message.characterId !== null && chat.characterIds.includes(message.characterId)) characterId = message.characterId;
    }
    if (!text) {
      throw new ApiError("validation_failed", "That message has no text to pin", { issues: [{ path: "messageId", message: "That message has no text to pin" }] });
    }
    await screenMemory(c.env, chat, user.id, text, characterId);
    const memory = await createMemory(c.env.DB, chat, { text, scope: input.scope, messageId: input.messageId ?? null, characterId });
    await conversationRoom(c.env, conversation.id).pinnedChanged();
    return c.json(memory, 201);
  })
  .patch("/:id/memories/:memoryId", requireUser, limitWrites("WRITE_RATE_LIMITER"), validate("json", memoryPatchSchema), async (c) => {
    const user = c.get("user")!;
    const conversation = await readable(c.env, c.req.param("id"), user.id);
    requireOwner(conversation, user.id, "change memories");
    const chat = chatOf(conversation);
    const { text } = c.req.valid("json");
    await screenMemory(c.env, chat, user.id, text, conversation.characterId);
    const memory = await updateMemory(c.env.DB, chat, c.req.param("memoryId"), text);
    await conversationRoom(c.env, conversation.id).pinnedChanged();
    return c.json(memory, 200);
  })
  .delete("/:id/memories/:memoryId", requireUser, limitWrites("WRITE_RATE_LIMITER"), async (c) => {
    const user = c.get("user")!;
    const conversation = await readable(c.env, c.req.param("id"), user.id);
    requireOwner(conversation, user.id, "delete memories");
    await deleteMemory(c.env.DB, chatOf(conversation), c.req.param("memoryId"));
    await conversationRoom(c.env, conversation.id).pinnedChanged();
    return c.body(null, 204);
  })
  .get("/:id/messages/:messageId/prompt", requireUser, async (c) => {
    const user = c.get("user")!;
    const conversation = await readable(c.env, c.req.param("id"), user.id);
    // The prompt is the owner's: a member of the shared room gets the same 404 as anyone.
    if (roleOf(conversation, user.id) !== "owner") throw notFound("Conversation not found");
    const messageId = c.req.param("messageId");
    if (messageId.length > 100) throw notFound("Message not found");
    const record: PromptRecord | null = await conversationRoom(c.env, conversation.id).promptRecord(user.id, messageId);
    if (!record) throw notFound("No prompt is kept for that message");
    c.header("Cache-Control", "private, no-store");
    return c.json(record, 200);
  });
