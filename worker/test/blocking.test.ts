/**
 * Blocking (issue 35, DESIGN.md turn 4 "Your account, your data" →
 * Blocking; docs/decisions/0030-blocking.md): the blocks API from the
 * blocker's, the blocked person's and a visitor's side; what a block ends
 * (follows both ways, each one's place in the other's rooms, with open
 * sockets); and comments hidden from the blocker only, in the list and the
 * count. worker/test/blocking-routes.test.ts covers every write route that
 * reaches a person.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { BlockedPerson, Character, Comment, CreatorProfile } from "../../schema/api.ts";
import type { Conversation, ConversationInvite } from "../../schema/chat.ts";
import { join } from "./chat-client.ts";
import { call, json } from "./creator-api.ts";
import { insertCharacter, signIn, type TestUser } from "./fixtures.ts";

const block = (user: TestUser | null, username: string, method = "PUT") =>
  call(`/api/users/${encodeURIComponent(username)}/block`, { method, user });
const blocks = async (user: TestUser) => json<BlockedPerson[]>(await call("/api/blocks", { user }), 200);
const profile = async (user: TestUser | null, username: string) =>
  json<CreatorProfile>(await call(`/api/users/${encodeURIComponent(username)}`, { user }), 200);
const follow = (user: TestUser, username: string, method = "PUT") =>
  call(`/api/users/${encodeURIComponent(username)}/follow`, { method, user });

describe("the blocks API", () => {
  it("blocks by any spelling of the name, idempotently; lists the blocker's own blocks newest first; unblocks idempotently", async () => {
    const me = await signIn();
    const pest = await signIn({ firstName: "Pest" });
    const other = await signIn({ firstName: "Other" });

    expect((await block(me, pest.username.toUpperCase())).status).toBe(204);
    expect((await block(me, pest.username.slice(1))).status).toBe(204);
    expect((await block(me, other.username)).status).toBe(204);
    const list = await blocks(me);
    expect(list.map((p) => p.username)).toEqual([other.username, pest.username]);
    expect(list[1]).toEqual({ username: pest.username, name: "Pest", avatarUrl: null, blockedAt: expect.any(String) });
    expect(Date.now() - Date.parse(list[1]!.blockedAt)).toBeLessThan(60_000);
    // Blocking again keeps the first time.
    const first = list[1]!.blockedAt;
    expect((await block(me, pest.username)).status).toBe(204);
    expect((await blocks(me)).find((p) => p.username === pest.username)?.blockedAt).toBe(first);

    // The list is the blocker's own: the blocked person's list does not show who blocked them.
    expect(await blocks(pest)).toEqual([]);

    expect((await block(me, pest.username, "DELETE")).status).toBe(204);
    expect((await block(me, pest.username, "DELETE")).status).toBe(204);
    expect((await blocks(me)).map((p) => p.username)).toEqual([other.username]);
  });

  it("refuses blocking oneself (400), an unknown name (404) and visitors (401), in the error shape", async () => {
    const me = await signIn();
    expect(await json(await block(me, me.username), 400)).toEqual({ error: "You cannot block yourself", code: "validation_failed" });
    expect(await json(await block(me, me.username, "DELETE"), 400)).toMatchObject({ code: "validation_failed" });
    expect(await json(await block(me, "@nobody_here_at_all"), 404)).toEqual({ error: "Person not found", code: "not_found" });
    expect(await json(await block(me, "@nobody_here_at_all", "DELETE"), 404)).toMatchObject({ code: "not_found" });
    expect((await block(null, me.username)).status).toBe(401);
    expect((await call("/api/blocks")).status).toBe(401);
    expect((await call("/api/blocks", { user: me })).headers.get("cache-control")).toContain("no-store");
  });

  it("a profile says isBlocked to the blocker only; the blocked person's view of the blocker says nothing of it", async () => {
    const me = await signIn();
    const pest = await signIn();
    await block(me, pest.username);
    expect((await profile(me, pest.username)).isBlocked).toBe(true);
    expect((await profile(pest, me.username)).isBlocked).toBe(false);
    expect((await profile(null, pest.username)).isBlocked).toBeUndefined();
    expect((await profile(me, me.username)).isBlocked).toBeUndefined();
    await block(me, pest.username, "DELETE");
    expect((await profile(me, pest.username)).isBlocked).toBe(false);
  });

  it("refuses blocks past the most one may have (409), leaving the list as it was", async () => {
    const me = await signIn();
    const { MAX_BLOCKS } = await import("../lib/blocks.ts");
    // Fill the list directly: MAX_BLOCKS accounts made through the API would take minutes.
    const people = await env.DB.prepare("SELECT id FROM users WHERE id != ? LIMIT ?").bind(me.id, MAX_BLOCKS).all<{ id: string }>();
    const missing = MAX_BLOCKS - people.results.length;
    const extra: string[] = [];
    for (let i = 0; i < missing; i += 50) {
      const batch = Array.from({ length: Math.min(50, missing - i) }, () => crypto.randomUUID());
      extra.push(...batch);
      await env.DB.batch(batch.map((id) => env.DB.prepare("INSERT INTO users (id, username) VALUES (?, ?)").bind(id, `@filler_${id.slice(0, 12)}`)));
    }
    const ids = [...people.results.map((p) => p.id), ...extra];
    for (let i = 0; i < ids.length; i += 50) {
      await env.DB.batch(ids.slice(i, i + 50).map((id) => env.DB.prepare("INSERT INTO blocks (blocker_id, blocked_id) VALUES (?, ?)").bind(me.id, id)));
    }
    const one = await signIn();
    expect(await json(await block(me, one.username), 409)).toMatchObject({ code: "conflict" });
    expect((await blocks(me)).length).toBe(MAX_BLOCKS);
    await env.DB.prepare("DELETE FROM blocks WHERE blocker_id = ?").bind(me.id).run();
  }, 60_000);
});

describe("what a block ends", () => {
  it("both follows between the two end; unblocking does not bring them back; follow counts stay exact", async () => {
    const me = await signIn();
    const pest = await signIn();
    expect((await follow(me, pest.username)).status).toBe(200);
    expect((await follow(pest, me.username)).status).toBe(200);
    expect((await profile(null, me.username)).followerCount).toBe(1);

    await block(me, pest.username);
    expect((await profile(null, me.username)).followerCount).toBe(0);
    expect((await profile(null, pest.username)).followerCount).toBe(0);
    expect((await profile(me, pest.username)).isFollowing).toBe(false);

    await block(me, pest.username, "DELETE");
    expect((await profile(pest, me.username)).isFollowing).toBe(false);
    // After unblocking, following works again.
    expect((await follow(pest, me.username)).status).toBe(200);
  });

  it("each leaves the rooms the other owns, open sockets closing; rooms of a third person are untouched", async () => {
    const characterId = await insertCharacter({ name: "Host" });
    const me = await signIn();
    const pest = await signIn();
    const third = await signIn();
    const room = async (owner: TestUser) =>
      json<Conversation>(await call("/api/conversations", { method: "POST", user: owner, body: { characterId } }), 201);
    const enter = async (owner: TestUser, guest: TestUser, conversationId: string) => {
      const link = await json<ConversationInvite>(await call(`/api/conversations/${conversationId}/invites`, { method: "POST", user: owner }), 201);
      expect((await call(`/api/invites/${link.token}`, { method: "POST", user: guest })).status).toBe(200);
    };
    const mine = await room(me);
    const theirs = await room(pest);
    const thirds = await room(third);
    await enter(me, pest, mine.id);
    await enter(pest, me, theirs.id);
    await enter(third, me, thirds.id);
    await enter(third, pest, thirds.id);
    const { socket } = await join(pest, mine.id);

    expect((await block(me, pest.username)).status).toBe(204);
    expect((await socket.closed()).code).toBe(1008);
    expect((await call(`/api/conversations/${mine.id}`, { user: pest })).status).toBe(404);
    expect((await call(`/api/conversations/${theirs.id}`, { user: me })).status).toBe(404);
    // The owners keep their rooms.
    expect((await call(`/api/conversations/${theirs.id}`, { user: pest })).status).toBe(200);
    expect((await call(`/api/conversations/${thirds.id}`, { user: me })).status).toBe(200);
    expect((await call(`/api/conversations/${thirds.id}`, { user: pest })).status).toBe(200);
  });
});

describe("comments of people you blocked", () => {
  it("are hidden from the blocker with the replies beneath them, in the list and the page's count; visitors and others see them all", async () => {
    const creator = await signIn();
    const id = await insertCharacter({ name: "Agora", creatorId: creator.id });
    const me = await signIn();
    const pest = await signIn();
    const bystander = await signIn();
    const post = async (user: TestUser, content: string, parentId?: number) =>
      json<Comment>(await call(`/api/characters/${id}/comments`, { method: "POST", user, body: { content, parentId } }), 201);
    const mine = await post(me, "Mine, on top");
    const theirs = await post(pest, "Theirs, at the root");
    await post(bystander, "A reply to theirs", theirs.id);
    await post(pest, "Theirs, replying to mine", mine.id);
    await post(bystander, "A reply to mine", mine.id);

    const texts = (comments: Comment[]): string[] => comments.flatMap((c) => [c.content, ...texts(c.replies)]);
    const list = async (user: TestUser | null) => json<Comment[]>(await call(`/api/characters/${id}/comments`, { user }), 200);
    const count = async (user: TestUser | null) => (await json<Character>(await call(`/api/characters/${id}`, { user }), 200)).commentCount;

    expect(await count(me)).toBe(5);
    await block(me, pest.username);
    const res = await call(`/api/characters/${id}/comments`, { user: me });
    expect(res.headers.get("cache-control")).toContain("no-store");
    expect(texts(await res.json())).toEqual(["Mine, on top", "A reply to mine"]);
    expect(await count(me)).toBe(2);

    for (const viewer of [null, bystander, pest]) {
      expect((await list(viewer)).length).toBe(2);
      expect(texts(await list(viewer))).toHaveLength(5);
      expect(await count(viewer)).toBe(5);
    }

    await block(me, pest.username, "DELETE");
    expect(texts(await list(me))).toHaveLength(5);
    expect(await count(me)).toBe(5);
  });
});

describe("catalog cards of a blocker", () => {
  it("count the comments the blocker sees, in every list shape (Home, search, a creator's page, For You)", async () => {
    const creator = await signIn();
    const name = `Cardcount${crypto.randomUUID().slice(0, 6)}`;
    const id = await insertCharacter({ name, creatorId: creator.id, tags: ["fantasy"] });
    const me = await signIn();
    const pest = await signIn();
    const post = async (user: TestUser, content: string, parentId?: number) =>
      json<Comment>(await call(`/api/characters/${id}/comments`, { method: "POST", user, body: { content, parentId } }), 201);
    const theirs = await post(pest, "Theirs");
    await post(me, "A reply to theirs", theirs.id);
    await post(me, "Mine");
    await block(me, pest.username);

    const cardCount = async (user: TestUser | null, query: string) => {
      const list = await json<{ characters: { id: number; commentCount: number }[] }>(await call(`/api/characters?${query}`, { user }), 200);
      return list.characters.find((c) => c.id === id)?.commentCount;
    };
    for (const query of [`search=${name}`, `creator=${encodeURIComponent(creator.username)}`, "sort=new&limit=50", "sort=for-you&limit=50"]) {
      expect(await cardCount(me, query), query).toBe(1);
      expect(await cardCount(null, query), query).toBe(3);
      expect(await cardCount(pest, query), query).toBe(3);
    }
  });
});
