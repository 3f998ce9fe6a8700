/**
 * The inbox (issue 39, DESIGN.md turn 4 "Notifications";
 * durable-objects/inbox/): the live socket's checks and counts, exact
 * unread counts under events arriving at once, folding, reading on one
 * socket clearing the badge on another, paging, settings, and the wrong
 * person's side. Producers are covered in notifications-producers.test.ts.
 */
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import type { InboxEvent } from "../../durable-objects/inbox/store.ts";
import type { NotificationSettings } from "../../schema/notifications.ts";
import { inbox, loadActor, targets } from "../lib/notifications/notify.ts";
import { ORIGIN } from "./chat-client.ts";
import { call, json } from "./creator-api.ts";
import { signIn, type TestUser } from "./fixtures.ts";
import { listNotifications, markRead, openNotifications, upgradeNotifications } from "./notifications-client.ts";

async function followerEvent(follower: TestUser): Promise<InboxEvent> {
  const actor = (await loadActor(env.DB, follower.id))!;
  return { kind: "new_follower", actorId: follower.id, actor, target: targets.person(actor), foldKey: "new_follower", scope: null };
}

/** A comment on a character the visibility check leaves alone (no scope, not a comment target): the inbox alone is under test. */
function commentEvent(actor: TestUser, characterId: number, _commentId: number): InboxEvent {
  return {
    kind: "character_comment",
    actorId: actor.id,
    actor: { username: actor.username, name: "Ana", avatarUrl: null },
    target: targets.character(characterId, `Character ${characterId}`),
    // A distinct fold key each: every one stands alone.
    foldKey: `test:${crypto.randomUUID()}`,
    scope: null,
  };
}

describe("the notifications socket", () => {
  it("is refused from another Origin (403), signed out (401) and without an upgrade (426)", async () => {
    const me = await signIn();
    expect((await upgradeNotifications(me, "https://evil.example")).status).toBe(403);
    expect((await upgradeNotifications(me, null)).status).toBe(403);
    expect((await upgradeNotifications(null)).status).toBe(401);
    const plain = await upgradeNotifications(me, ORIGIN, false);
    expect(plain.status).toBe(426);
    expect(await plain.json()).toMatchObject({ code: "validation_failed" });
  });

  it("tells the unread count on open, each notification as it comes, and only to its own person", async () => {
    const me = await signIn();
    const other = await signIn();
    const actor = await signIn({ firstName: "Ana" });
    const mine = await openNotifications(me);
    const theirs = await openNotifications(other);
    expect(mine.frames).toEqual([{ type: "unread", count: 0 }]);

    await inbox(env, me.id).deliver(commentEvent(actor, 1, 1));
    const frame = await mine.until((s) => s.frames.find((f) => f.type === "notification"));
    expect(frame).toMatchObject({ type: "notification", unread: 1, notification: { kind: "character_comment", text: "Ana commented on Character 1", readAt: null } });
    expect(theirs.frames).toEqual([{ type: "unread", count: 0 }]);

    const again = await openNotifications(me);
    expect(again.frames).toEqual([{ type: "unread", count: 1 }]);
    for (const s of [mine, theirs, again]) s.close();
  });
});

describe("closing a person's sockets", () => {
  it("PersonSockets, the one place that ends a person's sockets, closes their notification sockets too (all, or a session's)", async () => {
    const me = await signIn();
    const { createSession } = await import("../lib/sessions.ts");
    const { token, id: sessionId } = await createSession(env.DB, me.id);
    const phone = await openNotifications({ ...me, cookie: `fabled_session=${token}` });
    const laptop = await openNotifications(me);
    const ledger = env.PERSON_SOCKETS.get(env.PERSON_SOCKETS.idFromName(me.id)) as unknown as {
      closeSessions(ids: string[], reason: string): Promise<number>;
      closeAll(reason: string): Promise<number>;
    };
    await ledger.closeSessions([sessionId], "Signed out on this device");
    expect(await phone.until((s) => s.closeEvent)).toEqual({ code: 1008, reason: "Signed out on this device" });
    expect(laptop.closeEvent).toBeNull();
    await ledger.closeAll("Account suspended");
    expect(await laptop.until((s) => s.closeEvent)).toEqual({ code: 1008, reason: "Account suspended" });
    expect(await inbox(env, me.id).socketCount()).toBe(0);
  });
});

describe("unread counts", () => {
  it("are exact when 40 events arrive at once, on the socket and in the list", async () => {
    const me = await signIn();
    const actor = await signIn();
    const socket = await openNotifications(me);
    await Promise.all(Array.from({ length: 40 }, (_, i) => inbox(env, me.id).deliver(commentEvent(actor, 100 + i, 1000 + i))));
    await socket.unreadIs(40);
    const list = await listNotifications(me, "?limit=100");
    expect(list.unread).toBe(40);
    expect(list.notifications).toHaveLength(40);
    expect(new Set(list.notifications.map((n) => n.id)).size).toBe(40);
    socket.close();
  });

  it("fold repeated events into one while unread: 13 followers at once read as one and 12 others, counted once", async () => {
    const me = await signIn();
    const followers = await Promise.all(Array.from({ length: 13 }, (_, i) => signIn({ firstName: `F${i}` })));
    const events = await Promise.all(followers.map(followerEvent));
    await Promise.all(events.map((event) => inbox(env, me.id).deliver(event)));
    let list = await listNotifications(me);
    expect(list.unread).toBe(1);
    expect(list.notifications).toHaveLength(1);
    const [folded] = list.notifications;
    expect(folded).toMatchObject({ kind: "new_follower", count: 13, actorCount: 13 });
    expect(folded!.text).toMatch(/^F\d+ and 12 others followed you$/);

    // Read, the next follower starts a new notification.
    expect((await markRead(me, { all: true })).status).toBe(204);
    await inbox(env, me.id).deliver(await followerEvent(await signIn({ firstName: "Late" })));
    list = await listNotifications(me);
    expect(list.unread).toBe(1);
    expect(list.notifications.map((n) => n.text)).toEqual(["Late followed you", folded!.text]);
    expect(list.notifications[1]!.readAt).not.toBeNull();
  });
});

describe("reading", () => {
  it("on one socket's person clears the badge on every other socket at once; by ids, then all", async () => {
    const me = await signIn();
    const actor = await signIn();
    const phone = await openNotifications(me);
    const laptop = await openNotifications(me);
    for (let i = 0; i < 3; i += 1) await inbox(env, me.id).deliver(commentEvent(actor, 200 + i, 2000 + i));
    await laptop.unreadIs(3);
    const { notifications } = await listNotifications(me);

    expect((await markRead(me, { ids: [notifications[0]!.id] })).status).toBe(204);
    await phone.unreadIs(2);
    await laptop.unreadIs(2);
    expect((await markRead(me, { all: true })).status).toBe(204);
    await phone.unreadIs(0);
    await laptop.unreadIs(0);
    const after = await listNotifications(me);
    expect(after.unread).toBe(0);
    expect(after.notifications.every((n) => n.readAt !== null)).toBe(true);
    phone.close();
    laptop.close();
  });

  it("another person's ids reach nothing of theirs (ignored), and nobody reads another's list", async () => {
    const owner = await signIn();
    const stranger = await signIn();
    const actor = await signIn();
    await inbox(env, owner.id).deliver(commentEvent(actor, 300, 3000));
    const { notifications } = await listNotifications(owner);
    expect((await markRead(stranger, { ids: [notifications[0]!.id] })).status).toBe(204);
    expect((await listNotifications(owner)).unread).toBe(1);
    expect(await listNotifications(stranger)).toEqual({ notifications: [], unread: 0 });
    expect((await call("/api/notifications")).status).toBe(401);
    expect((await markRead(null as unknown as TestUser, { all: true })).status).toBe(401);
  });

  it("refuses bad input with 400 and the JSON error shape", async () => {
    const me = await signIn();
    for (const body of [{}, { ids: [] }, { ids: ["not-an-id"] }, { all: false }, { all: true, ids: [crypto.randomUUID()] }, "nope"]) {
      const res = await markRead(me, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(await res.json()).toMatchObject({ code: "validation_failed" });
    }
    for (const query of ["?limit=0", "?limit=101", "?limit=x", "?before=42"]) {
      const res = await call(`/api/notifications${query}`, { user: me });
      expect(res.status, query).toBe(400);
    }
  });
});

describe("paging", () => {
  it("pages newest first by `before`, never repeating or skipping", async () => {
    const me = await signIn();
    const actor = await signIn();
    for (let i = 0; i < 7; i += 1) await inbox(env, me.id).deliver(commentEvent(actor, 400 + i, 4000 + i));
    const first = await listNotifications(me, "?limit=3");
    const second = await listNotifications(me, `?limit=3&before=${first.notifications[2]!.id}`);
    const third = await listNotifications(me, `?limit=3&before=${second.notifications[2]!.id}`);
    const titles = [...first.notifications, ...second.notifications, ...third.notifications].map((n) => n.target.title);
    expect(titles).toEqual([406, 405, 404, 403, 402, 401, 400].map((id) => `Character ${id}`));
  });
});

describe("settings", () => {
  it("start with every kind on and push off; a kind turned off is not delivered; others keep theirs", async () => {
    const me = await signIn();
    const actor = await signIn();
    const initial = await json<NotificationSettings>(await call("/api/profile/notifications", { user: me }), 200);
    expect(initial.push).toBe(false);
    expect(Object.values(initial.kinds).every(Boolean)).toBe(true);

    const saved = await json<NotificationSettings>(
      await call("/api/profile/notifications", { method: "PUT", user: me, body: { kinds: { character_comment: false } }, headers: { origin: ORIGIN } }),
      200,
    );
    expect(saved.kinds.character_comment).toBe(false);
    expect(saved.kinds.new_follower).toBe(true);
    await inbox(env, me.id).deliver(commentEvent(actor, 500, 5000));
    await inbox(env, me.id).deliver(await followerEvent(actor));
    expect((await listNotifications(me)).notifications.map((n) => n.kind)).toEqual(["new_follower"]);

    const bad = await call("/api/profile/notifications", { method: "PUT", user: me, body: { kinds: { nonsense: true } }, headers: { origin: ORIGIN } });
    expect(bad.status).toBe(400);
    expect((await call("/api/profile/notifications")).status).toBe(401);
  });
});
