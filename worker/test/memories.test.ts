/**
 * Pinned memories through the Worker (DESIGN.md "Memory",
 * worker/routes/memories.ts): who may read and write them (the owner
 * writes, members read, everyone else 404), pinning a message, the limits
 * (1–1,000 characters, 50 a chat), screening, a character's memory crossing
 * the person's chats with it and nobody else's, and the pins in the next
 * prompt — before the recalled memories, after the memory note.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { Conversation, PinnedMemory, PromptRecord } from "../../schema/chat.ts";
import { PINNED_HEADING } from "../../durable-objects/prompt.ts";
import { join } from "./chat-client.ts";
import { call, json } from "./creator-api.ts";
import { insertCharacter, signIn, type TestUser } from "./fixtures.ts";
import { startChat } from "./room-chat.ts";

let characterId: number;

beforeAll(async () => {
  characterId = await insertCharacter({ name: "Wren" });
});

const base = (conversationId: string) => `/api/conversations/${conversationId}/memories`;
const list = async (user: TestUser, conversationId: string) =>
  (await json<{ memories: PinnedMemory[] }>(await call(base(conversationId), { user }), 200)).memories;
const pin = (user: TestUser, conversationId: string, body: unknown) => call(base(conversationId), { method: "POST", user, body });

describe("pinned memories", () => {
  it("the owner pins, edits and deletes; a member reads but may not write (403); anyone else 404, a visitor 401", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const tom = await signIn({ firstName: "Tom" });
    const eve = await signIn({ firstName: "Eve" });
    const chat = await startChat(mira, characterId);
    const memory = await json<PinnedMemory>(await pin(mira, chat.id, { text: "  Ilse keeps bees on the mill roof.  " }), 201);
    expect(memory).toMatchObject({ text: "Ilse keeps bees on the mill roof.", scope: "chat", messageId: null, characterId });
    expect(new Date(memory.createdAt).toString()).not.toBe("Invalid Date");
    expect(await list(mira, chat.id)).toEqual([memory]);

    const invite = await json<{ token: string }>(await call(`/api/conversations/${chat.id}/invites`, { method: "POST", user: mira }), 201);
    await json(await call(`/api/invites/${invite.token}`, { method: "POST", user: tom }), 200);
    expect(await list(tom, chat.id)).toEqual([memory]);
    const item = `${base(chat.id)}/${memory.id}`;
    expect((await pin(tom, chat.id, { text: "Mine now." })).status).toBe(403);
    expect((await call(item, { method: "PATCH", user: tom, body: { text: "Changed." } })).status).toBe(403);
    expect((await call(item, { method: "DELETE", user: tom })).status).toBe(403);
    for (const [path, method, body] of [
      [base(chat.id), "GET", undefined],
      [base(chat.id), "POST", { text: "Hello." }],
      [item, "PATCH", { text: "Changed." }],
      [item, "DELETE", undefined],
    ] as const) {
      expect((await call(path, { method, user: eve, body })).status).toBe(404);
      expect((await call(path, { method, body })).status).toBe(401);
    }
    expect(await list(mira, chat.id)).toEqual([memory]);

    const changed = await json<PinnedMemory>(await call(item, { method: "PATCH", user: mira, body: { text: "Ilse keeps three hives." } }), 200);
    expect(changed).toEqual({ ...memory, text: "Ilse keeps three hives." });
    // Another chat's memory id is not this chat's.
    const other = await startChat(mira, characterId);
    expect((await call(`${base(other.id)}/${memory.id}`, { method: "DELETE", user: mira })).status).toBe(404);
    expect((await call(`${base(chat.id)}/${crypto.randomUUID()}`, { method: "PATCH", user: mira, body: { text: "x" } })).status).toBe(404);
    expect((await call(item, { method: "DELETE", user: mira })).status).toBe(204);
    expect(await list(mira, chat.id)).toEqual([]);
    expect((await call(item, { method: "DELETE", user: mira })).status).toBe(404);
  });

  it("pins a message by its id with its text; refuses what is not a memory with 400, an unknown message with 404", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const chat = await startChat(mira, characterId);
    const { socket } = await join(mira, chat.id);
    const { saved, response } = await socket.chat(chat.id, "The silver key is under the third oak.");
    socket.close();
    const fromMessage = await json<PinnedMemory>(await pin(mira, chat.id, { messageId: saved.messageId }), 201);
    expect(fromMessage).toMatchObject({ text: "The silver key is under the third oak.", messageId: saved.messageId, scope: "chat" });
    const ownWords = await json<PinnedMemory>(await pin(mira, chat.id, { messageId: response.messageId, text: "Wren promised to help.", scope: "character" }), 201);
    expect(ownWords).toMatchObject({ text: "Wren promised to help.", messageId: response.messageId, scope: "character", characterId });

    expect((await pin(mira, chat.id, { messageId: crypto.randomUUID() })).status).toBe(404);
    for (const body of [{}, { text: "" }, { text: "   " }, { text: "x".repeat(1001) }, { text: "ok", scope: "forever" }, { text: 5 }, { messageId: "" }]) {
      const res = await pin(mira, chat.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(await res.json()).toMatchObject({ code: "validation_failed" });
    }
    expect((await call(`${base(chat.id)}/${fromMessage.id}`, { method: "PATCH", user: mira, body: { text: "" } })).status).toBe(400);
    expect((await list(mira, chat.id)).map((m) => m.id)).toEqual([fromMessage.id, ownWords.id]);
  });

  it("is screened like every write: what is refused is not stored (422)", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const chat = await startChat(mira, characterId);
    const res = await pin(mira, chat.id, { text: "She is 15 years old and we have sex." });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ code: "content_refused" });
    expect(await list(mira, chat.id)).toEqual([]);
  });

  it("keeps at most 50 in a chat (409), its character's memories counted", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const chat = await startChat(mira, characterId);
    await env.DB.batch(
      Array.from({ length: 49 }, (_, i) =>
        env.DB.prepare("INSERT INTO memories (id, user_id, conversation_id, character_id, scope, text) VALUES (?, ?, ?, ?, 'chat', ?)").bind(
          crypto.randomUUID(),
          mira.id,
          chat.id,
          characterId,
          `Memory ${i}`,
        ),
      ),
    );
    await json(await pin(mira, chat.id, { text: "The fiftieth.", scope: "character" }), 201);
    const res = await pin(mira, chat.id, { text: "One too many." });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ code: "conflict" });
    expect(await list(mira, chat.id)).toHaveLength(50);
  });

  it("a character memory is in every chat of this person with that character, never in anyone else's, and in the next prompt", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const tom = await signIn({ firstName: "Tom" });
    const first = await startChat(mira, characterId);
    const second = await startChat(mira, characterId);
    const toms = await startChat(tom, characterId);
    const elsewhere = await startChat(mira, await insertCharacter({ name: "Other" }));
    const forWren = await json<PinnedMemory>(await pin(mira, first.id, { text: "Wren owes Mira a favour.", scope: "character" }), 201);
    const forChat = await json<PinnedMemory>(await pin(mira, first.id, { text: "The inn is called the Gilded Goose." }), 201);
    expect(await list(mira, first.id)).toEqual([forWren, forChat]);
    expect(await list(mira, second.id)).toEqual([forWren]);
    expect(await list(tom, toms.id)).toEqual([]);
    expect(await list(mira, elsewhere.id)).toEqual([]);

    const promptIn = async (user: TestUser, conversation: Conversation) => {
      const { socket } = await join(user, conversation.id);
      const { response } = await socket.chat(conversation.id, "What do you remember?");
      socket.close();
      return json<PromptRecord>(await call(`/api/conversations/${conversation.id}/messages/${response.messageId}/prompt`, { user }), 200);
    };
    const inSecond = await promptIn(mira, second);
    expect(inSecond.messages[0]!.content).toContain(`${PINNED_HEADING}\n- Wren owes Mira a favour.`);
    expect(inSecond.messages[0]!.content).not.toContain("Gilded Goose");
    expect(inSecond.sections.find((s) => s.kind === "pinned")?.tokens).toBeGreaterThan(0);
    const inToms = await promptIn(tom, toms);
    expect(inToms.messages[0]!.content).not.toContain("favour");
    expect(inToms.sections.some((s) => s.kind === "pinned")).toBe(false);

    // A pin changed in a chat reaches its very next prompt.
    await json(await call(`${base(second.id)}/${forWren.id}`, { method: "PATCH", user: mira, body: { text: "Wren owes Mira two favours." } }), 200);
    const after = await promptIn(mira, second);
    expect(after.messages[0]!.content).toContain("- Wren owes Mira two favours.");
  });
});
