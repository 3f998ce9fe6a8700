/**
 * Check-ins (issue 39, DESIGN.md turn 4 "Notifications";
 * durable-objects/room/check-ins.ts): a one-to-one chat that opted in hears
 * from its character after a quiet spell, and the owner's bell says so;
 * never twice in one quiet period, never in their quiet hours, paused after
 * two unanswered until they write, armed by the object's alarm from what
 * its storage holds (an evicted room carries on).
 *
 * The quiet spell is passed by moving the room's clock (its `now` seam)
 * forward and running its alarm at once (cloudflare:test).
 */
import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Conversation } from "../../schema/chat.ts";
import type { NotificationSettings } from "../../schema/notifications.ts";
import { conversationRoom } from "../../worker/lib/conversations.ts";
import { eventually, join, ORIGIN } from "../../worker/test/chat-client.ts";
import { call, json } from "../../worker/test/creator-api.ts";
import { pushMessageOf } from "../inbox/push.ts";
import { insertCharacter, signIn, type TestUser } from "../../worker/test/fixtures.ts";
import { listNotifications } from "../../worker/test/notifications-client.ts";
import { startChat, storedMessages } from "../../worker/test/room-chat.ts";
import type { ConversationRoom } from "../conversation-room.ts";
import { CHECK_IN_QUIET_MS } from "./check-ins.ts";

const HOUR = 3_600_000;

function patch(user: TestUser, conversationId: string, body: unknown): Promise<Response> {
  return call(`/api/conversations/${conversationId}`, { method: "PATCH", user, body, headers: { origin: ORIGIN } });
}

/** Sets the room's clock `aheadMs` ahead of the runtime's. */
async function clockAhead(conversationId: string, aheadMs: number): Promise<void> {
  await runInDurableObject(conversationRoom(env, conversationId), (room: ConversationRoom) => {
    room.now = () => Date.now() + aheadMs;
  });
}

async function alarmAt(conversationId: string): Promise<number | null> {
  return runInDurableObject(conversationRoom(env, conversationId), (_room: ConversationRoom, state) => state.storage.getAlarm());
}

/** The room's alarm rings now (it must be set). */
async function ring(conversationId: string): Promise<void> {
  expect(await runDurableObjectAlarm(conversationRoom(env, conversationId))).toBe(true);
}

/** The character messages of the chat once there are `count` (check-ins are written after the alarm returns). */
async function characterMessages(user: TestUser, conversationId: string, count: number) {
  return eventually(async () => {
    const messages = (await storedMessages(user, conversationId)).filter((m) => !m.isUser);
    return messages.length === count ? messages : null;
  }, 5_000);
}

/** The avatar every opted-in test character has (a check-in's push shows it). */
const WREN_AVATAR = "/objects/avatars/wren.png";

async function optedInChat(name: string): Promise<{ owner: TestUser; chat: Conversation }> {
  const owner = await signIn({ firstName: "Ines" });
  const characterId = await insertCharacter({ name });
  await env.DB.prepare("UPDATE characters SET avatar_url = ? WHERE id = ?").bind(WREN_AVATAR, characterId).run();
  const chat = await startChat(owner, characterId);
  const res = await patch(owner, chat.id, { checkIns: true });
  expect(await json<Conversation>(res, 200)).toMatchObject({ id: chat.id, checkIns: true });
  return { owner, chat };
}

describe("turning check-ins on", () => {
  it("is kept on the chat and arms the room's alarm a quiet period after the last message", async () => {
    const { owner, chat } = await optedInChat("Wren");
    expect(await json<Conversation>(await call(`/api/conversations/${chat.id}`, { user: owner }), 200)).toMatchObject({ checkIns: true });
    const greeting = (await storedMessages(owner, chat.id)).at(-1)!;
    expect(await alarmAt(chat.id)).toBe(Date.parse(greeting.createdAt) + CHECK_IN_QUIET_MS);
  });

  it("is refused in a group chat, and to anyone but the owner", async () => {
    const owner = await signIn();
    const stranger = await signIn();
    const first = await insertCharacter({ name: "One" });
    const second = await insertCharacter({ name: "Two" });
    const group = json<Conversation>(await call("/api/conversations", { method: "POST", user: owner, body: { characterIds: [first, second] } }), 201);
    expect((await group).characters.map((c) => c.id)).toEqual([first, second]);
    const res = await patch(owner, (await group).id, { checkIns: true });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "validation_failed", error: expect.stringContaining("one-to-one") });
    const solo = await startChat(owner, first);
    expect((await patch(stranger, solo.id, { checkIns: true })).status).toBe(404);
    expect((await patch(owner, solo.id, { checkIns: "yes" })).status).toBe(400);
    expect(await alarmAt(solo.id)).toBeNull();
  });
});

/** The room's check-in attempts so far (written when the alarm starts one, before the alarm returns). */
async function checkInAttempts(conversationId: string): Promise<number> {
  return runInDurableObject(conversationRoom(env, conversationId), (_room: ConversationRoom, state) =>
    state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM check_ins").one().n,
  );
}

/** A quiet spell passes and the room's alarm (armed when check-ins were turned on) rings. */
async function quietSpellPasses(conversationId: string): Promise<void> {
  expect(await alarmAt(conversationId)).not.toBeNull();
  await clockAhead(conversationId, CHECK_IN_QUIET_MS + HOUR);
  await ring(conversationId);
}

const send = (user: TestUser, path: string, method: string, body?: unknown) => call(path, { method, user, body, headers: { origin: ORIGIN } });

describe("a chat that stops being one-to-one", () => {
  it("gaining a second character ends its check-ins: off in the chat, refused to its owner, and its alarm writes none", async () => {
    const { owner, chat } = await optedInChat("Wren");
    const second = await insertCharacter({ name: "Moth" });
    expect((await send(owner, `/api/conversations/${chat.id}/characters`, "POST", { characterId: second })).status).toBe(201);
    expect(await json<Conversation>(await call(`/api/conversations/${chat.id}`, { user: owner }), 200)).toMatchObject({ checkIns: false });
    // The group's owner cannot turn them back on.
    const res = await patch(owner, chat.id, { checkIns: true });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "validation_failed", issues: [{ path: "checkIns", message: expect.stringContaining("one-to-one") }] });
    expect(await json<Conversation>(await call(`/api/conversations/${chat.id}`, { user: owner }), 200)).toMatchObject({ checkIns: false });
    // One-to-one again, the opt-in stays off until the owner turns it on: the quiet spell brings nothing.
    expect((await send(owner, `/api/conversations/${chat.id}/characters/${second}`, "DELETE")).status).toBe(204);
    await quietSpellPasses(chat.id);
    expect(await checkInAttempts(chat.id)).toBe(0);
    expect(await storedMessages(owner, chat.id)).toHaveLength(1);
    expect((await listNotifications(owner)).unread).toBe(0);
    // Turned on again, it checks in as before.
    expect(await json<Conversation>(await patch(owner, chat.id, { checkIns: true }), 200)).toMatchObject({ checkIns: true });
    await ring(chat.id);
    await characterMessages(owner, chat.id, 2);
  });

  it("someone joining by an invitation ends them too; neither the member nor the owner can turn them on", async () => {
    const { owner, chat } = await optedInChat("Sable");
    const friend = await signIn({ firstName: "Pia" });
    const link = await json<{ token: string }>(await send(owner, `/api/conversations/${chat.id}/invites`, "POST"), 201);
    expect((await send(friend, `/api/invites/${link.token}`, "POST", {})).status).toBe(200);
    expect(await json<Conversation>(await call(`/api/conversations/${chat.id}`, { user: owner }), 200)).toMatchObject({ checkIns: false });
    expect((await patch(owner, chat.id, { checkIns: true })).status).toBe(400);
    expect((await patch(friend, chat.id, { checkIns: true })).status).toBe(403);
    expect(await json<Conversation>(await call(`/api/conversations/${chat.id}`, { user: friend }), 200)).toMatchObject({ checkIns: false });
    // The friend leaves: one-to-one again, and still no check-in until the owner asks for one.
    expect((await send(friend, `/api/conversations/${chat.id}/members/${friend.id}`, "DELETE")).status).toBe(204);
    await quietSpellPasses(chat.id);
    expect(await checkInAttempts(chat.id)).toBe(0);
    expect(await storedMessages(owner, chat.id)).toHaveLength(1);
  });
});

describe("after a quiet spell", () => {
  it("the character writes one message and the owner's bell says so; not again within the period", async () => {
    const { owner, chat } = await optedInChat("Wren");
    await clockAhead(chat.id, CHECK_IN_QUIET_MS + HOUR);
    await ring(chat.id);
    const [, checkIn] = await characterMessages(owner, chat.id, 2);
    expect(checkIn!.content.trim()).not.toBe("");
    // What was sent ends with the check-in's nudge: the character writes first.
    const prompt = await json<{ messages: { role: string; content: string }[] }>(await call(`/api/conversations/${chat.id}/messages/${checkIn!.id}/prompt`, { user: owner }), 200);
    expect(prompt.messages.at(-1)).toEqual({ role: "system", content: expect.stringMatching(/^\[Ines has not written for 25 hours\. Write one short message as Wren, reaching out to Ines first/) });
    const list = await eventually(async () => {
      const l = await listNotifications(owner);
      return l.unread === 1 ? l : null;
    }, 5_000);
    expect(list.notifications[0]).toMatchObject({
      kind: "character_check_in",
      text: "Wren checked in on you",
      target: { type: "conversation", id: chat.id, url: `/chat/${chat.id}`, imageUrl: WREN_AVATAR },
    });
    // Its push shows the character's face and opens the chat.
    expect(pushMessageOf(list.notifications[0]!)).toMatchObject({ body: "Wren checked in on you", url: `/chat/${chat.id}`, icon: WREN_AVATAR });
    // The next is a whole period after this one.
    const next = await eventually(async () => ((await alarmAt(chat.id)) ?? 0) > Date.now() + CHECK_IN_QUIET_MS && (await alarmAt(chat.id)));
    expect(next).toBeGreaterThanOrEqual(Date.now() + CHECK_IN_QUIET_MS);
    await ring(chat.id);
    expect(await characterMessages(owner, chat.id, 2)).toHaveLength(2);
  });

  it("pauses after two unanswered and starts again when the person writes", async () => {
    const { owner, chat } = await optedInChat("Sable");
    await clockAhead(chat.id, CHECK_IN_QUIET_MS + HOUR);
    await ring(chat.id);
    await characterMessages(owner, chat.id, 2);
    await clockAhead(chat.id, 2 * CHECK_IN_QUIET_MS + 2 * HOUR);
    await eventually(async () => (await alarmAt(chat.id)) !== null);
    await ring(chat.id);
    await characterMessages(owner, chat.id, 3);
    // Two unanswered: nothing more is armed.
    await clockAhead(chat.id, 3 * CHECK_IN_QUIET_MS + 3 * HOUR);
    if ((await alarmAt(chat.id)) !== null) await ring(chat.id);
    expect(await alarmAt(chat.id)).toBeNull();
    expect(await characterMessages(owner, chat.id, 3)).toHaveLength(3);
    // Still one notification: check-ins of one chat fold until read.
    expect((await listNotifications(owner)).notifications).toEqual([expect.objectContaining({ kind: "character_check_in", count: 2 })]);

    const { socket } = await join(owner, chat.id);
    socket.send({ type: "chat_message", conversationId: chat.id, content: "Sorry, I was away!" });
    await socket.next("character_response");
    socket.close();
    await eventually(async () => (await alarmAt(chat.id)) !== null);
    await clockAhead(chat.id, 5 * CHECK_IN_QUIET_MS);
    await ring(chat.id);
    await characterMessages(owner, chat.id, 5);
  });

  it("waits for the end of the owner's quiet hours", async () => {
    const { owner, chat } = await optedInChat("Moth");
    const ahead = CHECK_IN_QUIET_MS + HOUR;
    const then = new Date(Date.now() + ahead);
    const hhmm = (d: Date) => `${String(d.getUTCHours()).padStart(2, "0")}:${String(d.getUTCMinutes()).padStart(2, "0")}`;
    const quietHours = { start: hhmm(new Date(then.getTime() - HOUR)), end: hhmm(new Date(then.getTime() + 2 * HOUR)), timeZone: "UTC" };
    const saved = await json<NotificationSettings>(await call("/api/profile/notifications", { method: "PUT", user: owner, body: { quietHours }, headers: { origin: ORIGIN } }), 200);
    expect(saved.quietHours).toEqual(quietHours);
    await clockAhead(chat.id, ahead);
    await ring(chat.id);
    // Nothing written; the alarm now rings when the quiet hours end (in the room's clock).
    const at = await alarmAt(chat.id);
    expect(at! - (then.getTime() + 2 * HOUR)).toBeLessThanOrEqual(60_000);
    expect(at! - (then.getTime() + 2 * HOUR)).toBeGreaterThan(-120_000);
    expect(await characterMessages(owner, chat.id, 1)).toHaveLength(1);
    expect((await listNotifications(owner)).unread).toBe(0);
  });

  it("survives a restart: the evicted room wakes with its alarm and opt-in", async () => {
    const { owner, chat } = await optedInChat("Ember");
    const armed = await alarmAt(chat.id);
    await evictDurableObject(conversationRoom(env, chat.id));
    expect(await alarmAt(chat.id)).toBe(armed);
    await clockAhead(chat.id, CHECK_IN_QUIET_MS + HOUR);
    await ring(chat.id);
    await characterMessages(owner, chat.id, 2);
  });

  it("bad quiet hours are refused with the field named", async () => {
    const owner = await signIn();
    const res = await call("/api/profile/notifications", { method: "PUT", user: owner, body: { quietHours: { start: "25:00", end: "07:00", timeZone: "Mars/Olympus" } }, headers: { origin: ORIGIN } });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; issues: { path: string }[] };
    expect(body.code).toBe("validation_failed");
    expect(body.issues.map((i) => i.path).sort()).toEqual(["quietHours.start", "quietHours.timeZone"]);
  });
});
