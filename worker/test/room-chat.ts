/**
 * What the room's tests share (durable-objects/conversation-room.test.ts and
 * durable-objects/room/*.test.ts): starting a chat through the Worker, reading
 * its stored messages, and pointing a room at the loopback OpenAI-compatible
 * server (worker/test/openai-server.ts).
 */
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { OpenAIChatModel } from "../../ai/chat-models.ts";
import type { ConversationRoom } from "../../durable-objects/conversation-room.ts";
import type { ChatMessage, Conversation } from "../../schema/chat.ts";
import { conversationRoom } from "../lib/conversations.ts";
import { call, json } from "./creator-api.ts";
import type { TestUser } from "./fixtures.ts";

/** `POST /api/conversations/new` with `characterId` as `user`: the new conversation (asserts 201). */
export async function startChat(user: TestUser, characterId: number): Promise<Conversation> {
  return json<Conversation>(await call("/api/conversations/new", { method: "POST", user, body: { characterId } }), 201);
}

/** The conversation's messages as `user` reads them (`GET …/messages`, asserts 200). */
export async function storedMessages(user: TestUser, conversationId: string): Promise<ChatMessage[]> {
  return json<ChatMessage[]>(await call(`/api/conversations/${conversationId}/messages`, { user }), 200);
}

/**
 * Makes the room answer with the loopback server's `model` (a name its
 * script knows), and optionally a shorter wait for the first token, ms.
 */
export async function useTestServerModel(conversationId: string, model: string, tokenTimeoutMs?: number): Promise<void> {
  await runInDurableObject(conversationRoom(env, conversationId), (room: ConversationRoom) => {
    room.modelFactory = () => new OpenAIChatModel({ baseUrl: env.OPENAI_BASE_URL, apiKey: env.OPENAI_API_KEY, model });
    if (tokenTimeoutMs !== undefined) room.tokenTimeoutMs = tokenTimeoutMs;
  });
}
