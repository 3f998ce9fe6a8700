/**
 * The catalog API as a caller sees it: GET /api/tags, GET /api/characters
 * (filters, tabs, search, NSFW and inactive hiding, pagination, totals, bad
 * input) and GET /api/characters/:id, against real D1 with our migrations.
 */
import { env, exports } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import type { CharacterListResponse, CharacterSummary, Tag } from "../../schema/api.ts";
import { catalogQuerySchema } from "../../schema/inputs.ts";
import { listCharacters } from "../lib/catalog.ts";
import { toFtsQuery } from "../lib/catalog-search.ts";
import { clearCatalog, insertCharacter, viewCountOnceCounted } from "./fixtures.ts";

const DAY = 24 * 60 * 60 * 1000;

async function get(path: string): Promise<Response> {
  return exports.default.fetch(`http://localhost${path}`);
}

async function list(query = ""): Promise<CharacterListResponse> {
  const res = await get(`/api/characters${query ? `?${query}` : ""}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
}

const names = (body: { characters: CharacterSummary[] }) => body.characters.map((c) => c.name);

beforeEach(clearCatalog);

describe("GET /api/tags?popular=true", () => {
  it("lists tags of active characters, most used first, with exact counts", async () => {
    await insertCharacter({ tags: ["fantasy", "romance"] });
    await insertCharacter({ tags: ["fantasy"] });
    await insertCharacter({ tags: ["fantasy", "horror"], isNsfw: true });
    await insertCharacter({ tags: ["hidden-only"], isActive: false });

    const res = await get("/api/tags?popular=true");
    expect(res.status).toBe(200);
    const tags = (await res.json()) as Tag[];
    expect(tags.map((t) => [t.name, t.count])).toEqual([
      ["fantasy", 3],
      ["horror", 1],
      ["romance", 1],
    ]);
    expect(typeof tags[0]!.id).toBe("number");
  });

  it("follows a character being deactivated, reactivated and deleted", async () => {
    const id = await insertCharacter({ tags: ["noir", "mystery"] });
    await insertCharacter({ tags: ["mystery"] });
    const counts = async () =>
      Object.fromEntries(((await (await get("/api/tags?popular=true")).json()) as Tag[]).map((t) => [t.name, t.count]));

    expect(await counts()).toEqual({ mystery: 2, noir: 1 });
    await env.DB.prepare("UPDATE characters SET is_active = 0 WHERE id = ?").bind(id).run();
    expect(await counts()).toEqual({ mystery: 1 });
    await env.DB.prepare("UPDATE characters SET is_active = 1 WHERE id = ?").bind(id).run();
    expect(await counts()).toEqual({ mystery: 2, noir: 1 });
    await env.DB.prepare("DELETE FROM characters WHERE id = ?").bind(id).run();
    expect(await counts()).toEqual({ mystery: 1 });
  });

  it("with showNsfw=false counts only non-NSFW characters, leaves out NSFW-only tags, and each count is what the tag finds", async () => {
    await insertCharacter({ tags: ["romance", "drama"] });
    await insertCharacter({ tags: ["romance"], isNsfw: true });
    await insertCharacter({ tags: ["romance", "spicy"], isNsfw: true });
    await insertCharacter({ tags: ["spicy"], isNsfw: true });

    const safe = (await (await get("/api/tags?popular=true&showNsfw=false")).json()) as Tag[];
    expect(safe.map((t) => [t.name, t.count])).toEqual([
      ["drama", 1],
      ["romance", 1],
    ]);
    for (const tag of safe) expect((await list(`tags=${tag.name}&showNsfw=false&nsfw=false`)).total).toBe(tag.count);
    const all = (await (await get("/api/tags?popular=true&showNsfw=true")).json()) as Tag[];
    expect(all.map((t) => [t.name, t.count])).toEqual([
      ["romance", 3],
      ["spicy", 2],
      ["drama", 1],
    ]);
    expect(await (await get("/api/tags?popular=true")).json()).toEqual(all);
    const bad = await get("/api/tags?popular=true&showNsfw=maybe");
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: "validation_failed", error: 'showNsfw must be "true" or "false"' });
  });

  it("answers a bad popular value with a 400 in the JSON error shape", async () => {
    const res = await get("/api/tags?popular=maybe");
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "validation_failed", error: 'popular must be "true" or "false"' });
  });
});

describe("GET /api/characters — visibility", () => {
  it("hides NSFW characters unless showNsfw=true, and never lists inactive ones", async () => {
    await insertCharacter({ name: "Safe" });
    await insertCharacter({ name: "Spicy", isNsfw: true });
    await insertCharacter({ name: "Retired", isActive: false });
    await insertCharacter({ name: "Retired Spicy", isActive: false, isNsfw: true });

    expect(await list()).toMatchObject({ total: 1, characters: [{ name: "Safe" }] });
    expect((await list("showNsfw=false&nsfw=false")).total).toBe(1);
    const all = await list("showNsfw=true");
    expect(all.total).toBe(2);
    expect(names(all).sort()).toEqual(["Safe", "Spicy"]);
    expect(all.characters.find((c) => c.name === "Spicy")!.isNsfw).toBe(true);
  });

  it("returns the SPEC.md §3 fields of each character", async () => {
    await insertCharacter({ name: "Fields", tags: ["space", "robot"], creator: "inkwell" });
    const [c] = (await list()).characters;
    expect(c).toMatchObject({
      name: "Fields",
      creator: "inkwell",
      tags: ["space", "robot"],
      isNsfw: false,
      isActive: true,
      viewCount: 0,
      rating: 80,
      favoriteCount: 0,
      messageCount: 0,
      commentCount: 0,
    });
    expect(typeof c!.id).toBe("number");
    expect(new Date(c!.createdAt).toISOString()).toBe(c!.createdAt);
  });
});

describe("GET /api/characters — search by creator", () => {
  it("finds a creator's characters by their shown name, whole or begun, with the NSFW setting respected", async () => {
    await insertCharacter({ name: "Lantern Keeper", creator: "quillmoth" });
    await insertCharacter({ name: "Harbour Ghost", creator: "quillmoth", isNsfw: true });
    await insertCharacter({ name: "Quill Sharpener", creator: "someone_else" });
    await insertCharacter({ name: "Unrelated", creator: "inkwell" });

    expect(names(await list("search=quillmoth")).sort()).toEqual(["Lantern Keeper"]);
    expect(names(await list("search=quillmoth&showNsfw=true")).sort()).toEqual(["Harbour Ghost", "Lantern Keeper"]);
    expect(names(await list("search=quillm")).sort()).toEqual(["Lantern Keeper"]);
    // A name's own words still match; a creator word narrows with the others.
    expect(names(await list("search=quill")).sort()).toEqual(["Lantern Keeper", "Quill Sharpener"]);
    expect(names(await list("search=quillmoth%20lantern"))).toEqual(["Lantern Keeper"]);
    // A handle as shown, "@" and "_" included.
    await insertCharacter({ name: "Tide Reader", creator: "mira_42" });
    expect(names(await list(`search=${encodeURIComponent("@mira_42")}`))).toEqual(["Tide Reader"]);
  });

  it("follows a change of the shown creator name", async () => {
    const id = await insertCharacter({ name: "Renamed", creator: "oldpen" });
    expect((await list("search=oldpen")).total).toBe(1);
    await env.DB.prepare("UPDATE characters SET creator = 'newpen' WHERE id = ?").bind(id).run();
    expect((await list("search=oldpen")).total).toBe(0);
    expect(names(await list("search=newpen"))).toEqual(["Renamed"]);
  });
});

describe("GET /api/characters — tabs", () => {
  beforeEach(async () => {
    const now = Date.now();
    await insertCharacter({ name: "Old Hot", trendingScore: 50, createdAt: now - 30 * DAY, favoriteCount: 5, messageCount: 1 });
    await insertCharacter({ name: "New Cold", trendingScore: 10, createdAt: now, favoriteCount: 1, messageCount: 100 });
    await insertCharacter({ name: "Mid", trendingScore: 30, createdAt: now - DAY, favoriteCount: 5, messageCount: 7 });
  });

  it("trending orders by trending score", async () => {
    expect(names(await list("sort=trending"))).toEqual(["Old Hot", "Mid", "New Cold"]);
  });

  it("for-you (the default) falls back to trending for visitors", async () => {
    expect(names(await list())).toEqual(["Old Hot", "Mid", "New Cold"]);
    expect(names(await list("sort=for-you"))).toEqual(["Old Hot", "Mid", "New Cold"]);
  });

  it("new orders by creation time, newest first", async () => {
    expect(names(await list("sort=new"))).toEqual(["New Cold", "Mid", "Old Hot"]);
  });

  it("popular orders by favorites, then messages", async () => {
    expect(names(await list("sort=popular"))).toEqual(["Mid", "Old Hot", "New Cold"]);
  });
});

describe("GET /api/characters — tags", () => {
  beforeEach(async () => {
    await insertCharacter({ name: "Elf Mage", tags: ["fantasy", "magic", "elf"] });
    await insertCharacter({ name: "Court Wizard", tags: ["fantasy", "magic"] });
    await insertCharacter({ name: "Knight", tags: ["fantasy"] });
    await insertCharacter({ name: "Android", tags: ["sci-fi"] });
    await insertCharacter({ name: "Witch", tags: ["fantasy", "magic"], isNsfw: true });
  });

  it("one tag lists characters carrying it, with an exact total", async () => {
    const body = await list("tags=magic");
    expect(names(body).sort()).toEqual(["Court Wizard", "Elf Mage"]);
    expect(body.total).toBe(2);
  });

  it("several tags require all of them, in any order and any case", async () => {
    expect(names(await list("tags=magic,elf"))).toEqual(["Elf Mage"]);
    expect((await list("tags=ELF, Magic")).total).toBe(1);
    expect((await list("tags=fantasy,magic&showNsfw=true")).total).toBe(3);
  });

  it("an unknown tag matches nothing", async () => {
    expect(await list("tags=fantasy,nonexistent")).toEqual({ characters: [], total: 0 });
  });

  it("empty tag entries are ignored", async () => {
    expect((await list("tags=,fantasy,,")).total).toBe(3);
    expect((await list("tags=")).total).toBe(4);
  });

  it("both query plans (rare tag first, sort index first) give the same pages and totals", async () => {
    for (const tags of [["fantasy"], ["fantasy", "magic"], ["magic", "elf"]]) {
      for (const sort of ["trending", "new", "popular"] as const) {
        for (const showNsfw of ["true", "false"] as const) {
          const query = catalogQuerySchema.parse({ tags: tags.join(","), sort, showNsfw });
          const rare = await listCharacters(env.DB, query, { rareTagThreshold: Number.MAX_SAFE_INTEGER });
          const walk = await listCharacters(env.DB, query, { rareTagThreshold: -1 });
          expect(walk).toEqual(rare);
        }
      }
    }
  });
});

describe("GET /api/characters — search", () => {
  beforeEach(async () => {
    await insertCharacter({ name: "Captain Mirelle", description: "A pirate captain who sails the storm seas." });
    await insertCharacter({ name: "Storm Oracle", description: "She reads the future in lightning." });
    await insertCharacter({ name: "Baker Tom", description: "Cheerful baker in a quiet village." });
    await insertCharacter({ name: "Stormy Nights", description: "A noir detective story.", tags: ["noir"] });
    await insertCharacter({ name: "Hidden Storm", description: "An inactive storm caller.", isActive: false });
  });

  it("matches words as prefixes in name, description and tags, ranking names first", async () => {
    const body = await list("search=storm");
    expect(body.total).toBe(3);
    // Name matches outrank a description-only match.
    expect(names(body).slice(0, 2).sort()).toEqual(["Storm Oracle", "Stormy Nights"]);
    expect(names(body)[2]).toBe("Captain Mirelle");
    expect(names(await list("search=bak"))).toEqual(["Baker Tom"]);
    expect(names(await list("search=noir"))).toEqual(["Stormy Nights"]);
  });

  it("requires every word", async () => {
    expect(names(await list("search=pirate%20storm"))).toEqual(["Captain Mirelle"]);
  });

  it("combines with tags and the NSFW filter", async () => {
    expect(names(await list("search=storm&tags=noir"))).toEqual(["Stormy Nights"]);
  });

  it("treats FTS5 syntax a person may type as plain text, never an error", async () => {
    for (const text of ['"storm', "storm*", "(storm", "storm)", "NEAR(storm", "name:storm", "-storm", "storm AND", "OR", "^storm", "'; DROP TABLE characters; --", "💥", "***", "\\"]) {
      const res = await get(`/api/characters?search=${encodeURIComponent(text)}`);
      expect(res.status, text).toBe(200);
      const body = (await res.json()) as CharacterListResponse;
      expect(Array.isArray(body.characters)).toBe(true);
    }
    expect((await list(`search=${encodeURIComponent('"storm*)')}`)).total).toBe(3);
    expect(await list("search=***")).toEqual({ characters: [], total: 0 });
  });

  it("builds FTS5 queries only from letters and digits, in the text columns", () => {
    expect(toFtsQuery('Elf "mage" (NEAR)*')).toBe('{name description tags creator} : ("elf"* AND "mage"* AND "near"*)');
    expect(toFtsQuery("  ***  ")).toBeNull();
    expect(toFtsQuery("café")).toBe('{name description tags creator} : ("café"*)');
    // Stopwords are dropped unless nothing else is left.
    expect(toFtsQuery("the witch of the woods")).toBe('{name description tags creator} : ("witch"* AND "woods"*)');
    expect(toFtsQuery("the")).toBe('{name description tags creator} : ("the"*)');
  });

  it("never matches the filter columns with typed words", async () => {
    await insertCharacter({ name: "Hidden Nsfw", description: "Spicy storm.", isNsfw: true });
    await insertCharacter({ name: "Inactive one", description: "Retired storm.", isActive: false });
    expect((await list("search=nsfw")).total).toBe(0);
    expect((await list("search=inactive")).total).toBe(0);
    expect((await list("search=nsfw&showNsfw=true")).total).toBe(1);
  });

  it("broad searches list name and tag matches first, then the rest newest first, without gaps", async () => {
    await insertCharacter({ name: "Quiet Harbor", description: "A storm keeper, older." });
    await insertCharacter({ name: "Loud Harbor", description: "Another storm keeper." });
    await insertCharacter({ name: "Tagged", description: "Nothing here.", tags: ["storm-chaser"] });
    const query = (offset: number, limit: number) =>
      catalogQuerySchema.parse({ search: "storm", offset: String(offset), limit: String(limit) });
    // Limit 2: six matches is "broad"; three name/tag matches are ordered newest first too.
    const broad = await listCharacters(env.DB, query(0, 100), { searchRankLimit: 2 });
    expect(broad.total).toBe(6);
    expect(names(broad)).toEqual(["Tagged", "Stormy Nights", "Storm Oracle", "Loud Harbor", "Quiet Harbor", "Captain Mirelle"]);
    // Limit 3: the name/tag tier is ranked by bm25 instead; the rest stays newest first.
    const ranked = await listCharacters(env.DB, query(0, 100), { searchRankLimit: 3 });
    expect(new Set(names(ranked).slice(0, 3))).toEqual(new Set(["Tagged", "Stormy Nights", "Storm Oracle"]));
    expect(names(ranked).slice(3)).toEqual(["Loud Harbor", "Quiet Harbor", "Captain Mirelle"]);
    const paged: string[] = [];
    for (let offset = 0; offset < 8; offset += 4) {
      const page = await listCharacters(env.DB, query(offset, 4), { searchRankLimit: 2 });
      expect(page.total).toBe(6);
      paged.push(...names(page));
    }
    expect(paged).toEqual(names(broad));
  });

  it("keeps the total right past the last page", async () => {
    expect(await list("search=storm&offset=10")).toEqual({ characters: [], total: 3 });
  });
});

describe("tag pair counters", () => {
  it("always equal the characters carrying both tags, through inserts, toggles, retags and deletes", async () => {
    const check = async () => {
      const expected = await env.DB.prepare(
        `SELECT a.tag_id AS a, b.tag_id AS b, sum(a.is_listed) AS n, sum(a.is_listed AND NOT a.is_nsfw) AS sfw
         FROM character_tags a JOIN character_tags b ON b.character_id = a.character_id AND b.tag_id > a.tag_id
         GROUP BY 1, 2 ORDER BY 1, 2`,
      ).all();
      const actual = await env.DB.prepare(
        "SELECT tag_a AS a, tag_b AS b, count AS n, sfw_count AS sfw FROM tag_pairs WHERE count > 0 OR sfw_count > 0 ORDER BY 1, 2",
      ).all();
      expect(actual.results).toEqual(expected.results.filter((r) => Number(r.n) > 0 || Number(r.sfw) > 0));
    };
    const a = await insertCharacter({ tags: ["x1", "x2", "x3"] });
    const b = await insertCharacter({ tags: ["x2", "x3"], isNsfw: true });
    await insertCharacter({ tags: ["x1", "x3"], isActive: false });
    await check();
    expect((await list("tags=x2,x3")).total).toBe(1);
    expect((await list("tags=x3,x2&showNsfw=true")).total).toBe(2);
    await env.DB.prepare("UPDATE characters SET is_active = 0 WHERE id = ?").bind(a).run();
    await check();
    expect((await list("tags=x2,x3&showNsfw=true")).total).toBe(1);
    await env.DB.prepare("UPDATE characters SET is_active = 1, is_nsfw = 1 WHERE id = ?").bind(a).run();
    await check();
    await env.DB.prepare("DELETE FROM character_tags WHERE character_id = ? AND tag_id = (SELECT id FROM tags WHERE name = 'x2')").bind(b).run();
    await check();
    await env.DB.prepare("DELETE FROM characters WHERE id = ?").bind(a).run();
    await check();
    expect((await list("tags=x1,x3&showNsfw=true")).total).toBe(0);
  });
});

describe("GET /api/characters — pagination", () => {
  it("pages never repeat or skip a character, for every tab and filter", async () => {
    const now = Date.now();
    // Many ties on purpose: equal scores, dates and counts.
    for (let i = 0; i < 23; i++) {
      await insertCharacter({
        name: `P${i}`,
        tags: i % 2 === 0 ? ["even", "all"] : ["all"],
        trendingScore: i % 3,
        createdAt: now - (i % 4) * DAY,
        favoriteCount: i % 2,
        messageCount: i % 5,
        isNsfw: i % 7 === 0,
      });
    }
    const shapes = ["", "tags=all", "tags=even", "tags=all,even", "search=p", "showNsfw=true", "showNsfw=true&tags=even"];
    for (const sort of ["for-you", "trending", "new", "popular"]) {
      for (const shape of shapes) {
        const full = await list(`${shape}&sort=${sort}&limit=100`);
        const seen: string[] = [];
        for (let offset = 0; offset < full.total + 5; offset += 4) {
          const page = await list(`${shape}&sort=${sort}&limit=4&offset=${offset}`);
          expect(page.total, `${shape} ${sort}`).toBe(full.total);
          seen.push(...names(page));
        }
        expect(seen, `${shape} ${sort}`).toEqual(names(full));
        expect(new Set(seen).size).toBe(full.total);
      }
    }
  });

  it("limit defaults to 20", async () => {
    for (let i = 0; i < 25; i++) await insertCharacter();
    const body = await list();
    expect(body.characters).toHaveLength(20);
    expect(body.total).toBe(25);
    expect((await list("offset=20")).characters).toHaveLength(5);
  });
});

describe("GET /api/characters — bad input", () => {
  const cases: [string, string][] = [
    ["limit=0", "limit must be between 1 and 100"],
    ["limit=101", "limit must be between 1 and 100"],
    ["limit=abc", "limit must be a whole number"],
    ["limit=1.5", "limit must be a whole number"],
    ["offset=-1", "offset must be a whole number"],
    ["offset=10001", "offset must be between 0 and 10000"],
    ["offset=1e3", "offset must be a whole number"],
    ["sort=best", "sort must be one of for-you, trending, new, popular"],
    ["showNsfw=yes", 'showNsfw must be "true" or "false"'],
    ["nsfw=0", 'nsfw must be "true" or "false"'],
    ["tags=a1,a2,a3,a4,a5,a6,a7,a8,a9,a10,a11", "Filter by at most 10 tags"],
  ];
  for (const [query, message] of cases) {
    it(`${query.slice(0, 40)} → 400 "${message}"`, async () => {
      const res = await get(`/api/characters?${query}`);
      expect(res.status).toBe(400);
      expect(res.headers.get("content-type")).toMatch(/application\/json/);
      const body = await res.json();
      expect(body).toMatchObject({ error: message, code: "validation_failed" });
      expect((body as { issues: unknown[] }).issues.length).toBeGreaterThan(0);
    });
  }

  it("repeated parameters are a 400, not a 500", async () => {
    const res = await get("/api/characters?limit=5&limit=6");
    expect([200, 400]).toContain(res.status);
  });
});

describe("GET /api/characters/:id", () => {
  it("returns the character with every card field; the views queue counts the view", async () => {
    const id = await insertCharacter({ name: "Viewed", tags: ["drama"] });
    const first = await get(`/api/characters/${id}`);
    expect(first.status).toBe(200);
    const character = (await first.json()) as Record<string, unknown>;
    // The read itself writes nothing: the view is counted after it (worker/lib/views.ts).
    expect(character).toMatchObject({ id, name: "Viewed", tags: ["drama"], viewCount: 0, greeting: "Hello there." });
    for (const field of ["alternateGreetings", "systemPrompt", "postHistoryInstructions", "creatorNotes", "characterBook", "extensions", "updatedAt"]) {
      expect(character).toHaveProperty(field);
    }
    expect(await viewCountOnceCounted(id, 1)).toBe(1);
    const second = (await (await get(`/api/characters/${id}`)).json()) as { viewCount: number };
    expect(second.viewCount).toBe(1);
    expect(await viewCountOnceCounted(id, 2)).toBe(2);
  });

  it("answers 404 JSON for unknown, malformed and inactive ids", async () => {
    const inactive = await insertCharacter({ isActive: false });
    for (const id of ["999999", "abc", "0", "-1", "1.5", "1e3", "99999999999999999999999", String(inactive)]) {
      const res = await get(`/api/characters/${id}`);
      expect(res.status, id).toBe(404);
      expect(await res.json()).toEqual({ error: "Character not found", code: "not_found" });
    }
    // Once a later view has been counted, the refused ones are known not to have been.
    const shown = await insertCharacter();
    expect((await get(`/api/characters/${shown}`)).status).toBe(200);
    expect(await viewCountOnceCounted(shown, 1)).toBe(1);
    const row = await env.DB.prepare("SELECT view_count FROM characters WHERE id = ?").bind(inactive).first();
    expect(row).toEqual({ view_count: 0 });
  });

  it("does not count the owner's own views, but shows them their inactive character", async () => {
    const { signIn } = await import("./fixtures.ts");
    const owner = await signIn();
    const id = await insertCharacter({ creatorId: owner.id });
    const view = (cookie?: string) => exports.default.fetch(`http://localhost/api/characters/${id}`, { headers: cookie ? { cookie } : {} });
    expect(((await (await view(owner.cookie)).json()) as { viewCount: number }).viewCount).toBe(0);
    expect((await view()).status).toBe(200);
    // The owner's view came first: had it been sent, it would be counted by now too.
    expect(await viewCountOnceCounted(id, 1)).toBe(1);
    expect(((await (await view(owner.cookie)).json()) as { viewCount: number }).viewCount).toBe(1);
    await env.DB.prepare("UPDATE characters SET is_active = 0 WHERE id = ?").bind(id).run();
    expect((await view(owner.cookie)).status).toBe(200);
    expect((await view()).status).toBe(404);
  });

  it("shows an NSFW character by id (the page shows the badge)", async () => {
    const id = await insertCharacter({ isNsfw: true });
    const res = await get(`/api/characters/${id}`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { isNsfw: boolean }).isNsfw).toBe(true);
  });
});

describe("every response", () => {
  it("carries the security headers", async () => {
    for (const path of ["/api/characters", "/api/nope", "/api/characters/abc"]) {
      const res = await get(path);
      const csp = res.headers.get("content-security-policy") ?? "";
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain("unsafe-eval");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    }
  });

  it("unknown API paths are 404 JSON", async () => {
    const res = await get("/api/does-not-exist");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "Not found", code: "not_found" });
  });
});
