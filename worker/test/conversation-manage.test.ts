/**
 * Chats a person can manage (issue 26, DESIGN.md "Small contracts of the
 * first hour"): renaming (`PATCH /api/conversations/:id` `{title}`),
 * deleting (`DELETE` → 204, the room's storage wiped, 404 from anyone
 * else's side), searching "My Chats" by title, character or any message's
 * words (`?q=`, worker/lib/conversation-list.ts), the
 * latest chat with one character (`?characterId=`), and the order of the
 * list following the time each row shows (the last activity).
 */
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { Conversation, ConversationSummary } from "../../schema/chat.ts";
import type { ConversationRoom } from "../../durable-objects/conversation-room.ts";
import { conversationRoom } from "../lib/conversations.ts";
import { CONTENT_REFUSED_MESSAGE } from "../lib/screening.ts";
import { join } from "./chat-client.ts";
import { call, countRows, json } from "./creator-api.ts";
import { insertCharacter, signIn, type TestUser } from "./fixtures.ts";
import { startChat, storedMessages } from "./room-chat.ts";

const NOT_FOUND = { error: "Conversation not found", code: "not_found" };

let quill: number;
let rook: number;

beforeAll(async () => {
  quill = await insertCharacter({ name: "Quill" });
  rook = await insertCharacter({ name: "Rook 100%" });
});

async function myChats(user: TestUser, query = ""): Promise<ConversationSummary[]> {
  return json<ConversationSummary[]>(await call(`/api/conversations${query}`, { user }), 200);
}

/** A chat imported as a SillyTavern chat file onto Quill: the person's and Quill's lines in turn, `lines[0]` the person's. */
async function importChat(user: TestUser, lines: string[]): Promise<Conversation> {
  const file = [
    JSON.stringify({ user_name: "Mira", character_name: "Quill" }),
    ...lines.map((mes, i) => JSON.stringify({ name: i % 2 === 0 ? "Mira" : "Quill", is_user: i % 2 === 0, mes })),
  ].join("\n");
  return json<Conversation>(
    await call(`/api/conversations/import?characterId=${quill}`, {
      method: "POST",
      user,
      body: new TextEncoder().encode(file),
      headers: { "content-type": "application/jsonl" },
    }),
    201,
  );
}

async function rename(user: TestUser, id: string, title: unknown): Promise<Response> {
  return call(`/api/conversations/${id}`, { method: "PATCH", user, body: { title } });
}

/** The tables left in the room's own SQLite storage (none once it is wiped). */
async function roomTables(conversationId: string): Promise<string[]> {
  return runInDurableObject(conversationRoom(env, conversationId), (_room: ConversationRoom, state) =>
    state.storage.sql
      .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite%'")
      .toArray()
      .map((row) => row.name),
  );
}

describe("deleting a chat", () => {
  it("the owner's DELETE answers 204: the chat is gone from D1 and My Chats, its room's storage is wiped and its open socket closed", async () => {
    const mira = await signIn();
    const chat = await startChat(mira, quill);
    const { socket } = await join(mira, chat.id);
    await socket.chat(chat.id, "Remember the ledger.");
    expect(await roomTables(chat.id)).toContain("messages");

    const res = await call(`/api/conversations/${chat.id}`, { method: "DELETE", user: mira });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    expect(await socket.closed()).toEqual({ code: 1008, reason: "Conversation deleted" });
    expect(await countRows("conversations", "id = ?", chat.id)).toBe(0);
    expect(await roomTables(chat.id)).toEqual([]);
    expect(await json(await call(`/api/conversations/${chat.id}`, { user: mira }), 404)).toEqual(NOT_FOUND);
    expect(await json(await call(`/api/conversations/${chat.id}/messages`, { user: mira }), 404)).toEqual(NOT_FOUND);
    expect((await myChats(mira)).map((c) => c.id)).not.toContain(chat.id);
    // Deleting it again: nothing there.
    expect(await json(await call(`/api/conversations/${chat.id}`, { method: "DELETE", user: mira }), 404)).toEqual(NOT_FOUND);
  });

  it("someone else's DELETE is 404 and nothing goes: the row, the messages and the room stay", async () => {
    const mira = await signIn();
    const theo = await signIn();
    const chat = await startChat(mira, quill);
    const { socket } = await join(mira, chat.id);
    await socket.chat(chat.id, "Keep this safe.");
    socket.close();

    expect(await json(await call(`/api/conversations/${chat.id}`, { method: "DELETE", user: theo }), 404)).toEqual(NOT_FOUND);
    expect(await countRows("conversations", "id = ?", chat.id)).toBe(1);
    expect((await storedMessages(mira, chat.id)).map((m) => m.content)).toContain("Keep this safe.");
    // Visitors are asked to sign in; malformed and unknown ids name nothing.
    expect((await call(`/api/conversations/${chat.id}`, { method: "DELETE" })).status).toBe(401);
    expect(await json(await call("/api/conversations/not-a-uuid", { method: "DELETE", user: mira }), 404)).toEqual(NOT_FOUND);
    expect(await json(await call(`/api/conversations/${crypto.randomUUID()}`, { method: "DELETE", user: mira }), 404)).toEqual(NOT_FOUND);
  });

  it("a chat branched from a deleted one keeps its messages and no longer names its source", async () => {
    const mira = await signIn();
    const source = await startChat(mira, quill);
    const [greeting] = await storedMessages(mira, source.id);
    const branched = await json<Conversation>(
      await call(`/api/conversations/${source.id}/branch`, { method: "POST", user: mira, body: { messageId: greeting!.id } }),
      201,
    );
    expect((await call(`/api/conversations/${source.id}`, { method: "DELETE", user: mira })).status).toBe(204);
    const after = await json<Conversation>(await call(`/api/conversations/${branched.id}`, { user: mira }), 200);
    expect(after.branchedFrom).toBeNull();
    expect(await storedMessages(mira, branched.id)).toHaveLength(1);
  });
});

describe("renaming a chat", () => {
  it("PATCH {title} renames it for its owner (trimmed), shown in My Chats; 404 for anyone else; 400 for an empty or too long title", async () => {
    const mira = await signIn();
    const theo = await signIn();
    const chat = await startChat(mira, quill);

    const renamed = await json<Conversation>(await rename(mira, chat.id, "  The ledger affair  "), 200);
    expect(renamed).toMatchObject({ id: chat.id, title: "The ledger affair", characterId: quill });
    expect((await myChats(mira)).find((c) => c.id === chat.id)?.title).toBe("The ledger affair");

    expect(await json(await rename(theo, chat.id, "Mine now"), 404)).toEqual(NOT_FOUND);
    expect(await json(await rename(mira, crypto.randomUUID(), "Nothing"), 404)).toEqual(NOT_FOUND);
    expect((await json<{ code: string }>(await rename(mira, chat.id, "   "), 400)).code).toBe("validation_failed");
    expect((await json<{ code: string }>(await rename(mira, chat.id, "x".repeat(201)), 400)).code).toBe("validation_failed");
    expect((await json<{ code: string }>(await rename(mira, chat.id, 42), 400)).code).toBe("validation_failed");
    expect((await json<Conversation>(await rename(mira, chat.id, "x".repeat(200)), 200)).title).toHaveLength(200);
    expect((await json<Conversation>(await call(`/api/conversations/${chat.id}`, { user: mira }), 200)).title).toBe("x".repeat(200));
  });

  it("a title with sexual content involving minors is refused (422) and the chat keeps its title", async () => {
    const mira = await signIn();
    const chat = await startChat(mira, quill);
    await json(await rename(mira, chat.id, "Tea time"), 200);
    expect(await json(await rename(mira, chat.id, "She is 15 years old and naked."), 422)).toEqual({
      error: CONTENT_REFUSED_MESSAGE,
      code: "content_refused",
      issues: [{ path: "", message: expect.stringContaining('This text says "15 years old"') }],
    });
    expect((await json<Conversation>(await call(`/api/conversations/${chat.id}`, { user: mira }), 200)).title).toBe("Tea time");
  });
});

describe("My Chats", () => {
  it("?q= finds chats by title, character name or last message, case-insensitively, % and _ matching themselves; only the person's own", async () => {
    const mira = await signIn();
    const theo = await signIn();
    const ledger = await startChat(mira, quill);
    await json(await rename(mira, ledger.id, "The Ledger Affair"), 200);
    const plain = await startChat(mira, quill);
    const percent = await startChat(mira, rook);
    await startChat(theo, quill);

    const ids = async (q: string) => (await myChats(mira, `?q=${encodeURIComponent(q)}`)).map((c) => c.id);
    expect(await ids("ledger")).toEqual([ledger.id]);
    expect((await ids("QUILL")).sort()).toEqual([ledger.id, plain.id].sort());
    expect(await ids("100%")).toEqual([percent.id]);
    expect(await ids("%")).toEqual([percent.id]);
    expect(await ids("_")).toEqual([]);
    expect(await ids("nobody")).toEqual([]);
    expect(await ids("   ")).toHaveLength(3);
    // The last message's text too (here each chat's greeting, "Hello there."), still only the person's own.
    expect((await ids("THERE.")).sort()).toEqual([ledger.id, plain.id, percent.id].sort());
    expect((await call(`/api/conversations?q=${"a".repeat(101)}`, { user: mira })).status).toBe(400);
  });

  it("?q= finds a chat by any shown message's words, in any case and script, with the newest match's words; only chats the person reads", async () => {
    const mira = await signIn();
    const theo = await signIn();
    const long = `${"The tide rolls in over the old stones of the harbour wall. ".repeat(4)}Somewhere a lantern swings. ${"Gulls wheel and cry above the masts. ".repeat(4)}`;
    const voyage = await importChat(mira, ["We sail at dawn to the Étoile reef.", "The reef? Bring rope.", long, "Then we leave at first light."]);
    await importChat(mira, ["Nothing about boats.", "Nor here."]);
    const theirs = await importChat(theo, ["The étoile reef is mine too."]);
    const search = async (user: TestUser, q: string) => myChats(user, `?q=${encodeURIComponent(q)}`);
    const stored = await storedMessages(mira, voyage.id);

    // An older message (not the last one's preview), case-insensitively beyond ASCII; only the person's own chats.
    for (const q of ["étoile", "ÉTOILE"]) {
      const found = await search(mira, q);
      expect(found.map((c) => c.id)).toEqual([voyage.id]);
      expect(found[0]!.match).toEqual({ messageId: stored[0]!.id, snippet: "We sail at dawn to the Étoile reef." });
    }
    expect((await search(theo, "étoile")).map((c) => c.id)).toEqual([theirs.id]);
    // The newest message that matches; a long one cut around the match, on spaces.
    expect((await search(mira, "reef"))[0]!.match).toEqual({ messageId: stored[1]!.id, snippet: "The reef? Bring rope." });
    const cut = (await search(mira, "LANTERN"))[0]!.match!;
    expect(cut.messageId).toBe(stored[2]!.id);
    expect(cut.snippet).toMatch(/^…\S.* Somewhere a lantern swings\. .*\S…$/);
    expect(cut.snippet.length).toBeLessThanOrEqual(142);
    // A title, character or last-message match needs no message: no `match`.
    expect((await search(mira, "first light"))[0]).not.toHaveProperty("match");
    expect(await search(mira, "marmalade")).toEqual([]);

    // A shared room's member finds its messages once they joined, not before; the owner's search is unchanged.
    expect(await search(theo, "bring rope")).toEqual([]);
    const link = await json<{ token: string }>(await call(`/api/conversations/${voyage.id}/invites`, { method: "POST", user: mira }), 201);
    expect((await call(`/api/invites/${link.token}`, { method: "POST", user: theo })).status).toBeLessThan(300);
    expect((await search(theo, "bring rope")).map((c) => c.match?.messageId)).toEqual([stored[1]!.id]);

    // A message an operator hid is found by nobody.
    await env.DB.prepare("INSERT INTO hidden_messages (conversation_id, message_id) VALUES (?, ?)").bind(voyage.id, stored[1]!.id).run();
    expect(await search(mira, "bring rope")).toEqual([]);
    expect(await search(theo, "bring rope")).toEqual([]);
  });

  it("?q= pages through message matches in list order", async () => {
    const mira = await signIn();
    const chats = [];
    for (let i = 0; i < 5; i++) chats.push(await importChat(mira, [`Chapter ${i}: the kraken wakes.`, `Chapter ${i} ends.`]));
    await importChat(mira, ["No sea monsters here.", "None."]);
    const newestFirst = chats.map((c) => c.id).reverse();
    const page = async (offset: number) => (await myChats(mira, `?q=kraken&limit=2&offset=${offset}`)).map((c) => c.id);
    expect([...(await page(0)), ...(await page(2)), ...(await page(4))]).toEqual(newestFirst);
    expect(await page(6)).toEqual([]);
  });

  it("?characterId= gives the chats with that character, latest first (the character page's Continue chat)", async () => {
    const mira = await signIn();
    const first = await startChat(mira, quill);
    await startChat(mira, rook);
    const latest = await startChat(mira, quill);
    expect((await myChats(mira, `?characterId=${quill}`)).map((c) => c.id)).toEqual([latest.id, first.id]);
    expect((await myChats(mira, `?characterId=${quill}&limit=1`)).map((c) => c.id)).toEqual([latest.id]);
    expect(await myChats(await signIn(), `?characterId=${quill}`)).toEqual([]);
    expect((await call("/api/conversations?characterId=abc", { user: mira })).status).toBe(400);
  });

  it("the order follows the time each row shows (the last activity): a message moves a chat up, a rename does not", async () => {
    const mira = await signIn();
    const older = await startChat(mira, quill);
    const newer = await startChat(mira, rook);
    const { socket } = await join(mira, older.id);
    await socket.chat(older.id, "Back to the ledger.");
    socket.close();
    let list = await myChats(mira);
    expect(list.map((c) => c.id)).toEqual([older.id, newer.id]);
    // A rename is not a message: the list keeps its order, and every row's time is its last message's.
    await json(await rename(mira, newer.id, "Renamed"), 200);
    list = await myChats(mira);
    expect(list.map((c) => c.id)).toEqual([older.id, newer.id]);
    const shown = list.map((c) => Date.parse(c.updatedAt));
    expect(shown).toEqual([...shown].sort((a, b) => b - a));
  });
});
