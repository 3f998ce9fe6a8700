/**
 * Group chats (issue 22, DESIGN.md "Group chats") through the Worker's routes
 * and real WebSocket upgrades: a cast started and changed, every reply order
 * with a seeded random source, mute, "Let … speak", regenerate keeping the
 * speaker, a member removed mid-round, hibernation mid-round, and the
 * owner-only routes from another person's side.
 */
import { env } from "cloudflare:workers";
import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { OfflineChatModel } from "../../ai/offline-model.ts";
import { OpenAIChatModel } from "../../ai/chat-models.ts";
import type { PromptMessage } from "../../ai/chat-model.ts";
import type { ChatMessage, Conversation } from "../../schema/chat.ts";
import type { ServerFrame } from "../../schema/chat-frames.ts";
import { conversationRoom } from "../../worker/lib/conversations.ts";
import { type ChatSocket, join } from "../../worker/test/chat-client.ts";
import { call, json } from "../../worker/test/creator-api.ts";
import { insertCharacter, signIn, type TestUser } from "../../worker/test/fixtures.ts";
import { storedMessages } from "../../worker/test/room-chat.ts";
import type { ConversationRoom } from "../conversation-room.ts";
import { mulberry32 } from "../../schema/seeded-random.ts";

let ana: number;
let bo: number;
let cy: number;

beforeAll(async () => {
  ana = await insertCharacter({ name: "Ana" });
  bo = await insertCharacter({ name: "Bo" });
  cy = await insertCharacter({ name: "Cy" });
  await env.DB.prepare("UPDATE characters SET greeting = ?, alternate_greetings = ? WHERE id = ?")
    .bind("Ana waves at {{user}}.", JSON.stringify(["Ana nods at {{user}}.", "Ana looks up."]), ana)
    .run();
  await env.DB.prepare("UPDATE characters SET greeting = '' WHERE id = ?").bind(bo).run();
  await env.DB.prepare("UPDATE characters SET greeting = 'Cy grins.' WHERE id = ?").bind(cy).run();
});

async function startGroup(user: TestUser, characterIds: number[] = [ana, bo, cy]): Promise<Conversation> {
  return json<Conversation>(await call("/api/conversations", { method: "POST", user, body: { characterIds } }), 201);
}

/** Sets the room's reply order through the route and seeds its random source. */
async function prepare(user: TestUser, conversation: Conversation, replyOrder: Conversation["replyOrder"], seed = 1): Promise<void> {
  if (replyOrder !== conversation.replyOrder) {
    await json<Conversation>(await call(`/api/conversations/${conversation.id}`, { method: "PATCH", user, body: { replyOrder } }), 200);
  }
  await runInDurableObject(conversationRoom(env, conversation.id), (room: ConversationRoom) => {
    room.random = mulberry32(seed);
  });
}

/** Sends a message and collects the round's replies until `count` replies have ended. */
async function round(socket: ChatSocket, conversationId: string, content: string, count: number) {
  socket.send({ type: "chat_message", conversationId, content, clientId: crypto.randomUUID() });
  await socket.next("message_saved");
  const replies: Extract<ServerFrame, { type: "character_response" }>[] = [];
  const starts: Extract<ServerFrame, { type: "reply_started" }>[] = [];
  for (let i = 0; i < count; i++) {
    starts.push(await socket.next("reply_started"));
    replies.push(await socket.next("character_response"));
  }
  return { starts, replies };
}

describe("a cast", () => {
  it("starts with 1–8 distinct characters in the order given; every member with a greeting greets, its alternates a swipe away", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const conversation = await startGroup(mira);
    expect(conversation).toMatchObject({
      characterId: ana,
      title: "Chat with Ana, Bo and Cy",
      replyOrder: "natural",
      character: { id: ana, name: "Ana" },
    });
    expect(conversation.characters.map((c) => [c.id, c.name, c.muted, c.talkativeness])).toEqual([
      [ana, "Ana", false, 0.5],
      [bo, "Bo", false, 0.5],
      [cy, "Cy", false, 0.5],
    ]);
    const messages = await storedMessages(mira, conversation.id);
    expect(messages.map((m) => [m.characterId, m.content])).toEqual([
      [ana, "Ana waves at Mira."],
      [cy, "Cy grins."],
    ]);
    expect(messages[0]).toMatchObject({ alternatives: ["Ana nods at Mira.", "Ana looks up."], swipeIndex: 0 });

    // My Chats and the single answer carry the same cast.
    const list = await json<Conversation[]>(await call("/api/conversations", { user: mira }), 200);
    expect(list.find((c) => c.id === conversation.id)?.characters.map((c) => c.id)).toEqual([ana, bo, cy]);
    const one = await json<Conversation>(await call(`/api/conversations/${conversation.id}`, { user: mira }), 200);
    expect(one.characters).toEqual(conversation.characters);
  });

  it("refuses 0, 9 or a repeated character (400), and an unknown or hidden one (404)", async () => {
    const mira = await signIn();
    const post = (body: unknown) => call("/api/conversations", { method: "POST", user: mira, body });
    expect((await post({ characterIds: [] })).status).toBe(400);
    expect((await post({ characterIds: [ana, bo, ana] })).status).toBe(400);
    expect((await post({ characterIds: Array.from({ length: 9 }, (_, i) => ana + i) })).status).toBe(400);
    expect((await post({ characterIds: [ana, 987_654_321] })).status).toBe(404);
    const hidden = await insertCharacter({ name: "Hidden", isActive: false });
    expect((await post({ characterIds: [ana, hidden] })).status).toBe(404);
    // The one-character form still works.
    expect((await post({ characterId: bo })).status).toBe(201);
  });

  it("members are added (409 when in or past 8), muted, tuned and removed (409 for the last); only the owner may (404 for anyone else)", async () => {
    const mira = await signIn();
    const tom = await signIn();
    const conversation = await startGroup(mira, [ana]);
    const base = `/api/conversations/${conversation.id}/characters`;

    // Another person: 404 on every route, and nothing changes.
    expect((await call(base, { method: "POST", user: tom, body: { characterId: bo } })).status).toBe(404);
    expect((await call(`${base}/${ana}`, { method: "PATCH", user: tom, body: { muted: true } })).status).toBe(404);
    expect((await call(`${base}/${ana}`, { method: "DELETE", user: tom })).status).toBe(404);
    expect((await call(`/api/conversations/${conversation.id}`, { method: "PATCH", user: tom, body: { replyOrder: "list" } })).status).toBe(404);

    const added = await json<Conversation>(await call(base, { method: "POST", user: mira, body: { characterId: bo } }), 201);
    expect(added.characters.map((c) => c.id)).toEqual([ana, bo]);
    expect((await call(base, { method: "POST", user: mira, body: { characterId: bo } })).status).toBe(409);
    for (let i = 0; i < 6; i++) {
      const extra = await insertCharacter();
      await json<Conversation>(await call(base, { method: "POST", user: mira, body: { characterId: extra } }), 201);
    }
    const ninth = await insertCharacter();
    expect((await call(base, { method: "POST", user: mira, body: { characterId: ninth } })).status).toBe(409);

    const tuned = await json<Conversation>(
      await call(`${base}/${bo}`, { method: "PATCH", user: mira, body: { muted: true, talkativeness: 0.9 } }),
      200,
    );
    expect(tuned.characters.find((c) => c.id === bo)).toMatchObject({ muted: true, talkativeness: 0.9 });
    expect((await call(`${base}/${bo}`, { method: "PATCH", user: mira, body: { talkativeness: 2 } })).status).toBe(400);
    expect((await call(`${base}/${cy}`, { method: "PATCH", user: mira, body: { muted: true } })).status).toBe(404);

    // Removing the first member makes the next one the conversation's character.
    expect((await call(`${base}/${ana}`, { method: "DELETE", user: mira })).status).toBe(204);
    const after = await json<Conversation>(await call(`/api/conversations/${conversation.id}`, { user: mira }), 200);
    expect(after.characterId).toBe(bo);
    for (const member of after.characters.slice(1)) {
      expect((await call(`${base}/${member.id}`, { method: "DELETE", user: mira })).status).toBe(204);
    }
    expect((await call(`${base}/${bo}`, { method: "DELETE", user: mira })).status).toBe(409);
  });
});

describe("reply orders", () => {
  it("list: every member replies in member order, one reply after another, each in its own voice", async () => {
    const mira = await signIn();
    const conversation = await startGroup(mira);
    await prepare(mira, conversation, "list");
    const { socket } = await join(mira, conversation.id);
    const { starts, replies } = await round(socket, conversation.id, "What do you all think of the storm?", 3);
    expect(starts.map((s) => s.characterId)).toEqual([ana, bo, cy]);
    expect(replies.map((r) => r.message.characterId)).toEqual([ana, bo, cy]);
    // The offline model speaks as the speaker: its action names it.
    expect(replies.map((r) => r.content.split(" ")[0])).toEqual(["*Ana", "*Bo", "*Cy"]);
    socket.close();
  });

  it("natural: the member named first speaks first; with a seeded source the rolls repeat", async () => {
    const mira = await signIn();
    const conversation = await startGroup(mira);
    await prepare(mira, conversation, "natural", 11);
    const { socket } = await join(mira, conversation.id);
    socket.send({ type: "chat_message", conversationId: conversation.id, content: "Cy, what do you see?", clientId: "n1" });
    await socket.next("message_saved");
    expect((await socket.next("reply_started")).characterId).toBe(cy);
    // The round ends when no reply follows the last one: stop it to know.
    socket.send({ type: "stop" });
    await socket.nextWhere((f) => f.type === "character_response" || (f.type === "error" && f.code === "stopped_empty"));
    socket.close();
  });

  it("manual: nobody replies until asked; generate makes one member speak, muted or not; a stranger is refused", async () => {
    const mira = await signIn();
    const conversation = await startGroup(mira);
    await prepare(mira, conversation, "manual");
    await json<Conversation>(await call(`/api/conversations/${conversation.id}/characters/${bo}`, { method: "PATCH", user: mira, body: { muted: true } }), 200);
    const { socket } = await join(mira, conversation.id);
    socket.send({ type: "chat_message", conversationId: conversation.id, content: "Anyone?", clientId: "m1" });
    await socket.next("message_saved");
    socket.send({ type: "generate", conversationId: conversation.id, characterId: bo });
    const started = await socket.next("reply_started");
    expect(started.characterId).toBe(bo);
    const reply = await socket.next("character_response");
    expect(reply.message).toMatchObject({ characterId: bo });
    expect(reply.content.startsWith("*Bo")).toBe(true);

    socket.send({ type: "generate", conversationId: conversation.id, characterId: 987_654 });
    expect(await socket.next("error")).toMatchObject({ code: "not_a_member" });
    const stored = await storedMessages(mira, conversation.id);
    // Greetings, the message, Bo's reply: no reply to "Anyone?" by itself.
    expect(stored.map((m) => m.characterId ?? "user")).toEqual([ana, cy, "user", bo]);
    socket.close();
  });

  it("muted members are skipped by the order; regenerate keeps the reply's speaker", async () => {
    const mira = await signIn();
    const conversation = await startGroup(mira);
    await prepare(mira, conversation, "list");
    await json<Conversation>(await call(`/api/conversations/${conversation.id}/characters/${ana}`, { method: "PATCH", user: mira, body: { muted: true } }), 200);
    const { socket } = await join(mira, conversation.id);
    const { replies } = await round(socket, conversation.id, "Hello, both of you.", 2);
    expect(replies.map((r) => r.message.characterId)).toEqual([bo, cy]);

    socket.send({ type: "regenerate", conversationId: conversation.id });
    const again = await socket.next("reply_started");
    expect(again).toMatchObject({ characterId: cy, replaces: replies[1]!.messageId });
    const second = await socket.next("character_response");
    expect(second.message).toMatchObject({ characterId: cy, alternatives: [replies[1]!.content] });
    socket.close();
  });
});

describe("rounds that are interrupted", () => {
  /** The first member answers through the loopback server's slow model (a word every 100 ms); the others offline. */
  async function slowFirst(conversationId: string, slowId: number): Promise<void> {
    await runInDurableObject(conversationRoom(env, conversationId), (room: ConversationRoom) => {
      room.modelFactory = (character, userName) =>
        character.name === "Ana" && slowId === ana
          ? new OpenAIChatModel({ baseUrl: env.OPENAI_BASE_URL, apiKey: env.OPENAI_API_KEY, model: "slow" })
          : new OfflineChatModel(character, userName, { wordDelayMs: 0 });
    });
  }

  it("a member removed mid-round does not speak in it; the others still do", async () => {
    const mira = await signIn();
    const conversation = await startGroup(mira);
    await prepare(mira, conversation, "list");
    await slowFirst(conversation.id, ana);
    const { socket } = await join(mira, conversation.id);
    socket.send({ type: "chat_message", conversationId: conversation.id, content: "Go around the table.", clientId: "r1" });
    await socket.next("message_saved");
    const first = await socket.next("reply_started");
    expect(first.characterId).toBe(ana);
    await socket.next("character_response_delta");
    expect((await call(`/api/conversations/${conversation.id}/characters/${bo}`, { method: "DELETE", user: mira })).status).toBe(204);
    await socket.next("cast_updated");
    expect((await socket.next("character_response", () => true, 10_000)).message.characterId).toBe(ana);
    expect((await socket.next("reply_started")).characterId).toBe(cy);
    await socket.next("character_response");
    const stored = await storedMessages(mira, conversation.id);
    expect(stored.slice(3).map((m) => m.characterId)).toEqual([ana, cy]);
    socket.close();
  });

  it("a restart in the middle of a round ends it cleanly: what was saved is kept, nothing is left streaming, and the chat goes on", async () => {
    const mira = await signIn();
    const conversation = await startGroup(mira);
    await prepare(mira, conversation, "manual");
    const { socket } = await join(mira, conversation.id);
    socket.send({ type: "chat_message", conversationId: conversation.id, content: "Tell it slowly.", clientId: "h1" });
    await socket.next("message_saved");
    socket.close();
    const stub = conversationRoom(env, conversation.id);
    // What storage holds when the object stops while the first of three speakers writes:
    // its text so far saved, the round's queue (Bo, Cy) only in memory.
    await runInDurableObject(stub, (_room: ConversationRoom, state) => {
      state.storage.sql.exec(
        "INSERT INTO messages (id, role, content, created_at, status, character_id) VALUES ('cut-ana', 'character', 'one two', ?, 'streaming', ?)",
        Date.now(),
        ana,
      );
      state.storage.sql.exec("UPDATE room SET reply_order = 'list'");
    });
    await evictDurableObject(stub);

    const { socket: back, history } = await join(mira, conversation.id);
    expect(history.messages.some((m) => m.status === "streaming")).toBe(false);
    expect(history.messages.slice(3).map((m) => [m.characterId, m.content])).toEqual([[ana, "one two"]]);
    // The round ended there (Bo and Cy did not go on by themselves); the next message starts a new one.
    await prepare(mira, { ...conversation, replyOrder: "list" }, "list");
    const { replies } = await round(back, conversation.id, "Go on, everyone.", 3);
    expect(replies.map((r) => r.message.characterId)).toEqual([ana, bo, cy]);
    const stored = await storedMessages(mira, conversation.id);
    expect(stored.map((m) => m.characterId ?? "user")).toEqual([ana, cy, "user", ana, "user", ana, bo, cy]);
    back.close();
  });
});

describe("the prompt of a group chat", () => {
  it("is the speaker's card, the cast, named history lines, the author's note at its depth, without hidden messages, and stops at other names", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const conversation = await startGroup(mira);
    await prepare(mira, conversation, "manual");
    const { socket } = await join(mira, conversation.id);
    socket.send({ type: "chat_message", conversationId: conversation.id, content: "A secret nobody should read.", clientId: "p1" });
    const secret = await socket.next("message_saved");
    socket.send({ type: "hide_message", conversationId: conversation.id, messageId: secret.messageId, hidden: true, clientId: "hide1" });
    expect((await socket.next("message_updated")).message).toMatchObject({ hidden: true });
    socket.send({ type: "chat_message", conversationId: conversation.id, content: "Bo, what now?", clientId: "p2" });
    await socket.next("message_saved");
    socket.send({ type: "set_author_note", conversationId: conversation.id, text: "Keep {{char}} brief.", depth: 1, interval: 1, clientId: "note1" });
    expect(await socket.next("author_note_updated")).toMatchObject({ authorNote: { text: "Keep {{char}} brief.", depth: 1, interval: 1 } });

    const seen: PromptMessage[][] = [];
    const stops: (string[] | undefined)[] = [];
    await runInDurableObject(conversationRoom(env, conversation.id), (room: ConversationRoom) => {
      room.modelFactory = () => ({
        name: "offline",
        async *stream(prompt, options) {
          seen.push(prompt);
          stops.push(options.stop);
          yield "Bo: Hold on. ";
          yield "We wait.\nMira: And then?";
        },
      });
    });
    socket.send({ type: "generate", conversationId: conversation.id, characterId: bo });
    const reply = await socket.next("character_response");
    // Its own name stripped, cut where it began to speak for the person.
    expect(reply.content).toBe("Hold on. We wait.");
    const prompt = seen[0]!;
    expect(prompt[0]!.content).toContain("Bo is in a group chat with Mira and:\n- Ana: A test character");
    expect(prompt[0]!.content).toContain("- Cy: A test character");
    const lines = prompt.slice(1).map((m) => `${m.role}|${m.content}`);
    expect(lines.join("\n")).not.toContain("A secret nobody should read.");
    expect(lines).toEqual([
      "assistant|Ana: Ana waves at Mira.\n\nCy: Cy grins.",
      "system|Keep Bo brief.",
      "user|Mira: Bo, what now?",
      "system|Write the next reply only as Bo.",
    ]);
    expect(stops[0]).toEqual(["\nAna:", "\nCy:", "\nMira:"]);
    socket.close();
  });
});

describe("export and import", () => {
  it("SillyTavern JSONL names each reply's speaker; an import maps names onto chosen characters, refusing unknown names by name", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const conversation = await startGroup(mira);
    await prepare(mira, conversation, "list");
    const { socket } = await join(mira, conversation.id);
    await round(socket, conversation.id, "Introduce yourselves.", 3);
    socket.close();
    const res = await call(`/api/conversations/${conversation.id}/export?format=jsonl`, { user: mira });
    expect(res.status).toBe(200);
    const file = await res.text();
    const names = file
      .split("\n")
      .slice(1)
      .map((line) => (JSON.parse(line) as { name: string }).name);
    expect(names).toEqual(["Ana", "Cy", "Mira", "Ana", "Bo", "Cy"]);

    const imported = await json<Conversation>(
      await call(`/api/conversations/import?characterIds=${cy},${ana},${bo}`, { method: "POST", user: mira, body: file }),
      201,
    );
    expect(imported.characters.map((c) => c.id)).toEqual([cy, ana, bo]);
    const messages = await storedMessages(mira, imported.id);
    expect(messages.map((m: ChatMessage) => m.characterId ?? "user")).toEqual([ana, cy, "user", ana, bo, cy]);

    const refused = await call(`/api/conversations/import?characterIds=${ana},${cy}`, { method: "POST", user: mira, body: file });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: string }).error).toContain('"Bo"');
  });
});
