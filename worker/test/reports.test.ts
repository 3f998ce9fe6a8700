/**
 * `POST /api/reports` as callers see it: the permission matrix (a visitor,
 * another person, the owner reporting their own, someone reporting a
 * conversation message that is not theirs), one open report per person and
 * target, and the copy of a reported chat message kept after the
 * conversation is gone.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { Report } from "../../schema/api.ts";
import type { Conversation } from "../../schema/chat.ts";
import { join } from "./chat-client.ts";
import { call, countRows, json } from "./creator-api.ts";
import { insertCharacter, signIn, type TestUser } from "./fixtures.ts";

let owner: TestUser;
let reader: TestUser;
let characterId: number;
let hiddenId: number;
let commentId: number;

const report = (user: TestUser | null, body: unknown) => call("/api/reports", { method: "POST", user, body });

beforeAll(async () => {
  owner = await signIn();
  reader = await signIn();
  characterId = await insertCharacter({ name: "Wren", creatorId: owner.id });
  hiddenId = await insertCharacter({ name: "Draft", creatorId: owner.id, isActive: false });
  const comment = await json<{ id: number }>(
    await call(`/api/characters/${characterId}/comments`, { method: "POST", user: owner, body: { content: "I made Wren for rainy days." } }),
    201,
  );
  commentId = comment.id;
});

describe("reporting a character or a comment", () => {
  it("files a report (201) and a repeat by the same person returns it (200) without a second row", async () => {
    const body = { targetType: "character", targetId: characterId, reason: "impersonation", details: "  Copied from my card.  " };
    const first = await json<Report>(await report(reader, body), 201);
    expect(first).toMatchObject({
      targetType: "character",
      targetId: String(characterId),
      reason: "impersonation",
      details: "Copied from my card.",
      status: "open",
    });
    const again = await json<Report>(await report(reader, { ...body, reason: "spam" }), 200);
    expect(again.id).toBe(first.id);
    expect(await countRows("reports", "target_type = 'character' AND target_id = ?", String(characterId))).toBe(1);
    const stored = await env.DB.prepare("SELECT excerpt, target_owner_id AS ownerId FROM reports WHERE id = ?")
      .bind(first.id)
      .first<{ excerpt: string; ownerId: string }>();
    expect(stored).toEqual({ excerpt: expect.stringContaining("Wren: "), ownerId: owner.id });
  });

  it("a second person's report on the same target is a report of its own", async () => {
    const third = await signIn();
    const mine = await json<Report>(await report(third, { targetType: "comment", targetId: commentId, reason: "hate" }), 201);
    const theirs = await json<Report>(await report(reader, { targetType: "comment", targetId: String(commentId), reason: "spam" }), 201);
    expect(mine.id).not.toBe(theirs.id);
    const excerpt = await env.DB.prepare("SELECT excerpt FROM reports WHERE id = ?").bind(mine.id).first<string>("excerpt");
    expect(excerpt).toBe("I made Wren for rainy days.");
  });

  it("visitors get 401 and nothing is stored", async () => {
    const before = await countRows("reports");
    const res = await report(null, { targetType: "character", targetId: characterId, reason: "spam" });
    expect(await json(res, 401)).toEqual({ error: "Unauthorized", code: "unauthorized" });
    expect(await countRows("reports")).toBe(before);
  });

  it("the owner cannot report their own character or comment (400)", async () => {
    const character = await json(await report(owner, { targetType: "character", targetId: characterId, reason: "other" }), 400);
    expect(character).toMatchObject({ code: "validation_failed", error: "You cannot report your own character" });
    const comment = await json(await report(owner, { targetType: "comment", targetId: commentId, reason: "other" }), 400);
    expect(comment).toMatchObject({ error: "You cannot report your own comment" });
  });

  it("unknown targets and someone else's inactive character are 404", async () => {
    expect(await json(await report(reader, { targetType: "character", targetId: 987654, reason: "spam" }), 404)).toMatchObject({
      code: "not_found",
    });
    expect(await json(await report(reader, { targetType: "character", targetId: hiddenId, reason: "spam" }), 404)).toMatchObject({
      error: "Character not found",
    });
    expect(await json(await report(reader, { targetType: "comment", targetId: 987654, reason: "spam" }), 404)).toMatchObject({
      error: "Comment not found",
    });
  });

  it("bad bodies get 400 with the field named", async () => {
    const noReason = await json(await report(reader, { targetType: "character", targetId: characterId }), 400);
    expect(noReason).toMatchObject({ code: "validation_failed", error: "Choose a reason for the report" });
    const long = await json(
      await report(reader, { targetType: "character", targetId: characterId, reason: "other", details: "x".repeat(1001) }),
      400,
    );
    expect(long).toMatchObject({ error: "Details can be at most 1,000 characters" });
    const badId = await json(await report(reader, { targetType: "comment", targetId: "abc", reason: "spam" }), 400);
    expect(badId).toMatchObject({ issues: [{ path: "targetId" }] });
    const noConversation = await json(await report(reader, { targetType: "message", targetId: "m1", reason: "spam" }), 400);
    expect(noConversation).toMatchObject({ issues: [{ path: "conversationId" }] });
    expect(await json(await report(reader, { targetType: "user", targetId: 1, reason: "spam" }), 400)).toMatchObject({
      code: "validation_failed",
    });
  });
});

describe("reporting a character's reply in a chat", () => {
  async function chatWithReply(user: TestUser) {
    const conversation = await json<Conversation>(
      await call("/api/conversations/new", { method: "POST", user, body: { characterId } }),
      201,
    );
    const { socket } = await join(user, conversation.id);
    const exchange = await socket.chat(conversation.id, "Tell me about the rain.");
    socket.close();
    return { conversation, exchange };
  }

  it("the conversation's owner reports a reply; the text they saw is copied and outlives the conversation", async () => {
    const { conversation, exchange } = await chatWithReply(reader);
    const body = {
      targetType: "message",
      targetId: exchange.response.messageId,
      conversationId: conversation.id,
      reason: "illegal",
    };
    const filed = await json<Report>(await report(reader, body), 201);
    expect(filed).toMatchObject({ targetType: "message", targetId: exchange.response.messageId, details: null });

    // Conversations go when their character is deleted.
    await env.DB.prepare("DELETE FROM conversations WHERE id = ?").bind(conversation.id).run();
    const kept = await env.DB.prepare("SELECT excerpt, conversation_id AS conversationId FROM reports WHERE id = ?")
      .bind(filed.id)
      .first<{ excerpt: string; conversationId: string }>();
    expect(kept).toEqual({ excerpt: exchange.response.content, conversationId: conversation.id });
  });

  it("someone else's conversation message is 404, and so is a message that is not in it", async () => {
    const { conversation, exchange } = await chatWithReply(reader);
    const stranger = await signIn();
    const body = { targetType: "message", targetId: exchange.response.messageId, conversationId: conversation.id, reason: "spam" };
    expect(await json(await report(stranger, body), 404)).toMatchObject({ error: "Conversation not found" });
    expect(await json(await report(reader, { ...body, targetId: "not-a-message" }), 404)).toMatchObject({
      error: "Message not found",
    });
  });

  it("the person's own message is not reportable (400)", async () => {
    const { conversation, exchange } = await chatWithReply(reader);
    const res = await report(reader, {
      targetType: "message",
      targetId: exchange.saved.messageId,
      conversationId: conversation.id,
      reason: "spam",
    });
    expect(await json(res, 400)).toMatchObject({ error: "Only the character's replies can be reported" });
  });
});
