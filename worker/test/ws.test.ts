/**
 * `/ws` exactly as SPEC.md §7 describes it — a bare `/ws`, `join`, then
 * `chat_message` with `isUser: true` — and the upgrade's checks (session,
 * Origin), through the Worker's own fetch.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { Conversation } from "../../schema/chat.ts";
import { ChatSocket, connect, ORIGIN, upgrade } from "./chat-client.ts";
import { call, json } from "./creator-api.ts";
import { insertCharacter, signIn, type TestUser } from "./fixtures.ts";

let characterId: number;

beforeAll(async () => {
  characterId = await insertCharacter({ name: "Wren" });
});

async function startConversation(user: TestUser): Promise<Conversation> {
  return json<Conversation>(await call("/api/conversations", { method: "POST", user, body: { characterId, title: "Chat with Wren" } }), 201);
}

describe("/ws as SPEC.md §7 describes it", () => {
  it("bare /ws, join, chat_message → character_response {content, timestamp}", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const conversation = await startConversation(mira);
    const socket = await connect(mira);

    socket.send({ type: "join", conversationId: conversation.id });
    socket.send({ type: "chat_message", conversationId: conversation.id, content: "Hello Wren, how are you today?", isUser: true });

    const response = await socket.next("character_response");
    expect(response.content.length).toBeGreaterThan(10);
    expect(response.content).toContain("Mira");
    expect(new Date(response.timestamp).getTime()).toBeGreaterThan(Date.now() - 60_000);
    // The spec's fields are there as the spec names them.
    expect(Object.keys(response)).toEqual(expect.arrayContaining(["type", "content", "timestamp"]));

    const history = await json(await call(`/api/conversations/${conversation.id}/messages`, { user: mira }), 200);
    expect(history.map((m: { isUser: boolean; content: string }) => [m.isUser, m.content])).toEqual([
      [false, "Hello there."],
      [true, "Hello Wren, how are you today?"],
      [false, response.content],
    ]);
    socket.close();
  });

  it("a bare /ws relays every frame both ways and closes both ends", async () => {
    const mira = await signIn();
    const conversation = await startConversation(mira);
    const socket = await connect(mira);
    socket.send({ type: "join", conversationId: conversation.id });
    const history = await socket.next("history_sync");
    expect(history.messages.map((m) => m.content)).toEqual(["Hello there."]);
    expect(history.chatModel).toBe("offline");

    const { saved, response } = await socket.chat(conversation.id, "Tell me about the harbour.");
    expect(saved.message).toMatchObject({ content: "Tell me about the harbour.", isUser: true });
    const deltas = socket.frames.filter((f) => f.type === "character_response_delta");
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.map((d) => (d.type === "character_response_delta" ? d.delta : "")).join("").trim()).toBe(response.content);

    // A second socket on the same conversation (a second tab) sees the first's events.
    const other = await connect(mira);
    other.send({ type: "join", conversationId: conversation.id });
    await other.next("history_sync");
    socket.send({ type: "chat_message", conversationId: conversation.id, content: "And the lighthouse?", isUser: true });
    const seen = await other.next("character_response");
    expect(seen.content).toBe((await socket.next("character_response")).content);

    socket.close(1000, "leaving");
    other.close(1000, "leaving");
  });

  it("frames before join get an error and the socket stays usable", async () => {
    const mira = await signIn();
    const conversation = await startConversation(mira);
    const socket = await connect(mira);
    socket.send({ type: "chat_message", conversationId: conversation.id, content: "Too early", isUser: true });
    expect(await socket.next("error")).toMatchObject({ code: "not_joined" });
    socket.send("not json");
    expect(await socket.next("error")).toMatchObject({ code: "invalid_frame", message: "Messages must be JSON" });
    socket.send({ type: "join", conversationId: conversation.id });
    expect((await socket.next("history_sync")).messages).toHaveLength(1);
    socket.close();
  });

  it("joining someone else's conversation on a bare /ws: error frame, close 1008", async () => {
    const owner = await signIn();
    const conversation = await startConversation(owner);
    const intruder = await signIn();
    const socket = await connect(intruder);
    socket.send({ type: "join", conversationId: conversation.id });
    expect(await socket.next("error")).toMatchObject({ code: "forbidden", message: "Conversation not found" });
    expect(await socket.closed()).toMatchObject({ code: 1008, reason: "Conversation not found" });
  });

  it("a first frame over 16 KB closes with 1009", async () => {
    const mira = await signIn();
    const socket = await connect(mira);
    socket.send({ type: "join", conversationId: "x".repeat(17 * 1024) });
    expect(await socket.closed()).toMatchObject({ code: 1009 });
  });
});

describe("the upgrade", () => {
  it("needs a session: 401 without one or with a stale one", async () => {
    const res = await upgrade({ user: null });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "Unauthorized", code: "unauthorized" });
    const stale = await upgrade({ user: { id: "x", username: "@x", cookie: `fabled_session=${"a".repeat(43)}` } });
    expect(stale.status).toBe(401);
  });

  it("needs our own Origin: 403 for another site or none", async () => {
    const mira = await signIn();
    for (const origin of ["https://evil.example", "http://localhost:9999", null]) {
      const res = await upgrade({ user: mira, origin });
      expect(res.status, String(origin)).toBe(403);
      expect(((await res.json()) as { code: string }).code).toBe("forbidden");
    }
    expect((await upgrade({ user: mira, origin: ORIGIN })).status).toBe(101);
  });

  it("a plain GET of /ws is 426", async () => {
    const res = await upgrade({ user: null, upgrade: false });
    expect(res.status).toBe(426);
  });

  it("?conversationId= of someone else's, unknown or malformed conversation: error frame, close 1008", async () => {
    const owner = await signIn();
    const conversation = await startConversation(owner);
    const intruder = await signIn();
    for (const id of [conversation.id, crypto.randomUUID(), "not-a-uuid"]) {
      const res = await upgrade({ user: intruder, conversationId: id });
      expect(res.status).toBe(101);
      const socket = new ChatSocket(res.webSocket!);
      expect(await socket.next("error")).toMatchObject({ code: "forbidden" });
      expect(await socket.closed()).toMatchObject({ code: 1008 });
    }
    // Nothing was stored for the intruder.
    const row = await env.DB.prepare("SELECT count(*) AS n FROM conversations WHERE user_id = ?").bind(intruder.id).first<{ n: number }>();
    expect(row?.n).toBe(0);
  });
});
