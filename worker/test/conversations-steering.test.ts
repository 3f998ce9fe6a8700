/**
 * Steering a chat over HTTP: "Branch from here" (a new conversation with a
 * copy of the messages up to one, in its own room, listed with a link back),
 * and export/import as SillyTavern chat JSONL (and Markdown) — each from the
 * owner's side and from everybody else's.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { ChatMessage, Conversation } from "../../schema/chat.ts";
import { join } from "./chat-client.ts";
import { call, json } from "./creator-api.ts";
import { insertCharacter, signIn, type TestUser } from "./fixtures.ts";

let characterId: number;

beforeAll(async () => {
  characterId = await insertCharacter({ name: "Quill" });
});

async function start(user: TestUser, id = characterId): Promise<Conversation> {
  return json<Conversation>(await call("/api/conversations/new", { method: "POST", user, body: { characterId: id } }), 201);
}

async function messages(user: TestUser, id: string): Promise<ChatMessage[]> {
  return json<ChatMessage[]>(await call(`/api/conversations/${id}/messages`, { user }), 200);
}

async function conversationsOf(user: TestUser): Promise<number> {
  return (await env.DB.prepare("SELECT count(*) AS n FROM conversations WHERE user_id = ?").bind(user.id).first<{ n: number }>())!.n;
}

/** A conversation with two exchanges, a regenerated (two-version) last reply and a memory note. */
async function storyOf(user: TestUser) {
  const conversation = await start(user);
  const { socket } = await join(user, conversation.id);
  const first = await socket.chat(conversation.id, "Where is the ledger?");
  const second = await socket.chat(conversation.id, "Read me the last page.");
  socket.send({ type: "regenerate", conversationId: conversation.id });
  const regenerated = await socket.next("character_response", (f) => f.messageId !== second.response.messageId);
  socket.send({ type: "set_memory", memory: "The ledger is water-stained." });
  await socket.next("memory_updated");
  socket.close();
  return { conversation, first, second, regenerated };
}

function importFile(user: TestUser, body: string | Uint8Array, id: number = characterId) {
  const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
  return call(`/api/conversations/import?characterId=${id}`, { method: "POST", user, body: bytes, headers: { "content-type": "application/jsonl" } });
}

describe("branch from here", () => {
  it("a new conversation holds a copy up to and including the chosen message, in its own room, listed with a link back", async () => {
    const mira = await signIn();
    const { conversation, first } = await storyOf(mira);
    const branch = await json<Conversation>(
      await call(`/api/conversations/${conversation.id}/branch`, { method: "POST", user: mira, body: { messageId: first.response.messageId } }),
      201,
    );
    expect(branch.id).not.toBe(conversation.id);
    // Told apart from its source and from an import in My Chats.
    expect(branch).toMatchObject({ characterId, title: `${conversation.title} (branch)`, branchedFrom: { id: conversation.id, title: conversation.title } });
    const copied = await messages(mira, branch.id);
    const source = await messages(mira, conversation.id);
    expect(copied.map((m) => [m.isUser, m.content])).toEqual(source.slice(0, 3).map((m) => [m.isUser, m.content]));
    expect(copied.every((m) => !source.some((s) => s.id === m.id))).toBe(true);
    expect(branch.lastMessagePreview).toBe(first.response.content.replace(/\s+/g, " ").slice(0, 140));

    // Its own room: a message there leaves the source alone; the memory note came along.
    const { socket, history } = await join(mira, branch.id);
    expect(history.memory).toBe("The ledger is water-stained.");
    await socket.chat(branch.id, "A different question.");
    socket.close();
    expect(await messages(mira, conversation.id)).toHaveLength(source.length);

    const list = await json<Conversation[]>(await call("/api/conversations", { user: mira }), 200);
    expect(list.find((c) => c.id === branch.id)?.branchedFrom).toEqual({ id: conversation.id, title: conversation.title });
    expect(list.find((c) => c.id === conversation.id)?.branchedFrom).toBeNull();

    // The source deleted: the branch stays, its link goes.
    await env.DB.prepare("DELETE FROM conversations WHERE id = ?").bind(conversation.id).run();
    expect((await json<Conversation>(await call(`/api/conversations/${branch.id}`, { user: mira }), 200)).branchedFrom).toBeNull();
  });

  it("an unknown message, someone else's conversation and a visitor get nothing", async () => {
    const mira = await signIn();
    const { conversation, first } = await storyOf(mira);
    const path = `/api/conversations/${conversation.id}/branch`;
    const before = await conversationsOf(mira);
    expect((await call(path, { method: "POST", user: mira, body: { messageId: "nope" } })).status).toBe(404);
    expect((await call(path, { method: "POST", user: mira, body: {} })).status).toBe(400);
    const stranger = await signIn();
    expect((await call(path, { method: "POST", user: stranger, body: { messageId: first.response.messageId } })).status).toBe(404);
    expect((await call(path, { method: "POST", body: { messageId: first.response.messageId } })).status).toBe(401);
    expect(await conversationsOf(mira)).toBe(before);
    expect(await conversationsOf(stranger)).toBe(0);
  });
});

describe("export and import (SillyTavern chat JSONL)", () => {
  it("export, import, export again: the same messages, swipes included", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const { conversation, regenerated } = await storyOf(mira);
    const exported = await call(`/api/conversations/${conversation.id}/export`, { user: mira });
    expect(exported.status).toBe(200);
    expect(exported.headers.get("content-type")).toBe("application/jsonl; charset=utf-8");
    expect(exported.headers.get("content-disposition")).toContain('filename="Chat with Quill.jsonl"');
    const text = await exported.text();
    const lines = text.split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ user_name: "Mira", character_name: "Quill", chat_metadata: {} });
    expect(lines.slice(1).map((l) => [l.name, l.is_user, l.mes])).toEqual([
      ["Quill", false, "Hello there."],
      ["Mira", true, "Where is the ledger?"],
      ["Quill", false, expect.any(String)],
      ["Mira", true, "Read me the last page."],
      ["Quill", false, regenerated.content],
    ]);
    expect(lines.at(-1)).toMatchObject({ swipe_id: 1, swipes: [expect.any(String), regenerated.content] });

    const imported = await json<Conversation>(await importFile(mira, text), 201);
    expect(imported).toMatchObject({ characterId, branchedFrom: null, lastMessagePreview: regenerated.content.replace(/\s+/g, " ").slice(0, 140) });
    const again = await (await call(`/api/conversations/${imported.id}/export`, { user: mira })).text();
    expect(again.split("\n").slice(1)).toEqual(text.split("\n").slice(1));

    const markdown = await call(`/api/conversations/${conversation.id}/export?format=markdown`, { user: mira });
    expect(markdown.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    const body = await markdown.text();
    expect(body.startsWith("# Chat with Quill\n")).toBe(true);
    expect(body).toContain("Where is the ledger?");
    expect((await call(`/api/conversations/${conversation.id}/export?format=pdf`, { user: mira })).status).toBe(400);
  });

  it("imports a chat written by SillyTavern (its date format, a system line, swipes) onto a public character", async () => {
    const mira = await signIn();
    const file = [
      JSON.stringify({ user_name: "Traveler", character_name: "Seraphina", create_date: "2024-09-28@01h02m36s", chat_metadata: { note_prompt: "" } }),
      JSON.stringify({ name: "Seraphina", is_user: false, is_system: false, send_date: "September 28, 2024 1:02am", mes: "*Seraphina tends the fire.*", extra: {} }),
      JSON.stringify({ name: "Traveler", is_user: true, is_system: false, send_date: "September 28, 2024 1:03am", mes: "Where am I?", extra: {} }),
      JSON.stringify({ name: "SillyTavern System", is_user: false, is_system: true, send_date: "September 28, 2024 1:03am", mes: "Hidden note", extra: {} }),
      JSON.stringify({
        name: "Seraphina",
        is_user: false,
        is_system: false,
        send_date: "September 28, 2024 1:04am",
        mes: "In my glade.",
        swipe_id: 1,
        swipes: ["In the forest.", "In my glade.", "Safe."],
        swipe_info: [{}, {}, {}],
        extra: {},
      }),
    ].join("\r\n");
    const other = await signIn();
    const publicCharacter = await insertCharacter({ name: "Seraphina", creatorId: other.id });
    const imported = await json<Conversation>(await importFile(mira, `${file}\r\n`, publicCharacter), 201);
    const stored = await messages(mira, imported.id);
    expect(stored.map((m) => [m.isUser, m.content])).toEqual([
      [false, "*Seraphina tends the fire.*"],
      [true, "Where am I?"],
      [false, "In my glade."],
    ]);
    expect(stored[2]).toMatchObject({ alternatives: ["In the forest.", "Safe."], swipeIndex: 1 });
    expect(stored[1]!.createdAt).toBe("2024-09-28T01:03:00.000Z");
  });

  it("broken or oversized files get a clear 400 and create nothing; characters and conversations of others are not found", async () => {
    const mira = await signIn();
    const before = await conversationsOf(mira);
    const refused = async (body: string | Uint8Array, message: string | RegExp) => {
      const res = await importFile(mira, body);
      const answer = await json<{ error: string; code: string }>(res, 400);
      expect(answer.code).toBe("validation_failed");
      expect(answer.error).toMatch(message);
    };
    await refused("", "The chat file is empty.");
    await refused('{"user_name":"A"}\n{not json', "Line 2 is not JSON.");
    await refused('{"user_name":"A","character_name":"B"}', "The chat has no messages to import.");
    await refused(new Uint8Array([0xff, 0xfe, 0x00, 0x41]), /not UTF-8 text/);
    await refused(new Uint8Array(5 * 1024 * 1024 + 1).fill(0x20), /too large/);
    expect(await conversationsOf(mira)).toBe(before);

    // A character the person may not chat with: someone else's inactive one, or none.
    const owner = await signIn();
    const hidden = await insertCharacter({ name: "Hidden", creatorId: owner.id, isActive: false });
    const valid = '{"user_name":"A","character_name":"B"}\n{"name":"A","is_user":true,"mes":"Hi"}';
    expect((await importFile(mira, valid, hidden)).status).toBe(404);
    expect((await importFile(mira, valid, 987_654_321)).status).toBe(404);
    expect((await call("/api/conversations/import?characterId=abc", { method: "POST", user: mira, body: new Uint8Array(1) })).status).toBe(400);
    expect((await importFile(owner, valid, hidden)).status).toBe(201);
    expect(await conversationsOf(mira)).toBe(before);

    // Export is the owner's alone.
    const conversation = await start(mira);
    expect((await call(`/api/conversations/${conversation.id}/export`, { user: owner })).status).toBe(404);
    expect((await call(`/api/conversations/${conversation.id}/export`)).status).toBe(401);
    expect((await call(`/api/conversations/${conversation.id}/persona`, { method: "PUT", user: owner, body: { personaId: null } })).status).toBe(404);
  });
});
