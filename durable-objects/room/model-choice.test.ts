/**
 * Which model writes a reply (room/model-choice.ts), through real sockets:
 * the person's own OpenAI-compatible endpoint (the loopback server of
 * worker/test/openai-server.ts) with their settings in the request body, the
 * chat's own pick and the way back to the default and the site's model, the
 * offline model under a person's max tokens and stop strings, and failures
 * of the person's endpoint in words they understand — never with the key,
 * in a frame or a log line.
 */
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { ServerFrame } from "../../schema/chat-frames.ts";
import type { ModelConnection } from "../../schema/model-connections.ts";
import { conversationRoom } from "../../worker/lib/conversations.ts";
import { eventually, join } from "../../worker/test/chat-client.ts";
import { call, json } from "../../worker/test/creator-api.ts";
import { insertCharacter, signIn, type TestUser } from "../../worker/test/fixtures.ts";
import { OPENAI_TEST_KEY } from "../../worker/test/openai-server.ts";
import { startChat } from "../../worker/test/room-chat.ts";
import type { ConversationRoom } from "../conversation-room.ts";

let characterId: number;

beforeAll(async () => {
  characterId = await insertCharacter({ name: "Ash" });
});

afterEach(() => {
  vi.restoreAllMocks();
});

const connect = async (user: TestUser, body: Record<string, unknown>) =>
  json<ModelConnection>(await call("/api/model-connections", { method: "POST", user, body }), 201);

const endpoint = (model: string, extra: Record<string, unknown> = {}) => ({
  name: `Endpoint ${model}`,
  kind: "openai",
  baseUrl: env.OPENAI_BASE_URL,
  apiKey: OPENAI_TEST_KEY,
  model,
  ...extra,
});

const pick = async (user: TestUser, conversationId: string, modelConnectionId: string | null) =>
  json(await call(`/api/conversations/${conversationId}`, { method: "PATCH", user, body: { modelConnectionId } }), 200);

/** Sends `content` and waits for the reply's end: its text, or the error frame's message. */
async function exchange(socket: Awaited<ReturnType<typeof join>>["socket"], conversationId: string, content: string) {
  socket.send({ type: "chat_message", conversationId, content, isUser: true, clientId: crypto.randomUUID() });
  const end = await socket.nextWhere((f: ServerFrame) => f.type === "character_response" || (f.type === "error" && f.messageId !== undefined), 10_000);
  if (end.type === "character_response") return { reply: end.content };
  if (end.type === "error") return { error: end.message, frame: JSON.stringify(end) };
  throw new Error(`unexpected ${end.type}`);
}

describe("the person's own endpoint", () => {
  it("answers with the person's settings in the request body", async () => {
    const mira = await signIn();
    await connect(mira, endpoint("params", { settings: { temperature: 0.3, topP: 0.9, maxTokens: 64, frequencyPenalty: 0.5, stop: ["\nMira:"] } }));
    const chat = await startChat(mira, characterId);
    const { socket } = await join(mira, chat.id);
    const { reply } = await exchange(socket, chat.id, "Hello?");
    expect(JSON.parse(reply!)).toEqual({ max_tokens: 64, temperature: 0.3, top_p: 0.9, frequency_penalty: 0.5, stop: ["\nMira:"] });
    socket.close();
  });

  it("remembers the chat through the endpoint's embedding model when the connection names one; the site's embedder otherwise", async () => {
    const embedders = (id: string) =>
      runInDurableObject(conversationRoom(env, id), (_room: ConversationRoom, state) => ({
        embedders: state.storage.sql.exec<{ embedder: string }>("SELECT DISTINCT embedder FROM message_vectors").toArray().map((row) => row.embedder),
        vectors: state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM message_vectors").one().n,
        messages: state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM messages WHERE status = 'complete'").one().n,
      }));
    const mira = await signIn();
    const saved = await connect(mira, endpoint("echo", { embeddingModel: "letters" }));
    expect(saved.embeddingModel).toBe("letters");
    const chat = await startChat(mira, characterId);
    const { socket } = await join(mira, chat.id);
    expect((await exchange(socket, chat.id, "Remember the harbour")).reply).toMatch(/^Echo: /);
    socket.close();
    const own = await eventually(async () => {
      const now = await embedders(chat.id);
      return now.vectors === now.messages && now;
    });
    expect(own.embedders).toEqual([`openai:${env.OPENAI_BASE_URL}:letters`]);

    // A site connection keeps no embedding model; a person without one is remembered by the site's embedder.
    const site = await connect(mira, { name: "Site", kind: "site", model: "offline", embeddingModel: "letters" });
    expect(site.embeddingModel).toBeNull();
    const ana = await signIn();
    await connect(ana, endpoint("echo"));
    const other = await startChat(ana, characterId);
    const joined = await join(ana, other.id);
    await exchange(joined.socket, other.id, "Remember the harbour");
    joined.socket.close();
    const siteMemory = await eventually(async () => {
      const now = await embedders(other.id);
      return now.vectors === now.messages && now;
    });
    expect(siteMemory.embedders).toHaveLength(1);
    expect(siteMemory.embedders[0]).not.toMatch(/^openai:/);
  });

  it("a pick made between opening the chat and the first message answers that message", async () => {
    const mira = await signIn();
    await connect(mira, endpoint("params", { settings: { maxTokens: 100 } }));
    const echo = await connect(mira, endpoint("echo"));
    const chat = await startChat(mira, characterId);
    const { socket } = await join(mira, chat.id);
    // The join's suspension check read D1 a moment ago; the message's reads the connection afresh.
    await pick(mira, chat.id, echo.id);
    expect((await exchange(socket, chat.id, "First")).reply).toMatch(/^Echo: First /);
    await pick(mira, chat.id, null);
    expect(JSON.parse((await exchange(socket, chat.id, "Second")).reply!)).toMatchObject({ max_tokens: 100 });
    socket.close();
  });

  it("per chat: another connection, then back to the default, then the site's model", async () => {
    const mira = await signIn();
    await connect(mira, endpoint("params", { settings: { maxTokens: 100 } }));
    const echo = await connect(mira, endpoint("echo"));
    const site = await connect(mira, { name: "Site", kind: "site", model: "offline" });
    const chat = await startChat(mira, characterId);
    const { socket } = await join(mira, chat.id);

    expect(JSON.parse((await exchange(socket, chat.id, "One")).reply!)).toMatchObject({ max_tokens: 100 });
    await pick(mira, chat.id, echo.id);
    // The echo model says how long a reply may be: the site's AI_MAX_TOKENS (512), as the connection set none.
    expect((await exchange(socket, chat.id, "Two")).reply).toMatch(/^Echo: Two \(\d+ messages, max_tokens 512\)$/);
    await pick(mira, chat.id, null);
    expect(JSON.parse((await exchange(socket, chat.id, "Three")).reply!)).toMatchObject({ max_tokens: 100 });
    await pick(mira, chat.id, site.id);
    expect((await exchange(socket, chat.id, "Four")).reply).toMatch(/^\*Ash /);
    socket.close();
  });

  it("a person without connections gets the site's model", async () => {
    const mira = await signIn();
    const chat = await startChat(mira, characterId);
    const { socket, history } = await join(mira, chat.id);
    expect(history.chatModel).toBe("offline");
    expect((await exchange(socket, chat.id, "Hi")).reply).toMatch(/^\*Ash /);
    socket.close();
  });
});

describe("the offline model under a person's settings", () => {
  it("stops at max tokens (one word each) and before a stop string", async () => {
    const mira = await signIn();
    const chat = await startChat(mira, characterId);
    const { socket } = await join(mira, chat.id);
    const full = (await exchange(socket, chat.id, "Tell me about the old lighthouse by the harbour.")).reply!;
    expect(full.split(/\s+/).length).toBeGreaterThan(16);

    const site = await connect(mira, { name: "Short", kind: "site", model: "offline", settings: { maxTokens: 16 } });
    await pick(mira, chat.id, site.id);
    const short = (await exchange(socket, chat.id, "Tell me about the old lighthouse by the harbour, again.")).reply!;
    expect(short.split(/\s+/)).toHaveLength(16);

    await json(await call(`/api/model-connections/${site.id}`, { method: "PUT", user: mira, body: { settings: { stop: ["."] } } }), 200);
    const stopped = (await exchange(socket, chat.id, "And what about the keeper?")).reply!;
    expect(stopped).toMatch(/^\*Ash [^.]+$/);
    socket.close();
  });
});

describe("a failing endpoint", () => {
  it("is told in words a person understands, and never with the key — in frames or logs", async () => {
    const warn = vi.spyOn(console, "warn");
    const error = vi.spyOn(console, "error");
    const key = "sk-live-never-in-a-log-Zz91";
    const mira = await signIn();
    const wrongKey = await connect(mira, endpoint("echo", { apiKey: key }));
    const unknownModel = await connect(mira, endpoint("no-such-model"));
    const garbage = await connect(mira, endpoint("garbage"));
    const redirect = await connect(mira, endpoint("echo", { baseUrl: `${new URL(env.OPENAI_BASE_URL).origin}/redirect-private/v1` }));
    const hang = await connect(mira, endpoint("hang"));
    const chat = await startChat(mira, characterId);
    const { socket } = await join(mira, chat.id);

    await pick(mira, chat.id, wrongKey.id);
    const unauthorized = await exchange(socket, chat.id, "Hello?");
    expect(unauthorized.error).toBe("Your model endpoint answered 401 — check the key in Settings → Models.");

    await pick(mira, chat.id, unknownModel.id);
    expect((await exchange(socket, chat.id, "Hello?")).error).toBe(
      "Your model endpoint answered 404 — check the base URL and the model in Settings → Models.",
    );
    await pick(mira, chat.id, garbage.id);
    expect((await exchange(socket, chat.id, "Hello?")).error).toBe(
      "Your model endpoint sent an answer Fabled could not read — check that it is OpenAI-compatible.",
    );
    await pick(mira, chat.id, redirect.id);
    expect((await exchange(socket, chat.id, "Hello?")).error).toBe(
      "Base URL cannot be a private, loopback or link-local address — change it in Settings → Models.",
    );
    await pick(mira, chat.id, hang.id);
    await runInDurableObject(conversationRoom(env, chat.id), (room: ConversationRoom) => {
      room.tokenTimeoutMs = 300;
    });
    expect((await exchange(socket, chat.id, "Hello?")).error).toBe("Your model endpoint did not answer in time — is it running?");

    const frames = JSON.stringify(socket.frames);
    expect(frames).not.toContain(key);
    const logged = JSON.stringify([...warn.mock.calls, ...error.mock.calls]);
    // The failure was logged (for the operator)…
    expect(logged).toContain("reply failed");
    // …without the key the endpoint quoted back.
    expect(logged).not.toContain(key);
    socket.close();
  });
});
