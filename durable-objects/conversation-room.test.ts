/**
 * ConversationRoom through real WebSocket upgrades of the Worker: storage
 * and its schema, hibernation, idempotent clientId, one reply at a time,
 * replies that outlive their sockets, history_sync, regenerate and stop,
 * swipes, model failures, malformed frames, the rate limit, and the object's
 * own ownership check.
 */
import { env } from "cloudflare:workers";
import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { type ChatMessage, type Conversation, replyVersions, type ServerFrame } from "../schema/chat.ts";
import { conversationRoom } from "../worker/lib/conversations.ts";
import { deleteConversationStorage } from "../worker/lib/characters.ts";
import { ChatSocket, connect, eventually, join } from "../worker/test/chat-client.ts";
import { call, json } from "../worker/test/creator-api.ts";
import { insertCharacter, signIn, type TestUser } from "../worker/test/fixtures.ts";
import { OpenAIChatModel } from "../ai/chat-models.ts";
import type { ConversationRoom } from "./conversation-room.ts";
import { ROOM_SCHEMA_VERSION } from "./room/migrations.ts";
import { ROOM_HEADERS } from "./room-protocol.ts";

let characterId: number;

beforeAll(async () => {
  characterId = await insertCharacter({ name: "Ash" });
});

async function start(user: TestUser): Promise<Conversation> {
  return json<Conversation>(await call("/api/conversations/new", { method: "POST", user, body: { characterId } }), 201);
}

async function messages(user: TestUser, id: string): Promise<ChatMessage[]> {
  return json<ChatMessage[]>(await call(`/api/conversations/${id}/messages`, { user }), 200);
}

/** Makes the room answer with the OpenAI-compatible test server's `model` (worker/test/openai-server.ts). */
async function useTestServerModel(conversationId: string, model: string, tokenTimeoutMs?: number) {
  await runInDurableObject(conversationRoom(env, conversationId), (room: ConversationRoom) => {
    room.modelFactory = () => new OpenAIChatModel({ baseUrl: env.OPENAI_BASE_URL, apiKey: env.OPENAI_API_KEY, model });
    if (tokenTimeoutMs !== undefined) room.tokenTimeoutMs = tokenTimeoutMs;
  });
}

const isReplyEnd = (f: ServerFrame) => f.type === "character_response" || (f.type === "error" && f.messageId !== undefined);

describe("storage", () => {
  it("keeps messages in its versioned SQLite across evictions, oldest first", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const conversation = await start(mira);
    const { socket, history } = await join(mira, conversation.id);
    expect(history.messages.map((m) => [m.isUser, m.content])).toEqual([[false, "Hello there."]]);
    const first = await socket.chat(conversation.id, "What do you keep in that satchel?", "client-1");
    socket.close();

    const stub = conversationRoom(env, conversation.id);
    const stored = await runInDurableObject(stub, (_room: ConversationRoom, state) => ({
      version: state.storage.sql.exec<{ version: number }>("SELECT version FROM _schema").one().version,
      rows: state.storage.sql.exec("SELECT role, content, client_id, status FROM messages ORDER BY seq").toArray(),
      room: state.storage.sql.exec("SELECT conversation_id, user_id, character_id FROM room").one(),
    }));
    expect(stored.version).toBe(ROOM_SCHEMA_VERSION);
    expect(stored.room).toEqual({ conversation_id: conversation.id, user_id: mira.id, character_id: characterId });
    expect(stored.rows).toEqual([
      { role: "character", content: "Hello there.", client_id: null, status: "complete" },
      { role: "user", content: "What do you keep in that satchel?", client_id: "client-1", status: "complete" },
      { role: "character", content: first.response.content, client_id: null, status: "complete" },
    ]);

    await evictDurableObject(stub);
    const after = await messages(mira, conversation.id);
    expect(after.map((m) => m.id)).toEqual([history.messages[0]!.id, first.saved.messageId, first.response.messageId]);
    expect(after[2]).toMatchObject({ isUser: false, rating: null, alternatives: [], clientId: null });
    expect(after[1]).toMatchObject({ isUser: true, clientId: "client-1", conversationId: conversation.id });
  });

  it("an object stored with the first schema is migrated when it wakes, its messages kept", async () => {
    const mira = await signIn();
    const conversation = await start(mira);
    const { socket } = await join(mira, conversation.id);
    await socket.chat(conversation.id, "Before the upgrade");
    socket.close();
    const stub = conversationRoom(env, conversation.id);
    // What a room written before swipes existed holds: schema 1, no swipe_index column, no kept card
    // (nor anything later: edits, memory, summary, persona, frame receipts).
    await runInDurableObject(stub, (_room: ConversationRoom, state) => {
      state.storage.sql.exec("DROP TABLE character_card");
      state.storage.sql.exec("DROP TABLE frame_receipts");
      for (const column of ["memory", "summary", "summary_through", "persona_description"]) {
        state.storage.sql.exec(`ALTER TABLE room DROP COLUMN ${column}`);
      }
      state.storage.sql.exec("ALTER TABLE messages DROP COLUMN edited_at");
      state.storage.sql.exec("ALTER TABLE messages DROP COLUMN swipe_index");
      state.storage.sql.exec("UPDATE _schema SET version = 1");
    });
    await evictDurableObject(stub);

    const stored = await messages(mira, conversation.id);
    expect(stored.map((m) => m.content).slice(0, 2)).toEqual(["Hello there.", "Before the upgrade"]);
    expect(stored[2]!.swipeIndex).toBeUndefined();
    const columns = await runInDurableObject(stub, (_room: ConversationRoom, state) => ({
      version: state.storage.sql.exec<{ version: number }>("SELECT version FROM _schema").one().version,
      names: state.storage.sql.exec<{ name: string }>("SELECT name FROM pragma_table_info('messages')").toArray().map((c) => c.name),
      tables: state.storage.sql.exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'").toArray().map((t) => t.name),
    }));
    expect(columns.version).toBe(ROOM_SCHEMA_VERSION);
    expect(columns.names).toContain("swipe_index");
    expect(columns.names).toContain("edited_at");
    expect(columns.tables).toContain("character_card");
    expect(columns.tables).toContain("frame_receipts");
  });

  it("after a crash mid-reply, a reply with saved text is kept and an empty one is dropped, putting back the reply it replaced", async () => {
    const mira = await signIn();
    const conversation = await start(mira);
    const { socket } = await join(mira, conversation.id);
    const first = await socket.chat(conversation.id, "Tell me a story.");
    socket.close();
    const stub = conversationRoom(env, conversation.id);
    // What storage holds when the object stops while writing: a regenerate of the last reply that
    // saved nothing yet (its old reply superseded), and, in a second room, a reply with saved text.
    await runInDurableObject(stub, (_room: ConversationRoom, state) => {
      state.storage.sql.exec("UPDATE messages SET status = 'superseded' WHERE id = ?", first.response.messageId);
      state.storage.sql.exec(
        "INSERT INTO messages (id, role, content, created_at, status, alternatives, replaces) VALUES ('cut-empty', 'character', '', ?, 'streaming', ?, ?)",
        Date.now(),
        JSON.stringify([first.response.content]),
        first.response.messageId,
      );
    });
    await evictDurableObject(stub);
    expect((await messages(mira, conversation.id)).map((m) => [m.id, m.content])).toEqual([
      [expect.any(String), "Hello there."],
      [first.saved.messageId, "Tell me a story."],
      [first.response.messageId, first.response.content],
    ]);

    const second = await start(mira);
    const secondStub = conversationRoom(env, second.id);
    await runInDurableObject(secondStub, (_room: ConversationRoom, state) => {
      state.storage.sql.exec(
        "INSERT INTO messages (id, role, content, created_at, status) VALUES ('cut-partial', 'character', 'Once upon a time', ?, 'streaming')",
        Date.now(),
      );
    });
    await evictDurableObject(secondStub);
    const kept = await messages(mira, second.id);
    expect(kept.at(-1)).toMatchObject({ id: "cut-partial", content: "Once upon a time", isUser: false });
    expect(kept.at(-1)!.status).toBeUndefined();
  });

  it("trims messages and refuses empty, too long and malformed ones without storing them", async () => {
    const mira = await signIn();
    const conversation = await start(mira);
    const { socket } = await join(mira, conversation.id);
    const id = conversation.id;
    socket.send({ type: "chat_message", conversationId: id, content: "   ", isUser: true });
    expect(await socket.next("error")).toMatchObject({ code: "invalid_frame", message: "Messages cannot be empty" });
    socket.send({ type: "chat_message", conversationId: id, content: "x".repeat(4001), isUser: true });
    expect(await socket.next("error")).toMatchObject({ message: "Messages can be at most 4,000 characters" });
    socket.send({ type: "chat_message", conversationId: id, content: "hi", isUser: false } as Record<string, unknown>);
    expect(await socket.next("error")).toMatchObject({ code: "invalid_frame" });
    socket.send({ type: "dance", conversationId: id });
    expect(await socket.next("error")).toMatchObject({ message: 'Unknown message type: "dance"' });
    socket.send("{not json");
    expect(await socket.next("error")).toMatchObject({ message: "Messages must be JSON" });
    socket.send("null");
    expect(await socket.next("error")).toMatchObject({ message: "Unknown message type: null" });

    const { saved } = await socket.chat(id, `  ${"y".repeat(4000)}  \n`);
    expect(saved.message.content).toBe("y".repeat(4000));
    expect((await messages(mira, id)).filter((m) => m.isUser)).toHaveLength(1);
    socket.close();
  });

  it("closes with 1009 on a frame over 16 KB and 1003 on a binary frame; the room keeps working", async () => {
    const mira = await signIn();
    const conversation = await start(mira);
    const big = await connect(mira, conversation.id);
    big.send({ type: "chat_message", conversationId: conversation.id, content: "é".repeat(9000), isUser: true });
    expect(await big.closed()).toMatchObject({ code: 1009, reason: "Frames can be at most 16 KB" });

    const binary = await connect(mira, conversation.id);
    binary.ws.send(new Uint8Array([1, 2, 3]));
    expect(await binary.closed()).toMatchObject({ code: 1003 });

    const { socket } = await join(mira, conversation.id);
    await socket.chat(conversation.id, "Still fine?");
    expect(await messages(mira, conversation.id)).toHaveLength(3);
    socket.close();
  });
});

describe("hibernation", () => {
  it("after an eviction the same socket still works, with its identity and the history intact", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const conversation = await start(mira);
    const { socket } = await join(mira, conversation.id);
    await socket.chat(conversation.id, "Remember the bridge?");
    const stub = conversationRoom(env, conversation.id);
    await runInDurableObject(stub, (room: ConversationRoom) => {
      (room as unknown as { marker: string }).marker = "before";
    });

    await evictDurableObject(stub);

    const marker = await runInDurableObject(stub, (room: ConversationRoom) => (room as unknown as { marker?: string }).marker);
    expect(marker).toBeUndefined();
    const { saved, response } = await socket.chat(conversation.id, "And the river after it?");
    expect(saved.message.content).toBe("And the river after it?");
    expect(response.content).toContain("Mira");
    socket.send({ type: "join", conversationId: conversation.id });
    const history = await socket.next("history_sync");
    expect(history.messages.map((m) => m.isUser)).toEqual([false, true, false, true, false]);
    socket.close();
  });
});

describe("the character's card", () => {
  it("a room woken from hibernation answers from the card it kept; an edit reaches it once the card is a minute old", async () => {
    const wrenId = await insertCharacter({ name: "Wren" });
    const ines = await signIn({ firstName: "Ines" });
    const { id } = await json<Conversation>(await call("/api/conversations/new", { method: "POST", user: ines, body: { characterId: wrenId } }), 201);
    const { socket } = await join(ines, id);
    expect((await socket.chat(id, "Hello there")).response.content).toMatch(/^\*Wren /);

    // Renamed in D1 behind the room's back: the woken room still has the card it read.
    await env.DB.prepare("UPDATE characters SET name = 'Wren Vale' WHERE id = ?").bind(wrenId).run();
    const stub = conversationRoom(env, id);
    await evictDurableObject(stub);
    const kept = (await socket.chat(id, "Still there?")).response.content;
    expect(kept).toMatch(/^\*Wren /);
    expect(kept).not.toContain("Wren Vale");

    // A minute after it was read, the next reply reads the card again.
    await runInDurableObject(stub, (_room: ConversationRoom, state: DurableObjectState) => {
      state.storage.sql.exec("UPDATE character_card SET read_at = read_at - 61000");
    });
    await evictDurableObject(stub);
    expect((await socket.chat(id, "And now?")).response.content).toMatch(/^\*Wren Vale /);
    socket.close();
  });
});

describe("clientId", () => {
  it("stores a repeated clientId once and answers with the same messageId, also after a reconnect", async () => {
    const mira = await signIn();
    const conversation = await start(mira);
    const { socket } = await join(mira, conversation.id);
    const clientId = crypto.randomUUID();
    const first = await socket.chat(conversation.id, "Only once, please.", clientId);

    socket.send({ type: "chat_message", conversationId: conversation.id, content: "Only once, please.", isUser: true, clientId });
    const again = await socket.next("message_saved", (f) => f.clientId === clientId);
    expect(again.messageId).toBe(first.saved.messageId);
    socket.close();

    const { socket: later } = await join(mira, conversation.id);
    later.send({ type: "chat_message", conversationId: conversation.id, content: "Only once, please.", isUser: true, clientId });
    expect((await later.next("message_saved")).messageId).toBe(first.saved.messageId);

    const stored = await messages(mira, conversation.id);
    expect(stored.filter((m) => m.isUser)).toHaveLength(1);
    expect(stored).toHaveLength(3);
    // No second reply was started for the duplicates.
    expect(later.frames.some((f) => f.type === "reply_started")).toBe(false);
    later.close();
  });
});

describe("one reply at a time", () => {
  it("refuses a message sent while a reply is being written, with its clientId, and does not store it", async () => {
    const mira = await signIn();
    const conversation = await start(mira);
    const { socket } = await join(mira, conversation.id);
    socket.send({ type: "chat_message", conversationId: conversation.id, content: "First", isUser: true, clientId: "a" });
    socket.send({ type: "chat_message", conversationId: conversation.id, content: "Second", isUser: true, clientId: "b" });
    expect(await socket.next("error")).toEqual({
      type: "error",
      code: "busy",
      message: "Please wait for the reply before sending another message.",
      clientId: "b",
    });
    await socket.next("character_response");
    expect((await messages(mira, conversation.id)).map((m) => m.content).slice(0, 2)).toEqual(["Hello there.", "First"]);
    expect(await messages(mira, conversation.id)).toHaveLength(3);

    // Once the reply is done, the same message goes through.
    const { saved } = await socket.chat(conversation.id, "Second", "b");
    expect(saved.message.content).toBe("Second");
    socket.close();
  });

  it("regenerate and a message while a reply is written are both refused", async () => {
    const mira = await signIn();
    const conversation = await start(mira);
    const { socket } = await join(mira, conversation.id);
    socket.send({ type: "chat_message", conversationId: conversation.id, content: "Go on", isUser: true });
    await socket.next("reply_started");
    socket.send({ type: "regenerate", conversationId: conversation.id });
    expect(await socket.next("error")).toMatchObject({ code: "busy" });
    await socket.next("character_response");
    socket.close();
  });
});

describe("replies outlive their sockets", () => {
  it("every client disconnects mid-reply: the reply completes, is stored, and comes back with history_sync", async () => {
    const mira = await signIn();
    const conversation = await start(mira);
    const { socket } = await join(mira, conversation.id);
    socket.send({ type: "chat_message", conversationId: conversation.id, content: "Tell me a long story", isUser: true });
    const started = await socket.next("reply_started");
    await socket.next("character_response_delta");
    socket.close(1001, "tab closed");
    expect(socket.frames.some((f) => f.type === "character_response")).toBe(false);

    const stored = await eventually(async () => {
      const list = await messages(mira, conversation.id);
      return list.length === 3 ? list : null;
    });
    expect(stored[2]).toMatchObject({ id: started.messageId, isUser: false });
    expect(stored[2]!.content.length).toBeGreaterThan(20);

    const { history } = await join(mira, conversation.id);
    expect(history.messages.at(-1)).toMatchObject({ id: started.messageId, content: stored[2]!.content });
    expect(history.messages.at(-1)!.status).toBeUndefined();
  });

  it("a client that comes back mid-reply sees it streaming and follows it; stop keeps what was written", async () => {
    const mira = await signIn();
    const conversation = await start(mira);
    await useTestServerModel(conversation.id, "slow");
    const { socket } = await join(mira, conversation.id);
    socket.send({ type: "chat_message", conversationId: conversation.id, content: "Count for me", isUser: true });
    const started = await socket.next("reply_started");
    await socket.next("character_response_delta", (f) => f.delta.includes("word2"));
    socket.close();

    const { socket: back, history } = await join(mira, conversation.id);
    const streaming = history.messages.at(-1)!;
    expect(streaming).toMatchObject({ id: started.messageId, status: "streaming", isUser: false });
    expect(streaming.content).toMatch(/^word1 word2/);
    // REST shows only finished messages.
    expect(await messages(mira, conversation.id)).toHaveLength(2);

    await back.next("character_response_delta", (f) => f.messageId === started.messageId);
    back.send({ type: "stop", conversationId: conversation.id });
    const response = await back.next("character_response");
    expect(response).toMatchObject({ messageId: started.messageId, stopped: true });
    expect(response.content).toMatch(/^word1 word2 word3/);
    expect(response.content).not.toContain("word40");
    const stored = await messages(mira, conversation.id);
    expect(stored.at(-1)).toMatchObject({ id: started.messageId, content: response.content });
    back.close();
  });

  it("every socket of the conversation receives every event", async () => {
    const mira = await signIn();
    const conversation = await start(mira);
    const { socket: a } = await join(mira, conversation.id);
    const { socket: b } = await join(mira, conversation.id);
    const { saved, response } = await a.chat(conversation.id, "Hello from tab A", "from-a");
    const seenSaved = await b.next("message_saved");
    expect(seenSaved).toMatchObject({ clientId: "from-a", messageId: saved.messageId, message: { content: "Hello from tab A" } });
    expect((await b.next("character_response")).content).toBe(response.content);
    const deltasA = a.frames.filter((f) => f.type === "character_response_delta");
    const deltasB = b.frames.filter((f) => f.type === "character_response_delta");
    expect(deltasB).toEqual(deltasA);
    a.close();
    b.close();
  });
});

describe("regenerate", () => {
  it("replaces the last reply with a new one and keeps the old one as an alternative", async () => {
    const mira = await signIn();
    const conversation = await start(mira);
    const { socket } = await join(mira, conversation.id);
    socket.send({ type: "regenerate", conversationId: conversation.id });
    expect(await socket.next("error")).toMatchObject({ code: "nothing_to_regenerate" });

    const { response: first } = await socket.chat(conversation.id, "Which road leads north?");
    socket.send({ type: "regenerate", conversationId: conversation.id });
    const started = await socket.next("reply_started", (f) => f.messageId !== first.messageId);
    expect(started.replaces).toBe(first.messageId);
    const second = await socket.next("character_response");
    expect(second.messageId).toBe(started.messageId);
    expect(second.message.alternatives).toEqual([first.content]);
    // The offline model is deterministic, yet a regenerate says something else.
    expect(second.content).not.toBe(first.content);

    const stored = await messages(mira, conversation.id);
    expect(stored.map((m) => m.id)).toEqual([stored[0]!.id, stored[1]!.id, second.messageId]);
    expect(stored[2]).toMatchObject({ content: second.content, alternatives: [first.content] });
    socket.close();
  });

  it("a failed regenerate puts the previous reply back", async () => {
    const mira = await signIn();
    const conversation = await start(mira);
    const { socket } = await join(mira, conversation.id);
    const { response } = await socket.chat(conversation.id, "Once more?");
    await useTestServerModel(conversation.id, "error-500");
    socket.send({ type: "regenerate", conversationId: conversation.id });
    const started = await socket.next("reply_started", (f) => f.replaces === response.messageId);
    expect(await socket.next("error")).toMatchObject({ code: "model_failed", messageId: started.messageId });
    const sync = await socket.next("history_sync");
    expect(sync.messages.at(-1)).toMatchObject({ id: response.messageId, content: response.content });
    expect((await messages(mira, conversation.id)).at(-1)).toMatchObject({ id: response.messageId });
    socket.close();
  });
});

describe("swipe", () => {
  /**
   * A reply in three versions, each from another model: the offline one,
   * `echo`, then `recall` (which repeats the last reply of its prompt: here
   * the greeting). Returns the reply's id, its versions in written order,
   * and the ids the two replaced versions had.
   */
  async function threeVersions(socket: ChatSocket, conversationId: string) {
    const { response: first } = await socket.chat(conversationId, "Which road leads north?");
    await useTestServerModel(conversationId, "echo");
    socket.send({ type: "regenerate", conversationId });
    const second = await socket.next("character_response");
    await useTestServerModel(conversationId, "recall");
    socket.send({ type: "regenerate", conversationId });
    const third = await socket.next("character_response");
    const versions = [first.content, second.content, third.content];
    expect(new Set(versions).size).toBe(3);
    expect(third.message).toMatchObject({ alternatives: versions.slice(0, 2), content: versions[2] });
    expect(third.message.swipeIndex).toBeUndefined();
    return { replyId: third.messageId, versions, replacedIds: [first.messageId, second.messageId] };
  }

  const preview = (conversationId: string) =>
    env.DB.prepare("SELECT last_message_preview AS preview FROM conversations WHERE id = ?").bind(conversationId).first<{ preview: string }>();
  const messageCount = async () =>
    (await env.DB.prepare("SELECT message_count AS n FROM characters WHERE id = ?").bind(characterId).first<{ n: number }>())!.n;

  it("choosing an earlier version tells every socket, is stored, moves the preview, and the next prompts read it", async () => {
    const mira = await signIn();
    const conversation = await start(mira);
    const id = conversation.id;
    const { socket: a } = await join(mira, id);
    const { socket: b } = await join(mira, id);
    const { replyId, versions } = await threeVersions(a, id);
    const [v1, v2, v3] = versions as [string, string, string];
    await eventually(async () => (await preview(id))?.preview === v3);
    const countBefore = await messageCount();

    a.send({ type: "swipe", conversationId: id, messageId: replyId, index: 1 });
    const seenByA = await a.next("message_updated");
    const seenByB = await b.next("message_updated");
    expect(seenByB).toEqual(seenByA);
    expect(seenByA).toMatchObject({ messageId: replyId, message: { id: replyId, content: v2, alternatives: [v1, v3], swipeIndex: 1 } });
    // The versions keep their order; only which one is shown changed.
    expect(replyVersions(seenByA.message)).toEqual({ versions, current: 1 });

    // The conversation's preview follows at once; nothing is counted as a new message.
    expect((await preview(id))?.preview).toBe(v2);
    expect(await messageCount()).toBe(countBefore);

    // Stored: after an eviction the list, and a new join, show the chosen version.
    const stub = conversationRoom(env, id);
    await evictDurableObject(stub);
    expect((await messages(mira, id)).at(-1)).toEqual(seenByA.message);
    const { socket: c, history } = await join(mira, id);
    expect(history.messages.at(-1)).toEqual(seenByA.message);
    c.close();

    // The next reply's prompt has the chosen version as the character's last words.
    await useTestServerModel(id, "recall");
    const { response } = await a.chat(id, "And then?");
    expect(response.content).toBe(`Recall: ${v2}`);
    // So has the prompt of regenerating that reply.
    a.send({ type: "regenerate", conversationId: id });
    const again = await a.next("character_response", (f) => f.messageId !== response.messageId);
    expect(again.content).toBe(`Recall: ${v2}`);
    expect((await messages(mira, id)).map((m) => m.content).slice(-3)).toEqual([v2, "And then?", `Recall: ${v2}`]);
    a.close();
    b.close();
  });

  it("regenerate after a swipe keeps every version in written order and adds the new one last", async () => {
    const mira = await signIn();
    const conversation = await start(mira);
    const id = conversation.id;
    const { socket } = await join(mira, id);
    const { replyId, versions } = await threeVersions(socket, id);
    socket.send({ type: "swipe", messageId: replyId, index: 0 });
    expect((await socket.next("message_updated")).message).toMatchObject({ content: versions[0], alternatives: versions.slice(1), swipeIndex: 0 });

    await useTestServerModel(id, "echo");
    socket.send({ type: "regenerate", conversationId: id });
    const started = await socket.next("reply_started", (f) => f.replaces === replyId);
    const fourth = await socket.next("character_response", (f) => f.messageId === started.messageId);
    expect(fourth.message.alternatives).toEqual(versions);
    expect(fourth.message.swipeIndex).toBeUndefined();

    // Back to the newest: swipeIndex goes away again.
    socket.send({ type: "swipe", messageId: fourth.messageId, index: 1 });
    await socket.next("message_updated");
    socket.send({ type: "swipe", messageId: fourth.messageId, index: 3 });
    const newest = await socket.next("message_updated");
    expect(newest.message).toEqual(fourth.message);
    expect((await messages(mira, id)).at(-1)).toEqual(fourth.message);
    socket.close();
  });

  it("choosing the version already shown answers the sender alone and changes nothing", async () => {
    const mira = await signIn();
    const conversation = await start(mira);
    const id = conversation.id;
    const { socket: a } = await join(mira, id);
    const { socket: b } = await join(mira, id);
    const { replyId, versions } = await threeVersions(a, id);
    a.send({ type: "swipe", conversationId: id, messageId: replyId, index: 2 });
    expect((await a.next("message_updated")).message).toMatchObject({ content: versions[2], alternatives: versions.slice(0, 2) });
    a.send({ type: "swipe", conversationId: id, messageId: replyId, index: 0 });
    // B's first message_updated is the real change: it never saw the first one.
    expect((await b.next("message_updated")).message).toMatchObject({ content: versions[0], swipeIndex: 0 });
    expect(b.frames.filter((f) => f.type === "message_updated")).toHaveLength(1);
    a.close();
    b.close();
  });

  it("refuses an unknown message, anything but the last reply, a version that does not exist, and any swipe while a reply is written", async () => {
    const mira = await signIn();
    const conversation = await start(mira);
    const other = await start(mira);
    const id = conversation.id;
    const { socket, history } = await join(mira, id);
    const greetingId = history.messages[0]!.id;

    // The greeting alone is the last reply, in one version.
    socket.send({ type: "swipe", messageId: greetingId, index: 1 });
    expect(await socket.next("error")).toEqual({ type: "error", code: "no_such_version", message: "This reply has only one version." });

    const { replyId, versions, replacedIds } = await threeVersions(socket, id);
    const stored = await messages(mira, id);
    const [, question, replaced] = [stored[0]!, stored[1]!, stored[2]!];
    expect(replaced.id).toBe(replyId);
    const { socket: otherSocket, history: otherHistory } = await join(mira, other.id);
    otherSocket.close();

    const refusals: [Record<string, unknown>, Record<string, unknown>][] = [
      [{ messageId: "no-such-message", index: 0 }, { code: "message_not_found", message: "That message is not in this conversation." }],
      [{ messageId: otherHistory.messages[0]!.id, index: 0 }, { code: "message_not_found" }],
      [{ messageId: question.id, index: 0 }, { code: "not_last_reply", message: "Only the latest reply can be switched to another version." }],
      [{ messageId: greetingId, index: 0 }, { code: "not_last_reply" }],
      [{ messageId: replyId, index: 3 }, { code: "no_such_version", message: "This reply has 3 versions; there is no version 4." }],
      [{ messageId: replyId, index: -1 }, { code: "invalid_frame", message: "index must be a whole number" }],
      [{ messageId: replyId, index: 1.5 }, { code: "invalid_frame", message: "index must be a whole number" }],
      [{ messageId: replyId, index: "1" }, { code: "invalid_frame", message: "index must be a whole number" }],
      [{ index: 1 }, { code: "invalid_frame", message: "messageId is required" }],
    ];
    for (const [fields, error] of refusals) {
      socket.send({ type: "swipe", conversationId: id, ...fields });
      expect(await socket.next("error")).toMatchObject({ type: "error", ...error });
    }

    // A replaced version's own id is no message any more.
    socket.send({ type: "swipe", messageId: replacedIds[0]!, index: 0 });
    expect(await socket.next("error")).toMatchObject({ code: "message_not_found" });

    // While a reply is written, no swipe (not even of the reply before it).
    await useTestServerModel(id, "slow");
    socket.send({ type: "chat_message", conversationId: id, content: "Go on", isUser: true });
    const started = await socket.next("reply_started", (f) => f.replaces === null && f.messageId !== replacedIds[0]);
    socket.send({ type: "swipe", messageId: replyId, index: 0 });
    expect(await socket.next("error")).toEqual({
      type: "error",
      code: "busy",
      message: "Please wait for the reply to finish before choosing another version.",
    });
    socket.send({ type: "stop" });
    await socket.next("character_response", (f) => f.messageId === started.messageId);

    // Nothing changed, and the room goes on working.
    expect(socket.frames.some((f) => f.type === "message_updated")).toBe(false);
    const after = await messages(mira, id);
    expect(after[2]).toEqual(replaced);
    expect(after[2]).toMatchObject({ content: versions[2], alternatives: versions.slice(0, 2) });
    const latest = after.at(-1)!;
    socket.send({ type: "swipe", messageId: replaced.id, index: 0 });
    expect(await socket.next("error")).toMatchObject({ code: "not_last_reply" });
    socket.send({ type: "swipe", messageId: latest.id, index: 0 });
    expect((await socket.next("message_updated")).message).toMatchObject({ id: latest.id, content: latest.content });
    socket.close();
  });
});

describe("model failures", () => {
  for (const [model, what] of [
    ["error-500", "an HTTP 500"],
    ["broken", "a stream that breaks off"],
    ["error-chunk", "an error inside the stream"],
  ] as const) {
    it(`${what}: an error frame in plain words; the person's message stays stored, no partial reply`, async () => {
      const mira = await signIn();
      const conversation = await start(mira);
      await useTestServerModel(conversation.id, model);
      const { socket } = await join(mira, conversation.id);
      socket.send({ type: "chat_message", conversationId: conversation.id, content: "Are you there?", isUser: true });
      const started = await socket.next("reply_started");
      const end = await socket.nextWhere(isReplyEnd);
      expect(end).toEqual({
        type: "error",
        code: "model_failed",
        message: "Ash couldn't reply just now. Please try again.",
        messageId: started.messageId,
      });
      const stored = await messages(mira, conversation.id);
      expect(stored.map((m) => m.content)).toEqual(["Hello there.", "Are you there?"]);
      // The person's message still counts: the conversation's preview is theirs.
      await eventually(async () => {
        const row = await env.DB.prepare("SELECT last_message_preview AS p FROM conversations WHERE id = ?")
          .bind(conversation.id)
          .first<{ p: string }>();
        return row?.p === "Are you there?";
      });
      socket.close();
    });
  }

  it("no token within the timeout: an error frame, and the next message works", async () => {
    const mira = await signIn();
    const conversation = await start(mira);
    await useTestServerModel(conversation.id, "hang", 300);
    const { socket } = await join(mira, conversation.id);
    const sent = Date.now();
    socket.send({ type: "chat_message", conversationId: conversation.id, content: "Hello?", isUser: true });
    expect(await socket.next("error")).toMatchObject({ code: "model_failed" });
    expect(Date.now() - sent).toBeLessThan(3000);
    await useTestServerModel(conversation.id, "echo");
    const { response } = await socket.chat(conversation.id, "Hello again?");
    // The unanswered message and the new one reach the model as one user turn.
    expect(response.content).toBe("Echo: Hello?\n\nHello again? (3 messages, max_tokens 512)");
    socket.close();
  });
});

describe("permissions", () => {
  it("the object itself refuses a socket for someone who is not the owner", async () => {
    const owner = await signIn();
    const conversation = await start(owner);
    const intruder = await signIn();
    const res = await conversationRoom(env, conversation.id).fetch("https://room/ws", {
      headers: {
        upgrade: "websocket",
        [ROOM_HEADERS.conversationId]: conversation.id,
        [ROOM_HEADERS.userId]: intruder.id,
        [ROOM_HEADERS.userName]: "Intruder",
      },
    });
    const socket = new ChatSocket(res.webSocket!);
    expect(await socket.next("error")).toMatchObject({ code: "forbidden", message: "This conversation belongs to someone else" });
    expect(await socket.closed()).toMatchObject({ code: 1008 });
    expect(await conversationRoom(env, conversation.id).listMessages(intruder.id)).toBeNull();
  });

  it("a socket sending frames for another conversation is closed with 1008", async () => {
    const mira = await signIn();
    const mine = await start(mira);
    const other = await start(mira);
    const { socket } = await join(mira, mine.id);
    socket.send({ type: "chat_message", conversationId: other.id, content: "Crossed wires", isUser: true });
    expect(await socket.next("error")).toMatchObject({ code: "forbidden" });
    expect(await socket.closed()).toMatchObject({ code: 1008 });
    expect(await messages(mira, other.id)).toHaveLength(1);
  });

  it("a deleted conversation closes its sockets and forgets its messages", async () => {
    const mira = await signIn();
    const conversation = await start(mira);
    const { socket } = await join(mira, conversation.id);
    await deleteConversationStorage(env, [conversation.id]);
    expect(await socket.closed()).toMatchObject({ code: 1008, reason: "Conversation deleted" });
    expect(await conversationRoom(env, conversation.id).listMessages(mira.id)).toBeNull();
  });
});

describe("rate limit", () => {
  it("more than 20 messages a minute from one person get a readable error frame and are not stored", async () => {
    const mira = await signIn();
    const conversation = await start(mira);
    const { socket } = await join(mira, conversation.id);
    for (let i = 1; i <= 20; i++) {
      socket.send({ type: "chat_message", conversationId: conversation.id, content: `Message ${i}`, isUser: true, clientId: `m${i}` });
      await socket.next("message_saved", (f) => f.clientId === `m${i}`);
      socket.send({ type: "stop" });
      await socket.nextWhere(isReplyEnd);
    }
    socket.send({ type: "chat_message", conversationId: conversation.id, content: "One too many", isUser: true, clientId: "m21" });
    expect(await socket.next("error", (f) => f.code === "rate_limited")).toEqual({
      type: "error",
      code: "rate_limited",
      message: "You're sending messages too fast. Please wait a moment.",
      clientId: "m21",
    });
    const stored = await messages(mira, conversation.id);
    expect(stored.filter((m) => m.isUser)).toHaveLength(20);
    socket.close();
  });
});
