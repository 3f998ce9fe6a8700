/**
 * Reply rounds (room/replies.ts) through real WebSocket upgrades of the
 * Worker: recovery after a crash mid-reply, the character's card a room
 * keeps, one reply at a time, replies that outlive their sockets,
 * regenerate and stop, model failures, and the rate limits (messages; new
 * versions of replies).
 */
import { env } from "cloudflare:workers";
import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { type Conversation } from "../../schema/chat.ts";
import { type ServerFrame } from "../../schema/chat-frames.ts";
import { conversationRoom } from "../../worker/lib/conversations.ts";
import { eventually, join } from "../../worker/test/chat-client.ts";
import { call, json } from "../../worker/test/creator-api.ts";
import { insertCharacter, signIn, type TestUser } from "../../worker/test/fixtures.ts";
import { inOneWindow } from "../../worker/test/rate-window.ts";
import { startChat, storedMessages, useTestServerModel } from "../../worker/test/room-chat.ts";
import type { ConversationRoom } from "../conversation-room.ts";

let characterId: number;

beforeAll(async () => {
  characterId = await insertCharacter({ name: "Ash" });
});

const start = (user: TestUser) => startChat(user, characterId);

const messages = storedMessages;


const isReplyEnd = (f: ServerFrame) => f.type === "character_response" || (f.type === "error" && f.messageId !== undefined);

describe("recovery", () => {
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
      state.storage.sql.exec("UPDATE cast_cards SET read_at = read_at - 61000");
    });
    await evictDurableObject(stub);
    expect((await socket.chat(id, "And now?")).response.content).toMatch(/^\*Wren Vale /);
    socket.close();
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

describe("rate limit", () => {
  it("more than 20 messages a minute from one person get an error frame saying how long to wait, and are not stored", async () => {
    await inOneWindow(25_000);
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
    const refused = await socket.next("error", (f) => f.code === "rate_limited");
    expectWait(refused, "You're sending messages too fast.");
    expect(refused.clientId).toBe("m21");
    const stored = await messages(mira, conversation.id);
    expect(stored.filter((m) => m.isUser)).toHaveLength(20);
    socket.close();
  });

  it("regenerate and continue have their own limit sized for swiping: 60 a minute, beside the messages' 20", async () => {
    await inOneWindow(25_000);
    const mira = await signIn();
    const conversation = await start(mira);
    const { socket } = await join(mira, conversation.id);
    await socket.chat(conversation.id, "Tell me about the tower.");
    // One message, then 59 new versions of its reply and a continue: 60 reply rounds, all admitted.
    for (let i = 1; i <= 59; i++) {
      socket.send({ type: "regenerate", conversationId: conversation.id });
      await socket.next("reply_started");
      socket.send({ type: "stop" });
      await socket.nextWhere(isReplyEnd);
    }
    socket.send({ type: "continue", clientId: "c1" });
    await socket.next("reply_started", (f) => f.continues === true);
    await socket.nextWhere((f) => f.type === "character_response" || (f.type === "error" && f.clientId === "c1"));

    socket.send({ type: "regenerate", conversationId: conversation.id });
    expectWait(await socket.next("error", (f) => f.code === "rate_limited"), "You're asking for new replies too fast.");
    socket.send({ type: "continue", clientId: "c2" });
    const continueRefused = await socket.next("error", (f) => f.code === "rate_limited");
    expectWait(continueRefused, "You're asking for new replies too fast.");
    expect(continueRefused.clientId).toBe("c2");

    // New messages keep their own limit: the next one is answered.
    const next = await socket.chat(conversation.id, "And the bridge?");
    expect(next.response.content).not.toBe("");
    const stored = await messages(mira, conversation.id);
    expect(stored.filter((m) => m.isUser).map((m) => m.content)).toEqual(["Tell me about the tower.", "And the bridge?"]);
    socket.close();
  }, 60_000);
});

/** A `rate_limited` frame: `retryAfterMs` within the limiter's minute, and the same wait in whole seconds in its sentence. */
function expectWait(frame: Extract<ServerFrame, { type: "error" }>, opening: string): void {
  expect(frame.code).toBe("rate_limited");
  expect(frame.retryAfterMs).toBeGreaterThan(0);
  expect(frame.retryAfterMs).toBeLessThanOrEqual(60_000);
  expect(frame.message).toBe(`${opening} Please try again in ${Math.ceil(frame.retryAfterMs! / 1000)} s.`);
}
