/**
 * Memory in the room (DESIGN.md "Memory", room/memory.ts): a fact pushed out
 * of a small history window is recalled by a later question; hidden,
 * deleted, rewound-away messages and versions of a reply not chosen never
 * are; a branch recalls only its own history; a member added to a group
 * recalls nothing said before it joined; an edited message is recalled by
 * its new words; a chat whose messages have no vectors is embedded when the
 * room wakes; and the prompt inspector answers what was sent, to the owner
 * only. Real rooms, the offline chat model and the offline embedder; the
 * window is made small through the room's `budget` seam.
 */
import { env } from "cloudflare:workers";
import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { Conversation, PromptRecord } from "../../schema/chat.ts";
import { conversationRoom } from "../../worker/lib/conversations.ts";
import { type ChatSocket, eventually, join } from "../../worker/test/chat-client.ts";
import { call, json } from "../../worker/test/creator-api.ts";
import { insertCharacter, signIn, type TestUser } from "../../worker/test/fixtures.ts";
import { startChat, storedMessages } from "../../worker/test/room-chat.ts";
import type { ConversationRoom } from "../conversation-room.ts";
import { PINNED_HEADING, RECALLED_HEADING } from "../prompt.ts";

let characterId: number;

beforeAll(async () => {
  characterId = await insertCharacter({ name: "Wren" });
});

/** Small talk with none of the facts' words. */
const FILLER = [
  "We walk along the river path in silence for a while.",
  "The wind picks up and the lanterns sway above the road.",
  "A cart rattles past, loaded with turnips and cabbages.",
  "Somewhere a dog barks twice and then goes quiet.",
  "I pull my cloak tighter against the evening chill.",
  "The tavern ahead glows warm through its small windows.",
  "Let's sit by the fire and order something hot to drink.",
  "The innkeeper nods at us and wipes down a table.",
  "Rain starts tapping on the shutters, soft at first.",
  "I stretch my legs toward the hearth and sigh.",
];

/** A room whose prompts fit about 500 tokens: a few exchanges push the first ones out of the history. */
async function smallWindow(conversationId: string, contextTokens = 600): Promise<void> {
  await runInDurableObject(conversationRoom(env, conversationId), (room: ConversationRoom) => {
    room.budget = { contextTokens, maxTokens: 100 };
  });
}

async function say(socket: ChatSocket, conversationId: string, lines: readonly string[]) {
  const saved = [];
  for (const line of lines) saved.push(await socket.chat(conversationId, line));
  return saved;
}

async function promptOf(user: TestUser, conversationId: string, messageId: string): Promise<PromptRecord> {
  return json<PromptRecord>(await call(`/api/conversations/${conversationId}/messages/${messageId}/prompt`, { user }), 200);
}

/** The history part of a prompt (every message after the system message). */
const historyText = (record: PromptRecord) =>
  record.messages
    .slice(1)
    .map((m) => m.content)
    .join("\n");

async function chat(user: TestUser): Promise<{ conversation: Conversation; socket: ChatSocket }> {
  const conversation = await startChat(user, characterId);
  await smallWindow(conversation.id);
  const { socket } = await join(user, conversation.id);
  return { conversation, socket };
}

describe("recall", () => {
  it("a fact pushed out of the window is recalled by a later question, shown on the reply, in the inspector and after a reload", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const { conversation, socket } = await chat(mira);
    const id = conversation.id;
    const [fact] = await say(socket, id, ["My sister Ilse keeps bees on the roof of the old mill."]);
    await say(socket, id, FILLER);
    const { response } = await socket.chat(id, "Where does Ilse keep her bees again?");

    expect(response.message.recalled).toContain(fact!.saved.messageId);
    const record = await promptOf(mira, id, response.messageId);
    expect(record.recalled).toEqual(response.message.recalled);
    // Out of the history, into the recalled memories.
    expect(historyText(record)).not.toContain("keeps bees");
    expect(record.messages[0]!.content).toContain(`${RECALLED_HEADING}\n- Mira: My sister Ilse keeps bees on the roof of the old mill.`);
    expect(record.sections.map((s) => s.kind)).toEqual(expect.arrayContaining(["system", "recalled", "history"]));
    expect(record.sections.find((s) => s.kind === "recalled")!.tokens).toBeGreaterThan(5);
    expect(record).toMatchObject({ lorebook: [], model: "offline" });
    expect(record.tokens).toBeGreaterThan(0);
    expect(record.tokens).toBeLessThanOrEqual(500);

    // Every character message carries `recalled`, kept with the reply: a reload and a new join show it.
    const messages = await storedMessages(mira, id);
    expect(messages.filter((m) => !m.isUser).every((m) => Array.isArray(m.recalled))).toBe(true);
    expect(messages.filter((m) => m.isUser).every((m) => m.recalled === undefined)).toBe(true);
    expect(messages.at(-1)!.recalled).toEqual(response.message.recalled);
    socket.close();
    await evictDurableObject(conversationRoom(env, id));
    const again = await join(mira, id);
    expect(again.history.messages.at(-1)!.recalled).toEqual(response.message.recalled);
    again.socket.close();
  });

  it("the prompt holds the memory note, then the pinned memories, then the recalled ones, then the running summary", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const { conversation, socket } = await chat(mira);
    const id = conversation.id;
    socket.send({ type: "set_memory", conversationId: id, memory: "Mira is a beekeeper's sister.", clientId: crypto.randomUUID() });
    await socket.next("memory_updated");
    await json(await call(`/api/conversations/${id}/memories`, { method: "POST", user: mira, body: { text: "Never call Mira by her title." } }), 201);
    await say(socket, id, ["My sister Ilse keeps bees on the roof of the old mill."]);
    await say(socket, id, FILLER);
    // The history overflowed: the oldest part is folded into the summary after a reply.
    await eventually(() =>
      runInDurableObject(conversationRoom(env, id), (_room: ConversationRoom, state) => state.storage.sql.exec<{ summary: string }>("SELECT summary FROM room").one().summary !== ""),
    );
    const { response } = await socket.chat(id, "Where does Ilse keep her bees again?");
    const system = (await promptOf(mira, id, response.messageId)).messages[0]!.content;
    const at = ["Remember:\nMira is a beekeeper's sister.", `${PINNED_HEADING}\n- Never call Mira by her title.`, `${RECALLED_HEADING}\n`, "The story so far:\n"].map((part) =>
      system.indexOf(part),
    );
    expect(at.every((i) => i >= 0), system).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    const kinds = (await promptOf(mira, id, response.messageId)).sections.map((s) => s.kind);
    expect(kinds.filter((k) => ["memory_note", "pinned", "recalled", "summary"].includes(k))).toEqual(["memory_note", "pinned", "recalled", "summary"]);
    socket.close();
  });

  it("never recalls hidden, deleted or rewound-away messages, nor a version of a reply that is not chosen", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const { conversation, socket } = await chat(mira);
    const id = conversation.id;
    const [kept, hidden, deleted] = await say(socket, id, [
      "The smuggler's boat is called the Grey Heron.",
      "I buried the silver key under the third oak.",
      "The dragon sleeps beneath the glacier.",
    ]);
    // A reply whose text (one version) names the vault; then a new version is chosen instead.
    const { response: vaultReply } = await socket.chat(id, "Hmm.");
    socket.send({ type: "edit_message", conversationId: id, messageId: vaultReply.messageId, content: "The vault code is amber 4417." });
    await socket.next("message_updated", (f) => f.messageId === vaultReply.messageId);
    socket.send({ type: "regenerate", conversationId: id });
    const regenerated = await socket.next("character_response", (f) => f.messageId !== vaultReply.messageId);
    expect(regenerated.message.alternatives).toEqual(["The vault code is amber 4417."]);
    await say(socket, id, FILLER);
    // The offline model repeats the person's words: their replies are hidden and deleted with them.
    for (const messageId of [hidden!.saved.messageId, hidden!.response.messageId]) {
      socket.send({ type: "hide_message", conversationId: id, messageId, hidden: true });
      await socket.next("message_updated", (f) => f.messageId === messageId);
    }
    for (const messageId of [deleted!.saved.messageId, deleted!.response.messageId]) {
      socket.send({ type: "delete_message", conversationId: id, messageId });
      await socket.next("messages_deleted", (f) => f.messageIds.includes(messageId));
    }
    // Said, then rewound away (with its reply).
    const { saved: rewound } = await socket.chat(id, "The healer charges three eggs for a visit.");
    socket.send({ type: "rewind", conversationId: id, messageId: rewound.messageId });
    await socket.next("messages_deleted", (f) => f.messageIds.includes(rewound.messageId));

    const question = "Tell me about the Grey Heron boat, the silver key, the glacier dragon, the vault code and the healer's eggs.";
    const { response } = await socket.chat(id, question);
    const recalled = response.message.recalled!;
    expect(recalled).toContain(kept!.saved.messageId);
    const never = [hidden, deleted].flatMap((said) => [said!.saved.messageId, said!.response.messageId]);
    for (const messageId of [...never, rewound.messageId, vaultReply.messageId, regenerated.messageId]) expect(recalled).not.toContain(messageId);
    const record = await promptOf(mira, id, response.messageId);
    const recalledSection = record.messages[0]!.content.split(`${RECALLED_HEADING}\n`)[1]!.split("\n\n")[0]!;
    expect(recalledSection).toContain("Grey Heron");
    for (const words of ["silver key", "glacier", "amber 4417", "three eggs"]) expect(recalledSection).not.toContain(words);

    // Shown again, the hidden message is recalled like any other.
    socket.send({ type: "hide_message", conversationId: id, messageId: hidden!.saved.messageId, hidden: false });
    await socket.next("message_updated", (f) => f.messageId === hidden!.saved.messageId);
    const { response: later } = await socket.chat(id, "Which oak did I bury the silver key under?");
    expect(later.message.recalled).toContain(hidden!.saved.messageId);
    socket.close();
  });

  it("an edited message is recalled by its new words", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const { conversation, socket } = await chat(mira);
    const id = conversation.id;
    const [fact] = await say(socket, id, ["My horse is a grey gelding."]);
    await say(socket, id, FILLER);
    socket.send({ type: "edit_message", conversationId: id, messageId: fact!.saved.messageId, content: "My horse is a black mare named Pepper." });
    await socket.next("message_updated", (f) => f.messageId === fact!.saved.messageId);
    const { response } = await socket.chat(id, "What is Pepper afraid of, do you think?");
    expect(response.message.recalled).toContain(fact!.saved.messageId);
    const record = await promptOf(mira, id, response.messageId);
    expect(record.messages[0]!.content).toContain("My horse is a black mare named Pepper.");
    socket.close();
  });

  it("a branch recalls only its own history", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const { conversation, socket } = await chat(mira);
    const id = conversation.id;
    const [before] = await say(socket, id, ["Captain Varro is allergic to honey."]);
    const branchPoint = (await say(socket, id, FILLER.slice(0, 2))).at(-1)!.response;
    // After the branch point, only in the original.
    await say(socket, id, ["Captain Varro secretly owns a honey farm in Karsk."]);
    socket.close();

    const branch = json<Conversation>(await call(`/api/conversations/${id}/branch`, { method: "POST", user: mira, body: { messageId: branchPoint.messageId } }), 201);
    const branchId = (await branch).id;
    await smallWindow(branchId);
    const { socket: inBranch } = await join(mira, branchId);
    await say(inBranch, branchId, FILLER.slice(2));
    const { response } = await inBranch.chat(branchId, "What about Captain Varro and honey?");
    const record = await promptOf(mira, branchId, response.messageId);
    const branchFact = (await storedMessages(mira, branchId)).find((m) => m.content === "Captain Varro is allergic to honey.")!;
    expect(branchFact.id).not.toBe(before!.saved.messageId);
    expect(record.recalled).toContain(branchFact.id);
    expect(record.messages.map((m) => m.content).join("\n")).not.toContain("honey farm");
    inBranch.close();
  });

  it("a chat whose messages have no vectors (written before memory) is embedded when the room wakes", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const { conversation, socket } = await chat(mira);
    const id = conversation.id;
    await say(socket, id, FILLER.slice(0, 3));
    socket.close();
    const stub = conversationRoom(env, id);
    const counts = () =>
      runInDurableObject(stub, (_room: ConversationRoom, state) => ({
        vectors: state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM message_vectors").one().n,
        messages: state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM messages WHERE status = 'complete'").one().n,
      }));
    await eventually(async () => {
      const now = await counts();
      return now.vectors === now.messages;
    });
    await runInDurableObject(stub, (_room: ConversationRoom, state) => {
      state.storage.sql.exec("DELETE FROM message_vectors");
    });
    expect((await counts()).vectors).toBe(0);
    await evictDurableObject(stub);
    // Waking (a join) embeds them, off any reply.
    const { socket: again } = await join(mira, id);
    const after = await eventually(async () => {
      const now = await counts();
      return now.vectors === now.messages && now;
    });
    expect(after.messages).toBe(7);
    again.close();
  });
});

describe("groups", () => {
  it("a member added later does not recall what was said before it joined; a member from the start does", async () => {
    const ana = await insertCharacter({ name: "Ana" });
    const bo = await insertCharacter({ name: "Bo" });
    const cy = await insertCharacter({ name: "Cy" });
    const mira = await signIn({ firstName: "Mira" });
    const conversation = json<Conversation>(await call("/api/conversations", { method: "POST", user: mira, body: { characterIds: [ana, bo] } }), 201);
    const id = (await conversation).id;
    await json(await call(`/api/conversations/${id}`, { method: "PATCH", user: mira, body: { replyOrder: "manual" } }), 200);
    await smallWindow(id, 400);
    const { socket } = await join(mira, id);
    const send = async (content: string) => {
      const clientId = crypto.randomUUID();
      socket.send({ type: "chat_message", conversationId: id, content, clientId });
      return (await socket.next("message_saved", (f) => f.clientId === clientId)).messageId;
    };
    const before = await send("The password for the night gate is lanterns in the rain.");
    await json(await call(`/api/conversations/${id}/characters`, { method: "POST", user: mira, body: { characterId: cy } }), 201);
    const after = await send("The bridge at Harrow Ford collapsed in the spring flood.");
    for (const line of FILLER) await send(line);
    await send("What was the password for the night gate, and what happened to the bridge at Harrow Ford?");
    const reply = async (speaker: number) => {
      socket.send({ type: "generate", conversationId: id, characterId: speaker });
      const started = await socket.next("reply_started", (f) => f.characterId === speaker);
      return socket.next("character_response", (f) => f.messageId === started.messageId);
    };
    const byCy = await reply(cy);
    expect(byCy.message.recalled).toContain(after);
    expect(byCy.message.recalled).not.toContain(before);
    // A summary the reply may have started is thrown away (the owner's wins), so the next prompt has room to recall.
    socket.send({ type: "set_summary", conversationId: id, summary: "", clientId: crypto.randomUUID() });
    await socket.next("summary_updated", (f) => f.summary === "");
    const byAna = await reply(ana);
    expect(byAna.message.recalled).toEqual(expect.arrayContaining([before, after]));
    socket.close();
  });
});

describe("the prompt inspector", () => {
  it("answers the owner only; a person's message, an unknown id, a member and a stranger get 404", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const tom = await signIn({ firstName: "Tom" });
    const { conversation, socket } = await chat(mira);
    const id = conversation.id;
    const { saved, response } = await socket.chat(id, "Hello there.");
    socket.close();
    const path = (messageId: string) => `/api/conversations/${id}/messages/${messageId}/prompt`;
    const record = await promptOf(mira, id, response.messageId);
    expect(record.messages.at(-1)).toEqual({ role: "user", content: "Hello there." });
    expect(record.recalled).toEqual([]);
    expect((await call(path(saved.messageId), { user: mira })).status).toBe(404);
    expect((await call(path(crypto.randomUUID()), { user: mira })).status).toBe(404);
    expect((await call(path("x".repeat(101)), { user: mira })).status).toBe(404);
    expect((await call(path(response.messageId), { user: tom })).status).toBe(404);
    expect((await call(path(response.messageId), {})).status).toBe(401);
    // A member of the shared room is not the owner.
    const invite = await json<{ token: string }>(await call(`/api/conversations/${id}/invites`, { method: "POST", user: mira }), 201);
    await json(await call(`/api/invites/${invite.token}`, { method: "POST", user: tom }), 200);
    expect((await call(path(response.messageId), { user: tom })).status).toBe(404);
  });
});
