/**
 * Favorites, threaded comments and comment votes as callers see them,
 * including the permission matrix (visitor, another user, the author) and
 * counters under concurrent requests.
 */
import { env, exports } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import type { CharacterListResponse, Comment } from "../../schema/api.ts";
import { catalogQuerySchema } from "../../schema/inputs.ts";
import { listCharacters } from "../lib/catalog.ts";
import { clearCatalog, insertCharacter, signIn, type TestUser } from "./fixtures.ts";

interface Call {
  method?: string;
  user?: TestUser | null;
  body?: unknown;
}

async function call(path: string, { method = "GET", user = null, body }: Call = {}): Promise<Response> {
  const headers: Record<string, string> = {};
  if (user) headers.cookie = user.cookie;
  if (body !== undefined) headers["content-type"] = "application/json";
  return exports.default.fetch(`http://localhost${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function json<T>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return res.json() as Promise<T>;
}

const character = async (id: number) =>
  json<{ favoriteCount: number; commentCount: number }>(await call(`/api/characters/${id}`), 200);

const UNAUTHORIZED = { error: "Unauthorized", code: "unauthorized" };

beforeEach(async () => {
  await clearCatalog();
  await env.DB.prepare("DELETE FROM users").run();
});

describe("favorites", () => {
  it("toggles on and off with an exact count, and reports the state", async () => {
    const id = await insertCharacter();
    const mira = await signIn();
    expect(await json(await call(`/api/characters/${id}/favorite`, { user: mira }), 200)).toEqual({ isFavorited: false });

    expect(await json(await call(`/api/characters/${id}/favorite`, { method: "POST", user: mira }), 200)).toMatchObject({
      isFavorited: true,
      favoriteCount: 1,
    });
    expect(await json(await call(`/api/characters/${id}/favorite`, { user: mira }), 200)).toEqual({ isFavorited: true });
    expect((await character(id)).favoriteCount).toBe(1);

    await call(`/api/characters/${id}/favorite`, { method: "POST", user: mira });
    expect(await json(await call(`/api/characters/${id}/favorite`, { user: mira }), 200)).toEqual({ isFavorited: false });
    expect((await character(id)).favoriteCount).toBe(0);
  });

  it("keeps favoriteCount exact when 50 people favorite at once", async () => {
    const id = await insertCharacter();
    const people = await Promise.all(Array.from({ length: 50 }, () => signIn()));
    const results = await Promise.all(people.map((user) => call(`/api/characters/${id}/favorite`, { method: "POST", user })));
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
    expect((await character(id)).favoriteCount).toBe(50);

    await Promise.all(people.slice(0, 20).map((user) => call(`/api/characters/${id}/favorite`, { method: "POST", user })));
    expect((await character(id)).favoriteCount).toBe(30);
  });

  it("a double click (two toggles at once) never miscounts", async () => {
    const id = await insertCharacter();
    const mira = await signIn();
    await Promise.all([
      call(`/api/characters/${id}/favorite`, { method: "POST", user: mira }),
      call(`/api/characters/${id}/favorite`, { method: "POST", user: mira }),
    ]);
    const { isFavorited } = await json<{ isFavorited: boolean }>(await call(`/api/characters/${id}/favorite`, { user: mira }), 200);
    expect((await character(id)).favoriteCount).toBe(isFavorited ? 1 : 0);
  });

  it("visitors get 401; unknown, malformed and inactive characters 404", async () => {
    const id = await insertCharacter();
    expect(await json(await call(`/api/characters/${id}/favorite`), 401)).toEqual(UNAUTHORIZED);
    expect(await json(await call(`/api/characters/${id}/favorite`, { method: "POST" }), 401)).toEqual(UNAUTHORIZED);

    const mira = await signIn();
    const inactive = await insertCharacter({ isActive: false });
    for (const bad of ["999999", "abc", String(inactive)]) {
      expect((await call(`/api/characters/${bad}/favorite`, { method: "POST", user: mira })).status).toBe(404);
      expect((await call(`/api/characters/${bad}/favorite`, { user: mira })).status).toBe(404);
    }
  });

  it("disappear with their character or user", async () => {
    const id = await insertCharacter();
    const other = await insertCharacter();
    const mira = await signIn();
    const tom = await signIn();
    await call(`/api/characters/${id}/favorite`, { method: "POST", user: mira });
    await call(`/api/characters/${other}/favorite`, { method: "POST", user: mira });
    await call(`/api/characters/${other}/favorite`, { method: "POST", user: tom });

    await env.DB.prepare("DELETE FROM characters WHERE id = ?").bind(id).run();
    await env.DB.prepare("DELETE FROM users WHERE id = ?").bind(tom.id).run();
    const rows = await env.DB.prepare("SELECT character_id, user_id FROM favorites").all();
    expect(rows.results).toEqual([{ character_id: other, user_id: mira.id }]);
    expect((await character(other)).favoriteCount).toBe(1);
  });

  it("a favorite lifts the character in Trending", async () => {
    const a = await insertCharacter({ name: "A", trendingScore: Date.now() / 259200000 });
    const b = await insertCharacter({ name: "B", trendingScore: Date.now() / 259200000 - 0.5 });
    const order = async () =>
      ((await json<{ characters: { id: number }[] }>(await call("/api/characters?sort=trending"), 200)).characters).map((c) => c.id);
    expect(await order()).toEqual([a, b]);
    const fans = await Promise.all([signIn(), signIn()]);
    for (const user of fans) await call(`/api/characters/${b}/favorite`, { method: "POST", user });
    expect(await order()).toEqual([b, a]);
  });
});

describe("comments", () => {
  it("posts comments and replies at any depth, listed as threads", async () => {
    const id = await insertCharacter();
    const mira = await signIn({ username: "@mira" });
    const tom = await signIn({ username: "@tom" });
    const post = async (user: TestUser, content: string, parentId?: number) =>
      json<Comment>(await call(`/api/characters/${id}/comments`, { method: "POST", user, body: { content, parentId } }), 201);

    const first = await post(mira, "  First!\nWhat a character.  ");
    expect(first).toMatchObject({ content: "First!\nWhat a character.", username: "@mira", votes: 0, parentId: null, characterId: id });
    const second = await post(tom, "Second top-level");
    const reply = await post(tom, "A reply", first.id);
    const deeper = await post(mira, "A reply to the reply", reply.id);
    const laterReply = await post(mira, "Another reply", first.id);

    const thread = await json<Comment[]>(await call(`/api/characters/${id}/comments`), 200);
    // Top level newest first; replies oldest first; any depth.
    expect(thread.map((c) => c.id)).toEqual([second.id, first.id]);
    expect(thread[1]!.replies.map((c) => c.id)).toEqual([reply.id, laterReply.id]);
    expect(thread[1]!.replies[0]!.replies.map((c) => c.id)).toEqual([deeper.id]);
    expect(thread[1]!.replies[0]!.replies[0]).toMatchObject({ username: "@mira", content: "A reply to the reply" });
    expect((await character(id)).commentCount).toBe(5);
  });

  it("visitors may read; writing needs a user", async () => {
    const id = await insertCharacter();
    expect(await json(await call(`/api/characters/${id}/comments`), 200)).toEqual([]);
    expect(await json(await call(`/api/characters/${id}/comments`, { method: "POST", body: { content: "hi" } }), 401)).toEqual(UNAUTHORIZED);
  });

  it("rejects empty, too long, malformed and cross-character replies with 400, creating nothing", async () => {
    const id = await insertCharacter();
    const elsewhere = await insertCharacter();
    const mira = await signIn();
    const foreign = await json<Comment>(
      await call(`/api/characters/${elsewhere}/comments`, { method: "POST", user: mira, body: { content: "elsewhere" } }),
      201,
    );
    const cases: [unknown, string][] = [
      [{ content: "   " }, "Comment cannot be empty"],
      [{ content: "x".repeat(5001) }, "Comments can be at most 5,000 characters"],
      [{}, "Comment text is required"],
      [{ content: 42 }, "Comment text is required"],
      [{ content: "ok", parentId: "7" }, "parentId must be a comment id"],
      [{ content: "ok", parentId: foreign.id }, "You can only reply to a comment on this character"],
      [{ content: "ok", parentId: 999999 }, "You can only reply to a comment on this character"],
      ["{not json", "Malformed request body"],
    ];
    for (const [body, message] of cases) {
      const res = await call(`/api/characters/${id}/comments`, { method: "POST", user: mira, body });
      expect(await json(res, 400), JSON.stringify(body)).toMatchObject({ code: "validation_failed", error: message });
    }
    expect(await json(await call(`/api/characters/${id}/comments`, { method: "POST", user: mira, body: { content: "x".repeat(5000) } }), 201)).toBeTruthy();
    expect((await character(id)).commentCount).toBe(1);
  });

  it("only the author deletes; the whole thread and its votes go, and the count drops by all", async () => {
    const id = await insertCharacter();
    const author = await signIn();
    const other = await signIn();
    const post = async (user: TestUser, content: string, parentId?: number) =>
      json<Comment>(await call(`/api/characters/${id}/comments`, { method: "POST", user, body: { content, parentId } }), 201);
    const root = await post(author, "root");
    const r1 = await post(other, "r1", root.id);
    await post(author, "r1a", r1.id);
    await post(other, "r2", root.id);
    const keep = await post(other, "keep");
    await call(`/api/comments/${r1.id}/vote`, { method: "POST", user: author, body: { value: 1 } });
    expect((await character(id)).commentCount).toBe(5);

    expect(await json(await call(`/api/comments/${root.id}`, { method: "DELETE" }), 401)).toEqual(UNAUTHORIZED);
    expect(await json(await call(`/api/comments/${root.id}`, { method: "DELETE", user: other }), 403)).toMatchObject({ code: "forbidden" });
    expect(await json(await call(`/api/comments/${root.id}`, { method: "DELETE", user: author }), 200)).toEqual({ deleted: 4 });

    const thread = await json<Comment[]>(await call(`/api/characters/${id}/comments`), 200);
    expect(thread.map((c) => c.id)).toEqual([keep.id]);
    expect((await character(id)).commentCount).toBe(1);
    expect((await env.DB.prepare("SELECT count(*) AS n FROM comment_votes").first())!.n).toBe(0);
    expect((await call(`/api/comments/${root.id}`, { method: "DELETE", user: author })).status).toBe(404);
    expect((await call(`/api/comments/abc`, { method: "DELETE", user: author })).status).toBe(404);
  });

  it("comments of unknown or inactive characters are 404", async () => {
    const inactive = await insertCharacter({ isActive: false });
    const mira = await signIn();
    expect((await call(`/api/characters/${inactive}/comments`)).status).toBe(404);
    expect((await call(`/api/characters/424242/comments`, { method: "POST", user: mira, body: { content: "hi" } })).status).toBe(404);
  });
});

describe("comment votes", () => {
  let commentId: number;
  beforeEach(async () => {
    const id = await insertCharacter();
    const author = await signIn();
    commentId = (await json<Comment>(await call(`/api/characters/${id}/comments`, { method: "POST", user: author, body: { content: "vote me" } }), 201)).id;
  });

  const votes = async () => (await env.DB.prepare("SELECT votes FROM comments WHERE id = ?").bind(commentId).first<{ votes: number }>())!.votes;
  const vote = (user: TestUser, value: unknown) => call(`/api/comments/${commentId}/vote`, { method: "POST", user, body: { value } });

  it("up, up again removes; down switches; status follows", async () => {
    const voter = await signIn();
    const status = async () => json(await call(`/api/comments/${commentId}/vote`, { user: voter }), 200);
    expect(await status()).toEqual({ vote: null });
    expect(await json(await vote(voter, 1), 200)).toEqual({ vote: 1, votes: 1 });
    expect(await status()).toEqual({ vote: 1 });
    expect(await json(await vote(voter, -1), 200)).toEqual({ vote: -1, votes: -1 });
    expect(await json(await vote(voter, -1), 200)).toEqual({ vote: null, votes: 0 });
    expect(await status()).toEqual({ vote: null });
  });

  it("stays an exact net sum when 50 people vote at once", async () => {
    const people = await Promise.all(Array.from({ length: 50 }, () => signIn()));
    const results = await Promise.all(people.map((user, i) => vote(user, i < 35 ? 1 : -1)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(await votes()).toBe(35 - 15);
    // Ten up-voters switch down, five down-voters withdraw, all at once.
    await Promise.all([...people.slice(0, 10).map((u) => vote(u, -1)), ...people.slice(35, 40).map((u) => vote(u, -1))]);
    expect(await votes()).toBe(25 - 20);
    const rows = await env.DB.prepare("SELECT sum(value) AS s, count(*) AS n FROM comment_votes WHERE comment_id = ?").bind(commentId).first();
    expect(rows).toEqual({ s: 5, n: 45 });
  });

  it("one vote per person even when the same vote races itself", async () => {
    const voter = await signIn();
    await Promise.all([vote(voter, 1), vote(voter, 1), vote(voter, 1)]);
    const n = (await env.DB.prepare("SELECT count(*) AS n FROM comment_votes").first<{ n: number }>())!.n;
    expect(n).toBeLessThanOrEqual(1);
    expect(await votes()).toBe(n);
  });

  it("needs a user, a real comment and a value of 1 or -1", async () => {
    const voter = await signIn();
    expect(await json(await call(`/api/comments/${commentId}/vote`), 401)).toEqual(UNAUTHORIZED);
    expect(await json(await call(`/api/comments/${commentId}/vote`, { method: "POST", body: { value: 1 } }), 401)).toEqual(UNAUTHORIZED);
    for (const value of [0, 2, "1", null, undefined]) {
      expect(await json(await vote(voter, value), 400)).toMatchObject({ code: "validation_failed", error: "value must be 1 or -1" });
    }
    expect((await call(`/api/comments/999999/vote`, { method: "POST", user: voter, body: { value: 1 } })).status).toBe(404);
    expect((await call(`/api/comments/999999/vote`, { user: voter })).status).toBe(404);
    expect(await votes()).toBe(0);
  });
});

describe("For You", () => {
  it("puts characters sharing tags with the person's favorites first, then the rest by trending", async () => {
    const base = Date.now() / 259200000;
    const hot = await insertCharacter({ name: "Hot Western", tags: ["western"], trendingScore: base + 5 });
    const liked = await insertCharacter({ name: "Liked Space", tags: ["space", "robot"], trendingScore: base });
    const spaceA = await insertCharacter({ name: "Space A", tags: ["space"], trendingScore: base + 2 });
    const robotB = await insertCharacter({ name: "Robot B", tags: ["robot", "comedy"], trendingScore: base + 1 });
    const other = await insertCharacter({ name: "Other", tags: ["comedy"], trendingScore: base + 3 });
    const ids = async (user: TestUser | null, query = "sort=for-you") =>
      (await json<{ characters: { id: number }[]; total: number }>(await call(`/api/characters?${query}`, { user }), 200)).characters.map((c) => c.id);

    const visitorOrder = await ids(null);
    expect(visitorOrder).toEqual(await ids(null, "sort=trending"));

    const fresh = await signIn();
    expect(await ids(fresh)).toEqual(visitorOrder);

    const fan = await signIn();
    await call(`/api/characters/${liked}/favorite`, { method: "POST", user: fan });
    // The favorite itself bumped "Liked Space" in trending; shared-tag characters lead, by trending.
    const personal = await ids(fan);
    expect(personal.slice(0, 3).sort()).toEqual([liked, spaceA, robotB].sort());
    expect(personal.slice(3)).toEqual([hot, other]);
    const pickScores = await env.DB.prepare(
      `SELECT id FROM characters WHERE id IN (${[liked, spaceA, robotB].join(",")}) ORDER BY trending_score DESC, id DESC`,
    ).all<{ id: number }>();
    expect(personal.slice(0, 3)).toEqual(pickScores.results.map((r) => r.id));

    // Pages never repeat or skip, across the picks/rest boundary too.
    const paged: number[] = [];
    for (let offset = 0; offset < 6; offset += 2) paged.push(...(await ids(fan, `sort=for-you&limit=2&offset=${offset}`)));
    expect(paged).toEqual(personal);
    // Filters still apply.
    expect(await ids(fan, "sort=for-you&tags=comedy")).toEqual([robotB, other]);
    // Both ways of finding the picks agree; without history both are trending.
    for (const tags of ["", "comedy"]) {
      const query = catalogQuerySchema.parse({ sort: "for-you", tags });
      const walk = await listCharacters(env.DB, query, { userId: fan.id, rareTagThreshold: -1 });
      const rare = await listCharacters(env.DB, query, { userId: fan.id, rareTagThreshold: Number.MAX_SAFE_INTEGER });
      expect(walk).toEqual(rare);
      const trending = (await listCharacters(env.DB, { ...query, sort: "trending" })).characters.map((c) => c.id);
      for (const rareTagThreshold of [-1, Number.MAX_SAFE_INTEGER]) {
        const plain = await listCharacters(env.DB, query, { userId: fresh.id, rareTagThreshold });
        expect(plain.characters.map((c) => c.id)).toEqual(trending);
      }
    }
  });
});

describe("GET /api/characters — isFavorited", () => {
  // Every plan a list can take: tab walks, the speculative and the rare-tag
  // plan of tag filters, personal For You (picks, then the rest), search
  // (ranked and broad), NSFW on, deeper offsets.
  const QUERIES = [
    "sort=trending",
    "sort=new",
    "sort=popular",
    "sort=for-you",
    "sort=for-you&tags=sea",
    "sort=trending&tags=sea",
    "sort=new&tags=sea,storm",
    "search=sailor",
    "search=sailor&tags=sea",
    "sort=trending&showNsfw=true",
    "sort=new&limit=2&offset=2",
  ];
  let ids: Record<string, number>;
  let mira: TestUser;
  let tom: TestUser;

  beforeEach(async () => {
    const base = Date.now() / 259200000;
    ids = {
      anchor: await insertCharacter({ name: "Anchor Sailor", tags: ["sea", "storm"], trendingScore: base + 4 }),
      bosun: await insertCharacter({ name: "Bosun Sailor", tags: ["sea"], trendingScore: base + 3 }),
      cook: await insertCharacter({ name: "Cook Sailor", tags: ["sea", "storm"], trendingScore: base + 2 }),
      dune: await insertCharacter({ name: "Dune Walker", tags: ["desert"], trendingScore: base + 1 }),
      siren: await insertCharacter({ name: "Siren Sailor", tags: ["sea"], isNsfw: true, trendingScore: base }),
    };
    mira = await signIn();
    tom = await signIn();
    for (const id of [ids.anchor!, ids.cook!, ids.siren!]) {
      await json(await call(`/api/characters/${id}/favorite`, { method: "POST", user: mira }), 200);
    }
    await json(await call(`/api/characters/${ids.bosun}/favorite`, { method: "POST", user: tom }), 200);
  });

  const page = async (query: string, user: TestUser | null) =>
    json<CharacterListResponse>(await call(`/api/characters?${query}`, { user }), 200);
  /** The ids the page marks as favorited, in page order. */
  const favorited = (body: CharacterListResponse) => body.characters.filter((c) => c.isFavorited === true).map((c) => c.id);

  it("is true exactly for the caller's own favorites, on every kind of list", async () => {
    const mine = new Set([ids.anchor, ids.cook, ids.siren]);
    for (const query of QUERIES) {
      const body = await page(query, mira);
      expect(body.characters.length, query).toBeGreaterThan(0);
      for (const c of body.characters) expect(c.isFavorited, `${query}: ${c.name}`).toBe(mine.has(c.id));
    }
  });

  it("never shows another person's favorites", async () => {
    for (const query of QUERIES) {
      const body = await page(query, tom);
      expect(favorited(body), query).toEqual(body.characters.some((c) => c.id === ids.bosun) ? [ids.bosun] : []);
      expect(body.characters.every((c) => typeof c.isFavorited === "boolean"), query).toBe(true);
    }
    const fresh = await signIn();
    for (const query of QUERIES) expect(favorited(await page(query, fresh)), query).toEqual([]);
  });

  it("is absent for visitors", async () => {
    for (const query of QUERIES) {
      const body = await page(query, null);
      expect(body.characters.length, query).toBeGreaterThan(0);
      expect(body.characters.filter((c) => "isFavorited" in c), query).toEqual([]);
    }
  });

  it("leaves the page itself as it is: same characters, order and total as a visitor sees", async () => {
    // (For You is personal, so it is left out; a person with no history sees trending.)
    const fresh = await signIn();
    for (const query of QUERIES.filter((q) => !q.includes("for-you"))) {
      const visitor = await page(query, null);
      const signedIn = await page(query, mira);
      expect(signedIn.characters.map(({ isFavorited: _, ...c }) => c), query).toEqual(visitor.characters);
      expect(signedIn.total, query).toBe(visitor.total);
    }
    expect((await page("sort=for-you", fresh)).characters.map((c) => c.id)).toEqual(
      (await page("sort=trending", null)).characters.map((c) => c.id),
    );
  });

  it("follows a toggle", async () => {
    await call(`/api/characters/${ids.anchor}/favorite`, { method: "POST", user: mira });
    await call(`/api/characters/${ids.dune}/favorite`, { method: "POST", user: mira });
    expect(favorited(await page("sort=new", mira)).sort()).toEqual([ids.cook, ids.dune].sort());
  });

  it("is the same whichever plan picks the page", async () => {
    const broad = catalogQuerySchema.parse({ search: "sailor", showNsfw: "true" });
    const ranked = await listCharacters(env.DB, broad, { userId: mira.id });
    const unranked = await listCharacters(env.DB, broad, { userId: mira.id, searchRankLimit: 1 });
    for (const result of [ranked, unranked]) {
      expect(result.characters.filter((c) => c.isFavorited).map((c) => c.id).sort()).toEqual([ids.anchor, ids.cook, ids.siren].sort());
    }
    for (const sort of ["trending", "new", "for-you"] as const) {
      const query = catalogQuerySchema.parse({ sort, tags: "sea" });
      const rare = await listCharacters(env.DB, query, { userId: mira.id, rareTagThreshold: Number.MAX_SAFE_INTEGER });
      const walk = await listCharacters(env.DB, query, { userId: mira.id, rareTagThreshold: -1 });
      expect(walk, sort).toEqual(rare);
      expect(favorited(rare).sort(), sort).toEqual([ids.anchor, ids.cook].sort());
    }
  });
});

describe("everything hanging off a hidden character is 404 to everyone but its owner", () => {
  /** An active character of `owner` with a comment by `author` that `voter` voted up, then hidden as `how`. */
  async function hiddenDiscussion(how: "deactivated" | "removed") {
    const owner = await signIn();
    const author = await signIn();
    const voter = await signIn();
    const id = await insertCharacter({ creatorId: owner.id });
    const comment = await json<Comment>(await call(`/api/characters/${id}/comments`, { method: "POST", user: author, body: { content: "hello" } }), 201);
    await json(await call(`/api/comments/${comment.id}/vote`, { method: "POST", user: voter, body: { value: 1 } }), 200);
    await call(`/api/characters/${id}/favorite`, { method: "POST", user: voter });
    await env.DB.prepare(
      how === "removed"
        ? "UPDATE characters SET is_active = 0, moderation_status = 'removed' WHERE id = ?"
        : "UPDATE characters SET is_active = 0 WHERE id = ?",
    )
      .bind(id)
      .run();
    return { owner, author, voter, id, commentId: comment.id };
  }

  const rows = async (commentId: number) => ({
    comments: (await env.DB.prepare("SELECT count(*) AS n FROM comments WHERE id = ?").bind(commentId).first<{ n: number }>())!.n,
    votes: (await env.DB.prepare("SELECT votes FROM comments WHERE id = ?").bind(commentId).first<{ votes: number }>())?.votes,
    voteRows: (await env.DB.prepare("SELECT count(*) AS n FROM comment_votes WHERE comment_id = ?").bind(commentId).first<{ n: number }>())!.n,
  });

  it.each(["deactivated", "removed"] as const)("a %s character: votes, deletes, replies, favorites, cards and reports by others are 404; nothing changes", async (how) => {
    const { author, voter, id, commentId } = await hiddenDiscussion(how);
    const before = await rows(commentId);
    const stranger = await signIn();
    for (const user of [author, voter, stranger]) {
      const expect404 = async (path: string, init: Omit<Call, "user"> = {}) => {
        const res = await call(path, { ...init, user });
        expect(res.status, `${init.method ?? "GET"} ${path}`).toBe(404);
        expect(((await res.json()) as { code: string }).code).toBe("not_found");
      };
      await expect404(`/api/comments/${commentId}/vote`);
      await expect404(`/api/comments/${commentId}/vote`, { method: "POST", body: { value: -1 } });
      // The author of the comment too: 404 like everything else, not 403.
      await expect404(`/api/comments/${commentId}`, { method: "DELETE" });
      await expect404(`/api/characters/${id}/comments`);
      await expect404(`/api/characters/${id}/comments`, { method: "POST", body: { content: "reply", parentId: commentId } });
      await expect404(`/api/characters/${id}/favorite`);
      await expect404(`/api/characters/${id}/favorite`, { method: "POST" });
      await expect404(`/api/characters/${id}/card.json`);
      await expect404(`/api/characters/${id}/card.png`);
      await expect404(`/api/characters/${id}`);
      await expect404(`/api/characters/${id}`, { method: "PUT", body: { name: "Taken" } });
      await expect404(`/api/characters/${id}`, { method: "DELETE" });
      await expect404(`/api/characters/${id}/toggle-active`, { method: "PATCH" });
      await expect404("/api/reports", { method: "POST", body: { targetType: "comment", targetId: commentId, reason: "spam" } });
      await expect404("/api/reports", { method: "POST", body: { targetType: "character", targetId: id, reason: "spam" } });
    }
    expect(await rows(commentId)).toEqual(before);
    expect(before).toEqual({ comments: 1, votes: 1, voteRows: 1 });
    const favorites = await env.DB.prepare("SELECT count(*) AS n FROM favorites WHERE character_id = ?").bind(id).first<{ n: number }>();
    expect(favorites!.n).toBe(1);
    const reports = await env.DB.prepare(
      "SELECT count(*) AS n FROM reports WHERE (target_type = 'comment' AND target_id = ?1) OR (target_type = 'character' AND target_id = ?2)",
    )
      .bind(String(commentId), String(id))
      .first<{ n: number }>();
    expect(reports!.n).toBe(0);
  });

  it("its owner still reads the discussion and votes", async () => {
    const { owner, commentId, id } = await hiddenDiscussion("deactivated");
    expect(await json(await call(`/api/comments/${commentId}/vote`, { user: owner }), 200)).toEqual({ vote: null });
    expect(await json(await call(`/api/comments/${commentId}/vote`, { method: "POST", user: owner, body: { value: 1 } }), 200)).toEqual({ vote: 1, votes: 2 });
    expect((await json<Comment[]>(await call(`/api/characters/${id}/comments`, { user: owner }), 200)).map((c) => c.id)).toEqual([commentId]);
  });
});
