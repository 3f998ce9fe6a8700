/**
 * ConversationRoom, the shell, through real WebSocket upgrades of the
 * Worker: frames read and refused, hibernation, idempotent clientId, swipes,
 * and the object's own ownership check. Its modules' tests are beside them
 * in room/ (store, reply rounds, steering, screening).
 */
import { env } from "cloudflare:workers";
import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { type Conversation } from "../schema/chat.ts";
import { replyVersions } from "../schema/chat-frames.ts";
import { conversationRoom } from "../worker/lib/conversations.ts";
import { deleteConversationStorage } from "../worker/lib/characters.ts";
import { ChatSocket, connect, eventually, join } from "../worker/test/chat-client.ts";
import { json } from "../worker/test/creator-api.ts";
import { insertCharacter, signIn, type TestUser } from "../worker/test/fixtures.ts";
import { startChat, storedMessages, useTestServerModel } from "../worker/test/room-chat.ts";
import type { ConversationRoom } from "./conversation-room.ts";
import { ROOM_HEADERS } from "./room-protocol.ts";

let characterId: number;

beforeAll(async () => {
  characterId = await insertCharacter({ name: "Ash" });
});

const start = (user: TestUser) => startChat(user, characterId);

const messages = storedMessages;


describe("frames", () => {
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
    // Stopped once it has said something (a stop before the first word ends it empty instead).
    await socket.next("character_response_delta", (f) => f.messageId === started.messageId);
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
