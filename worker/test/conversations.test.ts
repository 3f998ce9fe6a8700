/**
 * The conversations API as callers see it: starting a conversation (title,
 * greeting as the first message), reading it and its messages (owner only),
 * "My Chats", the counters that follow every stored message, and thumbs on
 * replies moving the character's rating.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { ChatMessage, Conversation, ConversationSummary } from "../../schema/chat.ts";
import { eventually, join } from "./chat-client.ts";
import { call, json } from "./creator-api.ts";
import { insertCharacter, signIn, type TestUser } from "./fixtures.ts";

const UNAUTHORIZED = { error: "Unauthorized", code: "unauthorized" };
const NOT_FOUND = { error: "Conversation not found", code: "not_found" };

let characterId: number;

beforeAll(async () => {
  characterId = await insertCharacter({ name: "Quill" });
  await env.DB.prepare("UPDATE characters SET greeting = ?, avatar_url = ? WHERE id = ?")
    .bind("*{{char}} looks up from the ledger.* Good evening, {{User}}. <BOT> is at your service.", "/avatars/demo/quill.svg", characterId)
    .run();
});

async function start(user: TestUser, body: Record<string, unknown> = { characterId, title: "Chat with Quill" }, path = "/api/conversations") {
  return json<Conversation>(await call(path, { method: "POST", user, body }), 201);
}

async function character(id = characterId) {
  return env.DB.prepare(
    "SELECT message_count AS messageCount, rating, rating_up AS ratingUp, rating_down AS ratingDown, trending_score AS trendingScore FROM characters WHERE id = ?",
  )
    .bind(id)
    .first<{ messageCount: number; rating: number; ratingUp: number; ratingDown: number; trendingScore: number }>();
}

describe("starting a conversation", () => {
  it("POST /api/conversations: 201 with the conversation; the greeting (macros replaced) is the first message", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const conversation = await start(mira);
    expect(conversation).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      characterId,
      userId: mira.id,
      title: "Chat with Quill",
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      lastMessageAt: expect.any(String),
      lastMessagePreview: "*Quill looks up from the ledger.* Good evening, Mira. Quill is at your service.",
      chatModel: "offline",
      character: { id: characterId, name: "Quill", avatarUrl: "/avatars/demo/quill.svg", creator: "tester", creatorUsername: null },
      characters: [
        { id: characterId, name: "Quill", avatarUrl: "/avatars/demo/quill.svg", creator: "tester", creatorUsername: null, muted: false, talkativeness: 0.5, assets: [] },
      ],
      replyOrder: "natural",
      members: [{ userId: mira.id, username: expect.any(String), name: "Mira", avatarUrl: null, role: "owner" }],
      personaId: null,
      branchedFrom: null,
      modelConnectionId: null,
      background: null,
      // Check-ins are off until the owner opts in (issue 39).
      checkIns: false,
    });
    const messages = await json<ChatMessage[]>(await call(`/api/conversations/${conversation.id}/messages`, { user: mira }), 200);
    expect(messages).toEqual([
      {
        id: expect.any(String),
        conversationId: conversation.id,
        content: "*Quill looks up from the ledger.* Good evening, Mira. Quill is at your service.",
        isUser: false,
        createdAt: conversation.createdAt,
        clientId: null,
        rating: null,
        alternatives: [],
        characterId,
        // Every character message says what it recalled (DESIGN.md "Memory"): the greeting, nothing.
        recalled: [],
        // And the expression it shows: Quill has none.
        expression: null,
      },
    ]);
  });

  it("POST /api/conversations/new and a missing title: 'Chat with {name}'; a character without greeting starts empty", async () => {
    const mira = await signIn();
    expect((await start(mira, { characterId }, "/api/conversations/new")).title).toBe("Chat with Quill");
    expect((await start(mira, { characterId: String(characterId), title: "" })).title).toBe("Chat with Quill");
    expect((await start(mira, { characterId, title: "  Plans for the heist " })).title).toBe("Plans for the heist");

    const silent = await insertCharacter({ name: "Mute" });
    await env.DB.prepare("UPDATE characters SET greeting = NULL WHERE id = ?").bind(silent).run();
    const quiet = await start(mira, { characterId: silent }, "/api/conversations/new");
    expect(quiet).toMatchObject({ title: "Chat with Mute", lastMessageAt: null, lastMessagePreview: null });
    expect(await json(await call(`/api/conversations/${quiet.id}/messages`, { user: mira }), 200)).toEqual([]);
  });

  it("404 for a character the person cannot see or that does not exist; 400 for a malformed body", async () => {
    const mira = await signIn();
    const hidden = await insertCharacter({ isActive: false, creatorId: null });
    for (const id of [hidden, 999_999]) {
      const res = await call("/api/conversations", { method: "POST", user: mira, body: { characterId: id } });
      expect(await json(res, 404)).toEqual({ error: "Character not found", code: "not_found" });
    }
    // The owner of an inactive character may still chat with it.
    const own = await insertCharacter({ isActive: false, creatorId: mira.id });
    await start(mira, { characterId: own });
    for (const body of [{}, { characterId: "abc" }, { characterId: -1 }, { characterId, title: "x".repeat(201) }, "{oops"]) {
      expect((await call("/api/conversations", { method: "POST", user: mira, body })).status).toBe(400);
    }
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM conversations WHERE user_id = ?").bind(mira.id).first<{ n: number }>();
    expect(rows?.n).toBe(1);
  });

  it("401 for visitors on every conversation call", async () => {
    const owner = await signIn();
    const conversation = await start(owner);
    const calls: [string, string][] = [
      ["GET", "/api/conversations"],
      ["POST", "/api/conversations"],
      ["POST", "/api/conversations/new"],
      ["GET", `/api/conversations/${conversation.id}`],
      ["GET", `/api/conversations/${conversation.id}/messages`],
      ["POST", `/api/conversations/${conversation.id}/messages/x/rating`],
    ];
    for (const [method, path] of calls) {
      const res = await call(path, { method, body: method === "POST" ? { characterId, value: 1 } : undefined });
      expect(await json(res, 401), `${method} ${path}`).toEqual(UNAUTHORIZED);
    }
  });
});

describe("reading a conversation", () => {
  it("GET /api/conversations/:id gives the owner the conversation with its characterId; 404 for anyone else and unknown ids", async () => {
    const owner = await signIn();
    const conversation = await start(owner);
    expect(await json(await call(`/api/conversations/${conversation.id}`, { user: owner }), 200)).toEqual({ ...conversation, lorebookIds: [] });
    expect((await json<Conversation>(await call(`/api/conversations/${conversation.id.toUpperCase()}`, { user: owner }), 200)).id).toBe(
      conversation.id,
    );

    const other = await signIn();
    for (const path of [
      `/api/conversations/${conversation.id}`,
      `/api/conversations/${conversation.id}/messages`,
      `/api/conversations/${crypto.randomUUID()}`,
      `/api/conversations/${crypto.randomUUID()}/messages`,
      "/api/conversations/not-a-uuid",
      "/api/conversations/not-a-uuid/messages",
      "/api/conversations/%27%20OR%201=1--/messages",
    ]) {
      expect(await json(await call(path, { user: other }), 404), path).toEqual(NOT_FOUND);
    }
  });

  it("GET /api/conversations/:id embeds the character, still there once it is inactive; another person gets 404", async () => {
    const maker = await signIn();
    const lark = await insertCharacter({ name: "Lark", creator: "lark_maker", creatorId: maker.id });
    await env.DB.prepare("UPDATE characters SET avatar_url = ? WHERE id = ?").bind("/objects/avatars/lark.png", lark).run();
    const embedded = { id: lark, name: "Lark", avatarUrl: "/objects/avatars/lark.png", creator: "lark_maker", creatorUsername: maker.username };

    const mira = await signIn();
    const first = await start(mira, { characterId: lark, title: "Chat with Lark" });
    const second = await start(mira, { characterId: lark }, "/api/conversations/new");
    expect(first.character).toEqual(embedded);
    expect(second).toMatchObject({ characterId: lark, character: embedded });
    expect(await json(await call(`/api/conversations/${first.id}`, { user: mira }), 200)).toEqual({ ...first, lorebookIds: [] });

    // The creator deactivates Lark: its page is gone for Mira, her chats keep its name and avatar.
    expect(await json(await call(`/api/characters/${lark}/toggle-active`, { method: "PATCH", user: maker }), 200)).toMatchObject({
      isActive: false,
    });
    expect((await call(`/api/characters/${lark}`, { user: mira })).status).toBe(404);
    expect(await json(await call(`/api/conversations/${first.id}`, { user: mira }), 200)).toEqual({ ...first, lorebookIds: [] });
    expect(await json(await call(`/api/conversations/${second.id}`, { user: mira }), 200)).toEqual({ ...second, lorebookIds: [] });
    const list = await json<ConversationSummary[]>(await call("/api/conversations", { user: mira }), 200);
    expect(list.map((c) => c.character)).toEqual([embedded, embedded]);

    // Someone else, even the character's creator, still cannot read Mira's conversation.
    for (const user of [maker, await signIn()]) {
      expect(await json(await call(`/api/conversations/${first.id}`, { user }), 404)).toEqual(NOT_FOUND);
      expect(await json(await call(`/api/conversations/${first.id}/messages`, { user }), 404)).toEqual(NOT_FOUND);
    }
  });

  it("GET /api/conversations: the person's own, latest activity first, with the character and the last message's preview", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const older = await start(mira);
    const newer = await start(mira, { characterId, title: "Second" });
    const someoneElse = await signIn();
    await start(someoneElse);

    let list = await json<ConversationSummary[]>(await call("/api/conversations", { user: mira }), 200);
    expect(list.map((c) => c.id)).toEqual([newer.id, older.id]);
    expect(list[0]).toMatchObject({
      title: "Second",
      character: { id: characterId, name: "Quill", avatarUrl: "/avatars/demo/quill.svg", creator: "tester" },
      lastMessagePreview: expect.stringContaining("Good evening, Mira"),
      chatModel: "offline",
    });

    // A message in the older conversation moves it to the top, with the reply as its preview.
    const { socket } = await join(mira, older.id);
    const { response } = await socket.chat(older.id, "Show me the ledger, please.");
    socket.close();
    list = await json<ConversationSummary[]>(await call("/api/conversations", { user: mira }), 200);
    expect(list.map((c) => c.id)).toEqual([older.id, newer.id]);
    expect(list[0]!.lastMessagePreview).toBe(response.content.replace(/\s+/g, " ").slice(0, 140));
    expect(Date.parse(list[0]!.lastMessageAt!)).toBe(Date.parse(response.timestamp));

    expect((await json<unknown[]>(await call("/api/conversations?limit=1&offset=1", { user: mira }), 200)).length).toBe(1);
    expect((await call("/api/conversations?limit=0", { user: mira })).status).toBe(400);
  });
});

describe("counters", () => {
  it("message_count, last_message_at, preview and updated_at follow every stored message; trending rises with the person's", async () => {
    const counted = await insertCharacter({ name: "Tally" });
    const mira = await signIn();
    const conversation = await start(mira, { characterId: counted });
    const before = (await character(counted))!;
    expect(before.messageCount).toBe(0);

    const { socket } = await join(mira, conversation.id);
    const { saved, response } = await socket.chat(conversation.id, "Count this one.");
    await socket.chat(conversation.id, "And this one.");
    socket.close();

    const after = await eventually(async () => {
      const now = await character(counted);
      return now?.messageCount === 4 ? now : null;
    });
    expect(after.trendingScore).toBeGreaterThan(before.trendingScore);
    const row = await env.DB.prepare(
      "SELECT last_message_at AS lastMessageAt, last_message_preview AS preview, updated_at AS updatedAt, created_at AS createdAt FROM conversations WHERE id = ?",
    )
      .bind(conversation.id)
      .first<{ lastMessageAt: number; preview: string; updatedAt: number; createdAt: number }>();
    const messages = await json<ChatMessage[]>(await call(`/api/conversations/${conversation.id}/messages`, { user: mira }), 200);
    const last = messages.at(-1)!;
    expect(row!.lastMessageAt).toBe(Date.parse(last.createdAt));
    expect(row!.preview).toBe(last.content.replace(/\s+/g, " ").slice(0, 140));
    expect(row!.updatedAt).toBe(row!.lastMessageAt);
    expect(row!.updatedAt).toBeGreaterThanOrEqual(row!.createdAt);
    expect(messages.map((m) => m.id).slice(1, 3)).toEqual([saved.messageId, response.messageId]);
  });
});

describe("rating replies", () => {
  it("thumbs up, down and back move rating_up/rating_down and rating = round(100 × (up + 8) / (up + down + 10))", async () => {
    const rated = await insertCharacter({ name: "Rated" });
    const mira = await signIn();
    const conversation = await start(mira, { characterId: rated });
    const { socket } = await join(mira, conversation.id);
    const { saved, response } = await socket.chat(conversation.id, "Rate me.");
    const path = `/api/conversations/${conversation.id}/messages/${response.messageId}/rating`;

    expect(await json(await call(path, { method: "POST", user: mira, body: { value: 1 } }), 200)).toEqual({
      messageId: response.messageId,
      rating: 1,
    });
    expect(await character(rated)).toMatchObject({ ratingUp: 1, ratingDown: 0, rating: 82 });
    expect(await socket.next("message_rated")).toEqual({ type: "message_rated", messageId: response.messageId, rating: 1 });

    // The same value again changes nothing; one rating per reply.
    await json(await call(path, { method: "POST", user: mira, body: { value: 1 } }), 200);
    expect(await character(rated)).toMatchObject({ ratingUp: 1, ratingDown: 0, rating: 82 });

    await json(await call(path, { method: "POST", user: mira, body: { value: -1 } }), 200);
    expect(await character(rated)).toMatchObject({ ratingUp: 0, ratingDown: 1, rating: 73 });

    expect(await json(await call(path, { method: "POST", user: mira, body: { value: 0 } }), 200)).toEqual({
      messageId: response.messageId,
      rating: null,
    });
    expect(await character(rated)).toMatchObject({ ratingUp: 0, ratingDown: 0, rating: 80 });

    await json(await call(path, { method: "POST", user: mira, body: { value: -1 } }), 200);
    const messages = await json<ChatMessage[]>(await call(`/api/conversations/${conversation.id}/messages`, { user: mira }), 200);
    expect(messages.find((m) => m.id === response.messageId)?.rating).toBe(-1);

    // Not a reply, not a message, not a value, not the owner.
    const own = `/api/conversations/${conversation.id}/messages/${saved.messageId}/rating`;
    expect((await call(own, { method: "POST", user: mira, body: { value: 1 } })).status).toBe(400);
    expect((await call(`/api/conversations/${conversation.id}/messages/nope/rating`, { method: "POST", user: mira, body: { value: 1 } })).status).toBe(404);
    expect((await call(path, { method: "POST", user: mira, body: { value: 2 } })).status).toBe(400);
    const other = await signIn();
    expect((await call(path, { method: "POST", user: other, body: { value: 1 } })).status).toBe(404);
    expect(await character(rated)).toMatchObject({ ratingUp: 0, ratingDown: 1, rating: 73 });
    socket.close();
  });
});
