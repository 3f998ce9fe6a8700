/**
 * Signed-in devices (DESIGN.md turn 4 "Your account, your data";
 * worker/lib/account/sessions.ts), from the person's side and from someone
 * else's: the list (public ids, never the cookie's hash; device, times,
 * "this device"), ending one, ending all the others, another person's id
 * as unknown as a made-up one, "last seen" written at most once per
 * LAST_SEEN_STEP_MS, and a chat socket of an ended session closing.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { AccountSession } from "../../schema/api.ts";
import type { Conversation } from "../../schema/chat.ts";
import { CLOSE_REASONS } from "../../durable-objects/socket-limits.ts";
import { createSession, LAST_SEEN_STEP_MS, sha256Hex } from "../lib/sessions.ts";
import { join } from "./chat-client.ts";
import { call, json } from "./creator-api.ts";
import { insertCharacter, signIn, type TestUser } from "./fixtures.ts";

const PHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
const LAPTOP = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";

/** Another session of `user`, as a browser with `userAgent` signed in `ago` ms ago. */
async function anotherDevice(user: TestUser, userAgent: string, ago = 0): Promise<TestUser & { token: string; sessionId: string }> {
  const { token, id } = await createSession(env.DB, user.id, Date.now() - ago, userAgent);
  return { ...user, cookie: `fabled_session=${token}`, token, sessionId: id };
}

const list = async (user: TestUser) => json<AccountSession[]>(await call("/api/profile/sessions", { user }), 200);

describe("the list of signed-in devices", () => {
  it("lists every live session of the person with its device and times, this one first and marked, by public id", async () => {
    const mira = await signIn();
    const phone = await anotherDevice(mira, PHONE, 3 * 60 * 60 * 1000);
    const laptop = await anotherDevice(mira, LAPTOP, 60_000);
    const sessions = await list(laptop);
    expect(sessions).toHaveLength(3);
    expect(sessions[0]).toMatchObject({ id: laptop.sessionId, userAgent: LAPTOP, current: true });
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    const onPhone = sessions.find((s) => s.id === phone.sessionId)!;
    expect(onPhone).toMatchObject({ userAgent: PHONE, current: false });
    expect(Date.now() - Date.parse(onPhone.createdAt)).toBeGreaterThanOrEqual(3 * 60 * 60 * 1000);
    expect(Date.parse(onPhone.lastSeenAt)).toBeGreaterThanOrEqual(Date.parse(onPhone.createdAt));
    // Never the cookie's hash (it finds the row as well as the cookie does).
    const sid = await sha256Hex(phone.token);
    expect(JSON.stringify(sessions)).not.toContain(sid);
    expect(JSON.stringify(sessions)).not.toContain(phone.token);
  });

  it("shows nobody else's sessions", async () => {
    const mira = await signIn();
    const theo = await signIn();
    await anotherDevice(theo, PHONE);
    const sessions = await list(mira);
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.current).toBe(true);
  });

  it("answers visitors 401", async () => {
    expect((await call("/api/profile/sessions")).status).toBe(401);
    expect((await call("/api/profile/sessions", { method: "DELETE" })).status).toBe(401);
  });
});

describe("last seen", () => {
  it("moves when a session is used after LAST_SEEN_STEP_MS, and not on every request", async () => {
    const mira = await signIn();
    const phone = await anotherDevice(mira, PHONE);
    const sid = await sha256Hex(phone.token);
    const lastSeen = () => env.DB.prepare("SELECT last_seen_at AS at FROM sessions WHERE sid = ?").bind(sid).first<number>("at");
    const first = (await lastSeen())!;
    await call("/api/auth/user", { user: phone });
    expect(await lastSeen()).toBe(first);
    const stale = Date.now() - LAST_SEEN_STEP_MS - 1000;
    await env.DB.prepare("UPDATE sessions SET last_seen_at = ? WHERE sid = ?").bind(stale, sid).run();
    const before = Date.now();
    await call("/api/auth/user", { user: phone });
    expect(await lastSeen()).toBeGreaterThanOrEqual(before);
  });
});

describe("signing a device out", () => {
  it("ends that session: 204, gone from the list, its next request is 401", async () => {
    const mira = await signIn();
    const phone = await anotherDevice(mira, PHONE);
    expect((await call(`/api/profile/sessions/${phone.sessionId}`, { method: "DELETE", user: mira })).status).toBe(204);
    expect((await list(mira)).map((s) => s.id)).not.toContain(phone.sessionId);
    expect((await call("/api/auth/user", { user: phone })).status).toBe(401);
    expect((await call("/api/auth/user", { user: mira })).status).toBe(200);
  });

  it("answers 404 for another person's session and leaves it alone", async () => {
    const mira = await signIn();
    const theo = await signIn();
    const theosPhone = await anotherDevice(theo, PHONE);
    const res = await call(`/api/profile/sessions/${theosPhone.sessionId}`, { method: "DELETE", user: mira });
    expect(await json(res, 404)).toEqual({ error: "Session not found", code: "not_found" });
    expect((await call("/api/auth/user", { user: theosPhone })).status).toBe(200);
  });

  it.each(["not-a-session", crypto.randomUUID(), "%00", "x".repeat(300)])("answers 404 for an unknown id %j", async (id) => {
    const mira = await signIn();
    expect((await call(`/api/profile/sessions/${encodeURIComponent(id)}`, { method: "DELETE", user: mira })).status).toBe(404);
  });

  it("closes the chat sockets opened under the ended session, and only those", async () => {
    const mira = await signIn();
    const characterId = await insertCharacter({ name: "Lantern" });
    const conversation = await json<Conversation>(await call("/api/conversations/new", { method: "POST", user: mira, body: { characterId } }), 201);
    const phone = await anotherDevice(mira, PHONE);
    const { socket: onPhone } = await join(phone, conversation.id);
    const { socket: here } = await join(mira, conversation.id);
    expect((await call(`/api/profile/sessions/${phone.sessionId}`, { method: "DELETE", user: mira })).status).toBe(204);
    expect(await onPhone.closed()).toEqual({ code: 1008, reason: CLOSE_REASONS.signedOut });
    await here.chat(conversation.id, "Still here on the laptop");
  });
});

describe("signing out of every other device", () => {
  it("ends all sessions but the current one", async () => {
    const mira = await signIn();
    const devices = [await anotherDevice(mira, PHONE), await anotherDevice(mira, LAPTOP)];
    const theo = await signIn();
    expect((await call("/api/profile/sessions", { method: "DELETE", user: mira })).status).toBe(204);
    const left = await list(mira);
    expect(left).toHaveLength(1);
    expect(left[0]!.current).toBe(true);
    for (const device of devices) expect((await call("/api/auth/user", { user: device })).status).toBe(401);
    expect((await call("/api/auth/user", { user: theo })).status).toBe(200);
  });
});
