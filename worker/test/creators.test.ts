/**
 * Creator pages, following and the Favorites list (issue 16), as the web
 * calls them: `GET /api/users/:username`, `PUT`/`DELETE
 * /api/users/:username/follow`, `GET /api/characters?creator=…`,
 * `GET /api/characters?following=true` and `GET /api/favorites`, each from
 * a visitor, another person and the owner; exact follower and favorite
 * counts under 50 parallel requests.
 */
import { env, exports } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import type { CatalogCharacter, CharacterListResponse, CreatorProfile, FollowStatus } from "../../schema/api.ts";
import { clearCatalog, insertCharacter, signIn, type TestUser } from "./fixtures.ts";

function call(path: string, init: { method?: string; user?: TestUser | null } = {}): Promise<Response> {
  return exports.default.fetch(`http://localhost${path}`, {
    method: init.method ?? "GET",
    headers: init.user ? { Cookie: init.user.cookie } : {},
  });
}

async function json<T>(res: Response, status = 200): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}

const names = (list: { characters: CatalogCharacter[] }) => list.characters.map((c) => c.name);
const handle = (user: TestUser) => user.username.slice(1);

/** Letters nobody else in this file uses. */
const fresh = (prefix: string) =>
  prefix + [...crypto.getRandomValues(new Uint8Array(6))].map((b) => String.fromCharCode(97 + (b % 26))).join("");

/** A creator with a username of their own, as the profile stores it ("@" + name). */
const signInCreator = (prefix = "maker") => signIn({ username: `@${fresh(prefix)}` });

async function favorite(user: TestUser, characterId: number): Promise<void> {
  const res = await call(`/api/characters/${characterId}/favorite`, { method: "POST", user });
  expect(res.status).toBe(200);
}

const follow = (user: TestUser | null, username: string, method: "PUT" | "DELETE" = "PUT") =>
  call(`/api/users/${encodeURIComponent(username)}/follow`, { method, user });

beforeEach(async () => {
  await clearCatalog();
});

describe("GET /api/users/:username", () => {
  it("answers any spelling of the name with the creator's page and counts over their active characters", async () => {
    const creator = await signInCreator("owl");
    const fan = await signIn();
    const a = await insertCharacter({ name: "Active one", creatorId: creator.id, creator: handle(creator) });
    const b = await insertCharacter({ name: "Active NSFW", creatorId: creator.id, isNsfw: true });
    const hidden = await insertCharacter({ name: "Inactive", creatorId: creator.id, isActive: false });
    await insertCharacter({ name: "Someone else's" });
    await favorite(fan, a);
    await favorite(creator, b);
    await env.DB.batch(
      [a, a, b, hidden].map((id) =>
        env.DB.prepare("INSERT INTO conversations (id, character_id, user_id, title) VALUES (?, ?, ?, 'Chat')").bind(
          crypto.randomUUID(),
          id,
          fan.id,
        ),
      ),
    );

    const expected = {
      id: creator.id,
      username: creator.username,
      name: "Tess",
      profileImageUrl: null,
      bio: null,
      characterCount: 2,
      favoriteCount: 2,
      chatCount: 3,
      followerCount: 0,
    };
    const bare = handle(creator);
    for (const spelling of [bare, `@${bare}`, `@${bare.toUpperCase()}`]) {
      const res = await call(`/api/users/${encodeURIComponent(spelling)}`);
      const profile = await json<CreatorProfile>(res);
      expect(profile).toEqual({ ...expected, createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
      // A visitor's answer is the same for everyone (edge-cached: worker/test/edge-cache.test.ts).
      expect(profile).not.toHaveProperty("isFollowing");
    }
  });

  it("tells another person whether they follow, privately; the creator's own page has no follow state", async () => {
    const creator = await signInCreator();
    const other = await signIn();
    const before = await call(`/api/users/${handle(creator)}`, { user: other });
    expect(await json<CreatorProfile>(before)).toMatchObject({ isFollowing: false, followerCount: 0 });
    expect(before.headers.get("Cache-Control")).toBe("private, no-store");
    await json<FollowStatus>(await follow(other, creator.username));
    expect(await json<CreatorProfile>(await call(`/api/users/${handle(creator)}`, { user: other }))).toMatchObject({
      isFollowing: true,
      followerCount: 1,
    });
    const own = await json<CreatorProfile>(await call(`/api/users/${handle(creator)}`, { user: creator }));
    expect(own.followerCount).toBe(1);
    expect(own).not.toHaveProperty("isFollowing");
    const visitor = await json<CreatorProfile>(await call(`/api/users/${handle(creator)}`));
    expect(visitor).not.toHaveProperty("isFollowing");
  });

  it("answers an unknown name with 404 in the API error shape", async () => {
    const res = await call(`/api/users/${fresh("nobody")}`);
    expect(await json(res, 404)).toEqual({ error: "Creator not found", code: "not_found" });
  });
});

describe("GET /api/characters?creator=", () => {
  it("lists the creator's active characters with the catalog's NSFW rule, sort and paging, for anyone", async () => {
    const creator = await signInCreator();
    const other = await signIn();
    const now = Date.now();
    await insertCharacter({ name: "Old", creatorId: creator.id, createdAt: now - 3000, favoriteCount: 9 });
    await insertCharacter({ name: "Mid", creatorId: creator.id, createdAt: now - 2000, favoriteCount: 1 });
    await insertCharacter({ name: "New NSFW", creatorId: creator.id, createdAt: now - 1000, isNsfw: true });
    await insertCharacter({ name: "Inactive", creatorId: creator.id, isActive: false });
    await insertCharacter({ name: "Not theirs", creatorId: other.id });

    for (const user of [null, other, creator]) {
      const list = await json<CharacterListResponse>(await call(`/api/characters?creator=${handle(creator)}&sort=new`, { user }));
      expect(names(list)).toEqual(["Mid", "Old"]);
      expect(list.total).toBe(2);
      expect(list.characters[0]!.creatorUsername).toBe(creator.username);
      // Signed-in callers get their hearts, as on Home.
      expect("isFavorited" in list.characters[0]!).toBe(user !== null);
    }
    const withNsfw = await json<CharacterListResponse>(
      await call(`/api/characters?creator=%40${handle(creator).toUpperCase()}&sort=new&showNsfw=true`),
    );
    expect(names(withNsfw)).toEqual(["New NSFW", "Mid", "Old"]);
    const popular = await json<CharacterListResponse>(await call(`/api/characters?creator=${handle(creator)}&sort=popular&limit=1&offset=0`));
    expect(names(popular)).toEqual(["Old"]);
    expect(popular.total).toBe(2);
    const second = await json<CharacterListResponse>(await call(`/api/characters?creator=${handle(creator)}&sort=popular&limit=1&offset=1`));
    expect(names(second)).toEqual(["Mid"]);
  });

  it("combines with tag filters and search", async () => {
    const creator = await signInCreator();
    await insertCharacter({ name: "Moonlit Witch", creatorId: creator.id, tags: ["fantasy", "witch"] });
    await insertCharacter({ name: "Moonlit Pilot", creatorId: creator.id, tags: ["sci-fi"] });
    await insertCharacter({ name: "Moonlit Stranger", tags: ["fantasy"] });
    const tagged = await json<CharacterListResponse>(await call(`/api/characters?creator=${handle(creator)}&tags=fantasy`));
    expect(names(tagged)).toEqual(["Moonlit Witch"]);
    const searched = await json<CharacterListResponse>(await call(`/api/characters?creator=${handle(creator)}&search=moonlit`));
    expect(names(searched).sort()).toEqual(["Moonlit Pilot", "Moonlit Witch"]);
    expect(searched.total).toBe(2);
  });

  it("applies any-of tags and hidden tags, with and without search", async () => {
    const creator = await signInCreator();
    await insertCharacter({ name: "Moonlit Witch", creatorId: creator.id, tags: ["fantasy", "witch"] });
    await insertCharacter({ name: "Moonlit Pilot", creatorId: creator.id, tags: ["sci-fi"] });
    await insertCharacter({ name: "Moonlit Ghoul", creatorId: creator.id, tags: ["fantasy", "gore"] });
    const list = async (query: string) => {
      const answer = await json<CharacterListResponse>(await call(`/api/characters?creator=${handle(creator)}&${query}`));
      expect(answer.total).toBe(answer.characters.length);
      return names(answer).sort();
    };
    expect(await list("tags=witch,sci-fi&tagMode=any")).toEqual(["Moonlit Pilot", "Moonlit Witch"]);
    expect(await list("tags=witch,sci-fi")).toEqual([]);
    expect(await list("excludeTags=gore")).toEqual(["Moonlit Pilot", "Moonlit Witch"]);
    expect(await list("tags=fantasy&excludeTags=gore")).toEqual(["Moonlit Witch"]);
    expect(await list("tags=gore,sci-fi&tagMode=any&excludeTags=gore")).toEqual(["Moonlit Pilot"]);
    expect(await list("search=moonlit&excludeTags=gore,witch")).toEqual(["Moonlit Pilot"]);
    // A tag both asked for and hidden matches nothing.
    expect(await list("tags=gore&excludeTags=gore")).toEqual([]);
  });

  it("answers an unknown creator with an empty list", async () => {
    await insertCharacter({ name: "Anyone's" });
    expect(await json(await call(`/api/characters?creator=${fresh("nobody")}`))).toEqual({ characters: [], total: 0 });
  });
});

describe("following", () => {
  it("refuses visitors (401), following oneself (400) and unknown names (404)", async () => {
    const creator = await signInCreator();
    for (const method of ["PUT", "DELETE"] as const) {
      expect(await json(await follow(null, creator.username, method), 401)).toEqual({ error: "Unauthorized", code: "unauthorized" });
      expect(await json(await follow(creator, handle(creator).toUpperCase(), method), 400)).toEqual({
        error: "You cannot follow yourself",
        code: "validation_failed",
      });
      expect(await json(await follow(creator, fresh("nobody"), method), 404)).toEqual({
        error: "Creator not found",
        code: "not_found",
      });
    }
    expect(await env.DB.prepare("SELECT count(*) AS n FROM follows WHERE followee_id = ?").bind(creator.id).first("n")).toBe(0);
  });

  it("follows and unfollows idempotently, answering the exact count privately", async () => {
    const creator = await signInCreator();
    const fan = await signIn();
    const first = await follow(fan, handle(creator));
    expect(await json(first)).toEqual({ isFollowing: true, followerCount: 1 });
    expect(first.headers.get("Cache-Control")).toBe("private, no-store");
    expect(await json(await follow(fan, creator.username))).toEqual({ isFollowing: true, followerCount: 1 });
    expect(await json(await follow(fan, creator.username, "DELETE"))).toEqual({ isFollowing: false, followerCount: 0 });
    expect(await json(await follow(fan, creator.username, "DELETE"))).toEqual({ isFollowing: false, followerCount: 0 });
  });

  it("counts 50 people following at once exactly, and 50 unfollowing at once", async () => {
    const creator = await signInCreator();
    const fans = await Promise.all(Array.from({ length: 50 }, () => signIn()));
    const followed = await Promise.all(fans.map((fan) => follow(fan, creator.username).then((r) => json<FollowStatus>(r))));
    // Each answer's count is read in the follow's own transaction: every number from 1 to 50 once.
    expect(followed.map((s) => s.followerCount).sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect((await json<CreatorProfile>(await call(`/api/users/${handle(creator)}`))).followerCount).toBe(50);
    const unfollowed = await Promise.all(
      fans.map((fan) => follow(fan, creator.username, "DELETE").then((r) => json<FollowStatus>(r))),
    );
    expect(unfollowed.map((s) => s.followerCount).sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect((await json<CreatorProfile>(await call(`/api/users/${handle(creator)}`))).followerCount).toBe(0);
  });
});

describe("GET /api/characters?following=true (Home's Following tab)", () => {
  it("answers visitors with 401", async () => {
    expect(await json(await call("/api/characters?following=true&sort=new"), 401)).toEqual({
      error: "Unauthorized",
      code: "unauthorized",
    });
  });

  it("is empty for someone following nobody", async () => {
    const person = await signIn();
    await insertCharacter({ name: "Anyone's" });
    expect(await json(await call("/api/characters?following=true&sort=new", { user: person }))).toEqual({ characters: [], total: 0 });
  });

  it("lists the newest active characters of the creators the person follows, privately", async () => {
    const [ada, bo, cy] = await Promise.all([signInCreator("ada"), signInCreator("bo"), signInCreator("cy")]);
    const reader = await signIn();
    const now = Date.now();
    await insertCharacter({ name: "Ada old", creatorId: ada.id, createdAt: now - 4000 });
    await insertCharacter({ name: "Bo new", creatorId: bo.id, createdAt: now - 1000 });
    await insertCharacter({ name: "Ada newest NSFW", creatorId: ada.id, createdAt: now - 500, isNsfw: true });
    await insertCharacter({ name: "Ada inactive", creatorId: ada.id, createdAt: now, isActive: false });
    await insertCharacter({ name: "Cy not followed", creatorId: cy.id, createdAt: now });
    await json(await follow(reader, ada.username));
    await json(await follow(reader, bo.username));

    const res = await call("/api/characters?following=true&sort=new", { user: reader });
    const list = await json<CharacterListResponse>(res);
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");
    expect(names(list)).toEqual(["Bo new", "Ada old"]);
    expect(list.total).toBe(2);
    const withNsfw = await json<CharacterListResponse>(await call("/api/characters?following=true&sort=new&showNsfw=true", { user: reader }));
    expect(names(withNsfw)).toEqual(["Ada newest NSFW", "Bo new", "Ada old"]);
    // Someone else following nobody sees none of it.
    expect((await json<CharacterListResponse>(await call("/api/characters?following=true", { user: cy }))).total).toBe(0);
  });
});

describe("GET /api/favorites", () => {
  it("answers visitors with 401 in the API error shape", async () => {
    expect(await json(await call("/api/favorites"), 401)).toEqual({ error: "Unauthorized", code: "unauthorized" });
  });

  it("lists the person's own favorites, newest favorite first, with paging and a private answer", async () => {
    const mira = await signIn();
    const tom = await signIn();
    const [a, b, c] = [await insertCharacter({ name: "A" }), await insertCharacter({ name: "B" }), await insertCharacter({ name: "C" })];
    await favorite(mira, b);
    await favorite(mira, a);
    await favorite(mira, c);
    await favorite(tom, a);

    const res = await call("/api/favorites", { user: mira });
    const list = await json<CharacterListResponse>(res);
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");
    expect(names(list)).toEqual(["C", "A", "B"]);
    expect(list.total).toBe(3);
    expect(list.characters.every((ch) => ch.isFavorited === true)).toBe(true);
    const page = await json<CharacterListResponse>(await call("/api/favorites?limit=2&offset=2", { user: mira }));
    expect(names(page)).toEqual(["B"]);
    expect(page.total).toBe(3);
    expect(names(await json<CharacterListResponse>(await call("/api/favorites", { user: tom })))).toEqual(["A"]);
    // Unfavorited: gone.
    await favorite(mira, a);
    expect(names(await json<CharacterListResponse>(await call("/api/favorites", { user: mira })))).toEqual(["C", "B"]);
  });

  it("hides NSFW characters unless showNsfw=true, and others' deactivated characters; keeps one's own", async () => {
    const owner = await signIn();
    const fan = await signIn();
    const nsfw = await insertCharacter({ name: "Spicy", isNsfw: true });
    const theirs = await insertCharacter({ name: "Theirs", creatorId: owner.id });
    const own = await insertCharacter({ name: "Own", creatorId: fan.id });
    for (const id of [nsfw, theirs, own]) await favorite(fan, id);
    await env.DB.prepare("UPDATE characters SET is_active = 0 WHERE id IN (?, ?)").bind(theirs, own).run();

    expect(names(await json<CharacterListResponse>(await call("/api/favorites", { user: fan })))).toEqual(["Own"]);
    const all = await json<CharacterListResponse>(await call("/api/favorites?showNsfw=true", { user: fan }));
    expect(names(all)).toEqual(["Own", "Spicy"]);
    expect(all.total).toBe(2);
    await env.DB.prepare("UPDATE characters SET is_active = 1 WHERE id = ?").bind(theirs).run();
    expect(names(await json<CharacterListResponse>(await call("/api/favorites", { user: fan })))).toEqual(["Own", "Theirs"]);
  });

  it("refuses a bad limit with 400", async () => {
    const person = await signIn();
    expect((await json<{ code: string }>(await call("/api/favorites?limit=0", { user: person }), 400)).code).toBe("validation_failed");
  });

  it("counts 50 people favoriting at once exactly, on the character and the creator's page", async () => {
    const creator = await signInCreator();
    const id = await insertCharacter({ name: "Beloved", creatorId: creator.id });
    const fans = await Promise.all(Array.from({ length: 50 }, () => signIn()));
    await Promise.all(fans.map((fan) => favorite(fan, id)));
    const character = await json<{ favoriteCount: number }>(await call(`/api/characters/${id}`));
    expect(character.favoriteCount).toBe(50);
    expect((await json<CreatorProfile>(await call(`/api/users/${handle(creator)}`))).favoriteCount).toBe(50);
    for (const fan of fans.slice(0, 3)) {
      expect(names(await json<CharacterListResponse>(await call("/api/favorites", { user: fan })))).toEqual(["Beloved"]);
    }
  });
});
