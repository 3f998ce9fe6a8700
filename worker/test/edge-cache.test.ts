/**
 * The visitors' edge cache (worker/lib/edge-cache.ts, worker/middleware/edge-cache.ts,
 * docs/decisions/0010-edge-cache-and-latency.md) through the Worker's own
 * `fetch`, with the real Workers Cache API of workerd.
 *
 * The test project runs with the cache off (bound 0 s, vitest.config.ts);
 * these tests call the app with the bound turned on (`EDGE_CACHE_TTL_SECONDS`)
 * and without an ExecutionContext, so the cache write that production leaves
 * to `waitUntil` is done before the answer (worker/lib/after-response.ts).
 * Every test uses its own characters and tags: the cache is shared by the file.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { catalogQuerySchema, MAX_SEARCH_LENGTH, shortenSearch } from "../../schema/inputs.ts";
import app from "../app.ts";
import { countingD1, isReadOnlySql } from "../lib/d1-counter.ts";
import { cacheControlFor, catalogCacheQuery, edgeCacheKey, edgeCacheTtl } from "../lib/edge-cache.ts";
import { insertCharacter, signIn, type TestUser, viewCountOnceCounted } from "./fixtures.ts";

interface Options {
  method?: string;
  user?: TestUser | null;
  cookie?: string;
  body?: unknown;
  /** Extra env values (the bound, the purge settings). */
  env?: Record<string, string>;
}

/** A request to the app with the edge cache on (default bound unless `env` says otherwise). */
async function call(path: string, { method = "GET", user = null, cookie, body, env: extra = {} }: Options = {}) {
  const headers: Record<string, string> = {};
  const cookies = [user?.cookie, cookie].filter(Boolean);
  if (cookies.length > 0) headers.cookie = cookies.join("; ");
  if (body !== undefined) headers["content-type"] = "application/json";
  const request = new Request(`http://localhost${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return app.fetch(request, { ...env, EDGE_CACHE_TTL_SECONDS: "30", ...extra });
}

const cacheStatus = (res: Response) => res.headers.get("x-edge-cache");

/** The D1 statements the request ran, from `Server-Timing: …, d1;desc="reads=N writes=M trips=T"`. */
function d1(res: Response): { reads: number; writes: number } {
  const m = /d1;desc="reads=(\d+) writes=(\d+) trips=\d+"/.exec(res.headers.get("server-timing") ?? "");
  if (!m) throw new Error(`no d1 counts in Server-Timing: ${res.headers.get("server-timing")}`);
  return { reads: Number(m[1]), writes: Number(m[2]) };
}

let unique = 0;
/** A tag name no other test uses. */
const freshTag = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++unique}`;

/** A character owned by a signed-in person, made through the API. */
async function ownCharacter(owner: TestUser, tags: string[] = []): Promise<number> {
  const res = await call("/api/characters", {
    method: "POST",
    user: owner,
    body: { name: "Edge Keeper", description: "Keeps the edge.", personality: "Patient and exact.", tags },
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: number }).id;
}

describe("cache keys", () => {
  const key = (query: Record<string, string>) =>
    edgeCacheKey("https://fabled.test", "/api/characters", catalogQuerySchema.parse(query), ["search"]);

  it("ignore parameter order, defaults, empty values and the order of tags", () => {
    const plain = key({ tags: "noir,space", sort: "new" });
    expect(key({ sort: "new", tags: "space,noir" })).toBe(plain);
    expect(key({ tags: " Space , noir,", sort: "new", limit: "20", offset: "0", search: "" })).toBe(plain);
    expect(key({ sort: "new" })).toBe(key({ sort: "new", tags: "", search: "   " }));
    // The default tab is the same list whether it is named or not; so is SFW-only, and the
    // `nsfw=false` the web client sends beside `showNsfw=false` (it changes nothing).
    expect(key({})).toBe(key({ sort: "for-you", limit: "20", offset: "0" }));
    expect(key({})).toBe(key({ showNsfw: "false", nsfw: "false" }));
    expect(key({ showNsfw: "true" })).toBe(key({ showNsfw: "true", nsfw: "true" }));
  });

  it("ignore the case and spacing of search text, but not its words", () => {
    expect(key({ search: "  Dragon   KNIGHT " })).toBe(key({ search: "dragon knight" }));
    expect(key({ search: "dragon knight" })).not.toBe(key({ search: "dragon" }));
  });

  it("tell apart what changes the answer", () => {
    const base = key({ sort: "new" });
    const others: Record<string, string>[] = [{ sort: "popular" }, { sort: "new", offset: "20" }, { sort: "new", showNsfw: "true" }, { sort: "new", tags: "noir" }];
    for (const other of others) {
      expect(key(other)).not.toBe(base);
    }
  });

  it("take every parameter of the validated query, so one a schema gains is in the key", () => {
    const withExtra = edgeCacheKey("https://fabled.test", "/api/characters", { sort: "new", tagMode: "any", excludeTags: ["b", "a"] });
    expect(withExtra).toBe("https://fabled.test/api/characters?excludeTags=a%2Cb&sort=new&tagMode=any");
  });

  it("answers to the same list, asked in two spellings and with an unrelated cookie, come from one copy", async () => {
    const tag = freshTag("keyed");
    await insertCharacter({ name: "Keyed One", tags: [tag, "second-key-tag"] });
    const first = await call(`/api/characters?tags=${tag},second-key-tag&sort=new`);
    expect(cacheStatus(first)).toBe("MISS");
    const second = await call(`/api/characters?sort=new&limit=20&offset=0&search=&tags=SECOND-KEY-TAG,${tag}`, { cookie: "theme=dark" });
    expect(cacheStatus(second)).toBe("HIT");
    expect(await second.json()).toEqual(await first.json());
  });
});

describe("visitor reads", () => {
  it("a second visitor read of a list is an edge hit that runs no D1 query", async () => {
    const tag = freshTag("hit");
    await insertCharacter({ name: "Hit Me", tags: [tag] });
    const miss = await call(`/api/characters?tags=${tag}`);
    expect(cacheStatus(miss)).toBe("MISS");
    expect(d1(miss).reads).toBeGreaterThan(0);
    expect(miss.headers.get("cache-control")).toBe("public, max-age=10, s-maxage=30, stale-while-revalidate=20");
    expect(miss.headers.get("age")).toBe("0");
    const body = await miss.json();

    const hit = await call(`/api/characters?tags=${tag}`);
    expect(cacheStatus(hit)).toBe("HIT");
    expect(d1(hit)).toEqual({ reads: 0, writes: 0 });
    expect(hit.headers.get("cache-control")).toBe("public, max-age=10, s-maxage=30, stale-while-revalidate=20");
    expect(Number(hit.headers.get("age"))).toBeLessThanOrEqual(30);
    expect(hit.headers.get("cache-tag")).toBeNull();
    expect(hit.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await hit.json()).toEqual(body);
  });

  it("a character page from the cache still counts the view (through the queue) and touches no D1", async () => {
    const id = await insertCharacter({ name: "Counted" });
    const miss = await call(`/api/characters/${id}`);
    expect(cacheStatus(miss)).toBe("MISS");
    const hit = await call(`/api/characters/${id}`);
    expect(cacheStatus(hit)).toBe("HIT");
    // The view goes to the views queue: the hit itself touches no D1 at all.
    expect(d1(hit)).toEqual({ reads: 0, writes: 0 });
    expect(await viewCountOnceCounted(id, 2)).toBe(2);
  });

  it("popular tags and a character's comments are cached too", async () => {
    const tags = await call("/api/tags?popular=true");
    expect(["MISS", "HIT"]).toContain(cacheStatus(tags));
    expect(cacheStatus(await call("/api/tags?popular=true"))).toBe("HIT");
    const id = await insertCharacter({ name: "Talked About" });
    expect(cacheStatus(await call(`/api/characters/${id}/comments`))).toBe("MISS");
    expect(cacheStatus(await call(`/api/characters/${id}/comments`))).toBe("HIT");
  });

  it("a creator's profile is one cached copy for every spelling of the name; a signed-in reader's is private", async () => {
    const creator = await signIn({ username: `@Maker${Date.now().toString(36)}` });
    const bare = creator.username.slice(1);
    const first = await call(`/api/users/${bare}`);
    expect(cacheStatus(first)).toBe("MISS");
    expect(first.headers.get("cache-control")).toBe("public, max-age=10, s-maxage=30, stale-while-revalidate=20");
    for (const spelling of [`@${bare}`, bare.toLowerCase(), `@${bare.toUpperCase()}`]) {
      const again = await call(`/api/users/${encodeURIComponent(spelling)}`);
      expect(cacheStatus(again)).toBe("HIT");
      expect(await again.json()).toEqual(await first.clone().json());
    }
    const reader = await signIn();
    const personal = await call(`/api/users/${bare}`, { user: reader });
    expect(cacheStatus(personal)).toBe("BYPASS");
    expect(personal.headers.get("cache-control")).toBe("private, no-store");
    expect(await personal.json()).toMatchObject({ username: creator.username, isFollowing: false });
  });

  it("errors are never stored: a missing character stays a 404 for nobody to keep", async () => {
    const first = await call("/api/characters/999999999");
    expect(first.status).toBe(404);
    expect(first.headers.get("cache-control")).toBe("private, no-store");
    const again = await call("/api/characters/999999999");
    expect(cacheStatus(again)).toBe("BYPASS");
  });
});

describe("personal answers", () => {
  it("a signed-in answer is never served to a visitor, nor a visitor's cached answer to a signed-in person", async () => {
    const tag = freshTag("personal");
    const id = await insertCharacter({ name: "Loved", tags: [tag] });
    const fan = await signIn();
    expect((await call(`/api/characters/${id}/favorite`, { method: "POST", user: fan })).status).toBe(200);

    const mine = await call(`/api/characters?tags=${tag}`, { user: fan });
    expect(cacheStatus(mine)).toBe("BYPASS");
    expect(mine.headers.get("cache-control")).toBe("private, no-store");
    expect(((await mine.json()) as { characters: { isFavorited?: boolean }[] }).characters[0]?.isFavorited).toBe(true);

    // The visitor's read is made by the route, not taken from the signed-in answer.
    const visitor = await call(`/api/characters?tags=${tag}`);
    expect(cacheStatus(visitor)).toBe("MISS");
    expect(((await visitor.json()) as { characters: { isFavorited?: boolean }[] }).characters[0]).not.toHaveProperty("isFavorited");
    expect(cacheStatus(await call(`/api/characters?tags=${tag}`))).toBe("HIT");

    // Now a visitor copy exists; the signed-in person still gets their own answer.
    const mineAgain = await call(`/api/characters?tags=${tag}`, { user: fan });
    expect(cacheStatus(mineAgain)).toBe("BYPASS");
    expect(((await mineAgain.json()) as { characters: { isFavorited?: boolean }[] }).characters[0]?.isFavorited).toBe(true);
  });

  it("an owner reads their inactive character privately; visitors never get it from the cache", async () => {
    const owner = await signIn();
    const id = await ownCharacter(owner);
    expect((await call(`/api/characters/${id}/toggle-active`, { method: "PATCH", user: owner })).status).toBe(200);
    const own = await call(`/api/characters/${id}`, { user: owner });
    expect(own.status).toBe(200);
    expect(own.headers.get("cache-control")).toBe("private, no-store");
    expect((await call(`/api/characters/${id}`)).status).toBe(404);
  });

  it("an answer that sets a cookie is never stored (an expired session cookie is cleared)", async () => {
    const tag = freshTag("cookie");
    await insertCharacter({ tags: [tag] });
    const res = await call(`/api/characters?tags=${tag}`, { cookie: "fabled_session=not-a-real-session-token" });
    expect(res.status).toBe(200);
    expect(res.headers.get("set-cookie")).toMatch(/fabled_session=/);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(cacheStatus(await call(`/api/characters?tags=${tag}`))).toBe("MISS");
  });

  it("a request carrying a D1 bookmark reads past the cache", async () => {
    const id = await insertCharacter();
    await call(`/api/characters/${id}`);
    expect(cacheStatus(await call(`/api/characters/${id}`))).toBe("HIT");
    expect(cacheStatus(await call(`/api/characters/${id}`, { cookie: "fabled_d1_bookmark=00000001-abc" }))).toBe("BYPASS");
  });

  it("other API answers are never stored either: a person's own characters and account", async () => {
    const me = await signIn();
    const mine = await call("/api/my-characters", { user: me });
    expect(mine.status).toBe(200);
    expect(mine.headers.get("cache-control")).toBe("private, no-store");
    const account = await call("/api/auth/user", { user: me });
    expect(account.status).toBe(200);
    expect(account.headers.get("cache-control")).toMatch(/(^|, )no-store(,|$)/);
  });
});

describe("purge", () => {
  it("an owner's edit, deactivation and deletion make the next visitor read fresh", async () => {
    const owner = await signIn();
    const id = await ownCharacter(owner);
    await call(`/api/characters/${id}`);
    expect(cacheStatus(await call(`/api/characters/${id}`))).toBe("HIT");

    expect((await call(`/api/characters/${id}`, { method: "PUT", user: owner, body: { name: "Renamed Keeper" } })).status).toBe(200);
    const fresh = await call(`/api/characters/${id}`);
    expect(cacheStatus(fresh)).toBe("MISS");
    expect(((await fresh.json()) as { name: string }).name).toBe("Renamed Keeper");

    expect(cacheStatus(await call(`/api/characters/${id}`))).toBe("HIT");
    expect((await call(`/api/characters/${id}/toggle-active`, { method: "PATCH", user: owner })).status).toBe(200);
    expect((await call(`/api/characters/${id}`)).status).toBe(404);
    expect((await call(`/api/characters/${id}/comments`)).status).toBe(404);

    expect((await call(`/api/characters/${id}/toggle-active`, { method: "PATCH", user: owner })).status).toBe(200);
    await call(`/api/characters/${id}`);
    expect(cacheStatus(await call(`/api/characters/${id}`))).toBe("HIT");
    expect((await call(`/api/characters/${id}`, { method: "DELETE", user: owner })).status).toBe(200);
    expect((await call(`/api/characters/${id}`)).status).toBe(404);
  });

  it("a new or deleted comment shows in the visitor's next read of the comments and the page's count", async () => {
    const id = await insertCharacter({ name: "Discussed" });
    const commenter = await signIn();
    await call(`/api/characters/${id}`);
    await call(`/api/characters/${id}/comments`);
    expect(cacheStatus(await call(`/api/characters/${id}/comments`))).toBe("HIT");

    const posted = await call(`/api/characters/${id}/comments`, { method: "POST", user: commenter, body: { content: "Lovely edge." } });
    expect(posted.status).toBe(201);
    const comments = await call(`/api/characters/${id}/comments`);
    expect(cacheStatus(comments)).toBe("MISS");
    expect(((await comments.json()) as { content: string }[]).map((c) => c.content)).toEqual(["Lovely edge."]);
    expect(((await (await call(`/api/characters/${id}`)).json()) as { commentCount: number }).commentCount).toBe(1);

    const commentId = ((await posted.json()) as { id: number }).id;
    expect((await call(`/api/comments/${commentId}`, { method: "DELETE", user: commenter })).status).toBe(200);
    expect(await (await call(`/api/characters/${id}/comments`)).json()).toEqual([]);
    expect(((await (await call(`/api/characters/${id}`)).json()) as { commentCount: number }).commentCount).toBe(0);
  });

  it("with a zone and token, an owner's edit also purges every data center by the character's cache tag", async () => {
    const zone = `zone-${Date.now().toString(36)}`;
    const purgeEnv = { CACHE_PURGE_ZONE_ID: zone, CACHE_PURGE_API_TOKEN: "purge-token" };
    const owner = await signIn();
    const id = await ownCharacter(owner);
    expect((await call(`/api/characters/${id}`, { method: "PUT", user: owner, body: { name: "Purged Keeper" }, env: purgeEnv })).status).toBe(200);
    const stub = new URL(env.CLOUDFLARE_API_BASE_URL!).origin;
    const purges = (await (await fetch(`${stub}/__test/purges/${zone}`)).json()) as { authorization: string; body: unknown }[];
    expect(purges).toEqual([{ authorization: "Bearer purge-token", body: { tags: [`fabled-character-${id}`] } }]);
  });

  it("a refused global purge does not fail the owner's edit (the copies expire within the bound)", async () => {
    const owner = await signIn();
    const id = await ownCharacter(owner);
    const res = await call(`/api/characters/${id}`, {
      method: "PUT",
      user: owner,
      body: { name: "Still Saved" },
      env: { CACHE_PURGE_ZONE_ID: "zone-refused", CACHE_PURGE_API_TOKEN: "bad-token" },
    });
    expect(res.status).toBe(200);
    expect(((await (await call(`/api/characters/${id}`)).json()) as { name: string }).name).toBe("Still Saved");
  });
});

describe("staleness bound", () => {
  it("defaults to 30 s, split between browser and edge so the whole stays within it", () => {
    expect(edgeCacheTtl({})).toBe(30);
    expect(edgeCacheTtl({ EDGE_CACHE_TTL_SECONDS: "soon" })).toBe(30);
    expect(edgeCacheTtl({ EDGE_CACHE_TTL_SECONDS: "0" })).toBe(0);
    expect(cacheControlFor(30)).toBe("public, max-age=10, s-maxage=30, stale-while-revalidate=20");
    expect(cacheControlFor(60)).toBe("public, max-age=20, s-maxage=60, stale-while-revalidate=40");
  });

  it("a visitor's list shows a change made without a purge once the bound has passed, not before", async () => {
    const bound = { EDGE_CACHE_TTL_SECONDS: "2" };
    const tag = freshTag("bound");
    await insertCharacter({ name: "Before", tags: [tag] });
    const first = await call(`/api/characters?tags=${tag}`, { env: bound });
    expect(((await first.json()) as { total: number }).total).toBe(1);
    const madeAt = Date.now();
    await insertCharacter({ name: "After", tags: [tag] });

    // Straight after the change the copy is still served…
    const stale = await call(`/api/characters?tags=${tag}`, { env: bound });
    expect(cacheStatus(stale)).toBe("HIT");
    expect(((await stale.json()) as { total: number }).total).toBe(1);
    // …and the change shows within the bound (plus the time the reads themselves take).
    let total = 1;
    while (total === 1 && Date.now() - madeAt < 10_000) {
      total = ((await (await call(`/api/characters?tags=${tag}`, { env: bound })).json()) as { total: number }).total;
    }
    expect(total).toBe(2);
    expect(Date.now() - madeAt).toBeLessThan(2_000 + 1_500);
  });
});

describe("catalog keys: equivalent queries share one copy", () => {
  const key = (query: Record<string, string>) =>
    edgeCacheKey("https://fabled.test", "/api/characters", catalogCacheQuery(catalogQuerySchema.parse(query)), ["creator"]);

  it("a search is keyed by its words: order, case, punctuation, repeats and stopwords change nothing", () => {
    const plain = key({ search: "dragon knight" });
    for (const same of ["knight dragon", "Dragon, KNIGHT!", "the knight of the dragon", "dragon dragon  knight", "\"knight\" (dragon)*"]) {
      expect(key({ search: same }), same).toBe(plain);
    }
    expect(key({ search: "dragon" })).not.toBe(plain);
    expect(key({ search: "dragon knights" })).not.toBe(plain);
    // A search with no word matches nothing: its own key, never the unsearched list's.
    expect(key({ search: "!!!" })).toBe(key({ search: "?" }));
    expect(key({ search: "!!!" })).not.toBe(key({}));
    // Only stopwords: they are the words then.
    expect(key({ search: "the" })).not.toBe(key({ search: "!!!" }));
  });

  it("for visitors For You is Trending; a catalog search has no tab, a creator's search keeps its own", () => {
    expect(key({ sort: "for-you" })).toBe(key({ sort: "trending" }));
    expect(key({})).toBe(key({ sort: "trending" }));
    expect(key({ sort: "new" })).not.toBe(key({ sort: "trending" }));
    expect(key({ search: "dragon", sort: "new" })).toBe(key({ search: "dragon", sort: "popular" }));
    expect(key({ search: "dragon", creator: "@mira", sort: "new" })).not.toBe(key({ search: "dragon", creator: "@mira", sort: "popular" }));
  });

  it("tagMode counts only with two included tags or more", () => {
    expect(key({ tags: "noir", tagMode: "any" })).toBe(key({ tags: "noir" }));
    expect(key({ tagMode: "any" })).toBe(key({}));
    expect(key({ tags: "noir", excludeTags: "space", tagMode: "any" })).toBe(key({ tags: "noir", excludeTags: "space" }));
    expect(key({ tags: "noir,space", tagMode: "any" })).not.toBe(key({ tags: "noir,space" }));
  });

  it("two spellings of one search come from one copy, and so does a search that finds nothing (negative caching)", async () => {
    const word = `kq${Date.now().toString(36)}`;
    await insertCharacter({ name: `Shared ${word} lantern` });
    const first = await call(`/api/characters?search=${encodeURIComponent(`lantern ${word}`)}`);
    expect(cacheStatus(first)).toBe("MISS");
    const second = await call(`/api/characters?sort=new&search=${encodeURIComponent(`${word.toUpperCase()}, the Lantern!`)}`);
    expect(cacheStatus(second)).toBe("HIT");
    expect(d1(second).reads).toBe(0);
    const body = (await second.json()) as { total: number };
    expect(body).toEqual(await first.json());
    expect(body.total).toBe(1);

    const nothing = `${word}zz`;
    const miss = await call(`/api/characters?search=${nothing}`);
    expect(cacheStatus(miss)).toBe("MISS");
    expect(await miss.json()).toEqual({ characters: [], total: 0 });
    for (const spelling of [nothing, `${nothing.toUpperCase()}!`, `the ${nothing}`]) {
      const hit = await call(`/api/characters?search=${encodeURIComponent(spelling)}`);
      expect(cacheStatus(hit), spelling).toBe("HIT");
      expect(d1(hit), spelling).toEqual({ reads: 0, writes: 0 });
      expect(await hit.json(), spelling).toEqual({ characters: [], total: 0 });
    }
  });

  it("For You and Trending are one copy for visitors, with the same characters", async () => {
    const tag = freshTag("tabs");
    await insertCharacter({ name: "Tab One", tags: [tag], trendingScore: 5 });
    await insertCharacter({ name: "Tab Two", tags: [tag], trendingScore: 9 });
    const forYou = await call(`/api/characters?tags=${tag}&sort=for-you`);
    expect(cacheStatus(forYou)).toBe("MISS");
    const trending = await call(`/api/characters?tags=${tag}&sort=trending`);
    expect(cacheStatus(trending)).toBe("HIT");
    const names = (b: unknown) => (b as { characters: { name: string }[] }).characters.map((c) => c.name);
    expect(names(await trending.json())).toEqual(["Tab Two", "Tab One"]);
    expect(names(await forYou.json())).toEqual(["Tab Two", "Tab One"]);
  });
});

describe("staleness bound of counters", () => {
  it("a favorite (which purges nothing) shows in a visitor's character page and list within the bound, not before", async () => {
    const bound = { EDGE_CACHE_TTL_SECONDS: "2" };
    const tag = freshTag("counted");
    const id = await insertCharacter({ name: "Counted", tags: [tag] });
    const count = async (path: string) => {
      const res = await call(path, { env: bound });
      const body = (await res.json()) as { favoriteCount?: number; characters?: { favoriteCount: number }[] };
      return { status: cacheStatus(res), favorites: body.favoriteCount ?? body.characters![0]!.favoriteCount };
    };
    expect((await count(`/api/characters/${id}`)).favorites).toBe(0);
    expect((await count(`/api/characters?tags=${tag}`)).favorites).toBe(0);
    const fan = await signIn();
    const madeAt = Date.now();
    expect((await call(`/api/characters/${id}/favorite`, { method: "POST", user: fan })).status).toBe(200);
    // Straight after, both copies are still served…
    expect(await count(`/api/characters/${id}`)).toEqual({ status: "HIT", favorites: 0 });
    expect(await count(`/api/characters?tags=${tag}`)).toEqual({ status: "HIT", favorites: 0 });
    // …and the new count shows in both within the bound (plus the time the reads themselves take).
    for (const path of [`/api/characters/${id}`, `/api/characters?tags=${tag}`]) {
      let favorites = 0;
      while (favorites === 0 && Date.now() - madeAt < 10_000) favorites = (await count(path)).favorites;
      expect(favorites, path).toBe(1);
      expect(Date.now() - madeAt, path).toBeLessThan(2_000 + 1_500);
    }
  });
});

describe("over-long search text", () => {
  it("is shortened to its first whole words, not refused", () => {
    const pasted = `${"dragon ".repeat(28)}knightly tales`; // 196 + 14 characters
    const shortened = shortenSearch(pasted)!;
    expect(shortened.length).toBeLessThanOrEqual(MAX_SEARCH_LENGTH);
    expect(shortened.endsWith("dragon")).toBe(true);
    expect(shortened).not.toContain("knig");
    expect(shortenSearch("x".repeat(500))).toBe("x".repeat(MAX_SEARCH_LENGTH));
    expect(shortenSearch(`  ${"a".repeat(199)} bc`)).toBe("a".repeat(199));
    expect(shortenSearch("   ")).toBeUndefined();
  });

  it("a pasted paragraph searches by its first words", async () => {
    const word = `zq${Date.now().toString(36)}`;
    await insertCharacter({ name: `Pasted ${word}` });
    const pasted = `${word} ${"pasted ".repeat(60)}`; // 420 characters
    const res = await call(`/api/characters?search=${encodeURIComponent(pasted)}`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { characters: { name: string }[] }).characters.map((c) => c.name)).toEqual([`Pasted ${word}`]);
  });
});

describe("D1 counts in Server-Timing", () => {
  it("tell reads from writes by their SQL", () => {
    expect(isReadOnlySql("SELECT 1")).toBe(true);
    expect(isReadOnlySql("  -- note\n WITH t AS (SELECT 1) SELECT * FROM t")).toBe(true);
    expect(isReadOnlySql("SELECT 'DELETE me' AS text")).toBe(true);
    expect(isReadOnlySql("UPDATE characters SET view_count = view_count + 1 RETURNING id")).toBe(false);
    expect(isReadOnlySql("WITH x AS (SELECT 1) INSERT INTO tags (name) SELECT 'a' FROM x")).toBe(false);
    expect(isReadOnlySql("PRAGMA foreign_keys")).toBe(false);
  });

  it("count statements run one by one, in a batch and in a Sessions API session", async () => {
    const counts = { reads: 0, writes: 0, trips: 0 };
    const db = countingD1(env.DB, counts);
    await db.prepare("SELECT count(*) FROM characters").first();
    await db.batch([db.prepare("SELECT 1"), db.prepare("UPDATE characters SET view_count = view_count WHERE id = ?").bind(-1)]);
    const session = db.withSession("first-unconstrained");
    await session.prepare("SELECT id FROM characters LIMIT 1").all();
    // Three round trips: a statement, a batch of two, a statement in a session.
    expect(counts).toEqual({ reads: 3, writes: 1, trips: 3 });
  });

  it("are reported by a visitor's miss and a signed-in read alike", async () => {
    const me = await signIn();
    const res = await call("/api/characters?sort=new", { user: me });
    // The session check and the list: reads only, nothing written on the read path.
    expect(d1(res).reads).toBeGreaterThanOrEqual(2);
    expect(d1(res).writes).toBe(0);
  });
});
