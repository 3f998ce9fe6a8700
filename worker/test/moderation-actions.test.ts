/**
 * The operator's actions (worker/lib/moderation-actions.ts, what
 * `npm run moderation` runs) seen end to end by callers: a removed character
 * is gone from every list, search, tag count and total and 404 to everyone but
 * its owner (who cannot reactivate it), and comes back exactly on restore; an
 * upheld comment is deleted; an upheld chat message is hidden in the room;
 * a suspended person's session stops working and their writes are 403; every
 * action leaves an audit row.
 */
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import type { CharacterListResponse, OwnCharacter, Report, Tag } from "../../schema/api.ts";
import { type ChatMessage, type Conversation, MODERATED_MESSAGE_TEXT } from "../../schema/chat.ts";
import {
  dismissReport,
  OperatorError,
  restoreCharacter,
  suspendUser,
  unsuspendUser,
  upholdReport,
} from "../lib/moderation-actions.ts";
import { SUSPENDED_MESSAGE } from "../lib/errors.ts";
import { createSession } from "../lib/sessions.ts";
import { join, upgrade } from "./chat-client.ts";
import { call, countRows, json } from "./creator-api.ts";
import { clearCatalog, insertCharacter, signIn, type TestUser } from "./fixtures.ts";
import { OPERATOR, operatorDb } from "./operator-db.ts";

let owner: TestUser;
let reader: TestUser;

beforeEach(async () => {
  await clearCatalog();
  await env.DB.prepare("DELETE FROM reports").run();
  owner = await signIn();
  reader = await signIn();
});

const report = async (user: TestUser, body: Record<string, unknown>) =>
  json<Report>(await call("/api/reports", { method: "POST", user, body: { reason: "illegal", ...body } }), 201);

const list = async (query = "") => json<CharacterListResponse>(await call(`/api/characters?${query}`), 200);
const tagCount = async (name: string) =>
  (await json<Tag[]>(await call("/api/tags?popular=true"), 200)).find((tag) => tag.name === name)?.count ?? 0;

describe("upholding a report on a character", () => {
  it("removes it everywhere with exact counters; its owner keeps it, badged, and cannot reactivate it; restore brings it back", async () => {
    await insertCharacter({ name: "Neighbour", tags: ["harbor"], creatorId: reader.id });
    const id = await insertCharacter({ name: "Lantern keeper", tags: ["harbor", "mystery"], creatorId: owner.id });
    expect((await list()).total).toBe(2);
    expect(await tagCount("harbor")).toBe(2);
    expect((await list("search=lantern")).total).toBe(1);

    const filed = await report(reader, { targetType: "character", targetId: id });
    const done = await upholdReport(operatorDb, filed.id, { actor: "ops@fabled", reason: "stolen artwork" });
    expect(done).toContain(`Character ${id} removed`);

    expect(await list()).toMatchObject({ total: 1, characters: [{ name: "Neighbour" }] });
    expect(await tagCount("harbor")).toBe(1);
    expect(await tagCount("mystery")).toBe(0);
    expect((await list("search=lantern")).total).toBe(0);
    expect((await list("tags=mystery")).total).toBe(0);
    await json(await call(`/api/characters/${id}`), 404);
    await json(await call(`/api/characters/${id}`, { user: reader }), 404);
    await json(await call(`/api/characters/${id}/comments`, { user: reader }), 404);
    await json(await call(`/api/characters/${id}/card.json`, { user: reader }), 404);
    await json(await call("/api/conversations/new", { method: "POST", user: reader, body: { characterId: id } }), 404);

    expect(await json(await call(`/api/characters/${id}`, { user: owner }), 200)).toMatchObject({
      isActive: false,
      moderationStatus: "removed",
    });
    const mine = await json<OwnCharacter[]>(await call("/api/my-characters", { user: owner }), 200);
    expect(mine.find((c) => c.id === id)).toMatchObject({ moderationStatus: "removed", isActive: false });
    const toggled = await call(`/api/characters/${id}/toggle-active`, { method: "PATCH", user: owner });
    expect(await json(toggled, 403)).toEqual({
      error: "This character was removed by moderation and cannot be reactivated.",
      code: "forbidden",
    });
    expect((await list()).total).toBe(1);

    const audit = await env.DB.prepare("SELECT actor, action, reason, report_id AS reportId FROM moderation_actions WHERE target_id = ?")
      .bind(String(id))
      .all();
    expect(audit.results).toEqual([{ actor: "ops@fabled", action: "uphold", reason: "stolen artwork", reportId: filed.id }]);
    expect(await env.DB.prepare("SELECT status FROM reports WHERE id = ?").bind(filed.id).first("status")).toBe("upheld");

    expect(await restoreCharacter(operatorDb, id, OPERATOR)).toContain("listed again");
    expect((await list()).total).toBe(2);
    expect(await tagCount("harbor")).toBe(2);
    expect(await tagCount("mystery")).toBe(1);
    expect(await json(await call(`/api/characters/${id}`, { user: reader }), 200)).toMatchObject({ moderationStatus: "ok" });
    const trail = await env.DB.prepare("SELECT action, actor FROM moderation_actions WHERE target_id = ? ORDER BY id")
      .bind(String(id))
      .all<{ action: string; actor: string }>();
    expect(trail.results).toEqual([
      { action: "uphold", actor: "ops@fabled" },
      { action: "restore", actor: OPERATOR.actor },
    ]);
  });

  it("closes every open report on the same target; a closed or unknown report is refused", async () => {
    const id = await insertCharacter({ creatorId: owner.id });
    const third = await signIn();
    const first = await report(reader, { targetType: "character", targetId: id });
    const second = await report(third, { targetType: "character", targetId: id, reason: "spam" });
    await upholdReport(operatorDb, first.id, OPERATOR);
    expect(await countRows("reports", "status = 'upheld' AND target_id = ?", String(id))).toBe(2);
    await expect(upholdReport(operatorDb, second.id, OPERATOR)).rejects.toThrow(new OperatorError(`Report ${second.id} is already upheld.`));
    await expect(dismissReport(operatorDb, 999_999, OPERATOR)).rejects.toThrow("There is no report 999999.");
  });

  it("dismissing a report on a character flagged by screening returns it to ok", async () => {
    const id = await insertCharacter({ creatorId: owner.id });
    await env.DB.prepare("UPDATE characters SET moderation_status = 'flagged' WHERE id = ?").bind(id).run();
    const filed = await report(reader, { targetType: "character", targetId: id });
    await dismissReport(operatorDb, filed.id, OPERATOR);
    expect(await json(await call(`/api/characters/${id}`), 200)).toMatchObject({ moderationStatus: "ok" });
    const audit = await env.DB.prepare("SELECT action, report_id AS reportId, reason FROM moderation_actions WHERE target_id = ?")
      .bind(String(id))
      .all();
    expect(audit.results).toEqual([{ action: "dismiss", reportId: filed.id, reason: OPERATOR.reason }]);
    expect((await list()).total).toBe(1);
  });
});

describe("upholding a report on a comment or a chat message", () => {
  it("deletes the comment with its replies, and the character's comment count follows", async () => {
    const id = await insertCharacter({ creatorId: owner.id });
    const comment = await json<{ id: number }>(
      await call(`/api/characters/${id}/comments`, { method: "POST", user: owner, body: { content: "Buy cheap gold at …" } }),
      201,
    );
    await call(`/api/characters/${id}/comments`, { method: "POST", user: reader, body: { content: "Spam!", parentId: comment.id } });
    expect((await json(await call(`/api/characters/${id}`), 200)).commentCount).toBe(2);
    const filed = await report(reader, { targetType: "comment", targetId: comment.id, reason: "spam" });
    await upholdReport(operatorDb, filed.id, OPERATOR);
    expect(await json(await call(`/api/characters/${id}/comments`), 200)).toEqual([]);
    expect((await json(await call(`/api/characters/${id}`), 200)).commentCount).toBe(0);
  });

  it("hides a reported reply: the owner's messages, a fresh socket's history and an export show the fixed line", async () => {
    const id = await insertCharacter({ creatorId: owner.id });
    const conversation = await json<Conversation>(
      await call("/api/conversations/new", { method: "POST", user: reader, body: { characterId: id } }),
      201,
    );
    const { socket } = await join(reader, conversation.id);
    const exchange = await socket.chat(conversation.id, "Say something.");
    const filed = await report(reader, {
      targetType: "message",
      targetId: exchange.response.messageId,
      conversationId: conversation.id,
    });
    await upholdReport(operatorDb, filed.id, OPERATOR);

    const messages = await json<ChatMessage[]>(await call(`/api/conversations/${conversation.id}/messages`, { user: reader }), 200);
    const hidden = messages.find((m) => m.id === exchange.response.messageId)!;
    expect(hidden).toMatchObject({ content: MODERATED_MESSAGE_TEXT, alternatives: [] });
    expect(messages.find((m) => m.id === exchange.saved.messageId)?.content).toBe("Say something.");
    // The socket that was open is told as well.
    expect((await socket.next("message_updated", (f) => f.messageId === hidden.id)).message.content).toBe(MODERATED_MESSAGE_TEXT);
    socket.close();

    const again = await join(reader, conversation.id);
    expect(again.history.messages.find((m) => m.id === hidden.id)?.content).toBe(MODERATED_MESSAGE_TEXT);
    again.socket.close();
    const exported = await call(`/api/conversations/${conversation.id}/export?format=markdown`, { user: reader });
    const text = await exported.text();
    expect(text).toContain(MODERATED_MESSAGE_TEXT);
    expect(text).not.toContain(exchange.response.content);
  });
});

describe("suspending a person", () => {
  it("ends their sessions; a new one reads as a visitor and every write or signed-in read is 403; unsuspend lifts it", async () => {
    const id = await insertCharacter({ creatorId: owner.id });
    expect(await suspendUser(operatorDb, reader.username.toUpperCase(), { actor: "ops", reason: "spam wave" })).toContain(
      "is suspended",
    );
    await json(await call("/api/auth/user", { user: reader }), 401);

    const { token } = await createSession(env.DB, reader.id);
    const suspended = { ...reader, cookie: `fabled_session=${token}` };
    const refusal = { error: SUSPENDED_MESSAGE, code: "forbidden" };
    expect(await json(await call("/api/auth/user", { user: suspended }), 403)).toEqual(refusal);
    expect(
      await json(await call(`/api/characters/${id}/comments`, { method: "POST", user: suspended, body: { content: "hi" } }), 403),
    ).toEqual(refusal);
    expect(await json(await call(`/api/characters/${id}/favorite`, { method: "POST", user: suspended }), 403)).toEqual(refusal);
    expect(await json(await call("/api/profile", { method: "PUT", user: suspended, body: { firstName: "X" } }), 403)).toEqual(refusal);
    expect(await json(await upgrade({ user: suspended }), 403)).toEqual(refusal);
    // Reading the public catalog still works, as for a visitor.
    expect(await json(await call(`/api/characters/${id}`, { user: suspended }), 200)).toMatchObject({ id });
    expect(await countRows("comments", "user_id = ?", reader.id)).toBe(0);

    await expect(suspendUser(operatorDb, reader.username, OPERATOR)).rejects.toThrow("is already suspended");
    await unsuspendUser(operatorDb, reader.username, OPERATOR);
    await json(await call(`/api/characters/${id}/comments`, { method: "POST", user: suspended, body: { content: "hi" } }), 201);
    const actions = await env.DB.prepare("SELECT action FROM moderation_actions WHERE target_id = ? ORDER BY id")
      .bind(reader.id)
      .all<{ action: string }>();
    expect(actions.results.map((r) => r.action)).toEqual(["suspend", "unsuspend"]);
  });

  it("an unknown name is refused", async () => {
    await expect(suspendUser(operatorDb, "@nobody_here", OPERATOR)).rejects.toThrow("There is no person named @nobody_here.");
  });
});
