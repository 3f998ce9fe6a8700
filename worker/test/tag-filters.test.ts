/**
 * Tag filters as a caller sees them: `tagMode=all|any` and `excludeTags` on
 * GET /api/characters, alone and with search, NSFW and every tab, checked
 * against a model of the catalog for both query plans; and a person's hidden
 * tags (`GET`/`PUT /api/profile/hidden-tags`) from a visitor, another person
 * and the owner.
 */
import { env, exports } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import type { CharacterListResponse, CharacterSummary } from "../../schema/api.ts";
import { catalogQuerySchema } from "../../schema/inputs.ts";
import { listCharacters } from "../lib/catalog.ts";
import { clearCatalog, insertCharacter, signIn, type TestUser } from "./fixtures.ts";

async function list(query: string, cookie?: string): Promise<CharacterListResponse> {
  const res = await exports.default.fetch(`http://localhost/api/characters?${query}`, { headers: cookie ? { cookie } : {} });
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
}

const names = (body: { characters: CharacterSummary[] }) => body.characters.map((c) => c.name);

beforeEach(clearCatalog);

describe("GET /api/characters — excluded tags and any of", () => {
  beforeEach(async () => {
    await insertCharacter({ name: "Knight", tags: ["fantasy"], trendingScore: 9 });
    await insertCharacter({ name: "Ghoul", tags: ["horror", "gore"], trendingScore: 8 });
    await insertCharacter({ name: "Butcher", tags: ["fantasy", "gore"], trendingScore: 7 });
    await insertCharacter({ name: "Android", tags: ["sci-fi"], trendingScore: 6 });
    await insertCharacter({ name: "Slasher", tags: ["horror", "gore"], trendingScore: 5, isNsfw: true });
    await insertCharacter({ name: "Vampire", tags: ["horror", "romance"], trendingScore: 4, isNsfw: true });
    await insertCharacter({ name: "Retired Gore", tags: ["gore"], trendingScore: 3, isActive: false });
  });

  it("leaves out every character carrying a hidden tag, on every tab, with the right total", async () => {
    for (const sort of ["for-you", "trending", "new", "popular"]) {
      const body = await list(`excludeTags=gore&sort=${sort}`);
      expect(names(body).sort(), sort).toEqual(["Android", "Knight"]);
      expect(body.total).toBe(2);
    }
    expect(names(await list("excludeTags=gore,sci-fi&sort=trending"))).toEqual(["Knight"]);
    expect((await list("excludeTags=gore,sci-fi")).total).toBe(1);
  });

  it("combines hidden tags with the NSFW switch", async () => {
    expect(names(await list("excludeTags=gore&showNsfw=true&sort=trending"))).toEqual(["Knight", "Android", "Vampire"]);
    expect((await list("excludeTags=gore&showNsfw=true")).total).toBe(3);
    expect(names(await list("excludeTags=gore,romance&showNsfw=true&sort=trending"))).toEqual(["Knight", "Android"]);
  });

  it("combines hidden tags with selected tags", async () => {
    expect(names(await list("tags=fantasy&excludeTags=gore"))).toEqual(["Knight"]);
    expect((await list("tags=fantasy&excludeTags=gore")).total).toBe(1);
    expect(names(await list("tags=horror&excludeTags=gore&showNsfw=true"))).toEqual(["Vampire"]);
    // A tag both selected (all of) and hidden matches nothing.
    expect(await list("tags=gore&excludeTags=gore")).toEqual({ characters: [], total: 0 });
  });

  it("any of lists characters carrying at least one selected tag; all of (the default) needs every one", async () => {
    const any = await list("tags=sci-fi,horror&tagMode=any&sort=trending");
    expect(names(any)).toEqual(["Ghoul", "Android"]);
    expect(any.total).toBe(2);
    expect(await list("tags=sci-fi,horror&sort=trending")).toEqual({ characters: [], total: 0 });
    expect(names(await list("tags=horror,gore&tagMode=all&sort=trending"))).toEqual(["Ghoul"]);
    expect((await list("tags=fantasy,horror&tagMode=any&showNsfw=true")).total).toBe(5);
    // Any of, minus the hidden: a selected tag that is also hidden drops out of the selection.
    expect(names(await list("tags=fantasy,gore&tagMode=any&excludeTags=gore&sort=trending"))).toEqual(["Knight"]);
    expect(await list("tags=gore&tagMode=any&excludeTags=gore")).toEqual({ characters: [], total: 0 });
  });

  it("any of skips a tag that does not exist; all of matches nothing with it", async () => {
    expect(names(await list("tags=sci-fi,nonexistent&tagMode=any"))).toEqual(["Android"]);
    expect(await list("tags=sci-fi,nonexistent")).toEqual({ characters: [], total: 0 });
    expect(await list("tags=nonexistent,unknown&tagMode=any")).toEqual({ characters: [], total: 0 });
    // Hiding a tag nobody uses hides nothing.
    expect((await list("excludeTags=nonexistent")).total).toBe(4);
  });

  it("combines search with any of, hidden tags and NSFW, from the search index", async () => {
    await insertCharacter({ name: "Storm Ghoul", description: "Storm and blood.", tags: ["horror", "gore"] });
    await insertCharacter({ name: "Storm Knight", description: "Rides the storm.", tags: ["fantasy"] });
    await insertCharacter({ name: "Storm Witch", description: "Spicy storm.", tags: ["romance"], isNsfw: true });
    await insertCharacter({ name: "Storm Droid", description: "Chrome storm.", tags: ["sci-fi", "horror"] });
    const search = async (query: string) => names(await list(`search=storm&${query}`)).sort();
    expect(await search("excludeTags=gore")).toEqual(["Storm Droid", "Storm Knight"]);
    expect(await search("excludeTags=gore&showNsfw=true")).toEqual(["Storm Droid", "Storm Knight", "Storm Witch"]);
    expect(await search("tags=fantasy,romance&tagMode=any&showNsfw=true")).toEqual(["Storm Knight", "Storm Witch"]);
    expect(await search("tags=fantasy,romance&tagMode=any")).toEqual(["Storm Knight"]);
    expect(await search("tags=horror,fantasy&tagMode=any&excludeTags=gore")).toEqual(["Storm Droid", "Storm Knight"]);
    expect(await search("tags=horror,sci-fi")).toEqual(["Storm Droid"]);
    expect(await search("tags=horror&excludeTags=sci-fi")).toEqual(["Storm Ghoul"]);
    expect((await list("search=storm&tags=horror,fantasy&tagMode=any&excludeTags=gore")).total).toBe(2);
    expect(await list("search=storm&tags=gore&excludeTags=gore")).toEqual({ characters: [], total: 0 });
  });

  it("hides them from a signed-in person's For You picks too", async () => {
    const person = await signIn();
    const ghoul = await env.DB.prepare("SELECT id FROM characters WHERE name = 'Ghoul'").first<number>("id");
    await env.DB.prepare("INSERT INTO favorites (user_id, character_id) VALUES (?, ?)").bind(person.id, ghoul).run();
    const body = await list("sort=for-you&excludeTags=gore&showNsfw=true", person.cookie);
    expect(names(body).sort()).toEqual(["Android", "Knight", "Vampire"]);
    expect(body.total).toBe(3);
    // Without the exclusion the picks (horror and gore) come first.
    expect(names(await list("sort=for-you&showNsfw=true", person.cookie)).slice(0, 3)).toEqual(["Ghoul", "Butcher", "Slasher"]);
  });

  it("answers unknown modes and too many hidden tags with a 400 in the JSON error shape", async () => {
    const bad = async (query: string, error: string) => {
      const res = await exports.default.fetch(`http://localhost/api/characters?${query}`);
      expect(res.status, query).toBe(400);
      expect(await res.json()).toMatchObject({ code: "validation_failed", error });
    };
    await bad("tagMode=some", "tagMode must be one of all, any");
    await bad(`excludeTags=${Array.from({ length: 51 }, (_, i) => `t${i}`).join(",")}`, "Exclude at most 50 tags");
  });

  it("reads excludeTags as a set: order, case and repeats do not change the query", () => {
    const a = catalogQuerySchema.parse({ excludeTags: "Gore, horror,gore" });
    const b = catalogQuerySchema.parse({ excludeTags: "horror,gore" });
    expect(a).toEqual(b);
    expect(a.excludeTags).toEqual(["gore", "horror"]);
    expect(catalogQuerySchema.parse({}).tagMode).toBe("all");
  });
});

describe("GET /api/characters — tag filters agree with a model of the catalog", () => {
  const TAGS = ["t0", "t1", "t2", "t3", "t4"];
  interface Model {
    name: string;
    tags: string[];
    isNsfw: boolean;
    isActive: boolean;
    trendingScore: number;
    id: number;
  }
  let model: Model[];

  beforeEach(async () => {
    model = [];
    // A deterministic mix: every tag combination appears, with ties in the score.
    for (let i = 0; i < 40; i++) {
      const tags = TAGS.filter((_, t) => ((i * 7 + 3) >> t) % 3 === 0);
      const row = { name: `M${i}`, tags, isNsfw: i % 5 === 0, isActive: i % 11 !== 4, trendingScore: i % 6 };
      const id = await insertCharacter(row);
      model.push({ ...row, id });
    }
  });

  const expected = (include: string[], mode: "all" | "any", exclude: string[], showNsfw: boolean) =>
    model
      .filter((c) => c.isActive && (showNsfw || !c.isNsfw))
      .filter((c) => include.length === 0 || (mode === "all" ? include.every((t) => c.tags.includes(t)) : include.some((t) => c.tags.includes(t))))
      .filter((c) => !exclude.some((t) => c.tags.includes(t)))
      .sort((a, b) => b.trendingScore - a.trendingScore || b.id - a.id)
      .map((c) => c.name);

  const excludes = [[], ["t1"], ["t2", "t4"], ["t0", "t3", "t4"], ["missing"]];
  it.each([[[]], [["t0"]], [["t1", "t2"]], [["t0", "t3", "t4"]], [["t2", "missing"]]])(
    "selected %j: every hidden set, mode and NSFW setting, with both query plans, For You and by HTTP",
    async (include: string[]) => {
      const person = await signIn();
      let checked = 0;
      for (const exclude of excludes) {
        for (const mode of ["all", "any"] as const) {
          for (const showNsfw of [false, true]) {
            const params = new URLSearchParams({ sort: "trending", limit: "100", tagMode: mode, showNsfw: String(showNsfw) });
            if (include.length) params.set("tags", include.join(","));
            if (exclude.length) params.set("excludeTags", exclude.join(","));
            const want = expected(include.filter((t) => !exclude.includes(t)), mode, exclude, showNsfw);
            // All of with a hidden selected tag, or a missing one, matches nothing; so does any of
            // when every selected tag is hidden.
            const none =
              (mode === "all" && include.some((t) => exclude.includes(t) || t === "missing")) ||
              (include.length > 0 && include.every((t) => exclude.includes(t)));
            const label = params.toString();
            const query = catalogQuerySchema.parse(Object.fromEntries(params));
            for (const rareTagThreshold of [Number.MAX_SAFE_INTEGER, -1]) {
              const got = await listCharacters(env.DB, query, { rareTagThreshold });
              expect(names(got), `${label} threshold ${rareTagThreshold}`).toEqual(none ? [] : want);
              expect(got.total, `${label} threshold ${rareTagThreshold}`).toBe(none ? 0 : want.length);
              // A signed-in person without history: For You is trending, through its own statement.
              const forYou = await listCharacters(env.DB, { ...query, sort: "for-you" }, { rareTagThreshold, userId: person.id });
              expect(names(forYou), `${label} for-you threshold ${rareTagThreshold}`).toEqual(none ? [] : want);
            }
            const http = await list(label);
            expect(names(http), label).toEqual(none ? [] : want);
            expect(http.total, label).toBe(none ? 0 : want.length);
            // Pages of 3 join up to the whole list.
            const paged: string[] = [];
            for (let offset = 0; offset < http.total; offset += 3) {
              params.set("limit", "3");
              params.set("offset", String(offset));
              paged.push(...names(await list(params.toString())));
            }
            expect(paged, label).toEqual(names(http));
            checked += 1;
          }
        }
      }
      expect(checked).toBe(20);
    },
  );
});

describe("/api/profile/hidden-tags", () => {
  const call = (user: TestUser | null, method: "GET" | "PUT", body?: unknown) =>
    exports.default.fetch("http://localhost/api/profile/hidden-tags", {
      method,
      headers: { ...(user ? { cookie: user.cookie } : {}), ...(body !== undefined ? { "content-type": "application/json" } : {}) },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });

  it("answers a visitor's GET and PUT with 401 and stores nothing", async () => {
    const hiding = () => env.DB.prepare("SELECT count(*) AS n FROM users WHERE hidden_tags != '[]'").first("n");
    const before = await hiding();
    for (const res of [await call(null, "GET"), await call(null, "PUT", { tags: ["gore"] })]) {
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: "Unauthorized", code: "unauthorized" });
    }
    expect(await hiding()).toBe(before);
  });

  it("starts empty, keeps the owner's list normalised, and replaces it whole", async () => {
    const owner = await signIn();
    const empty = await call(owner, "GET");
    expect(empty.status).toBe(200);
    expect(empty.headers.get("cache-control")).toBe("private, no-store");
    expect(await empty.json()).toEqual({ tags: [] });

    const saved = await call(owner, "PUT", { tags: ["Gore", "horror ", "gore", "slice of life"] });
    expect(saved.status).toBe(200);
    expect(await saved.json()).toEqual({ tags: ["gore", "horror", "slice of life"] });
    expect(await (await call(owner, "GET")).json()).toEqual({ tags: ["gore", "horror", "slice of life"] });

    expect(await (await call(owner, "PUT", { tags: ["horror"] })).json()).toEqual({ tags: ["horror"] });
    expect(await (await call(owner, "PUT", { tags: [] })).json()).toEqual({ tags: [] });
    expect(await (await call(owner, "GET")).json()).toEqual({ tags: [] });
  });

  it("keeps each person's list their own: another person reads and writes only theirs", async () => {
    const owner = await signIn();
    const other = await signIn();
    await call(owner, "PUT", { tags: ["gore"] });
    expect(await (await call(other, "GET")).json()).toEqual({ tags: [] });
    expect((await call(other, "PUT", { tags: ["romance"] })).status).toBe(200);
    expect(await (await call(owner, "GET")).json()).toEqual({ tags: ["gore"] });
    expect(await (await call(other, "GET")).json()).toEqual({ tags: ["romance"] });
  });

  it("refuses bad lists with 400 in the JSON error shape and keeps the stored one", async () => {
    const owner = await signIn();
    await call(owner, "PUT", { tags: ["gore"] });
    const cases: [unknown, string][] = [
      [{ tags: "gore" }, "Tags must be a list of names"],
      [{ tags: ["x"] }, "Tags must be at least 2 characters"],
      [{ tags: ["a,b"] }, "Tags may contain only letters, numbers, spaces and dashes"],
      [{ tags: Array.from({ length: 51 }, (_, i) => `tag ${i}`) }, "Hide at most 50 tags"],
      [[], "Send the hidden tags as { tags: [...] }"],
    ];
    for (const [body, error] of cases) {
      const res = await call(owner, "PUT", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(await res.json()).toMatchObject({ code: "validation_failed", error });
    }
    const malformed = await call(owner, "PUT", "{not json");
    expect(malformed.status).toBe(400);
    expect(await (await call(owner, "GET")).json()).toEqual({ tags: ["gore"] });
  });
});
