/**
 * Issue 21 "Safety on every path" in the room, from the attacker's side:
 * text the offline screen refuses (S4) gets no further through a steering
 * frame than through `chat_message`. An `edit_message` of a harmless message
 * (the person's or a reply) and a `set_memory` are answered with the
 * `message_refused` error frame and nothing changes — not the message, not
 * the memory note, not what a reconnect or the HTTP reads see; the attempt is
 * in the moderation log. A provider that fails lets them through (chat fails
 * open, docs/decisions/0008-trust-and-safety.md).
 */
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { EDIT_REFUSED_TEXT, MEMORY_REFUSED_TEXT } from "../../schema/chat.ts";
import { ModerationError, type Moderator } from "../../ai/moderation/moderator.ts";
import { conversationRoom } from "../../worker/lib/conversations.ts";
import { eventually, join } from "../../worker/test/chat-client.ts";
import { insertCharacter, signIn, type TestUser } from "../../worker/test/fixtures.ts";
import { startChat, storedMessages } from "../../worker/test/room-chat.ts";
import type { ConversationRoom } from "../conversation-room.ts";

/** Offline-screen S4 on any character (a stated age under 18 and a sexual term). */
const S4_TEXT = "She is 15 years old and naked.";

let characterId: number;

beforeAll(async () => {
  characterId = await insertCharacter({ name: "Ash" });
});

beforeEach(async () => {
  await env.DB.prepare("DELETE FROM moderation_log").run();
});

const start = (user: TestUser) => startChat(user, characterId);

const messages = storedMessages;

const logRows = () =>
  env.DB.prepare("SELECT subject_type AS subjectType, subject_id AS subjectId, outcome, content FROM moderation_log ORDER BY id")
    .all<{ subjectType: string; subjectId: string | null; outcome: string; content: string }>()
    .then((r) => r.results);

describe("edit_message", () => {
  it("an edit of a harmless message of the person into S4 is refused; the message keeps its text", async () => {
    const mira = await signIn();
    const conversation = await start(mira);
    const { socket } = await join(mira, conversation.id);
    const { saved } = await socket.chat(conversation.id, "Where is the lighthouse keeper?");
    socket.send({ type: "edit_message", conversationId: conversation.id, messageId: saved.messageId, content: S4_TEXT, clientId: "e1" });
    expect(await socket.next("error")).toMatchObject({ code: "message_refused", message: EDIT_REFUSED_TEXT, clientId: "e1" });
    expect(socket.frames.some((f) => f.type === "message_updated")).toBe(false);
    socket.close();
    const stored = (await messages(mira, conversation.id)).find((m) => m.id === saved.messageId);
    expect(stored).toMatchObject({ content: "Where is the lighthouse keeper?" });
    expect(stored?.editedAt).toBeUndefined();
    expect(await eventually(async () => (await logRows()).length > 0 && logRows())).toEqual([
      { subjectType: "message", subjectId: saved.messageId, outcome: "refused", content: S4_TEXT },
    ]);
  });

  it("an edit of a character's reply into S4 is refused too; a clean edit after it goes through", async () => {
    const mira = await signIn();
    const conversation = await start(mira);
    const { socket } = await join(mira, conversation.id);
    const { response } = await socket.chat(conversation.id, "Tell me a story.");
    socket.send({ type: "edit_message", conversationId: conversation.id, messageId: response.messageId, content: S4_TEXT });
    expect(await socket.next("error")).toMatchObject({ code: "message_refused", message: EDIT_REFUSED_TEXT });
    expect((await messages(mira, conversation.id)).find((m) => m.id === response.messageId)?.content).toBe(response.content);
    socket.send({ type: "edit_message", conversationId: conversation.id, messageId: response.messageId, content: "A calm sea." });
    expect((await socket.next("message_updated")).message.content).toBe("A calm sea.");
    socket.close();
  });
});

describe("set_memory", () => {
  it("an S4 memory note is refused; the note stays as it was, after a reconnect too", async () => {
    const mira = await signIn();
    const conversation = await start(mira);
    const { socket } = await join(mira, conversation.id);
    socket.send({ type: "set_memory", conversationId: conversation.id, memory: "The keeper is called Oren." });
    await socket.next("memory_updated");
    socket.send({ type: "set_memory", conversationId: conversation.id, memory: S4_TEXT, clientId: "m1" });
    expect(await socket.next("error")).toMatchObject({ code: "message_refused", message: MEMORY_REFUSED_TEXT, clientId: "m1" });
    socket.close();
    const again = await join(mira, conversation.id);
    expect(again.history.memory).toBe("The keeper is called Oren.");
    again.socket.close();
    expect(await eventually(async () => (await logRows()).length > 0 && logRows())).toEqual([
      { subjectType: "memory", subjectId: null, outcome: "refused", content: S4_TEXT },
    ]);
  });

  it("a provider that fails lets the note through (fail open) and logs the failure", async () => {
    const mira = await signIn();
    const conversation = await start(mira);
    const failing: Moderator = { name: "offline", screen: () => Promise.reject(new ModerationError("down")) };
    await runInDurableObject(conversationRoom(env, conversation.id), (room: ConversationRoom) => {
      room.moderatorFactory = () => failing;
    });
    const { socket } = await join(mira, conversation.id);
    socket.send({ type: "set_memory", conversationId: conversation.id, memory: "The lamp is out." });
    expect((await socket.next("memory_updated")).memory).toBe("The lamp is out.");
    socket.close();
    expect(await eventually(async () => (await logRows()).length > 0 && logRows())).toMatchObject([{ outcome: "error" }]);
  });
});
