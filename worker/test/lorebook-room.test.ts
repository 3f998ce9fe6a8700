/**
 * Lorebooks in the room (DESIGN.md turn 4 "Lorebooks", durable-objects/room/lore.ts),
 * through real sockets and the prompt inspector: an entry of a book attached
 * to the chat, to the character, and the character's own (its card's
 * `character_book`) fires by key and is named with its reason; a sticky
 * entry stays for its messages, then goes; a regenerate rolls the same
 * probabilities (seeded by the id of the message it answers); timers
 * survive the room's hibernation and a branch starts with them as they were
 * at its branch point (the chat's books go along); in a group, every
 * member's book applies.
 */
import { env } from "cloudflare:workers";
import { evictDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Character } from "../../schema/api.ts";
import type { PromptRecord } from "../../schema/chat.ts";
import type { LorebookRecord, LorebookSummary } from "../../schema/lorebook/book.ts";
import { join } from "./chat-client.ts";
import { call, json } from "./creator-api.ts";
import { signIn, type TestUser } from "./fixtures.ts";
import { startChat } from "./room-chat.ts";
import { conversationRoom } from "../lib/conversations.ts";

async function record(user: TestUser, conversationId: string, messageId: string): Promise<PromptRecord> {
  return json<PromptRecord>(await call(`/api/conversations/${conversationId}/messages/${messageId}/prompt`, { user }), 200);
}

/** An inspector entry: what fired, named as it was, and why (nothing but `why` given: no key, no decorator). */
function fired(lorebookId: string, entryId: string, reason: PromptRecord["lorebook"][number]["reason"], why: Partial<PromptRecord["lorebook"][number]> = {}) {
  return { lorebookId, entryId, reason, lorebookName: "Book", title: "", key: null, secondaryKey: null, decorator: null, ...why };
}

async function book(user: TestUser, body: Record<string, unknown>): Promise<LorebookRecord> {
  return json<LorebookRecord>(await call("/api/lorebooks", { method: "POST", user, body: { name: "Book", ...body } }), 201);
}

async function character(user: TestUser, characterBook?: Record<string, unknown>): Promise<Character> {
  return json<Character>(
    await call("/api/characters", {
      method: "POST",
      user,
      body: { name: "Orla", description: "A lighthouse keeper on Gull Rock.", personality: "Gruff, loyal, sentimental.", greeting: "Evening.", ...(characterBook ? { characterBook } : {}) },
    }),
    201,
  );
}

/** The chat's books are `lorebookIds` (the chat's own, beside its characters'). */
async function attachToChat(user: TestUser, conversationId: string, lorebookIds: string[]): Promise<void> {
  await json(await call(`/api/conversations/${conversationId}`, { method: "PATCH", user, body: { lorebookIds } }), 200);
}

/** Mira, her character Orla, and a chat with Orla that has one book of its own, made of `content` (POST /api/lorebooks). */
async function chatWithBook(content: Record<string, unknown>): Promise<{ mira: TestUser; world: LorebookRecord; chat: { id: string } }> {
  const mira = await signIn({ firstName: "Mira" });
  const orla = await character(mira);
  const world = await book(mira, content);
  const chat = await startChat(mira, orla.id);
  await attachToChat(mira, chat.id, [world.id]);
  return { mira, world, chat };
}

/**
 * A storm entry that stays 4 messages once its key is read; scan depth 1:
 * only the newest message is scanned, so the model's replies never bring
 * the key back.
 */
const STICKY_STORM = { entries: [{ keys: ["storm"], content: "STICKY-LORE: the storm rages.", sticky: 4 }], settings: { scanDepth: 1 } };

describe("lorebooks in the prompt", () => {
  it("entries of the chat's book, the character's attached book and its own card book fire by key and are named with their reason", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const orla = await character(mira, { entries: [{ id: 5, keys: ["lamp"], content: "OWN-LORE: the lamp is older than the tower.", enabled: true, insertion_order: 10 }] });
    const own = (await json<{ lorebooks: LorebookSummary[] }>(await call("/api/lorebooks", { user: mira }), 200)).lorebooks.find((b) => b.characterId === orla.id)!;
    const world = await book(mira, {
      entries: [
        { keys: ["Saltmere"], content: "CHAT-LORE: Saltmere is a town on stilts.", comment: "Saltmere" },
        { keys: ["mermaid"], content: "CHAT-LORE-UNUSED: mermaids are real." },
        { keys: [], content: "CONSTANT-LORE: the sea is always cold.", constant: true, order: 1 },
      ],
    });
    const attached = await book(mira, { entries: [{ id: "storm", keys: ["/storms?\\b/i"], content: "CHARACTER-LORE: storms last three days.", position: "at_depth", depth: 0 }] });
    await json(await call(`/api/characters/${orla.id}/lorebooks`, { method: "PUT", user: mira, body: { lorebookIds: [attached.id] } }), 200);
    const chat = await startChat(mira, orla.id);
    await attachToChat(mira, chat.id, [world.id]);

    const { socket } = await join(mira, chat.id);
    const { response } = await socket.chat(chat.id, "Is the lamp lit in Saltmere before the STORM?");
    socket.close();
    const prompt = await record(mira, chat.id, response.messageId);
    expect(prompt.lorebook).toEqual(
      expect.arrayContaining([
        fired(world.id, "0", "key", { title: "Saltmere", key: "Saltmere" }),
        fired(world.id, "2", "constant"),
        fired(attached.id, "storm", "regex", { title: "/storms?\\b/i", key: "/storms?\\b/i" }),
        fired(own.id, "5", "key", { lorebookName: own.name, title: "lamp", key: "lamp" }),
      ]),
    );
    expect(prompt.lorebook).toHaveLength(4);
    const sent = prompt.messages.map((m) => m.content).join("\n");
    for (const text of ["CHAT-LORE: Saltmere", "CONSTANT-LORE", "OWN-LORE", "CHARACTER-LORE"]) expect(sent).toContain(text);
    expect(sent).not.toContain("CHAT-LORE-UNUSED");
    // The at-depth entry is a system message after the newest one (depth 0); the others are in the system message.
    expect(prompt.messages.find((m) => m.content.includes("CHARACTER-LORE"))!.role).toBe("system");
    expect(prompt.messages[0]!.content).toContain("CHAT-LORE: Saltmere");
    expect(prompt.sections.find((s) => s.kind === "lorebook")!.tokens).toBeGreaterThan(20);
  });

  it("a sticky entry stays for its messages after its key is gone, then goes", async () => {
    const { mira, chat } = await chatWithBook(STICKY_STORM);
    const { socket } = await join(mira, chat.id);
    const reasons: string[][] = [];
    for (const text of ["A storm is coming.", "Shall we wait?", "And now?", "Quiet at last."]) {
      const { response } = await socket.chat(chat.id, text);
      reasons.push((await record(mira, chat.id, response.messageId)).lorebook.map((entry) => entry.reason));
    }
    socket.close();
    // Fired with 2 messages in the chat; sticky for 4 messages: the next reply (4 messages) keeps it, the one after (6) does not.
    expect(reasons).toEqual([["key"], ["sticky"], [], []]);
  });

  it("a book edited between replies: the next reply reads its new version", async () => {
    const { mira, world, chat } = await chatWithBook({ entries: [{ keys: ["harbor"], content: "OLD-LORE: the harbor is empty." }] });
    const { socket } = await join(mira, chat.id);
    const before = await record(mira, chat.id, (await socket.chat(chat.id, "To the harbor.")).response.messageId);
    await json(
      await call(`/api/lorebooks/${world.id}`, { method: "PUT", user: mira, body: { name: "Book", entries: [{ keys: ["harbor"], content: "NEW-LORE: the harbor is full of ships.", comment: "Harbor" }] } }),
      200,
    );
    const after = await record(mira, chat.id, (await socket.chat(chat.id, "Back to the harbor.")).response.messageId);
    socket.close();
    const sent = (prompt: PromptRecord) => prompt.messages.map((m) => m.content).join("\n");
    expect([sent(before).includes("OLD-LORE"), sent(after).includes("OLD-LORE"), sent(after).includes("NEW-LORE")]).toEqual([true, false, true]);
    expect(after.lorebook).toEqual([fired(world.id, "0", "key", { title: "Harbor", key: "harbor" })]);
  });

  it("a regenerated reply rolls each entry's probability as the first version did", async () => {
    const { mira, chat } = await chatWithBook({ entries: Array.from({ length: 16 }, (_, i) => ({ keys: ["lantern"], content: `ROLL-${i}`, probability: 50 })) });
    const { socket } = await join(mira, chat.id);
    const { response } = await socket.chat(chat.id, "Light the lantern.");
    const first = (await record(mira, chat.id, response.messageId)).lorebook.map((entry) => entry.entryId).sort();
    const versions: string[][] = [];
    let previous = response.messageId;
    for (let i = 0; i < 2; i++) {
      socket.send({ type: "regenerate", conversationId: chat.id });
      const again = await socket.next("character_response", (frame) => frame.messageId !== previous);
      previous = again.messageId;
      versions.push((await record(mira, chat.id, again.messageId)).lorebook.map((entry) => entry.entryId).sort());
    }
    socket.close();
    // 16 entries at 50%: a roll that were not seeded by the message would match 1 time in 65,536.
    expect(versions).toEqual([first, first]);
  });

  it("timers survive the room's hibernation", async () => {
    const { mira, world, chat } = await chatWithBook(STICKY_STORM);
    const first = await join(mira, chat.id);
    const firstFired = (await record(mira, chat.id, (await first.socket.chat(chat.id, "A storm is coming.")).response.messageId)).lorebook;
    first.socket.close();
    await evictDurableObject(conversationRoom(env, chat.id));
    const second = await join(mira, chat.id);
    const kept = (await record(mira, chat.id, (await second.socket.chat(chat.id, "Shall we wait?")).response.messageId)).lorebook;
    second.socket.close();
    expect([firstFired, kept]).toEqual([[fired(world.id, "0", "key", { title: "storm", key: "storm" })], [fired(world.id, "0", "sticky", { title: "storm" })]]);
  });

  it("a branch starts with the timers of its branch point: a sticky entry still holds there after it ended in the source", async () => {
    const { mira, world, chat } = await chatWithBook(STICKY_STORM);
    const source = await join(mira, chat.id);
    const replies: string[] = [];
    const reasons: string[][] = [];
    for (const text of ["A storm is coming.", "Shall we wait?", "And now?"]) {
      const { response } = await source.socket.chat(chat.id, text);
      replies.push(response.messageId);
      reasons.push((await record(mira, chat.id, response.messageId)).lorebook.map((entry) => entry.reason));
    }
    source.socket.close();
    // In the source the sticky ran out (fired at 2 messages, for 4): the third reply has no lore.
    expect(reasons).toEqual([["key"], ["sticky"], []]);

    // Branch from the first reply (3 messages): the sticky began at 2 and lasts until 6.
    const branch = await json<{ id: string; lorebookIds: string[] }>(
      await call(`/api/conversations/${chat.id}/branch`, { method: "POST", user: mira, body: { messageId: replies[0] } }),
      201,
    );
    expect(branch.lorebookIds).toEqual([world.id]);
    const inBranch = await join(mira, branch.id);
    const first = (await record(mira, branch.id, (await inBranch.socket.chat(branch.id, "Shall we wait?")).response.messageId)).lorebook;
    const second = (await record(mira, branch.id, (await inBranch.socket.chat(branch.id, "And now?")).response.messageId)).lorebook;
    inBranch.socket.close();
    expect([first, second]).toEqual([[fired(world.id, "0", "sticky", { title: "storm" })], []]);
  });

  it("a branch from before the timer began starts without it", async () => {
    const { mira, chat } = await chatWithBook(STICKY_STORM);
    const source = await join(mira, chat.id);
    const calm = (await source.socket.chat(chat.id, "A calm night.")).response.messageId;
    await source.socket.chat(chat.id, "A storm is coming.");
    source.socket.close();
    const branch = await json<{ id: string }>(await call(`/api/conversations/${chat.id}/branch`, { method: "POST", user: mira, body: { messageId: calm } }), 201);
    const inBranch = await join(mira, branch.id);
    const lore = (await record(mira, branch.id, (await inBranch.socket.chat(branch.id, "Shall we wait?")).response.messageId)).lorebook;
    inBranch.socket.close();
    expect(lore).toEqual([]);
  });

  it("in a group chat, another member's own book fires on the shared history", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const orla = await character(mira);
    const bo = await json<Character>(
      await call("/api/characters", {
        method: "POST",
        user: mira,
        body: { name: "Bo", description: "A ferryman who hums.", personality: "Cheerful and slow.", greeting: "Ahoy.", characterBook: { entries: [{ id: 1, keys: ["ferry"], content: "BO-LORE: the ferry leaks." }] } },
      }),
      201,
    );
    const bosBook = (await json<{ lorebooks: LorebookSummary[] }>(await call("/api/lorebooks", { user: mira }), 200)).lorebooks.find((b) => b.characterId === bo.id)!;
    const group = await json<{ id: string }>(await call("/api/conversations", { method: "POST", user: mira, body: { characterIds: [orla.id, bo.id] } }), 201);
    const { socket } = await join(mira, group.id);
    socket.send({ type: "chat_message", conversationId: group.id, content: "Is the ferry running tonight?", isUser: true, clientId: "c1" });
    const response = await socket.next("character_response");
    socket.close();
    const prompt = await record(mira, group.id, response.messageId);
    expect(prompt.lorebook).toEqual([fired(bosBook.id, "1", "key", { lorebookName: bosBook.name, title: "ferry", key: "ferry" })]);
    expect(prompt.messages[0]!.content).toContain("BO-LORE: the ferry leaks.");
  });
});
