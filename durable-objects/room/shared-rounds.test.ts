/**
 * Reply rounds in a room of several people (DESIGN.md "Shared rooms";
 * room/rounds.ts): a message is never refused as busy, it waits for the
 * round and gets one round of its own; `{{user}}` is the author of the
 * message being answered, with their persona; thumbs are per person.
 * Through real upgrades of the Worker, two people's sockets.
 */
import { env } from "cloudflare:workers";
import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ChatModel, PromptMessage } from "../../ai/chat-model.ts";
import type { ChatMessage, Conversation, ConversationInvite } from "../../schema/chat.ts";
import type { ServerFrame } from "../../schema/chat-frames.ts";
import { conversationRoom } from "../../worker/lib/conversations.ts";
import { type ChatSocket, eventually, join } from "../../worker/test/chat-client.ts";
import { call, json } from "../../worker/test/creator-api.ts";
import { insertCharacter, signIn, type TestUser } from "../../worker/test/fixtures.ts";
import { storedMessages, useTestServerModel } from "../../worker/test/room-chat.ts";
import type { ConversationRoom } from "../conversation-room.ts";
import type { PersonSockets } from "../person-sockets.ts";
import type { ReplyRounds } from "./replies.ts";
import type { SocketState } from "./sockets.ts";

let characterId: number;

beforeAll(async () => {
  characterId = await insertCharacter({ name: "Keeper" });
});

/** Everyone `sharedRoom` signed in during the test running now. */
const people: TestUser[] = [];

afterEach(async () => {
  // Every socket a test closed has reached its person's ledger (the room tells PersonSockets after
  // the close): nothing is left in flight when the next test, or the end of the run, comes.
  const namespace = env.PERSON_SOCKETS as unknown as DurableObjectNamespace<PersonSockets>;
  for (const person of people.splice(0)) {
    await eventually(async () => (await namespace.get(namespace.idFromName(person.id)).list()).length === 0, 5_000);
  }
});

/** Olga's conversation with Keeper, Mika joined by a link; both connected and seeing each other. */
async function sharedRoom(options: { mikaPersona?: { name: string; description: string }; characterId?: number } = {}) {
  const olga = await signIn({ firstName: "Olga" });
  const mika = await signIn({ firstName: "Mika" });
  people.push(olga, mika);
  if (options.mikaPersona) {
    await json(await call("/api/personas", { method: "POST", user: mika, body: { ...options.mikaPersona, isDefault: true } }), 201);
  }
  const conversation = await json<Conversation>(
    await call("/api/conversations", { method: "POST", user: olga, body: { characterId: options.characterId ?? characterId } }),
    201,
  );
  const { token } = await json<ConversationInvite>(await call(`/api/conversations/${conversation.id}/invites`, { method: "POST", user: olga }), 201);
  await json(await call(`/api/invites/${token}`, { method: "POST", user: mika }), 200);
  const { socket: olgaSocket } = await join(olga, conversation.id);
  const { socket: mikaSocket } = await join(mika, conversation.id);
  await olgaSocket.next("presence", (f) => f.people.length === 2);
  return { olga, mika, conversation, olgaSocket, mikaSocket };
}

/**
 * A model that says "Reply n" at once and the rest only when the test lets
 * it (`release`, one reply each) or the reply is stopped; it keeps every
 * prompt it was sent. Lets a test hold a round open without waiting on time.
 * (A promise of the object is resolved inside the object: workerd refuses
 * I/O of one object from another context.)
 */
async function useHeldModel(conversationId: string) {
  const stub = conversationRoom(env, conversationId);
  const prompts: PromptMessage[][] = [];
  let permits = 0;
  const waiting: (() => void)[] = [];
  const model: ChatModel = {
    name: "offline",
    async *stream(prompt, options) {
      prompts.push(prompt);
      yield `Reply ${prompts.length}`;
      if (permits > 0) permits -= 1;
      else {
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          // A stopped reply no longer waits for its turn.
          options.signal?.addEventListener("abort", () => {
            waiting.splice(waiting.indexOf(resolve), 1);
            resolve();
          });
        });
      }
      if (!options.signal?.aborted) yield " done.";
    },
  };
  await runInDurableObject(stub, (room: ConversationRoom) => {
    room.modelFactory = () => model;
  });
  const release = () =>
    runInDurableObject(stub, () => {
      const next = waiting.shift();
      if (next) next();
      else permits += 1;
    });
  return { prompts, release };
}

/** The room's `seq` of its newest message and the seq its rounds have taken up to (a message after it waits). */
async function waiting(conversationId: string): Promise<number> {
  return runInDurableObject(conversationRoom(env, conversationId), (_room: ConversationRoom, state) => {
    const through = state.storage.sql.exec<{ n: number }>("SELECT answered_through AS n FROM room").one().n;
    return state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM messages WHERE role = 'user' AND seq > ?", through).one().n;
  });
}

const errors = (socket: ChatSocket) => socket.frames.filter((f): f is Extract<ServerFrame, { type: "error" }> => f.type === "error");
const shape = (messages: ChatMessage[]) => messages.map((m) => (m.isUser ? `${m.authorName}: ${m.content}` : `Keeper: ${m.content}`));

describe("a message is never refused as busy in a room of several people", () => {
  it("two people's messages at the same moment are both stored, in one order for everyone, and each answered once", async () => {
    const { olga, conversation, olgaSocket, mikaSocket } = await sharedRoom();
    const held = await useHeldModel(conversation.id);
    olgaSocket.send({ type: "chat_message", conversationId: conversation.id, content: "Olga speaks.", clientId: "o1" });
    mikaSocket.send({ type: "chat_message", conversationId: conversation.id, content: "Mika speaks.", clientId: "m1" });
    const order = async (socket: ChatSocket) => {
      const first = await socket.next("message_saved");
      const second = await socket.next("message_saved");
      return [first.messageId, second.messageId];
    };
    const seenByOlga = await order(olgaSocket);
    expect(await order(mikaSocket)).toEqual(seenByOlga);

    // Reply after reply until no message waits: a round for a message that waited comes on its own.
    let replies = 0;
    for (;;) {
      await held.release();
      await olgaSocket.next("character_response");
      replies += 1;
      const stored = await storedMessages(olga, conversation.id);
      if (!stored.at(-1)!.isUser && (await waiting(conversation.id)) === 0) break;
      expect(replies).toBeLessThan(2);
    }
    const stored = await storedMessages(olga, conversation.id);
    expect(stored.filter((m) => m.isUser).map((m) => m.id)).toEqual(seenByOlga);
    // One character: every round is one reply, so a reply never follows a reply; the last message is answered.
    const kinds = stored.slice(1).map((m) => (m.isUser ? "person" : "reply"));
    expect(kinds.join(" ")).not.toContain("reply reply");
    expect(kinds.at(-1)).toBe("reply");
    expect(kinds.filter((k) => k === "reply")).toHaveLength(replies);
    expect([...errors(olgaSocket), ...errors(mikaSocket)]).toEqual([]);
    olgaSocket.close();
    mikaSocket.close();
  });

  it("a message sent while a reply is written is stored at once and answered by a round of its own after it", async () => {
    const { olga, conversation, olgaSocket, mikaSocket } = await sharedRoom();
    const held = await useHeldModel(conversation.id);
    olgaSocket.send({ type: "chat_message", conversationId: conversation.id, content: "Tell us a tale.", clientId: "o1" });
    const first = await mikaSocket.next("reply_started");
    await mikaSocket.next("character_response_delta", (f) => f.messageId === first.messageId);
    await olgaSocket.next("reply_started");

    // The reply is held open: Mika's message is not refused, everyone sees it at once.
    mikaSocket.send({ type: "chat_message", conversationId: conversation.id, content: "And make it short!", clientId: "m1" });
    const saved = await olgaSocket.next("message_saved", (f) => f.clientId === "m1");
    expect(saved.message).toMatchObject({ content: "And make it short!", authorName: "Mika" });
    expect(await mikaSocket.next("message_saved", (f) => f.clientId === "m1")).toMatchObject({ messageId: saved.messageId });

    await held.release();
    expect(await olgaSocket.next("character_response")).toMatchObject({ messageId: first.messageId, content: "Reply 1 done." });
    const second = await olgaSocket.next("reply_started");
    expect(second.messageId).not.toBe(first.messageId);
    await held.release();
    expect(await mikaSocket.next("character_response", (f) => f.messageId === second.messageId)).toMatchObject({ content: "Reply 2 done." });
    // The new round answers Mika's message: it is the last line of its prompt.
    expect(held.prompts[1]!.filter((m) => m.role === "user").at(-1)!.content).toMatch(/Mika: And make it short!$/);

    expect(shape(await storedMessages(olga, conversation.id)).slice(1)).toEqual([
      "Olga: Tell us a tale.",
      "Keeper: Reply 1 done.",
      "Mika: And make it short!",
      "Keeper: Reply 2 done.",
    ]);
    expect([...errors(olgaSocket), ...errors(mikaSocket)]).toEqual([]);
    olgaSocket.close();
    mikaSocket.close();
  });

  it("a copy of a message whose early lookup missed it (a resend racing the first) is answered with the stored one, not stored again", async () => {
    const { olga, conversation, olgaSocket, mikaSocket } = await sharedRoom();
    const held = await useHeldModel(conversation.id);
    olgaSocket.send({ type: "chat_message", conversationId: conversation.id, content: "Only once.", clientId: "twice" });
    const first = await olgaSocket.next("message_saved", (f) => f.clientId === "twice");
    // The race, made certain: the second copy's lookup ran before the first was stored.
    await runInDurableObject(conversationRoom(env, conversation.id), async (room: ConversationRoom, state) => {
      const replies = (room as unknown as { replies: ReplyRounds }).replies;
      const ws = state.getWebSockets().find((socket) => (socket.deserializeAttachment() as SocketState).userId === olga.id)!;
      const socketState = ws.deserializeAttachment() as SocketState;
      await replies.receiveMessage(ws, socketState, "Only once.", "twice", { stored: null, rateLimit: Promise.resolve(true) });
    });
    expect((await olgaSocket.next("message_saved", (f) => f.clientId === "twice")).messageId).toBe(first.messageId);
    await held.release();
    await mikaSocket.next("character_response");
    expect((await storedMessages(olga, conversation.id)).filter((m) => m.content === "Only once.")).toHaveLength(1);
    olgaSocket.close();
    mikaSocket.close();
  });

  it("stop ends the round being written; a message that waited for it is still answered", async () => {
    const { olga, conversation, olgaSocket, mikaSocket } = await sharedRoom();
    const held = await useHeldModel(conversation.id);
    olgaSocket.send({ type: "chat_message", conversationId: conversation.id, content: "Begin.", clientId: "o1" });
    const first = await olgaSocket.next("reply_started");
    await olgaSocket.next("character_response_delta", (f) => f.messageId === first.messageId);
    mikaSocket.send({ type: "chat_message", conversationId: conversation.id, content: "Wait for me.", clientId: "m1" });
    await olgaSocket.next("message_saved", (f) => f.clientId === "m1");

    olgaSocket.send({ type: "stop", conversationId: conversation.id });
    expect(await mikaSocket.next("character_response")).toMatchObject({ messageId: first.messageId, content: "Reply 1", stopped: true });
    const second = await mikaSocket.next("reply_started", (f) => f.messageId !== first.messageId);
    await held.release();
    expect(await mikaSocket.next("character_response")).toMatchObject({ messageId: second.messageId, stopped: false });
    expect(shape(await storedMessages(olga, conversation.id)).slice(1)).toEqual(["Olga: Begin.", "Keeper: Reply 1", "Mika: Wait for me.", "Keeper: Reply 2 done."]);
    olgaSocket.close();
    mikaSocket.close();
  });

  it("once the other person is removed the room is one-to-one again: a message during a reply is refused as busy (SPEC.md)", async () => {
    const { olga, mika, conversation, olgaSocket, mikaSocket } = await sharedRoom();
    const held = await useHeldModel(conversation.id);
    expect((await call(`/api/conversations/${conversation.id}/members/${mika.id}`, { method: "DELETE", user: olga })).status).toBe(204);
    expect((await mikaSocket.closed()).code).toBe(1008);
    olgaSocket.send({ type: "chat_message", conversationId: conversation.id, content: "Just us now.", clientId: "o1" });
    await olgaSocket.next("reply_started");
    olgaSocket.send({ type: "chat_message", conversationId: conversation.id, content: "Too soon.", clientId: "o2" });
    expect(await olgaSocket.next("error", (f) => f.clientId === "o2")).toMatchObject({ code: "busy" });
    await held.release();
    await olgaSocket.next("character_response");
    expect((await storedMessages(olga, conversation.id)).map((m) => m.content)).not.toContain("Too soon.");
    olgaSocket.close();
  });

  it("a room that stopped with a message waiting answers it when it wakes", async () => {
    const { olga, mika, conversation, olgaSocket, mikaSocket } = await sharedRoom();
    olgaSocket.close();
    mikaSocket.close();
    const stub = conversationRoom(env, conversation.id);
    // What storage holds when the object stops after storing a message that waited for a round.
    await runInDurableObject(stub, (_room: ConversationRoom, state) => {
      state.storage.sql.exec(
        "INSERT INTO messages (id, role, content, created_at, author_id, author_name) VALUES ('waited', 'user', 'Anyone there?', ?, ?, 'Mika')",
        Date.now(),
        mika.id,
      );
    });
    await evictDurableObject(stub);

    const { socket, history } = await join(mika, conversation.id);
    if (history.messages.at(-1)?.isUser !== false || history.messages.at(-1)?.status === "streaming") await socket.next("character_response");
    const stored = await storedMessages(olga, conversation.id);
    expect(stored.at(-2)).toMatchObject({ id: "waited", authorName: "Mika" });
    expect(stored.at(-1)).toMatchObject({ isUser: false, characterId });
    expect(await waiting(conversation.id)).toBe(0);
    socket.close();
  });
});

describe("{{user}} is the author of the message being answered", () => {
  it("a reply to Mika's message addresses Mika's persona with its description; history lines name Olga and Mika's persona", async () => {
    const { olga, conversation, olgaSocket, mikaSocket } = await sharedRoom({
      mikaPersona: { name: "Captain Bo", description: "A retired pirate with one eye." },
    });
    await useTestServerModel(conversation.id, "prompt");
    await olgaSocket.chat(conversation.id, "Hello from Olga.");
    await mikaSocket.next("character_response");
    const { saved, response } = await mikaSocket.chat(conversation.id, "Ahoy from Bo.");
    await olgaSocket.next("character_response");
    expect(saved.message.authorName).toBe("Captain Bo");
    const prompt = JSON.parse(response.content) as PromptMessage[];
    const system = prompt[0]!.content;
    expect(system).toContain("between Keeper and Captain Bo");
    expect(system).toContain("Captain Bo's persona: A retired pirate with one eye.");
    expect(system).toContain("Also playing with Captain Bo:\n- Olga");
    expect(system).not.toContain("Olga's persona");
    const lines = prompt.filter((m) => m.role !== "system").map((m) => m.content);
    expect(lines.some((line) => line.includes("Olga: Hello from Olga."))).toBe(true);
    expect(lines.at(-1)).toMatch(/Captain Bo: Ahoy from Bo\.$/);
    expect(prompt.at(-1)).toEqual({ role: "system", content: "Write the next reply only as Keeper." });

    // Olga's next message is answered to Olga, Captain Bo being the other person.
    const again = JSON.parse((await olgaSocket.chat(conversation.id, "My turn.")).response.content) as PromptMessage[];
    expect(again[0]!.content).toContain("between Keeper and Olga");
    expect(again[0]!.content).toContain("Also playing with Olga:\n- Captain Bo: A retired pirate with one eye.");
    expect(again[0]!.content).not.toContain("Olga's persona");
    expect((await storedMessages(olga, conversation.id)).filter((m) => m.isUser).map((m) => m.authorName)).toEqual(["Olga", "Captain Bo", "Olga"]);
    olgaSocket.close();
    mikaSocket.close();
  });
});

describe("the running summary of a shared room", () => {
  it("names each message's author", async () => {
    const { conversation, olgaSocket, mikaSocket } = await sharedRoom();
    await runInDurableObject(conversationRoom(env, conversation.id), (room: ConversationRoom) => {
      room.budget = { contextTokens: 450, maxTokens: 100 };
    });
    const turns: [ChatSocket, ChatSocket, string][] = [
      [olgaSocket, mikaSocket, "The lantern went out at midnight."],
      [mikaSocket, olgaSocket, "Someone knocked three times."],
      [olgaSocket, mikaSocket, "I found a brass key in the sand."],
      [mikaSocket, olgaSocket, "The key opens the cellar door."],
      [olgaSocket, mikaSocket, "We should go down together."],
      [mikaSocket, olgaSocket, "Bring the oil lamp."],
    ];
    for (const [sender, other, text] of turns) {
      await sender.chat(conversation.id, text);
      await other.next("character_response");
    }
    const summary = await eventually(
      () =>
        runInDurableObject(conversationRoom(env, conversation.id), (_room: ConversationRoom, state) =>
          state.storage.sql.exec<{ summary: string }>("SELECT summary FROM room").one().summary || null,
        ),
      10_000,
    );
    expect(summary).toContain('Olga said: "The lantern went out at midnight"');
    expect(summary).toContain('Mika said: "Someone knocked three times"');
    olgaSocket.close();
    mikaSocket.close();
  });
});

describe("thumbs are per person", () => {
  it("Mika sees only Mika's thumb, and each person's moves the character's counts", async () => {
    const rated = await insertCharacter({ name: "Keeper" });
    const { olga, mika, conversation, olgaSocket, mikaSocket } = await sharedRoom({ characterId: rated });
    const { response } = await mikaSocket.chat(conversation.id, "Rate this.");
    await olgaSocket.next("character_response");
    const path = `/api/conversations/${conversation.id}/messages/${response.messageId}/rating`;
    const counts = () => env.DB.prepare("SELECT rating_up AS up, rating_down AS down FROM characters WHERE id = ?").bind(rated).first();
    const ratingOf = async (user: TestUser) => (await storedMessages(user, conversation.id)).find((m) => m.id === response.messageId)!.rating;

    expect(await json(await call(path, { method: "POST", user: olga, body: { value: 1 } }), 200)).toEqual({ messageId: response.messageId, rating: 1 });
    expect(await olgaSocket.next("message_rated")).toEqual({ type: "message_rated", messageId: response.messageId, rating: 1 });
    // From Mika's side: Olga's thumb is not Mika's.
    expect(await ratingOf(mika)).toBeNull();

    expect(await json(await call(path, { method: "POST", user: mika, body: { value: -1 } }), 200)).toEqual({ messageId: response.messageId, rating: -1 });
    // Mika's sockets get Mika's thumb only (Olga's was never sent to them).
    expect(await mikaSocket.next("message_rated")).toEqual({ type: "message_rated", messageId: response.messageId, rating: -1 });
    expect(await counts()).toEqual({ up: 1, down: 1 });
    expect(await ratingOf(olga)).toBe(1);
    expect(await ratingOf(mika)).toBe(-1);
    const { socket: mikaAgain, history } = await join(mika, conversation.id);
    expect(history.messages.find((m) => m.id === response.messageId)!.rating).toBe(-1);

    // Taking Mika's back moves only Mika's count.
    await json(await call(path, { method: "POST", user: mika, body: { value: 0 } }), 200);
    expect(await counts()).toEqual({ up: 1, down: 0 });
    expect(await ratingOf(olga)).toBe(1);
    expect(await ratingOf(mika)).toBeNull();
    expect(olgaSocket.frames.filter((f) => f.type === "message_rated")).toHaveLength(1);
    mikaAgain.close();
    olgaSocket.close();
    mikaSocket.close();
  });
});
