/**
 * Who is notified of what (issue 39, DESIGN.md turn 4 "Notifications";
 * worker/lib/notifications/): each kind from the act that causes it, as
 * the person sees it in their list; never their own acts, never across a
 * block, never about what they can no longer see; the fan-out of a new
 * character to followers through the queue.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Character, Comment } from "../../schema/api.ts";
import type { NotificationList } from "../../schema/notifications.ts";
import { inbox, notify, targets } from "../lib/notifications/notify.ts";
import { eventually, join, ORIGIN } from "./chat-client.ts";
import { call, json } from "./creator-api.ts";
import { insertCharacter, signIn, type TestUser } from "./fixtures.ts";
import { listNotifications, openNotifications } from "./notifications-client.ts";
import { startChat } from "./room-chat.ts";

async function post<T = unknown>(user: TestUser, path: string, body?: unknown, status = 201): Promise<T> {
  return json<T>(await call(path, { method: "POST", user, body, headers: { origin: ORIGIN } }), status);
}

/** The person's list once `probe` holds over it (producers run after their act's answer). */
async function listOnce(user: TestUser, probe: (list: NotificationList) => boolean): Promise<NotificationList> {
  return eventually(async () => {
    const list = await listNotifications(user);
    return probe(list) ? list : null;
  }, 5_000);
}

const texts = (list: NotificationList) => list.notifications.map((n) => n.text);

describe("comments", () => {
  it("a reply tells the comment's author, a comment tells the creator (folded per character); nobody hears of their own", async () => {
    const creator = await signIn({ firstName: "Cleo" });
    const ana = await signIn({ firstName: "Ana" });
    const bo = await signIn({ firstName: "Bo" });
    const characterId = await insertCharacter({ name: "Wren", creatorId: creator.id });

    const top = await post<Comment>(ana, `/api/characters/${characterId}/comments`, { content: "Lovely." });
    await post<Comment>(ana, `/api/characters/${characterId}/comments`, { content: "Me again.", parentId: top.id });
    const reply = await post<Comment>(bo, `/api/characters/${characterId}/comments`, { content: "Agreed!", parentId: top.id });
    await post<Comment>(creator, `/api/characters/${characterId}/comments`, { content: "Thanks all.", parentId: top.id });

    const forAna = await listOnce(ana, (l) => l.unread === 1 && l.notifications[0]!.actorCount === 2);
    expect(texts(forAna)).toEqual([expect.stringMatching(/^(Bo|Cleo) and 1 other replied to your comment on Wren$/)]);
    const forCleo = await listOnce(creator, (l) => l.notifications[0]?.actorCount === 2);
    expect(forCleo.unread).toBe(1);
    expect(forCleo.notifications[0]).toMatchObject({ kind: "character_comment", count: 3, actorCount: 2 });
    expect(forCleo.notifications[0]!.text).toMatch(/^(Ana|Bo) and 1 other commented on Wren$/);
    expect(forAna.notifications[0]!.target).toEqual({ type: "comment", id: expect.any(String), title: "Wren", url: expect.stringMatching(`^/character/${characterId}#comment-`) });
    expect((await listNotifications(bo)).notifications).toEqual([]);
    expect(reply.id).toBeGreaterThan(top.id);
  });

  it("drops what the person can no longer see: a character deactivated takes its notifications and their badge away", async () => {
    const creator = await signIn();
    const fan = await signIn();
    const other = await signIn();
    const characterId = await insertCharacter({ name: "Fleeting", creatorId: creator.id });
    const top = await post<Comment>(fan, `/api/characters/${characterId}/comments`, { content: "Hello." });
    await post<Comment>(other, `/api/characters/${characterId}/comments`, { content: "Hi fan.", parentId: top.id });
    await listOnce(fan, (l) => l.unread === 1);
    await env.DB.prepare("UPDATE characters SET is_active = 0 WHERE id = ?").bind(characterId).run();
    expect(await listNotifications(fan)).toEqual({ notifications: [], unread: 0 });
    // Its creator still sees their own character.
    expect((await listNotifications(creator)).unread).toBe(1);
  });
});

describe("a deleted account", () => {
  it("leaves the lists of the people it notified", async () => {
    const me = await signIn();
    const leaver = await signIn({ firstName: "Leaver" });
    const stayer = await signIn({ firstName: "Stayer" });
    await notify(env, me.id, leaver.id, { kind: "room_joined", target: targets.conversation(crypto.randomUUID(), "Gone"), foldKey: "a", scope: null });
    await notify(env, me.id, stayer.id, { kind: "room_joined", target: targets.conversation(crypto.randomUUID(), "Kept"), foldKey: "b", scope: null });
    expect((await listNotifications(me)).unread).toBe(2);
    const res = await call("/api/profile", { method: "DELETE", user: leaver, body: { confirm: leaver.username }, headers: { origin: ORIGIN } });
    expect(res.status).toBe(204);
    const list = await listNotifications(me);
    expect(texts(list)).toEqual(["Stayer joined Kept"]);
    expect(list.unread).toBe(1);
  });
});

describe("blocks", () => {
  it("nothing is delivered across a block either way, and blocking takes the other's part out of one's notifications", async () => {
    const me = await signIn();
    const pest = await signIn({ firstName: "Pest" });
    const friend = await signIn({ firstName: "Friend" });
    const socket = await openNotifications(me);
    for (const who of [pest, friend]) expect((await call(`/api/users/${encodeURIComponent(me.username)}/follow`, { method: "PUT", user: who })).status).toBe(200);
    await socket.until((s) => s.frames.some((f) => f.type === "notification" && f.notification.actorCount === 2));
    expect((await call(`/api/users/${encodeURIComponent(pest.username)}/block`, { method: "PUT", user: me })).status).toBe(204);
    const after = await listOnce(me, (l) => l.notifications[0]?.actorCount === 1);
    expect(texts(after)).toEqual(["Friend followed you"]);

    const notice = { kind: "character_comment" as const, target: targets.character(1, "X"), foldKey: `t:${crypto.randomUUID()}`, scope: null };
    expect(await notify(env, me.id, pest.id, notice)).toBe(false);
    expect(await notify(env, pest.id, me.id, notice)).toBe(false);
    expect(await notify(env, me.id, me.id, notice)).toBe(false);
    expect(await notify(env, me.id, friend.id, notice)).toBe(true);
    expect((await listNotifications(me)).unread).toBe(2);
    expect((await listNotifications(pest)).unread).toBe(0);
    socket.close();
  });
});

describe("following", () => {
  it("a new follower tells once; following again while already following tells nothing", async () => {
    const creator = await signIn();
    const fan = await signIn({ firstName: "Fan" });
    const path = `/api/users/${encodeURIComponent(creator.username)}/follow`;
    expect((await call(path, { method: "PUT", user: fan })).status).toBe(200);
    const first = await listOnce(creator, (l) => l.unread === 1);
    expect((await call("/api/notifications/read", { method: "POST", user: creator, body: { all: true } })).status).toBe(204);
    expect((await call(path, { method: "PUT", user: fan })).status).toBe(200);
    // A later event proves the repeat was processed and told nothing.
    await notify(env, creator.id, fan.id, { kind: "room_joined", target: targets.conversation(crypto.randomUUID(), "Later"), foldKey: "later", scope: null });
    const after = await listNotifications(creator);
    expect(texts(after)).toEqual(["Fan joined Later", "Fan followed you"]);
    expect(first.notifications[0]!.target.url).toBe(`/u/${fan.username.slice(1)}`);
  });

  it("a new character reaches every follower through the queue (not a blocked one, not its creator), once", async () => {
    const creator = await signIn({ firstName: "Maker" });
    const followers = await Promise.all(Array.from({ length: 25 }, () => signIn()));
    const estranged = await signIn();
    const rows = [...followers, estranged].map((f) => env.DB.prepare("INSERT INTO follows (follower_id, followee_id) VALUES (?, ?)").bind(f.id, creator.id));
    // A block that raced the follow (blocking ends follows): the fan-out still leaves them out.
    rows.push(env.DB.prepare("INSERT INTO blocks (blocker_id, blocked_id) VALUES (?, ?)").bind(estranged.id, creator.id));
    await env.DB.batch(rows);
    const bell = await openNotifications(followers[0]!);

    const character = await json<Character>(
      await call("/api/characters", {
        method: "POST",
        user: creator,
        body: { name: "Harbor Witch", description: "Keeps the lighthouse.", personality: "Wry, watchful and kind." },
        headers: { origin: ORIGIN },
      }),
      201,
    );
    const frame = await bell.until((s) => s.frames.find((f) => f.type === "notification"), 8_000);
    expect(frame).toMatchObject({ notification: { kind: "followed_character", text: "Maker published Harbor Witch", target: { url: `/character/${character.id}` } } });
    for (const follower of followers) await listOnce(follower, (l) => l.unread === 1 && l.notifications[0]!.kind === "followed_character");
    expect((await listNotifications(estranged)).unread).toBe(0);
    expect((await listNotifications(creator)).unread).toBe(0);
    bell.close();
  });
});

describe("shared rooms", () => {
  it("joining tells the owner; a message tells each person away from the room once per room until read, not those in it", async () => {
    const owner = await signIn({ firstName: "Olive" });
    const away = await signIn({ firstName: "Away" });
    const present = await signIn({ firstName: "Here" });
    const characterId = await insertCharacter({ name: "Cove" });
    const room = await startChat(owner, characterId);
    const { token } = await post<{ token: string }>(owner, `/api/conversations/${room.id}/invites`);
    for (const member of [away, present]) expect((await call(`/api/invites/${token}`, { method: "POST", user: member, body: {} })).status).toBe(200);
    const joined = await listOnce(owner, (l) => l.notifications[0]?.actorCount === 2);
    expect(joined.notifications[0]).toMatchObject({ kind: "room_joined", target: { type: "conversation", id: room.id, url: `/chat/${room.id}` } });
    expect(joined.unread).toBe(1);

    // Away connected once (so the room knows them), then left the page.
    const { socket: visit } = await join(away, room.id);
    visit.close();
    const { socket: ownerSocket } = await join(owner, room.id);
    const { socket: hereSocket } = await join(present, room.id);
    await ownerSocket.chat(room.id, "Anyone around?");
    await ownerSocket.chat(room.id, "Hello?");
    const told = await listOnce(away, (l) => l.notifications[0]?.count === 2);
    // Away also heard of Here joining after them; the messages are one notification.
    expect(texts(told)).toEqual([`Olive wrote 2 messages in ${room.title}`, `Here joined ${room.title}`]);
    expect(told.unread).toBe(2);
    expect(told.notifications[0]).toMatchObject({ kind: "room_message", text: `Olive wrote 2 messages in ${room.title}` });
    expect((await listNotifications(present)).notifications.filter((n) => n.kind === "room_message")).toEqual([]);
    ownerSocket.close();
    hereSocket.close();

    // Opening the room reads its messages' notification (the bell follows).
    const bell = await openNotifications(away);
    await bell.unreadIs(2);
    const { socket: back } = await join(away, room.id);
    await bell.unreadIs(1);
    expect((await listNotifications(away)).notifications.find((n) => n.kind === "room_message")!.readAt).not.toBeNull();
    back.close();
    bell.close();

    // Leaving the room takes its notifications away.
    expect((await call(`/api/conversations/${room.id}/members/${away.id}`, { method: "DELETE", user: away, headers: { origin: ORIGIN } })).status).toBe(204);
    await listOnce(away, (l) => l.unread === 0 && l.notifications.length === 0);
  });
});

describe("favorites", () => {
  it("the 10th favorite tells the creator once, even when it is taken back and given again", async () => {
    const creator = await signIn();
    const characterId = await insertCharacter({ name: "Beloved", creatorId: creator.id, favoriteCount: 9 });
    const fan = await signIn();
    const favorite = () => post(fan, `/api/characters/${characterId}/favorite`, undefined, 200);
    await favorite();
    const list = await listOnce(creator, (l) => l.unread === 1);
    expect(list.notifications[0]).toMatchObject({ kind: "favorite_milestone", milestone: 10, actor: null, text: "Beloved reached 10 favorites" });
    await favorite();
    await favorite();
    await notify(env, creator.id, fan.id, { kind: "new_follower", target: targets.person, foldKey: "later", scope: null });
    expect((await listNotifications(creator)).notifications.map((n) => n.kind)).toEqual(["new_follower", "favorite_milestone"]);
  });
});

describe("the inbox is one's own", () => {
  it("the Inbox of a person answers only through their session", async () => {
    const me = await signIn();
    const stranger = await signIn();
    await notify(env, me.id, stranger.id, { kind: "new_follower", target: targets.person, foldKey: "new_follower", scope: null });
    expect((await listNotifications(me)).unread).toBe(1);
    expect((await listNotifications(stranger)).unread).toBe(0);
    expect(await inbox(env, me.id).unread()).toBe(1);
  });
});
