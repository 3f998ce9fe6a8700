/**
 * Suspension bites at once on chat sockets (issue 21; docs/decisions/0008
 * "Enforcement"), seen from the suspended person's side: sockets they opened
 * before the operator's `suspend` (which only writes D1, as the CLI does) are
 * closed with 1008 in every conversation at their next frame, and no frame
 * of theirs is stored or answered — also on a socket whose close was lost.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { type Conversation, SUSPENDED_MESSAGE } from "../../schema/chat.ts";
import type { ConversationRoom } from "../../durable-objects/conversation-room.ts";
import type { PersonSockets } from "../../durable-objects/person-sockets.ts";
import { SUSPENSION_RECHECK_MS } from "../../durable-objects/room/suspension.ts";
import { CLOSE_REASONS } from "../../durable-objects/socket-limits.ts";
import { conversationRoom } from "../lib/conversations.ts";
import { suspendUser } from "../lib/moderation-actions.ts";
import { type ChatSocket, connect, join } from "./chat-client.ts";
import { call, json } from "./creator-api.ts";
import { insertCharacter, signIn, type TestUser } from "./fixtures.ts";
import { OPERATOR, operatorDb } from "./operator-db.ts";

let characterId: number;

beforeAll(async () => {
  characterId = await insertCharacter({ name: "Quill" });
});

async function startConversation(user: TestUser): Promise<string> {
  return (await json<Conversation>(await call("/api/conversations/new", { method: "POST", user, body: { characterId } }), 201)).id;
}

/** The messages stored in the room, whoever asks (the owner's view). */
async function storedMessages(conversationId: string, userId: string): Promise<number> {
  return runInDurableObject(conversationRoom(env, conversationId), async (room: ConversationRoom) => (await room.listMessages(userId))?.length ?? -1);
}

/** Past the room's memory of "not suspended" (room/suspension.ts). */
const pastRecheck = () => new Promise((resolve) => setTimeout(resolve, SUSPENSION_RECHECK_MS + 50));

function personSockets(user: TestUser): DurableObjectStub<PersonSockets> {
  const namespace = env.PERSON_SOCKETS as unknown as DurableObjectNamespace<PersonSockets>;
  return namespace.get(namespace.idFromName(user.id));
}

async function expectRefusedAndClosed(socket: ChatSocket): Promise<void> {
  expect(await socket.next("error", (f) => f.code === "forbidden")).toMatchObject({ message: SUSPENDED_MESSAGE });
  expect(await socket.closed()).toEqual({ code: 1008, reason: CLOSE_REASONS.suspended });
}

describe("a person suspended while their sockets are open", () => {
  it("their next message is not stored or answered, and every socket of theirs closes with 1008, in every conversation", async () => {
    const mira = await signIn();
    const theo = await signIn();
    const [a, b] = [await startConversation(mira), await startConversation(mira)];
    const { socket: inA } = await join(mira, a);
    const secondTab = await connect(mira, a);
    // A bare /ws (SPEC.md's join-first socket), relayed by the Worker.
    const bare = await connect(mira);
    bare.send({ type: "join", conversationId: b });
    await bare.next("history_sync");
    const theirs = await startConversation(theo);
    const { socket: theos } = await join(theo, theirs);
    await inA.chat(a, "Before the suspension");
    const [beforeA, beforeB] = [await storedMessages(a, mira.id), await storedMessages(b, mira.id)];

    await suspendUser(operatorDb, mira.username, OPERATOR);
    await pastRecheck();
    inA.send({ type: "chat_message", conversationId: a, content: "After the suspension", isUser: true, clientId: crypto.randomUUID() });

    await expectRefusedAndClosed(inA);
    expect(await secondTab.closed()).toEqual({ code: 1008, reason: CLOSE_REASONS.suspended });
    expect(await bare.closed()).toEqual({ code: 1008, reason: CLOSE_REASONS.suspended });
    expect(inA.frames.some((f) => f.type === "message_saved" && f.message?.content === "After the suspension")).toBe(false);
    expect(await storedMessages(a, mira.id)).toBe(beforeA);
    expect(await storedMessages(b, mira.id)).toBe(beforeB);
    expect(await personSockets(mira).list()).toEqual([]);
    // Someone else's chat goes on.
    await theos.chat(theirs, "Still here");
  }, 15_000);

  it("a socket whose close was lost still has every frame refused: message, regenerate, edit, memory, picture", async () => {
    const mira = await signIn();
    const id = await startConversation(mira);
    const { socket } = await join(mira, id);
    const { saved } = await socket.chat(id, "Hello");
    const seen = socket.frames.length;
    const before = await runInDurableObject(conversationRoom(env, id), async (room: ConversationRoom) => room.listMessages(mira.id));

    await suspendUser(operatorDb, mira.username, OPERATOR);
    await pastRecheck();
    // As if the close never reached this socket: the room alone must refuse each frame.
    await runInDurableObject(conversationRoom(env, id), (room: ConversationRoom) => {
      (room as unknown as { sockets: { closeForPolicy: () => void } }).sockets.closeForPolicy = () => {};
    });
    const frames = [
      { type: "chat_message", conversationId: id, content: "Sneaking in", isUser: true, clientId: crypto.randomUUID() },
      { type: "regenerate", conversationId: id },
      { type: "edit_message", conversationId: id, messageId: saved.messageId, content: "Rewritten", clientId: crypto.randomUUID() },
      { type: "set_memory", conversationId: id, memory: "Remember me", clientId: crypto.randomUUID() },
      { type: "imagine", conversationId: id, prompt: "A ship in a storm", clientId: crypto.randomUUID() },
    ];
    for (const frame of frames) {
      socket.send(frame);
      expect(await socket.next("error", (f) => f.code === "forbidden")).toMatchObject({ message: SUSPENDED_MESSAGE });
    }
    await socket.ping();
    const after = await runInDurableObject(conversationRoom(env, id), async (room: ConversationRoom) => room.listMessages(mira.id));
    expect(after).toEqual(before);
    // Nothing but the refusals came back: no message_saved, no reply, no update.
    expect(socket.frames.slice(seen).map((f) => f.type)).toEqual(frames.map(() => "error"));
  }, 15_000);

  it("a person who is not suspended chats as before", async () => {
    const mira = await signIn();
    const id = await startConversation(mira);
    const { socket } = await join(mira, id);
    await socket.chat(id, "One");
    await socket.chat(id, "Two");
    expect(socket.closeEvent).toBeNull();
  });
});

describe("POST /api/enforcement/suspensions/:userId (what `moderation suspend --site` calls)", () => {
  it("closes every open socket of a suspended person at once, without waiting for a frame", async () => {
    const mira = await signIn();
    const [a, b] = [await startConversation(mira), await startConversation(mira)];
    const sockets = [(await join(mira, a)).socket, (await join(mira, b)).socket, await connect(mira, b)];
    await suspendUser(operatorDb, mira.username, OPERATOR);
    expect(await json(await call(`/api/enforcement/suspensions/${mira.id}`, { method: "POST" }), 200)).toEqual({ closedSockets: 3 });
    for (const socket of sockets) expect(await socket.closed()).toEqual({ code: 1008, reason: CLOSE_REASONS.suspended });
  });

  it("does nothing to anyone who is not suspended: 404, their sockets stay open", async () => {
    const theo = await signIn();
    const { socket } = await join(theo, await startConversation(theo));
    for (const caller of [null, theo]) {
      expect(await json(await call(`/api/enforcement/suspensions/${theo.id}`, { method: "POST", user: caller }), 404)).toMatchObject({ code: "not_found" });
    }
    expect(await json(await call(`/api/enforcement/suspensions/${crypto.randomUUID()}`, { method: "POST" }), 404)).toMatchObject({ code: "not_found" });
    await socket.ping();
    expect(socket.closeEvent).toBeNull();
  });
});
