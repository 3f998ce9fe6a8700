/**
 * The tokens a reply used (DESIGN.md "Your own model (turn 3)": "where the
 * endpoint reports it, tokens used per reply"), through real sockets, with
 * the person's own connection pointing at the loopback OpenAI-compatible
 * server (worker/test/openai-server.ts), which reports usage when asked
 * (`stream_options.include_usage`) and counts a prompt's tokens as the words
 * of its messages:
 *
 * - reported → the `character_response` frame, `history_sync` and
 *   `GET …/messages` carry it, after an eviction too;
 * - an endpoint that reports none, or refuses `stream_options` with a 400 →
 *   the reply still comes, with `usage: null` on the frame and none stored;
 * - regenerated replies keep each version's count (`versionUsage`); a swipe
 *   shows the chosen version's; a continue adds its request to the reply's;
 * - the offline model reports none;
 * - the running summary is written by the conversation's own model.
 */
import { env } from "cloudflare:workers";
import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { PromptMessage } from "../../ai/chat-model.ts";
import type { ServerFrame } from "../../schema/chat-frames.ts";
import type { ModelConnection } from "../../schema/model-connections.ts";
import { conversationRoom } from "../../worker/lib/conversations.ts";
import { type ChatSocket, eventually, join } from "../../worker/test/chat-client.ts";
import { call, json } from "../../worker/test/creator-api.ts";
import { insertCharacter, signIn, type TestUser } from "../../worker/test/fixtures.ts";
import { OPENAI_TEST_KEY } from "../../worker/test/openai-server.ts";
import { startChat, storedMessages } from "../../worker/test/room-chat.ts";
import type { ConversationRoom } from "../conversation-room.ts";

let characterId: number;

beforeAll(async () => {
  characterId = await insertCharacter({ name: "Ash" });
});

const connect = async (user: TestUser, model: string) =>
  json<ModelConnection>(
    await call("/api/model-connections", {
      method: "POST",
      user,
      body: { name: `Endpoint ${model}`.slice(0, 60), kind: "openai", baseUrl: env.OPENAI_BASE_URL, apiKey: OPENAI_TEST_KEY, model },
    }),
    201,
  );

const pick = async (user: TestUser, conversationId: string, modelConnectionId: string | null) =>
  json(await call(`/api/conversations/${conversationId}`, { method: "PATCH", user, body: { modelConnectionId } }), 200);

type Answer = Extract<ServerFrame, { type: "character_response" }>;

/** Sends a regenerate and waits for the new version. */
async function regenerate(socket: ChatSocket): Promise<Answer> {
  socket.send({ type: "regenerate" });
  return socket.next("character_response");
}

/** How the loopback server counts tokens: the words of a text. */
const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

describe("tokens per reply", () => {
  it("an endpoint that reports them: on the finished frame, in history_sync and GET …/messages, after an eviction too", async () => {
    const mira = await signIn({ firstName: "Mira" });
    await connect(mira, "prompt");
    const chat = await startChat(mira, characterId);
    const { socket } = await join(mira, chat.id);
    const { response } = await socket.chat(chat.id, "How far is the lighthouse?");
    // The "prompt" model answers with the messages it was sent, in one piece: its count is theirs.
    const sent = JSON.parse(response.content) as PromptMessage[];
    const usage = { promptTokens: sent.reduce((sum, m) => sum + words(m.content), 0), completionTokens: 1 };
    expect(usage.promptTokens).toBeGreaterThan(10);
    expect(response.usage).toEqual(usage);
    expect(response.message.usage).toEqual(usage);
    expect(response.message.versionUsage).toBeUndefined();
    socket.close();

    const again = await join(mira, chat.id);
    expect(again.history.messages.at(-1)).toMatchObject({ id: response.messageId, usage });
    // The greeting and the person's message have none.
    expect(again.history.messages.slice(0, 2).map((m) => m.usage)).toEqual([undefined, undefined]);
    again.socket.close();
    await evictDurableObject(conversationRoom(env, chat.id));
    expect((await storedMessages(mira, chat.id)).at(-1)).toMatchObject({ id: response.messageId, usage });
  });

  it("an endpoint that reports none, or refuses stream_options with a 400, still answers: usage null, none stored; the offline model reports none", async () => {
    const mira = await signIn();
    const silent = await connect(mira, "no-usage");
    // A name no other test uses, so the endpoint is asked with stream_options first (a refusal is remembered per endpoint and model).
    const refusing = await connect(mira, `no-stream-options-${crypto.randomUUID()}`);
    const chat = await startChat(mira, characterId);
    const { socket } = await join(mira, chat.id);

    await pick(mira, chat.id, silent.id);
    const quiet = (await socket.chat(chat.id, "Anyone there?")).response;
    expect(quiet.content).toMatch(/^Echo: Anyone there\? \(\d+ messages, max_tokens \d+\)$/);
    expect(quiet.usage).toBeNull();
    expect(quiet.message.usage).toBeUndefined();

    await pick(mira, chat.id, refusing.id);
    const refused = (await socket.chat(chat.id, "Still there?")).response;
    expect(refused.content).toMatch(/^Echo: Still there\? /);
    expect(refused.usage).toBeNull();

    socket.close();

    // A person without connections: the site's offline model, which counts nothing.
    const rowan = await signIn();
    const offlineChat = await startChat(rowan, characterId);
    const { socket: offline } = await join(rowan, offlineChat.id);
    const answer = (await offline.chat(offlineChat.id, "Hello?")).response;
    expect(answer.content).toMatch(/^\*Ash /);
    expect(answer.usage).toBeNull();
    offline.close();

    const stored = await storedMessages(mira, chat.id);
    expect(stored.slice(-3).map((m) => m.usage)).toEqual([undefined, undefined, undefined]);
    expect((await storedMessages(rowan, offlineChat.id)).at(-1)!.usage).toBeUndefined();
  });

  it("each version of a regenerated reply keeps its own count; a swipe shows the chosen one's; a continue adds its request", async () => {
    const mira = await signIn();
    const echo = await connect(mira, "echo");
    const silent = await connect(mira, "no-usage");
    const chat = await startChat(mira, characterId);
    await pick(mira, chat.id, echo.id);
    const { socket } = await join(mira, chat.id);

    const first = (await socket.chat(chat.id, "Light the lamp.")).response;
    const u1 = first.usage!;
    expect(u1).toEqual({ promptTokens: expect.any(Number), completionTokens: words(first.content) });

    await pick(mira, chat.id, silent.id);
    const second = await regenerate(socket);
    expect(second.message.alternatives).toEqual([first.content]);
    expect(second.usage).toBeNull();
    expect(second.message.usage).toBeUndefined();
    expect(second.message.versionUsage).toEqual([u1, null]);

    await pick(mira, chat.id, echo.id);
    const third = await regenerate(socket);
    const u3 = third.usage!;
    expect(u3.completionTokens).toBe(words(third.content));
    expect(third.message.versionUsage).toEqual([u1, null, u3]);

    // Swiping back to the first version: its count is the one shown.
    socket.send({ type: "swipe", messageId: third.messageId, index: 0 });
    const swiped = await socket.next("message_updated", (f) => f.messageId === third.messageId);
    expect(swiped.message).toMatchObject({ content: first.content, swipeIndex: 0, usage: u1, versionUsage: [u1, null, u3] });

    // A continue of that version: one more request, added to its count (the others unchanged).
    socket.send({ type: "continue", clientId: "c1" });
    const continued = await socket.next("character_response", (f) => f.messageId === third.messageId);
    expect(continued.content.startsWith(first.content)).toBe(true);
    const total = continued.usage!;
    expect(total.completionTokens).toBe(words(continued.content));
    expect(total.promptTokens).toBeGreaterThan(u1.promptTokens);
    expect(continued.message).toMatchObject({ swipeIndex: 0, usage: total, versionUsage: [total, null, u3] });
    socket.close();

    const stored = (await storedMessages(mira, chat.id)).at(-1)!;
    expect(stored).toMatchObject({ id: third.messageId, usage: total, versionUsage: [total, null, u3] });
  });
});

describe("the running summary", () => {
  it("is written by the conversation's own model, not the site's", async () => {
    const mira = await signIn({ firstName: "Mira" });
    await connect(mira, "echo");
    const chat = await startChat(mira, characterId);
    await runInDurableObject(conversationRoom(env, chat.id), (room: ConversationRoom) => {
      room.budget = { contextTokens: 450, maxTokens: 100 };
    });
    const { socket } = await join(mira, chat.id);
    const summary = async () =>
      runInDurableObject(conversationRoom(env, chat.id), (_room: ConversationRoom, state) =>
        state.storage.sql.exec<{ summary: string; through: number }>("SELECT summary, summary_through AS through FROM room").one(),
      );
    const lines = ["The lantern went out at midnight.", "Someone knocked three times.", "I found a brass key in the sand.", "The key opens the cellar door."];
    let written = await summary();
    // The history outgrows the small prompt after a few exchanges; each reply is followed by the check.
    for (let i = 0; written.through === 0 && i < 20; i++) {
      const { response } = await socket.chat(chat.id, `${lines[i % lines.length]} (${i + 1})`);
      expect(response.content).toMatch(/^Echo: /);
      written = await summary();
    }
    const done = await eventually(async () => {
      const row = await summary();
      return row.through > 0 ? row : null;
    }, 10_000);
    // The loopback echo model wrote it (the site's offline model writes `Mira said: "…"` lines).
    expect(done.summary).toMatch(/^Echo: /);
    expect(done.summary).toContain("The lantern went out at midnight");
    socket.close();
  });
});
