/**
 * Steering a chat over the socket (docs/decisions/0007-steering-a-chat.md):
 * edit, delete, rewind, continue and the memory note — seen by every socket
 * of the conversation, kept across reconnects, refused while a reply is
 * written, applied once per clientId — and what the prompt then holds
 * (persona, memory, the running summary), read from the prompt the model
 * was sent (the loopback OpenAI-compatible server's `prompt` model).
 */
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { Conversation } from "../../schema/chat.ts";
import { conversationRoom } from "../../worker/lib/conversations.ts";
import { eventually, join } from "../../worker/test/chat-client.ts";
import { call, json } from "../../worker/test/creator-api.ts";
import { insertCharacter, signIn, type TestUser } from "../../worker/test/fixtures.ts";
import { startChat, storedMessages } from "../../worker/test/room-chat.ts";
import type { PromptMessage } from "../../ai/chat-model.ts";
import { OpenAIChatModel } from "../../ai/chat-models.ts";
import type { ConversationRoom } from "../conversation-room.ts";

let characterId: number;

beforeAll(async () => {
  characterId = await insertCharacter({ name: "Ash" });
  await env.DB.prepare("UPDATE characters SET scenario = 'A lighthouse in a storm.' WHERE id = ?").bind(characterId).run();
});

const start = (user: TestUser) => startChat(user, characterId);

const messages = storedMessages;

async function conversationRow(id: string) {
  return (await env.DB.prepare("SELECT last_message_at AS lastAt, last_message_preview AS preview FROM conversations WHERE id = ?")
    .bind(id)
    .first<{ lastAt: number | null; preview: string | null }>())!;
}

async function messageCount(): Promise<number> {
  return (await env.DB.prepare("SELECT message_count AS n FROM characters WHERE id = ?").bind(characterId).first<{ n: number }>())!.n;
}

/** Makes the room's replies the loopback server's `model` (worker/test/openai-server.ts). */
async function useModel(conversationId: string, model: string) {
  await runInDurableObject(conversationRoom(env, conversationId), (room: ConversationRoom) => {
    room.modelFactory = () => new OpenAIChatModel({ baseUrl: env.OPENAI_BASE_URL, apiKey: env.OPENAI_API_KEY, model });
  });
}

/** A conversation with the greeting and `exchanges` messages and replies; the socket joined. */
async function chatWith(user: TestUser, exchanges: string[]) {
  const conversation = await start(user);
  const { socket } = await join(user, conversation.id);
  const sent = [];
  for (const text of exchanges) sent.push(await socket.chat(conversation.id, text));
  return { conversation, socket, sent };
}

describe("edit", () => {
  it("changes the person's message and a reply for every socket, and a reconnect sees the edited text", async () => {
    const mira = await signIn();
    const { conversation, socket, sent } = await chatWith(mira, ["Hello, keeper."]);
    const other = (await join(mira, conversation.id)).socket;
    const id = conversation.id;

    socket.send({ type: "edit_message", conversationId: id, messageId: sent[0]!.saved.messageId, content: "  Good evening, keeper.  ", clientId: "e1" });
    const edited = await socket.next("message_updated");
    expect(edited).toMatchObject({ messageId: sent[0]!.saved.messageId, clientId: "e1", message: { content: "Good evening, keeper.", isUser: true } });
    expect(edited.message.editedAt).toEqual(expect.any(String));
    expect((await other.next("message_updated")).message.content).toBe("Good evening, keeper.");

    // A reply: its text changes, its versions and id stay; being the last message, the preview follows.
    const replyId = sent[0]!.response.messageId;
    socket.send({ type: "edit_message", messageId: replyId, content: "*Ash nods.* Evening." });
    expect((await other.next("message_updated")).message).toMatchObject({ id: replyId, content: "*Ash nods.* Evening.", alternatives: [] });
    await eventually(async () => (await conversationRow(id)).preview === "*Ash nods.* Evening.");
    socket.close();
    other.close();

    const { history } = await join(mira, id);
    expect(history.messages.map((m) => m.content).slice(1)).toEqual(["Good evening, keeper.", "*Ash nods.* Evening."]);
    expect((await messages(mira, id))[2]!.editedAt).toEqual(expect.any(String));
  });

  it("keeps the limits of a new message: trimmed, not empty, 4,000 for the person's and 5,000 for a reply", async () => {
    const mira = await signIn();
    const { conversation, socket, sent } = await chatWith(mira, ["Hi."]);
    const mine = sent[0]!.saved.messageId;
    const reply = sent[0]!.response.messageId;
    socket.send({ type: "edit_message", messageId: mine, content: "   " });
    expect(await socket.next("error")).toMatchObject({ code: "invalid_frame", message: "Messages cannot be empty" });
    socket.send({ type: "edit_message", messageId: mine, content: "x".repeat(4001) });
    expect(await socket.next("error")).toMatchObject({ code: "invalid_frame", message: "Messages can be at most 4,000 characters" });
    socket.send({ type: "edit_message", messageId: reply, content: "y".repeat(5001) });
    expect(await socket.next("error")).toMatchObject({ code: "invalid_frame", message: "Messages can be at most 5,000 characters" });
    socket.send({ type: "edit_message", messageId: reply, content: "y".repeat(5000) });
    expect((await socket.next("message_updated")).message.content).toHaveLength(5000);
    socket.send({ type: "edit_message", messageId: "no-such-message", content: "Hm." });
    expect(await socket.next("error")).toMatchObject({ code: "message_not_found" });
    expect((await messages(mira, conversation.id))[1]!.content).toBe("Hi.");
    socket.close();
  });
});

describe("delete and rewind", () => {
  it("delete removes one message for every socket; the preview and last message time go back; message_count stays", async () => {
    const mira = await signIn();
    const { conversation, socket, sent } = await chatWith(mira, ["First.", "Second."]);
    const other = (await join(mira, conversation.id)).socket;
    const id = conversation.id;
    const counted = await eventually(async () => ((await messageCount()) > 0 ? messageCount() : null));

    socket.send({ type: "delete_message", messageId: sent[1]!.response.messageId, clientId: "d1" });
    expect(await other.next("messages_deleted")).toEqual({ type: "messages_deleted", messageIds: [sent[1]!.response.messageId], clientId: "d1" });
    const stored = await messages(mira, id);
    expect(stored.map((m) => m.content).slice(1)).toEqual(["First.", sent[0]!.response.content, "Second."]);
    const row = await eventually(async () => {
      const now = await conversationRow(id);
      return now.preview === "Second." ? now : null;
    });
    expect(row.lastAt).toBe(Date.parse(stored.at(-1)!.createdAt));
    expect(await messageCount()).toBe(counted);
    socket.close();
    other.close();
  });

  it("rewind removes a message and everything after it; a resend with the same clientId gets the same answer and changes nothing", async () => {
    const mira = await signIn();
    const { conversation, socket, sent } = await chatWith(mira, ["One.", "Two.", "Three."]);
    const id = conversation.id;
    socket.send({ type: "rewind", messageId: sent[1]!.saved.messageId, clientId: "r1" });
    const answer = await socket.next("messages_deleted");
    expect(answer.messageIds).toEqual([sent[1]!.saved.messageId, sent[1]!.response.messageId, sent[2]!.saved.messageId, sent[2]!.response.messageId]);
    expect((await messages(mira, id)).map((m) => m.content).slice(1)).toEqual(["One.", sent[0]!.response.content]);
    await eventually(async () => (await conversationRow(id)).preview === sent[0]!.response.content.replace(/\s+/g, " ").slice(0, 140));

    // Sent again after a reconnect (same clientId): the same answer, to the sender alone, nothing else deleted.
    const again = (await join(mira, id)).socket;
    again.send({ type: "rewind", messageId: sent[1]!.saved.messageId, clientId: "r1" });
    expect(await again.next("messages_deleted")).toEqual(answer);
    // Without the clientId the message is simply gone.
    again.send({ type: "rewind", messageId: sent[1]!.saved.messageId });
    expect(await again.next("error")).toMatchObject({ code: "message_not_found" });
    expect(await messages(mira, id)).toHaveLength(3);

    // Rewinding to the greeting leaves an empty conversation: no preview, no last message.
    again.send({ type: "rewind", messageId: (await messages(mira, id))[0]!.id });
    await again.next("messages_deleted");
    await eventually(async () => (await conversationRow(id)).lastAt === null);
    expect(await conversationRow(id)).toEqual({ lastAt: null, preview: null });
    socket.close();
    again.close();
  });
});

describe("while a reply is being written", () => {
  it("edit, delete, rewind, continue and memory are refused with busy and change nothing", async () => {
    const mira = await signIn();
    const { conversation, socket, sent } = await chatWith(mira, ["Before."]);
    await useModel(conversation.id, "slow");
    socket.send({ type: "chat_message", conversationId: conversation.id, content: "Tell me slowly.", clientId: "slow" });
    await socket.next("character_response_delta");
    const target = sent[0]!.saved.messageId;
    const frames = [
      { type: "edit_message", messageId: target, content: "Changed." },
      { type: "delete_message", messageId: target },
      { type: "rewind", messageId: target },
      { type: "continue" },
      { type: "set_memory", memory: "Remember this." },
    ] as const;
    for (const frame of frames) {
      socket.send({ ...frame, clientId: `busy-${frame.type}` });
      expect(await socket.next("error", (f) => f.clientId === `busy-${frame.type}`)).toMatchObject({ code: "busy" });
    }
    socket.send({ type: "stop" });
    await socket.next("character_response");
    const stored = await messages(mira, conversation.id);
    expect(stored.map((m) => m.content).slice(1, 3)).toEqual(["Before.", sent[0]!.response.content]);
    expect(stored).toHaveLength(5);
    // A refusal is not kept: the same clientId works once the reply is done.
    socket.send({ type: "edit_message", messageId: target, content: "Changed.", clientId: "busy-edit_message" });
    expect((await socket.next("message_updated")).message.content).toBe("Changed.");
    socket.close();
  });
});

describe("continue", () => {
  it("extends the last reply in place: reply_started continues, deltas into the same message, the whole text at the end", async () => {
    const mira = await signIn();
    const { conversation, socket, sent } = await chatWith(mira, ["Go on, tell me."]);
    const other = (await join(mira, conversation.id)).socket;
    const reply = sent[0]!.response;
    const counted = await eventually(async () => ((await messageCount()) > 0 ? messageCount() : null));

    socket.send({ type: "continue", clientId: "c1" });
    expect(await other.next("reply_started")).toEqual({ type: "reply_started", messageId: reply.messageId, replaces: null, continues: true, characterId: expect.any(Number) });
    let streamed = reply.content;
    for (;;) {
      const frame = await other.nextWhere((f) => f.type === "character_response_delta" || f.type === "character_response");
      if (frame.type === "character_response") {
        expect(frame.messageId).toBe(reply.messageId);
        expect(frame.content).toBe(streamed.trim());
        break;
      }
      streamed += frame.type === "character_response_delta" ? frame.delta : "";
    }
    expect(streamed.startsWith(`${reply.content} `)).toBe(true);
    expect(streamed.length).toBeGreaterThan(reply.content.length + 10);
    const stored = await messages(mira, conversation.id);
    expect(stored).toHaveLength(3);
    expect(stored[2]).toMatchObject({ id: reply.messageId, content: streamed.trim() });
    await eventually(async () => (await conversationRow(conversation.id)).preview === streamed.trim().replace(/\s+/g, " ").slice(0, 140));
    expect(await messageCount()).toBe(counted);

    // The same clientId again: the reply is not continued twice.
    socket.send({ type: "continue", clientId: "c1" });
    expect((await socket.next("character_response")).content).toBe(streamed.trim());
    expect((await messages(mira, conversation.id))[2]!.content).toBe(streamed.trim());
    socket.close();
    other.close();
  });

  it("the model reads the reply as its last message and the continue nudge; only the latest reply can be continued", async () => {
    const mira = await signIn();
    const { conversation, socket, sent } = await chatWith(mira, ["Hello."]);
    await useModel(conversation.id, "prompt");
    socket.send({ type: "continue" });
    const prompt = JSON.parse((await socket.next("character_response")).content.slice(sent[0]!.response.content.length)) as PromptMessage[];
    expect(prompt.at(-2)).toEqual({ role: "assistant", content: sent[0]!.response.content });
    expect(prompt.at(-1)).toEqual({ role: "system", content: "[Continue your last message without repeating its original content.]" });

    socket.send({ type: "delete_message", messageId: sent[0]!.response.messageId });
    await socket.next("messages_deleted");
    socket.send({ type: "continue", clientId: "c2" });
    expect(await socket.next("error")).toMatchObject({ code: "nothing_to_continue", clientId: "c2" });
    socket.close();
  });

  it("a continue that fails puts the reply's text back for every socket", async () => {
    const mira = await signIn();
    const { conversation, socket, sent } = await chatWith(mira, ["Hello."]);
    await useModel(conversation.id, "error-500");
    socket.send({ type: "continue", clientId: "c3" });
    expect(await socket.next("message_updated")).toMatchObject({ messageId: sent[0]!.response.messageId, message: { content: sent[0]!.response.content } });
    expect(await socket.next("error")).toMatchObject({ code: "model_failed", clientId: "c3" });
    expect((await messages(mira, conversation.id))[2]!.content).toBe(sent[0]!.response.content);
    socket.close();
  });
});

describe("memory, persona and summary in the prompt", () => {
  it("the memory note reaches every socket, comes back with history_sync, and is in every prompt", async () => {
    const mira = await signIn();
    const { conversation, socket } = await chatWith(mira, ["Hi."]);
    const other = (await join(mira, conversation.id)).socket;
    socket.send({ type: "set_memory", memory: "  {{user}} is afraid of the dark.  ", clientId: "m1" });
    expect(await other.next("memory_updated")).toEqual({ type: "memory_updated", memory: "{{user}} is afraid of the dark.", clientId: "m1" });
    socket.send({ type: "set_memory", memory: "x".repeat(2001) });
    expect(await socket.next("error")).toMatchObject({ message: "Memory can be at most 2,000 characters" });
    other.close();
    socket.close();

    const { socket: again, history } = await join(mira, conversation.id);
    expect(history.memory).toBe("{{user}} is afraid of the dark.");
    await useModel(conversation.id, "prompt");
    const { response } = await again.chat(conversation.id, "What do you remember?");
    const system = (JSON.parse(response.content) as PromptMessage[])[0]!.content;
    expect(system).toContain("Remember:\nTess is afraid of the dark.");
    again.close();
  });

  it("a persona picked for the chat is {{user}} and its description follows the scenario", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const persona = await json<{ id: string }>(
      await call("/api/personas", { method: "POST", user: mira, body: { name: "Captain Vale", description: "A smuggler with a soft heart." } }),
      201,
    );
    // The first persona is the default: a new chat's greeting already uses its name.
    await env.DB.prepare("UPDATE characters SET greeting = 'Welcome, {{user}}.' WHERE id = ?").bind(characterId).run();
    const conversation = await start(mira);
    await env.DB.prepare("UPDATE characters SET greeting = 'Hello there.' WHERE id = ?").bind(characterId).run();
    const { socket, history } = await join(mira, conversation.id);
    expect(history.messages[0]!.content).toBe("Welcome, Captain Vale.");

    await useModel(conversation.id, "prompt");
    const first = JSON.parse((await socket.chat(conversation.id, "Hello.")).response.content) as PromptMessage[];
    expect(first[0]!.content).toContain("Scenario: A lighthouse in a storm.\n\nCaptain Vale's persona: A smuggler with a soft heart.");

    // Another persona for this chat only, picked over REST while the socket is open.
    const other = await json<{ id: string }>(await call("/api/personas", { method: "POST", user: mira, body: { name: "Wren" } }), 201);
    const picked = await json<Conversation>(await call(`/api/conversations/${conversation.id}/persona`, { method: "PUT", user: mira, body: { personaId: other.id } }), 200);
    expect(picked.personaId).toBe(other.id);
    const second = JSON.parse((await socket.chat(conversation.id, "Who am I?")).response.content) as PromptMessage[];
    expect(second[0]!.content).toContain("between Ash and Wren");
    expect(second[0]!.content).not.toContain("persona:");

    // Back to the default; someone else's persona is not found.
    const stranger = await signIn();
    const theirs = await json<{ id: string }>(await call("/api/personas", { method: "POST", user: stranger, body: { name: "Thief" } }), 201);
    expect((await call(`/api/conversations/${conversation.id}/persona`, { method: "PUT", user: mira, body: { personaId: theirs.id } })).status).toBe(404);
    expect((await call(`/api/conversations/${conversation.id}/persona`, { method: "PUT", user: stranger, body: { personaId: theirs.id } })).status).toBe(404);
    await json(await call(`/api/conversations/${conversation.id}/persona`, { method: "PUT", user: mira, body: { personaId: null } }), 200);
    const third = JSON.parse((await socket.chat(conversation.id, "And now?")).response.content) as PromptMessage[];
    expect(third[0]!.content).toContain("Captain Vale's persona");
    expect(persona.id).toBeTruthy();
    socket.close();
  });

  it("when the history overflows, its oldest part is summarised after the reply; the next prompt reads the summary, a rewind into it drops it", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const conversation = await start(mira);
    const stub = conversationRoom(env, conversation.id);
    await runInDurableObject(stub, (room: ConversationRoom) => {
      room.budget = { contextTokens: 450, maxTokens: 100 };
    });
    const { socket } = await join(mira, conversation.id);
    const said = ["The lantern went out at midnight.", "Someone knocked three times.", "I found a brass key in the sand.", "The key opens the cellar door.", "We should go down together.", "Bring the oil lamp."];
    const sent = [];
    for (const text of said) sent.push(await socket.chat(conversation.id, text));

    const stored = await eventually(
      () =>
        runInDurableObject(stub, (_room: ConversationRoom, state) => {
          const row = state.storage.sql.exec<{ summary: string; through: number }>("SELECT summary, summary_through AS through FROM room").one();
          return row.through > 0 ? row : null;
        }),
      10_000,
    );
    // The offline model's summary is made of the messages' own words, the oldest first.
    expect(stored.summary).toContain('Mira said: "The lantern went out at midnight"');

    await useModel(conversation.id, "prompt");
    const prompt = JSON.parse((await socket.chat(conversation.id, "What happened so far?")).response.content) as PromptMessage[];
    expect(prompt[0]!.content).toContain(`The story so far:\n${stored.summary}`);
    // Summarised messages are no longer sent word for word; the latest always are.
    expect(prompt.slice(1).some((m) => m.content.includes("The lantern went out at midnight."))).toBe(false);
    expect(prompt.at(-1)).toEqual({ role: "user", content: "What happened so far?" });

    socket.send({ type: "rewind", messageId: sent[1]!.saved.messageId });
    await socket.next("messages_deleted");
    const after = await runInDurableObject(stub, (_room: ConversationRoom, state) =>
      state.storage.sql.exec<{ summary: string; through: number }>("SELECT summary, summary_through AS through FROM room").one(),
    );
    expect(after).toEqual({ summary: "", through: 0 });
    socket.close();
  });
});
