/**
 * The running summary in the owner's hands (issue 26 "The lorebook is
 * visible"): it comes with `history_sync`; `set_summary` rewrites it (it
 * covers the same messages, the next prompt reads the new text) or, empty,
 * resets it (the whole history is the prompt's again); every socket hears
 * `summary_updated`. Screened like the memory note: S4 is refused with
 * `message_refused` and the summary stays.
 */
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { PromptMessage } from "../../ai/chat-model.ts";
import { SUMMARY_REFUSED_TEXT } from "../../schema/chat.ts";
import { conversationRoom } from "../../worker/lib/conversations.ts";
import { type ChatSocket, eventually, join } from "../../worker/test/chat-client.ts";
import { insertCharacter, signIn, type TestUser } from "../../worker/test/fixtures.ts";
import { startChat, useTestServerModel } from "../../worker/test/room-chat.ts";
import type { ConversationRoom } from "../conversation-room.ts";

let characterId: number;

beforeAll(async () => {
  characterId = await insertCharacter({ name: "Ash" });
});

beforeEach(async () => {
  await env.DB.prepare("DELETE FROM moderation_log").run();
});

const roomSummary = (conversationId: string) =>
  runInDurableObject(conversationRoom(env, conversationId), (_room: ConversationRoom, state) =>
    state.storage.sql.exec<{ summary: string; through: number }>("SELECT summary, summary_through AS through FROM room").one(),
  );

/** A chat whose history overflowed a small prompt, so the model wrote a summary; the socket joined. */
async function summarisedChat(user: TestUser): Promise<{ conversationId: string; socket: ChatSocket; through: number }> {
  const conversation = await startChat(user, characterId);
  await runInDurableObject(conversationRoom(env, conversation.id), (room: ConversationRoom) => {
    room.budget = { contextTokens: 450, maxTokens: 100 };
  });
  const { socket } = await join(user, conversation.id);
  for (const text of ["The lantern went out at midnight.", "Someone knocked three times.", "I found a brass key in the sand.", "The key opens the cellar door.", "We should go down together.", "Bring the oil lamp."]) {
    await socket.chat(conversation.id, text);
  }
  const { through } = await eventually(async () => {
    const row = await roomSummary(conversation.id);
    return row.through > 0 ? row : null;
  }, 10_000);
  return { conversationId: conversation.id, socket, through };
}

/** The system prompt of the next reply (the loopback "prompt" model answers with the prompt it got). */
async function nextSystemPrompt(socket: ChatSocket, conversationId: string, text: string): Promise<string> {
  await useTestServerModel(conversationId, "prompt");
  const { response } = await socket.chat(conversationId, text);
  return (JSON.parse(response.content) as PromptMessage[])[0]!.content;
}

describe("set_summary", () => {
  it("the summary comes with history_sync; a rewrite reaches every socket and the next prompt, covering the same messages", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const { conversationId, socket, through } = await summarisedChat(mira);
    const { socket: other, history } = await join(mira, conversationId);
    expect(history.summary).toContain('Mira said: "The lantern went out at midnight"');

    socket.send({ type: "set_summary", summary: "  Mira and Ash found a key to the cellar.  ", clientId: "s1" });
    expect(await other.next("summary_updated")).toEqual({ type: "summary_updated", summary: "Mira and Ash found a key to the cellar.", clientId: "s1" });
    expect(await roomSummary(conversationId)).toEqual({ summary: "Mira and Ash found a key to the cellar.", through });
    other.close();
    const again = await join(mira, conversationId);
    expect(again.history.summary).toBe("Mira and Ash found a key to the cellar.");
    again.socket.close();
    const system = await nextSystemPrompt(socket, conversationId, "What now?");
    expect(system).toContain("The story so far:\nMira and Ash found a key to the cellar.");
    socket.close();
  });

  it("an empty summary resets it: it covers nothing, and the prompt has no story so far", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const { conversationId, socket } = await summarisedChat(mira);
    socket.send({ type: "set_summary", summary: "", clientId: "s2" });
    expect(await socket.next("summary_updated")).toEqual({ type: "summary_updated", summary: "", clientId: "s2" });
    expect(await roomSummary(conversationId)).toEqual({ summary: "", through: 0 });
    // A tiny reply budget keeps the next prompt from overflowing into a new summary before it is read.
    await runInDurableObject(conversationRoom(env, conversationId), (room: ConversationRoom) => {
      room.budget = { contextTokens: 8192, maxTokens: 100 };
    });
    const system = await nextSystemPrompt(socket, conversationId, "Where were we?");
    expect(system).not.toContain("The story so far");
    socket.close();
  });

  it("S4 is refused with message_refused and logged; the summary stays; one too long is an invalid frame", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const { conversationId, socket } = await summarisedChat(mira);
    const before = await roomSummary(conversationId);
    socket.send({ type: "set_summary", summary: "She is 15 years old and naked.", clientId: "s3" });
    expect(await socket.next("error")).toMatchObject({ code: "message_refused", message: SUMMARY_REFUSED_TEXT, clientId: "s3" });
    expect(socket.frames.some((f) => f.type === "summary_updated")).toBe(false);
    expect(await roomSummary(conversationId)).toEqual(before);
    const logged = await eventually(async () => {
      const { results } = await env.DB.prepare("SELECT subject_type AS subjectType, outcome FROM moderation_log").all();
      return results.length > 0 ? results : null;
    });
    expect(logged).toEqual([{ subjectType: "summary", outcome: "refused" }]);

    socket.send({ type: "set_summary", summary: "x".repeat(2001) });
    expect(await socket.next("error")).toMatchObject({ code: "invalid_frame", message: "The summary can be at most 2,000 characters" });
    expect(await roomSummary(conversationId)).toEqual(before);
    socket.close();
  });
});
