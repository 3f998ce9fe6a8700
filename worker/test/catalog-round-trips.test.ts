/**
 * One D1 round trip per catalog answer (issue 27, docs/decisions/0021-reads-at-the-limit.md),
 * signed in or not, counted by the Worker itself (`Server-Timing: d1;desc="… trips=T"`,
 * worker/lib/d1-counter.ts), and a signed-in answer that is the visitor's
 * page plus the person's own flags: same ids, same order, same total, with
 * `isFavorited` exact.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { CatalogCharacter } from "../../schema/api.ts";
import { sha256Hex } from "../lib/sessions.ts";
import { call, json } from "./creator-api.ts";
import { insertCharacter, signIn, type TestUser } from "./fixtures.ts";

/** The round trips the request took, from Server-Timing. */
function trips(res: Response): number {
  const m = /d1;desc="reads=\d+ writes=\d+ trips=(\d+)"/.exec(res.headers.get("server-timing") ?? "");
  if (!m) throw new Error(`no round trips in Server-Timing: ${res.headers.get("server-timing")}`);
  return Number(m[1]);
}

const run = `rt${Date.now().toString(36)}`;
const tag = (name: string) => `${run}-${name}`;

let reader: TestUser;
let creator: TestUser;
const favorited = new Set<number>();

beforeAll(async () => {
  creator = await signIn();
  reader = await signIn();
  const ids: number[] = [];
  for (let i = 0; i < 12; i++) {
    ids.push(
      await insertCharacter({
        name: `Lantern keeper ${run} ${i}`,
        description: i % 2 ? "A ruthless harbour pilot." : "A gentle lighthouse keeper.",
        tags: [tag("sea"), ...(i % 3 === 0 ? [tag("storm")] : []), ...(i % 4 === 0 ? [tag("night")] : [])],
        trendingScore: 100 + i,
        favoriteCount: i % 5,
        isNsfw: i === 7,
        creatorId: creator.id,
        creator: creator.username,
      }),
    );
  }
  for (const id of [ids[0]!, ids[3]!, ids[8]!]) {
    await json(await call(`/api/characters/${id}/favorite`, { method: "POST", user: reader }), 200);
    favorited.add(id);
  }
  await json(await call(`/api/users/${encodeURIComponent(creator.username)}/follow`, { method: "PUT", user: reader }), 200);
});

/** Catalog queries of every kind a page asks for (tabs, tags, hidden tags, search, creator, following). */
const shapes = () => [
  "sort=trending",
  "sort=new",
  "sort=popular",
  "sort=for-you",
  "sort=trending&showNsfw=true&offset=2&limit=5",
  `tags=${tag("storm")}`,
  `tags=${tag("storm")},${tag("night")}`,
  `tags=${tag("storm")},${tag("night")}&tagMode=any`,
  `tags=${tag("sea")},${tag("storm")},${tag("night")}&sort=new`,
  `excludeTags=${tag("storm")}`,
  `excludeTags=${tag("storm")},${tag("night")}&sort=popular`,
  `tags=${tag("sea")}&excludeTags=${tag("night")}`,
  `tags=${tag("missing")}`,
  `tags=${tag("sea")},${tag("missing")}&tagMode=any`,
  `search=lantern ${run}`,
  `search=ruthless ${run}&tags=${tag("sea")}`,
  `search=nothing-matches-${run}`,
  `creator=${encodeURIComponent(creator.username)}&sort=new`,
];

describe("one D1 round trip per catalog answer", () => {
  it("for a visitor, whatever the query", async () => {
    for (const q of shapes()) {
      const res = await call(`/api/characters?${q}`);
      await json(res, 200);
      expect(trips(res), q).toBeLessThanOrEqual(1);
    }
  });

  it("for a signed-in person too: the session is looked up in the list's own batch", async () => {
    for (const q of [...shapes(), "following=true", `following=true&tags=${tag("storm")}`]) {
      const res = await call(`/api/characters?${q}`, { user: reader });
      const body = await json<{ characters: CatalogCharacter[] }>(res, 200);
      expect(trips(res), q).toBe(1);
      for (const c of body.characters) expect(c.isFavorited, q).toBe(favorited.has(c.id));
    }
  });

  it("for a signed-in person with hidden tags on For You (the web app sends them as excludeTags)", async () => {
    const res = await call(`/api/characters?sort=for-you&excludeTags=${tag("night")}`, { user: reader });
    const body = await json<{ characters: CatalogCharacter[] }>(res, 200);
    expect(trips(res)).toBe(1);
    expect(body.characters.length).toBeGreaterThan(0);
    expect(body.characters.some((c) => c.tags.includes(tag("night")))).toBe(false);
  });
});

describe("a signed-in answer is the visitor's page plus the person's flags", () => {
  it("same ids, same order, same total on every shape that is not personal; isFavorited exact", async () => {
    // For You (also the default when no sort is given) is personal by design (picks first); a
    // person without history gets the visitor's For You.
    const fresh = await signIn();
    const forYou = (q: string) => !/(^|&)sort=/.test(q) || /(^|&)sort=for-you(&|$)/.test(q);
    for (const q of shapes()) {
      const visitor = await json<{ characters: CatalogCharacter[]; total: number }>(await call(`/api/characters?${q}`), 200);
      expect(visitor.characters.every((c) => c.isFavorited === undefined), q).toBe(true);
      for (const person of forYou(q) ? [fresh] : [reader, fresh]) {
        const signedIn = await json<{ characters: CatalogCharacter[]; total: number }>(
          await call(`/api/characters?${q}`, { user: person }),
          200,
        );
        expect(signedIn.characters.map((c) => c.id), `${q} as ${person.username}`).toEqual(visitor.characters.map((c) => c.id));
        expect(signedIn.total, q).toBe(visitor.total);
        const mine = person === reader ? favorited : new Set<number>();
        expect(
          signedIn.characters.map(({ isFavorited, ...rest }) => ({ ...rest, isFavorited: isFavorited === true })),
          `${q} as ${person.username}`,
        ).toEqual(visitor.characters.map((c) => ({ ...c, isFavorited: mine.has(c.id) })));
      }
    }
  });

  it("For You puts the person's picks first, then the visitor's trending order without them", async () => {
    const visitor = await json<{ characters: CatalogCharacter[] }>(await call("/api/characters?sort=for-you&limit=100"), 200);
    const mine = await json<{ characters: CatalogCharacter[] }>(await call("/api/characters?sort=for-you&limit=100", { user: reader }), 200);
    const ids = mine.characters.map((c) => c.id);
    expect([...ids].sort()).toEqual(visitor.characters.map((c) => c.id).sort());
    const picks = ids.slice(0, ids.findIndex((id) => !mine.characters.find((c) => c.id === id)!.tags.includes(tag("sea"))));
    expect(picks.length).toBeGreaterThan(0);
    const rest = visitor.characters.map((c) => c.id).filter((id) => !picks.includes(id));
    expect(ids.slice(picks.length)).toEqual(rest);
  });

  it("a cookie that names nobody, an expired session and a suspended person's read as a visitor, in one round trip", async () => {
    const first = await json<{ characters: CatalogCharacter[] }>(await call("/api/characters?sort=new"), 200);
    const expired = await signIn();
    const token = expired.cookie.split("=")[1]!;
    await env.DB.prepare("UPDATE sessions SET expire = ? WHERE sid = ?").bind(Date.now() - 1000, await sha256Hex(token)).run();
    const suspended = await signIn();
    await env.DB.prepare("UPDATE users SET suspended_at = ? WHERE id = ?").bind(Date.now(), suspended.id).run();
    await env.DB.prepare("INSERT INTO favorites (character_id, user_id) VALUES (?, ?)").bind(first.characters[0]!.id, suspended.id).run();
    const visitor = await json<{ characters: CatalogCharacter[] }>(await call("/api/characters?sort=new"), 200);
    for (const cookie of ["fabled_session=" + "x".repeat(43), "fabled_session=short", expired.cookie, suspended.cookie]) {
      const res = await call("/api/characters?sort=new", { headers: { cookie } });
      const body = await json<{ characters: CatalogCharacter[] }>(res, 200);
      // The reads are one round trip; an expired session is also deleted (one write, after the answer).
      expect(trips(res), cookie).toBe(cookie === expired.cookie ? 2 : 1);
      expect(body.characters, cookie).toEqual(visitor.characters);
      const cleared = res.headers.getSetCookie().some((line) => /^fabled_session=;/.test(line) || /fabled_session=[^;]*;.*max-age=0/i.test(line));
      expect(cleared, cookie).toBe(cookie !== suspended.cookie);
    }
    // The Following tab needs a person: a suspended one gets 403, an unknown cookie 401.
    expect((await call("/api/characters?following=true", { headers: { cookie: suspended.cookie } })).status).toBe(403);
    expect((await call("/api/characters?following=true", { headers: { cookie: "fabled_session=" + "x".repeat(43) } })).status).toBe(401);
  });

  it("a session due for renewal gets its fresh cookie from the list, as from any other route", async () => {
    const person = await signIn();
    const token = person.cookie.split("=")[1]!;
    const sid = await sha256Hex(token);
    await env.DB.prepare("UPDATE sessions SET expire = ? WHERE sid = ?").bind(Date.now() + 2 * 24 * 60 * 60 * 1000, sid).run();
    const res = await call("/api/characters?sort=new", { user: person });
    await json(res, 200);
    const renewed = res.headers.getSetCookie().find((line) => line.startsWith(`fabled_session=${token}`));
    expect(renewed).toBeDefined();
    await expect
      .poll(async () => (await env.DB.prepare("SELECT expire FROM sessions WHERE sid = ?").bind(sid).first<number>("expire"))!)
      .toBeGreaterThan(Date.now() + 29 * 24 * 60 * 60 * 1000);
  });
});

describe("a character page in one D1 round trip", () => {
  it("for a visitor, a signed-in person and the owner; an inactive character is its owner's alone", async () => {
    const owner = await signIn();
    const listed = await insertCharacter({ name: `Page ${run} listed`, creatorId: owner.id, creator: owner.username });
    const hidden = await insertCharacter({ name: `Page ${run} hidden`, creatorId: owner.id, creator: owner.username, isActive: false });
    for (const user of [undefined, reader, owner]) {
      const res = await call(`/api/characters/${listed}`, { user });
      expect((await json<{ id: number; name: string }>(res, 200)).name).toBe(`Page ${run} listed`);
      expect(trips(res), user?.username ?? "visitor").toBe(1);
    }
    const own = await call(`/api/characters/${hidden}`, { user: owner });
    expect((await json<{ isActive: boolean }>(own, 200)).isActive).toBe(false);
    expect(trips(own)).toBe(1);
    for (const user of [undefined, reader]) {
      const res = await call(`/api/characters/${hidden}`, { user });
      expect(await json(res, 404)).toEqual({ error: "Character not found", code: "not_found" });
      expect(trips(res), user?.username ?? "visitor").toBe(1);
    }
  });

  it("a suspended owner's or an unknown cookie reads as a visitor: the inactive character is 404", async () => {
    const owner = await signIn();
    const hidden = await insertCharacter({ name: `Page ${run} suspended`, creatorId: owner.id, creator: owner.username, isActive: false });
    await env.DB.prepare("UPDATE users SET suspended_at = ? WHERE id = ?").bind(Date.now(), owner.id).run();
    for (const cookie of [owner.cookie, "fabled_session=" + "x".repeat(43)]) {
      const res = await call(`/api/characters/${hidden}`, { headers: { cookie } });
      expect(await json(res, 404), cookie).toEqual({ error: "Character not found", code: "not_found" });
      expect(trips(res), cookie).toBe(1);
    }
  });

  it("renews a session due for it, as every other route does", async () => {
    const person = await signIn();
    const token = person.cookie.split("=")[1]!;
    await env.DB.prepare("UPDATE sessions SET expire = ? WHERE sid = ?").bind(Date.now() + 2 * 24 * 60 * 60 * 1000, await sha256Hex(token)).run();
    const id = await insertCharacter({ name: `Page ${run} renewal` });
    const res = await call(`/api/characters/${id}`, { user: person });
    await json(res, 200);
    expect(res.headers.getSetCookie().some((line) => line.startsWith(`fabled_session=${token}`))).toBe(true);
  });
});
