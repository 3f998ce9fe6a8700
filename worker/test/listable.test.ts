/**
 * One definition of what is listed (worker/lib/listable.ts): every surface
 * that lists characters — the catalog, search, tag counts, creator pages,
 * the sitemap — leaves out a removed character and a suspended owner's
 * characters, and starting a chat with one is refused; the counters and search flags the SQL triggers keep
 * (migrations/0001, 0004, 0011) agree with listedSql.
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { CharacterListResponse, CreatorProfile, Tag } from "../../schema/api.ts";
import { commentVotes, castVote, favoriteCount, postComment, toggleFavorite } from "../lib/community.ts";
import { chatCharacter } from "../lib/conversations.ts";
import { isVisibleTo, listedSql, listedTagLinksSql, visibleToSql } from "../lib/listable.ts";
import { suspendUser, unsuspendUser } from "../lib/moderation-actions.ts";
import { SITEMAP_PAGE_SIZE } from "../lib/sitemap.ts";
import { insertCharacter, signIn, type TestUser } from "./fixtures.ts";
import { OPERATOR, operatorDb } from "./operator-db.ts";

function call(path: string, init: { method?: string; user?: TestUser | null; body?: unknown } = {}): Promise<Response> {
  const headers: Record<string, string> = init.user ? { Cookie: init.user.cookie } : {};
  if (init.body !== undefined) headers["Content-Type"] = "application/json";
  return exports.default.fetch(`http://localhost${path}`, {
    method: init.method ?? "GET",
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}

async function json<T>(res: Response, status = 200): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}

/** Lower-case letters nobody else in this file uses (a search word, a tag, a username). */
const fresh = (prefix: string) =>
  prefix + [...crypto.getRandomValues(new Uint8Array(8))].map((b) => String.fromCharCode(97 + (b % 26))).join("");

/** Removes a character as an operator's uphold does (worker/lib/moderation-actions.ts). */
async function removeByOperator(id: number): Promise<void> {
  await env.DB.prepare("UPDATE characters SET moderation_status = 'removed', is_active = 0 WHERE id = ?").bind(id).run();
}

/** A new creator, a fresh tag and word, and `make(name)`: a character of theirs with both. */
async function freshCreator() {
  const owner = await signIn({ username: `@${fresh("maker")}` });
  const tag = fresh("tag");
  const word = fresh("word");
  const make = (name: string) =>
    insertCharacter({ name: `${name} ${word}`, tags: [tag], creatorId: owner.id, creator: owner.username.slice(1) });
  return { owner, tag, word, make };
}

/**
 * A creator with three characters sharing a fresh tag and a fresh word:
 * one listed, one removed by the operator, one only marked removed (any
 * other writer: migration 0011 makes it inactive).
 */
async function creatorWithRemoved() {
  const { owner, tag, word, make } = await freshCreator();
  const listed = await make("Listed");
  const removed = await make("Removed");
  const marked = await make("Marked");
  await removeByOperator(removed);
  await env.DB.prepare("UPDATE characters SET moderation_status = 'removed' WHERE id = ?").bind(marked).run();
  return { owner, tag, word, listed, removed, marked, handle: owner.username.slice(1) };
}

const ids = (list: CharacterListResponse) => list.characters.map((c) => c.id);

describe("a removed character is absent from every list", () => {
  it("catalog list: absent, and the total counts only what is listed", async () => {
    const { tag, listed, removed, marked } = await creatorWithRemoved();
    for (const sort of ["new", "popular", "trending"]) {
      const list = await json<CharacterListResponse>(await call(`/api/characters?tags=${tag}&sort=${sort}`));
      expect(ids(list)).toEqual([listed]);
      expect(list.total).toBe(1);
    }
    const all = await json<CharacterListResponse>(await call("/api/characters?sort=new&limit=100"));
    expect(ids(all)).not.toContain(removed);
    expect(ids(all)).not.toContain(marked);
  });

  it("search: absent", async () => {
    const { word, listed } = await creatorWithRemoved();
    const found = await json<CharacterListResponse>(await call(`/api/characters?search=${word}`));
    expect(ids(found)).toEqual([listed]);
    expect(found.total).toBe(1);
  });

  it("tag counts: not counted", async () => {
    const { tag } = await creatorWithRemoved();
    const tags = await json<Tag[]>(await call("/api/tags?popular=true"));
    expect(tags.find((t) => t.name === tag)).toMatchObject({ count: 1 });
    const onlyRemoved = fresh("gone");
    const id = await insertCharacter({ tags: [onlyRemoved] });
    await removeByOperator(id);
    const after = await json<Tag[]>(await call("/api/tags?popular=true"));
    expect(after.map((t) => t.name)).not.toContain(onlyRemoved);
  });

  it("creator page: not counted, not listed", async () => {
    const { handle, listed } = await creatorWithRemoved();
    const profile = await json<CreatorProfile>(await call(`/api/users/${handle}`));
    expect(profile.characterCount).toBe(1);
    const list = await json<CharacterListResponse>(await call(`/api/characters?creator=${handle}`));
    expect(ids(list)).toEqual([listed]);
    expect(list.total).toBe(1);
  });

  it("sitemap: not listed", async () => {
    const { listed, removed, marked } = await creatorWithRemoved();
    const locs = async (id: number) => {
      const res = await call(`/sitemaps/characters-${Math.ceil(id / SITEMAP_PAGE_SIZE)}.xml`);
      expect(res.status).toBe(200);
      return res.text();
    };
    expect(await locs(listed)).toContain(`/character/${listed}<`);
    expect(await locs(removed)).not.toContain(`/character/${removed}<`);
    expect(await locs(marked)).not.toContain(`/character/${marked}<`);
  });

  it("chat start: refused (404) to anyone but the owner", async () => {
    const { listed, removed, marked } = await creatorWithRemoved();
    const someone = await signIn();
    await json(await call("/api/conversations", { method: "POST", user: someone, body: { characterId: listed } }), 201);
    for (const characterId of [removed, marked]) {
      expect(await json(await call("/api/conversations", { method: "POST", user: someone, body: { characterId } }), 404)).toMatchObject({
        code: "not_found",
      });
    }
  });
});

describe("a suspended owner's characters are absent from every list until the suspension is lifted", () => {
  /** A creator with a listed character and one they had deactivated themselves, sharing a fresh tag and word; then suspended. */
  async function suspendedCreator() {
    const { owner, tag, word, make } = await freshCreator();
    const listed = await make("Listed");
    const ownInactive = await make("Shelved");
    await env.DB.prepare("UPDATE characters SET is_active = 0 WHERE id = ?").bind(ownInactive).run();
    expect(await suspendUser(operatorDb, owner.username, OPERATOR)).toMatch(/1 character of theirs hidden from every list\.$/);
    return { owner, tag, word, listed, ownInactive, handle: owner.username.slice(1) };
  }

  it("catalog, search, tag counts, creator page, sitemap: absent", async () => {
    const { tag, word, listed, handle } = await suspendedCreator();
    for (const sort of ["new", "popular", "trending"]) {
      const list = await json<CharacterListResponse>(await call(`/api/characters?tags=${tag}&sort=${sort}`));
      expect(ids(list)).toEqual([]);
      expect(list.total).toBe(0);
    }
    expect(ids(await json<CharacterListResponse>(await call(`/api/characters?search=${word}`)))).toEqual([]);
    const tags = await json<Tag[]>(await call("/api/tags?popular=true"));
    expect(tags.map((t) => t.name)).not.toContain(tag);
    expect((await json<CreatorProfile>(await call(`/api/users/${handle}`))).characterCount).toBe(0);
    expect(ids(await json<CharacterListResponse>(await call(`/api/characters?creator=${handle}`)))).toEqual([]);
    const sitemap = await call(`/sitemaps/characters-${Math.ceil(listed / SITEMAP_PAGE_SIZE)}.xml`);
    expect(await sitemap.text()).not.toContain(`/character/${listed}<`);
  });

  it("chat start and the character page: 404 to everyone else", async () => {
    const { listed } = await suspendedCreator();
    const someone = await signIn();
    expect((await call("/api/conversations", { method: "POST", user: someone, body: { characterId: listed } })).status).toBe(404);
    expect((await call(`/api/characters/${listed}`, { user: someone })).status).toBe(404);
    expect((await call(`/api/characters/${listed}`)).status).toBe(404);
  });

  it("lifting the suspension lists again what it hid, and only that", async () => {
    const { owner, tag, listed } = await suspendedCreator();
    await unsuspendUser(operatorDb, owner.username, OPERATOR);
    const list = await json<CharacterListResponse>(await call(`/api/characters?tags=${tag}&sort=new`));
    expect(ids(list)).toEqual([listed]);
    expect((await json<Tag[]>(await call("/api/tags?popular=true"))).find((t) => t.name === tag)).toMatchObject({ count: 1 });
  });

  it("a character removed by moderation while its owner was suspended stays removed", async () => {
    const { owner, listed } = await suspendedCreator();
    await env.DB.prepare("UPDATE characters SET moderation_status = 'removed' WHERE id = ?").bind(listed).run();
    await unsuspendUser(operatorDb, owner.username, OPERATOR);
    const row = await env.DB.prepare("SELECT is_active AS a FROM characters WHERE id = ?").bind(listed).first<{ a: number }>();
    expect(row?.a).toBe(0);
  });
});

describe("chatCharacter (the character a chat starts with)", () => {
  it("reads a listed character with its greeting and creator's username", async () => {
    const owner = await signIn({ username: `@${fresh("maker")}` });
    const someone = await signIn();
    const id = await insertCharacter({ name: "Greeter", creatorId: owner.id });
    expect(await chatCharacter(env.DB, id, someone.id)).toMatchObject({
      id,
      name: "Greeter",
      greeting: "Hello there.",
      creatorUsername: owner.username,
    });
  });

  it("throws 404 for an inactive or removed one, except to its owner", async () => {
    const owner = await signIn();
    const someone = await signIn();
    const inactive = await insertCharacter({ isActive: false, creatorId: owner.id });
    const removed = await insertCharacter({ creatorId: owner.id });
    await removeByOperator(removed);
    for (const id of [inactive, removed, 987_654_321]) {
      await expect(chatCharacter(env.DB, id, someone.id)).rejects.toMatchObject({ code: "not_found" });
    }
    expect(await chatCharacter(env.DB, inactive, owner.id)).toMatchObject({ id: inactive });
  });
});

describe("favoriteCount and commentVotes", () => {
  it("read the counters the triggers keep; 0 for what does not exist", async () => {
    const fan = await signIn();
    const id = await insertCharacter();
    expect(await favoriteCount(env.DB, id)).toBe(0);
    await toggleFavorite(env.DB, id, fan.id);
    expect(await favoriteCount(env.DB, id)).toBe(1);
    expect(await favoriteCount(env.DB, 987_654_321)).toBe(0);
    const posted = await postComment(env.DB, { characterId: id, userId: fan.id, content: "Lovely.", parentId: null });
    if (!posted.ok) throw new Error("comment not posted");
    expect(await commentVotes(env.DB, posted.comment.id)).toBe(0);
    await castVote(env.DB, posted.comment.id, fan.id, -1);
    expect(await commentVotes(env.DB, posted.comment.id)).toBe(-1);
    expect(await commentVotes(env.DB, 987_654_321)).toBe(0);
  });
});

describe("the SQL triggers and listedSql agree", () => {
  it("catalog_counts, tags.count/sfw_count and the FTS flags count exactly the listedSql characters", async () => {
    const tag = fresh("agree");
    const word = fresh("agreeword");
    const owner = await signIn();
    const make = (fixture: { isNsfw?: boolean; isActive?: boolean }) =>
      insertCharacter({ ...fixture, name: `Agree ${word}`, tags: [tag], creatorId: owner.id });
    const created = [
      await make({}),
      await make({ isNsfw: true }),
      await make({ isActive: false }),
      await make({ isNsfw: true, isActive: false }),
      await make({}),
      await make({ isNsfw: true }),
    ];
    await removeByOperator(created[4]!);
    // Marked removed by another writer: it becomes inactive; reactivating it fails (migration 0011).
    await env.DB.prepare("UPDATE characters SET moderation_status = 'removed' WHERE id = ?").bind(created[5]).run();
    await expect(env.DB.prepare("UPDATE characters SET is_active = 1 WHERE id = ?").bind(created[5]).run()).rejects.toThrow(
      /removed by moderation cannot be active/,
    );
    await expect(
      env.DB.prepare("INSERT INTO characters (name, description, creator, personality, moderation_status) VALUES ('X', 'A removed one.', 'x', 'Calm and curious.', 'removed')").run(),
    ).rejects.toThrow(/removed by moderation cannot be active/);

    const count = async (sql: string, ...params: unknown[]) =>
      Number((await env.DB.prepare(sql).bind(...params).first<{ n: number }>())!.n);
    for (const showNsfw of [true, false]) {
      // The whole catalog: the trigger-kept counter against listedSql.
      const counter = await count("SELECT count AS n FROM catalog_counts WHERE key = ?", showNsfw ? "all" : "sfw");
      expect(counter).toBe(await count(`SELECT count(*) AS n FROM characters c WHERE ${listedSql("c", { showNsfw })}`));
      // The tag: the trigger-kept count, the links' copied flags and listedSql over the characters.
      const tagCount = await count(`SELECT ${showNsfw ? "count" : "sfw_count"} AS n FROM tags WHERE name = ?`, tag);
      const links = await count(
        `SELECT count(*) AS n FROM character_tags r JOIN tags t ON t.id = r.tag_id WHERE t.name = ? AND ${listedTagLinksSql("r", { showNsfw })}`,
        tag,
      );
      const characters = await count(
        `SELECT count(*) AS n FROM character_tags r JOIN tags t ON t.id = r.tag_id JOIN characters c ON c.id = r.character_id
         WHERE t.name = ? AND ${listedSql("c", { showNsfw })}`,
        tag,
      );
      expect({ tagCount, links }).toEqual({ tagCount: characters, links: characters });
      expect(characters).toBe(showNsfw ? 2 : 1);
    }
    // Search: what the FTS flags leave in is what listedSql lists.
    const searched = await json<CharacterListResponse>(await call(`/api/characters?search=${word}&showNsfw=true`));
    const { results } = await env.DB.prepare(`SELECT id FROM characters c WHERE name = ? AND ${listedSql("c")} ORDER BY id`)
      .bind(`Agree ${word}`)
      .all<{ id: number }>();
    expect(ids(searched).sort((a, b) => a - b)).toEqual(results.map((r) => r.id));
    expect(results.map((r) => r.id)).toEqual([created[0], created[1]]);
  });

  it("visibleToSql and isVisibleTo give the same answer", async () => {
    const owner = await signIn();
    const someone = await signIn();
    const active = await insertCharacter({ creatorId: owner.id });
    const inactive = await insertCharacter({ isActive: false, creatorId: owner.id });
    for (const id of [active, inactive]) {
      for (const viewer of [owner.id, someone.id, null]) {
        const row = await env.DB.prepare(
          `SELECT c.is_active AS isActive, c.creator_id AS creatorId, ${visibleToSql("c", "?2")} AS visible FROM characters c WHERE c.id = ?1`,
        )
          .bind(id, viewer)
          .first<{ isActive: number; creatorId: string | null; visible: number }>();
        expect(isVisibleTo({ isActive: Boolean(row!.isActive), creatorId: row!.creatorId }, viewer)).toBe(Boolean(row!.visible));
      }
    }
  });
});
