/**
 * A creator's writes as callers see them: create, update, toggle, delete and
 * My Characters — the permission matrix of every write, SPEC.md §5's
 * validation at its boundaries, tags and their counts, and what a delete
 * takes with it.
 */
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import type { Character, CharacterSummary, OwnCharacter, Tag } from "../../schema/api.ts";
import { deleteConversationStorage } from "../lib/characters.ts";
import { call, countRows, json } from "./creator-api.ts";
import { CREATOR_NAME_TAKEN } from "../routes/characters.ts";
import { clearCatalog, insertCharacter, signIn, type TestUser, viewCountOnceCounted } from "./fixtures.ts";

const valid = {
  name: "Mira the Cartographer",
  description: "A wandering mapmaker who charts places that do not exist yet.",
  personality: "Curious, patient, fond of bad puns and good tea.",
};

const create = async (user: TestUser, body: Record<string, unknown> = {}) =>
  json<Character>(await call("/api/characters", { method: "POST", user, body: { ...valid, ...body } }), 201);

const tagCounts = async () =>
  Object.fromEntries((await json<Tag[]>(await call("/api/tags?popular=true"), 200)).map((t) => [t.name, t.count]));

const listed = async (query = "sort=new&showNsfw=true") =>
  json<{ characters: CharacterSummary[]; total: number }>(await call(`/api/characters?${query}`), 200);

const catalogCount = async (key: "all" | "sfw") =>
  (await env.DB.prepare("SELECT count FROM catalog_counts WHERE key = ?").bind(key).first<{ count: number }>())!.count;

const UNAUTHORIZED = { error: "Unauthorized", code: "unauthorized" };

beforeEach(async () => {
  await clearCatalog();
  await env.DB.prepare("DELETE FROM users").run();
});

describe("POST /api/characters", () => {
  it("creates an active character, shown as GET /api/characters/:id shows it, in lists and tag counts", async () => {
    const mira = await signIn({ username: "@mira_maps" });
    const created = await create(mira, {
      tags: [" Fantasy ", "fantasy", "Slice of Life", "maps"],
      longDescription: "Long text about maps.",
      scenario: "A foggy harbour town.",
      exampleConversation: "{{user}}: Hi\n{{char}}: *unrolls a map* Hello!",
      greeting: "*She looks up from her desk.* Oh! A visitor.",
      alternateGreetings: ["Hello again.", "You found me."],
      systemPrompt: "Stay in character.",
      postHistoryInstructions: "Keep replies short.",
      creatorNotes: "Made for testing.",
      characterBook: { entries: [{ keys: ["map"], content: "Maps are drawn on vellum." }] },
    });
    expect(created).toMatchObject({
      ...valid,
      creator: "mira_maps",
      creatorId: mira.id,
      tags: ["fantasy", "slice of life", "maps"],
      isActive: true,
      isNsfw: false,
      avatarUrl: null,
      viewCount: 0,
      favoriteCount: 0,
      commentCount: 0,
      rating: 80,
      greeting: "*She looks up from her desk.* Oh! A visitor.",
      alternateGreetings: ["Hello again.", "You found me."],
      characterBook: { entries: [{ keys: ["map"], content: "Maps are drawn on vellum." }] },
      extensions: {},
    });
    // The view is counted later, by the views queue (worker/lib/views.ts).
    const shown = await json<Character>(await call(`/api/characters/${created.id}`), 200);
    expect(shown).toEqual(created);

    const { characters, total } = await listed();
    expect(total).toBe(1);
    expect(characters.map((c) => c.id)).toEqual([created.id]);
    expect(await tagCounts()).toEqual({ fantasy: 1, "slice of life": 1, maps: 1 });
    expect((await listed("search=cartographer")).characters.map((c) => c.id)).toEqual([created.id]);
  });

  it("adds to the counts of tags other characters already carry", async () => {
    await insertCharacter({ tags: ["fantasy"] });
    const mira = await signIn();
    await create(mira, { tags: ["Fantasy", "sci-fi"] });
    expect(await tagCounts()).toEqual({ fantasy: 2, "sci-fi": 1 });
    expect((await listed("tags=fantasy")).total).toBe(2);
  });

  it("needs a signed-in person", async () => {
    expect(await json(await call("/api/characters", { method: "POST", body: valid }), 401)).toEqual(UNAUTHORIZED);
    expect(await countRows("characters")).toBe(0);
  });

  describe("validates SPEC.md §5 at every boundary, with its messages", () => {
    const cases: [string, Record<string, unknown>, string | null][] = [
      ["name of 100 characters", { name: "n".repeat(100) }, null],
      ["name of 101 characters", { name: "n".repeat(101) }, "Name is too long"],
      ["empty name", { name: "" }, "Character name is required"],
      ["blank name", { name: "   " }, "Character name is required"],
      ["missing name", { name: undefined }, "Character name is required"],
      ["description of 9", { description: "d".repeat(9) }, "Description must be at least 10 characters"],
      ["description of 10", { description: "d".repeat(10) }, null],
      ["description of 300", { description: "d".repeat(300) }, null],
      ["description of 301", { description: "d".repeat(301) }, "Description is too long"],
      ["missing description", { description: undefined }, "Description must be at least 10 characters"],
      ["personality of 9", { personality: "p".repeat(9) }, "Personality must be at least 10 characters"],
      ["personality of 10", { personality: "p".repeat(10) }, null],
      ["avatarUrl not a URL", { avatarUrl: "not a url" }, "Must be a valid URL"],
      ["avatarUrl javascript:", { avatarUrl: "javascript:alert(1)" }, "Must be a valid URL"],
      ["avatarUrl over http", { avatarUrl: "http://example.com/a.png" }, "Must be a valid URL"],
      ["avatarUrl https", { avatarUrl: "https://example.com/a.png" }, null],
      ["avatarUrl of someone else's upload", { avatarUrl: "/objects/avatars/u-1/3f2a" }, "This picture is someone else's upload. Upload your own image instead."],
      ["avatarUrl escaping /objects", { avatarUrl: "/objects/../api/x" }, "Must be a valid URL"],
      ["avatarUrl empty", { avatarUrl: "" }, null],
      ["10 tags", { tags: Array.from({ length: 10 }, (_, i) => `tag${i}`) }, null],
      ["11 tags", { tags: Array.from({ length: 11 }, (_, i) => `tag${i}`) }, "At most 10 tags"],
      ["11 tags that are 10 once duplicates go", { tags: [...Array.from({ length: 10 }, (_, i) => `tag${i}`), "TAG0"] }, null],
      ["a 1-character tag", { tags: ["a"] }, "Tags must be at least 2 characters"],
      ["a 24-character tag", { tags: ["t".repeat(24)] }, null],
      ["a 25-character tag", { tags: ["t".repeat(25)] }, "Tags must be at most 24 characters"],
      ["a tag with markup", { tags: ["<b>x</b>"] }, "Tags may contain only letters, numbers, spaces and dashes"],
      ["a greeting too long", { greeting: "g".repeat(20_001) }, "Greeting is too long"],
      ["a huge personality", { personality: "p".repeat(50_001) }, "Personality is too long"],
      ["51 alternate greetings", { alternateGreetings: Array(51).fill("hi") }, "At most 50 alternate greetings"],
      ["a lorebook that is a list", { characterBook: [1, 2] }, "The lorebook must be an object"],
    ];
    it.each(cases)("%s", async (_, fields, message) => {
      const mira = await signIn();
      const res = await call("/api/characters", { method: "POST", user: mira, body: { ...valid, ...fields } });
      if (message === null) {
        expect(res.status, await res.clone().text()).toBe(201);
      } else {
        const body = await json(res, 400);
        expect(body).toMatchObject({ code: "validation_failed", error: message });
        expect(body.issues).toContainEqual(expect.objectContaining({ message }));
      }
    });

    it("reports every issue, the first one as the headline", async () => {
      const mira = await signIn();
      const body = await json(
        await call("/api/characters", { method: "POST", user: mira, body: { name: "", description: "short", personality: "x" } }),
        400,
      );
      expect(body.error).toBe("Character name is required");
      expect(body.issues.map((i: { path: string }) => i.path)).toEqual(["name", "description", "personality"]);
    });
  });

  it("never answers a 500, whatever the body", async () => {
    const mira = await signIn();
    const bodies: [unknown, number][] = [
      ["{not json", 400],
      ["", 400],
      ["null", 400],
      ["[]", 400],
      ['"a string"', 400],
      [{ ...valid, name: 42 }, 400],
      [{ ...valid, tags: "fantasy" }, 400],
      [{ ...valid, tags: [1, 2] }, 400],
      [{ ...valid, isNsfw: "yes" }, 400],
      [{ ...valid, alternateGreetings: "hi" }, 400],
      [{ ...valid, characterBook: "lore" }, 400],
      [{ ...valid, description: { $gt: "" } }, 400],
      [{ ...valid, exampleConversation: "x".repeat(4 * 1024 * 1024) }, 413],
    ];
    for (const [body, status] of bodies) {
      const res = await call("/api/characters", { method: "POST", user: mira, body });
      expect(res.status, `${JSON.stringify(body).slice(0, 60)} → ${await res.clone().text()}`).toBe(status);
      expect((await res.json()) as object).toHaveProperty("code");
    }
    expect(await countRows("characters")).toBe(0);
  });

  it("refuses a character too large for one D1 row (413), creating nothing", async () => {
    const mira = await signIn();
    // Each field within its limit, 50 × 20,000 three-byte characters = 3 MB in total.
    const res = await call("/api/characters", {
      method: "POST",
      user: mira,
      body: { ...valid, alternateGreetings: Array(50).fill("€".repeat(20_000)) },
    });
    expect(await json(res, 413)).toMatchObject({ code: "payload_too_large" });
    expect(await countRows("characters")).toBe(0);
  });
});

describe("permissions of every write", () => {
  const writes = (id: number | string) =>
    [
      { method: "PUT", path: `/api/characters/${id}`, body: { name: "Renamed" } },
      { method: "PATCH", path: `/api/characters/${id}/toggle-active` },
      { method: "DELETE", path: `/api/characters/${id}` },
    ] as const;

  it("visitors get 401, another person 403, unknown and malformed ids 404", async () => {
    const owner = await signIn();
    const other = await signIn();
    const { id } = await create(owner);
    for (const write of writes(id)) {
      const body = "body" in write ? write.body : undefined;
      expect(await json(await call(write.path, { method: write.method, body }), 401), write.method).toEqual(UNAUTHORIZED);
      expect(await json(await call(write.path, { method: write.method, user: other, body }), 403), write.method).toMatchObject({
        code: "forbidden",
        error: "Only the character's creator can change it",
      });
    }
    for (const bad of ["999999", "abc", "0", "-1", "1.5"]) {
      for (const write of writes(bad)) {
        const body = "body" in write ? write.body : undefined;
        expect((await call(write.path, { method: write.method, user: owner, body })).status, `${write.method} ${bad}`).toBe(404);
      }
    }
    // Nothing changed.
    expect(await json(await call(`/api/characters/${id}`), 200)).toMatchObject({ name: valid.name, isActive: true });
    expect(await json(await call("/api/my-characters"), 401)).toEqual(UNAUTHORIZED);
  });

  it("someone else's inactive character does not exist for another person (404)", async () => {
    const owner = await signIn();
    const other = await signIn();
    const { id } = await create(owner);
    await json(await call(`/api/characters/${id}/toggle-active`, { method: "PATCH", user: owner }), 200);
    for (const write of writes(id)) {
      const body = "body" in write ? write.body : undefined;
      expect(await json(await call(write.path, { method: write.method, user: other, body }), 404), write.method).toMatchObject({
        code: "not_found",
      });
    }
  });

  it("the owner may update, toggle and delete", async () => {
    const owner = await signIn();
    const { id } = await create(owner);
    expect(await json(await call(`/api/characters/${id}`, { method: "PUT", user: owner, body: { name: "Renamed" } }), 200)).toMatchObject({
      id,
      name: "Renamed",
    });
    expect(await json(await call(`/api/characters/${id}/toggle-active`, { method: "PATCH", user: owner }), 200)).toMatchObject({
      id,
      isActive: false,
    });
    expect(await json(await call(`/api/characters/${id}`, { method: "DELETE", user: owner }), 200)).toEqual({ deleted: true });
    expect((await call(`/api/characters/${id}`, { user: owner })).status).toBe(404);
  });
});

describe("PUT /api/characters/:id", () => {
  it("refuses a shown creator name that is another person's username, in any spelling; keeps one's own or a free pen name", async () => {
    const owner = await signIn();
    const other = await signIn();
    const character = await create(owner);
    const bare = other.username.slice(1);
    for (const creator of [bare, `@${bare}`, bare.toUpperCase()]) {
      const res = await call(`/api/characters/${character.id}`, { method: "PUT", user: owner, body: { creator } });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        error: CREATOR_NAME_TAKEN,
        code: "validation_failed",
        issues: [{ path: "creator", message: CREATOR_NAME_TAKEN }],
      });
    }
    // Nothing changed.
    expect((await json<Character>(await call(`/api/characters/${character.id}`, { user: owner }), 200)).creator).toBe(character.creator);
    const penName = `quill_${crypto.randomUUID().slice(0, 8)}`;
    for (const creator of [penName, owner.username.slice(1)]) {
      const updated = await json<Character>(await call(`/api/characters/${character.id}`, { method: "PUT", user: owner, body: { creator } }), 200);
      expect(updated.creator).toBe(creator);
    }
  });

  it("changes only the fields sent; creator may be set", async () => {
    const owner = await signIn({ username: "@ori" });
    const created = await create(owner, { tags: ["fantasy"], scenario: "A harbour.", isNsfw: false });
    const updated = await json<Character>(
      await call(`/api/characters/${created.id}`, {
        method: "PUT",
        user: owner,
        body: { description: "A mapmaker who now charts the stars instead.", creator: "@ori_the_great" },
      }),
      200,
    );
    expect(updated).toMatchObject({
      name: valid.name,
      description: "A mapmaker who now charts the stars instead.",
      personality: valid.personality,
      scenario: "A harbour.",
      tags: ["fantasy"],
      creator: "ori_the_great",
      creatorId: owner.id,
    });
    expect(Date.parse(updated.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));
    // An explicit null clears an optional field; an empty body changes nothing.
    const cleared = await json<Character>(
      await call(`/api/characters/${created.id}`, { method: "PUT", user: owner, body: { scenario: null } }),
      200,
    );
    expect(cleared.scenario).toBeNull();
    const same = await json<Character>(await call(`/api/characters/${created.id}`, { method: "PUT", user: owner, body: {} }), 200);
    expect({ ...same, updatedAt: "" }).toEqual({ ...cleared, updatedAt: "" });
    expect((await listed("search=stars")).characters.map((c) => c.id)).toEqual([created.id]);
  });

  it("replaces the tag links, and the counts follow", async () => {
    const owner = await signIn();
    await insertCharacter({ tags: ["fantasy", "horror"] });
    const { id } = await create(owner, { tags: ["fantasy", "romance"] });
    expect(await tagCounts()).toEqual({ fantasy: 2, horror: 1, romance: 1 });

    await json(await call(`/api/characters/${id}`, { method: "PUT", user: owner, body: { tags: ["Horror", "Sci-Fi"] } }), 200);
    expect(await tagCounts()).toEqual({ fantasy: 1, horror: 2, "sci-fi": 1 });
    expect((await listed("tags=romance")).total).toBe(0);
    expect((await listed("tags=sci-fi")).characters.map((c) => c.id)).toEqual([id]);

    // NSFW changes move the SFW counts along with the existing links.
    await json(await call(`/api/characters/${id}`, { method: "PUT", user: owner, body: { isNsfw: true, tags: ["horror"] } }), 200);
    const sfw = await env.DB.prepare("SELECT name, count, sfw_count AS sfwCount FROM tags WHERE name = 'horror'").first();
    expect(sfw).toEqual({ name: "horror", count: 2, sfwCount: 1 });
    expect((await listed("tags=horror&showNsfw=false")).total).toBe(1);
    expect(await catalogCount("sfw")).toBe(1);
    expect(await catalogCount("all")).toBe(2);
  });

  it("validates like create", async () => {
    const owner = await signIn();
    const { id } = await create(owner);
    const put = (body: unknown) => call(`/api/characters/${id}`, { method: "PUT", user: owner, body });
    expect(await json(await put({ description: "d".repeat(301) }), 400)).toMatchObject({ error: "Description is too long" });
    expect(await json(await put({ name: "" }), 400)).toMatchObject({ error: "Character name is required" });
    expect(await json(await put({ personality: "too short" }), 400)).toMatchObject({
      error: "Personality must be at least 10 characters",
    });
    expect(await json(await put({ avatarUrl: "nope" }), 400)).toMatchObject({ error: "Must be a valid URL" });
    expect(await json(await put({ creator: "@" }), 400)).toMatchObject({ error: "Creator is required" });
    expect(await json(await put("{oops"), 400)).toMatchObject({ code: "validation_failed" });
    const asText = await call(`/api/characters/${id}`, {
      method: "PUT",
      user: owner,
      body: JSON.stringify({ name: "Sneaky" }),
      headers: { "content-type": "text/plain" },
    });
    expect(await json(asText, 415)).toMatchObject({ code: "unsupported_media_type" });
    expect(await json(await call(`/api/characters/${id}`), 200)).toMatchObject(valid);
  });
});

describe("someone else's upload as a character's avatar", () => {
  const MESSAGE = "This picture is someone else's upload. Upload your own image instead.";
  const refused = { error: MESSAGE, code: "validation_failed", issues: [{ path: "avatarUrl", message: MESSAGE }] };

  it("is refused on create, as a path or as an absolute URL on any host, and nothing is created", async () => {
    const [mira, theo] = [await signIn(), await signIn()];
    const key = `avatars/${theo.id}/${crypto.randomUUID()}`;
    for (const avatarUrl of [
      `/objects/${key}`,
      `https://fabled.example/objects/${key}`,
      `https://fabled.example/objects/${key.replaceAll("/", "%2F")}`,
      `https://fabled.example/avatars/demo/../../objects/${key}`,
    ]) {
      const res = await call("/api/characters", { method: "POST", user: mira, body: { ...valid, avatarUrl } });
      expect(await json(res, 400), avatarUrl).toEqual(refused);
    }
    expect(await countRows("characters")).toBe(0);
  });

  it("is refused on update, and the avatar stays as it was", async () => {
    const [mira, theo] = [await signIn(), await signIn()];
    const own = `/objects/avatars/${mira.id}/${crypto.randomUUID()}`;
    const { id } = await create(mira, { avatarUrl: own });
    const res = await call(`/api/characters/${id}`, {
      method: "PUT",
      user: mira,
      body: { avatarUrl: `/objects/avatars/${theo.id}/${crypto.randomUUID()}`, name: "Renamed" },
    });
    expect(await json(res, 400)).toEqual(refused);
    expect(await json(await call(`/api/characters/${id}`), 200)).toMatchObject({ avatarUrl: own, name: valid.name });
  });

  it("the creator's own uploads, outside https URLs and the demo artwork are accepted", async () => {
    const mira = await signIn();
    for (const avatarUrl of [
      `/objects/avatars/${mira.id}/${crypto.randomUUID()}`,
      "https://images.example.test/objects/portrait.png",
      "/avatars/demo/aria-nightshade.svg",
    ]) {
      expect((await create(mira, { avatarUrl })).avatarUrl).toBe(avatarUrl);
    }
  });

  it("a character that already shows someone else's upload (from before this rule) stays editable", async () => {
    const [mira, theo] = [await signIn(), await signIn()];
    const theos = `/objects/avatars/${theo.id}/${crypto.randomUUID()}`;
    const { id } = await create(mira);
    await env.DB.prepare("UPDATE characters SET avatar_url = ? WHERE id = ?").bind(theos, id).run();
    const res = await call(`/api/characters/${id}`, { method: "PUT", user: mira, body: { avatarUrl: theos, name: "Renamed" } });
    expect(await json(res, 200)).toMatchObject({ avatarUrl: theos, name: "Renamed" });
  });
});

describe("PATCH /api/characters/:id/toggle-active", () => {
  it("takes the character out of lists, search and tag counts, and back", async () => {
    const owner = await signIn();
    const visitorView = () => call(`/api/characters/${id}`);
    const { id } = await create(owner, { tags: ["fantasy"] });
    expect(await catalogCount("all")).toBe(1);

    const off = await json<Character>(await call(`/api/characters/${id}/toggle-active`, { method: "PATCH", user: owner }), 200);
    expect(off).toMatchObject({ id, isActive: false, name: valid.name });
    expect((await listed()).total).toBe(0);
    expect((await listed("search=cartographer")).characters).toEqual([]);
    expect(await tagCounts()).toEqual({});
    expect(await catalogCount("all")).toBe(0);
    expect((await visitorView()).status).toBe(404);
    expect(await json(await call(`/api/characters/${id}`, { user: owner }), 200)).toMatchObject({ isActive: false });

    const on = await json<Character>(await call(`/api/characters/${id}/toggle-active`, { method: "PATCH", user: owner }), 200);
    expect(on.isActive).toBe(true);
    expect((await listed()).characters.map((c) => c.id)).toEqual([id]);
    expect(await tagCounts()).toEqual({ fantasy: 1 });
    expect(await catalogCount("all")).toBe(1);
    expect((await visitorView()).status).toBe(200);
  });
});

describe("GET /api/my-characters", () => {
  it("lists the person's own characters, inactive included, newest first, as list items", async () => {
    const owner = await signIn();
    const other = await signIn();
    const first = await create(owner, { name: "First" });
    const second = await create(owner, { name: "Second" });
    await create(other, { name: "Not mine" });
    await json(await call(`/api/characters/${first.id}/toggle-active`, { method: "PATCH", user: owner }), 200);

    const mine = await json<OwnCharacter[]>(await call("/api/my-characters", { user: owner }), 200);
    expect(mine.map((c) => [c.name, c.isActive])).toEqual([
      ["Second", true],
      ["First", false],
    ]);
    const { characters } = await listed();
    const listItem = characters.find((c) => c.id === second.id)!;
    // The list item's fields, and the moderation status and chat count only the owner's list carries.
    expect(Object.keys(mine[0]!).sort()).toEqual([...Object.keys(listItem), "moderationStatus", "chatCount"].sort());
    expect(mine[0]).toEqual({ ...listItem, moderationStatus: "ok", chatCount: 0 });
    expect(await json(await call("/api/my-characters", { user: await signIn() }), 200)).toEqual([]);
  });

  it("counts each character's views, favorites and chats by other people and its creator", async () => {
    const owner = await signIn();
    const fan = await signIn();
    const other = await signIn();
    const popular = await create(owner, { name: "Popular" });
    await create(owner, { name: "Quiet" });

    // Two visitor views (the owner's own views are not counted).
    for (const user of [null, fan, owner]) await json(await call(`/api/characters/${popular.id}`, { user }), 200);
    // Views are counted through the views queue: wait until both are in.
    expect(await viewCountOnceCounted(popular.id, 2)).toBe(2);
    for (const user of [fan, other]) await json(await call(`/api/characters/${popular.id}/favorite`, { method: "POST", user }), 200);
    for (const user of [fan, fan, owner]) {
      await json(
        await call("/api/conversations", { method: "POST", user, body: { characterId: popular.id, title: "Chat with Popular" } }),
        201,
      );
    }

    const stats = (list: OwnCharacter[]) =>
      list.map((c) => ({ name: c.name, viewCount: c.viewCount, favoriteCount: c.favoriteCount, chatCount: c.chatCount }));
    expect(stats(await json<OwnCharacter[]>(await call("/api/my-characters", { user: owner }), 200))).toEqual([
      { name: "Quiet", viewCount: 0, favoriteCount: 0, chatCount: 0 },
      { name: "Popular", viewCount: 2, favoriteCount: 2, chatCount: 3 },
    ]);
    // Nobody else's list shows them, nor their numbers.
    expect(await json(await call("/api/my-characters", { user: fan }), 200)).toEqual([]);
  });
});

describe("DELETE /api/characters/:id", () => {
  it("removes favorites, comments, votes, tag links and conversations, and every count stays right", async () => {
    const owner = await signIn();
    const fan = await signIn();
    const kept = await insertCharacter({ name: "Kept", tags: ["fantasy"] });
    const { id } = await create(owner, { name: "Doomed Cartographer", tags: ["fantasy", "maps"], isNsfw: true });

    for (const user of [owner, fan]) {
      await json(await call(`/api/characters/${id}/favorite`, { method: "POST", user }), 200);
    }
    await json(await call(`/api/characters/${kept}/favorite`, { method: "POST", user: fan }), 200);
    const comment = await json(await call(`/api/characters/${id}/comments`, { method: "POST", user: fan, body: { content: "Great" } }), 201);
    const reply = await json(
      await call(`/api/characters/${id}/comments`, { method: "POST", user: owner, body: { content: "Thanks", parentId: comment.id } }),
      201,
    );
    await json(await call(`/api/comments/${reply.id}/vote`, { method: "POST", user: fan, body: { value: 1 } }), 200);
    const keptComment = await json(await call(`/api/characters/${kept}/comments`, { method: "POST", user: fan, body: { content: "Hi" } }), 201);
    await json(await call(`/api/comments/${keptComment.id}/vote`, { method: "POST", user: owner, body: { value: -1 } }), 200);
    const conversationId = crypto.randomUUID();
    await env.DB.batch([
      env.DB.prepare("INSERT INTO conversations (id, character_id, user_id, title) VALUES (?, ?, ?, ?)").bind(
        conversationId,
        id,
        fan.id,
        "Chat with Doomed Cartographer",
      ),
      env.DB.prepare("INSERT INTO conversations (id, character_id, user_id, title) VALUES (?, ?, ?, ?)").bind(
        crypto.randomUUID(),
        kept,
        fan.id,
        "Chat with Kept",
      ),
    ]);
    expect(await tagCounts()).toEqual({ fantasy: 2, maps: 1 });
    expect(await catalogCount("all")).toBe(2);
    expect(await catalogCount("sfw")).toBe(1);

    expect(await json(await call(`/api/characters/${id}`, { method: "DELETE", user: owner }), 200)).toEqual({ deleted: true });

    for (const table of ["favorites", "comments", "character_tags", "conversations"]) {
      expect(await countRows(table, "character_id = ?", id), table).toBe(0);
    }
    expect(await countRows("comment_votes", "comment_id IN (?, ?)", comment.id, reply.id)).toBe(0);
    // The other character keeps everything.
    expect(await countRows("favorites", "character_id = ?", kept)).toBe(1);
    expect(await countRows("comments", "character_id = ?", kept)).toBe(1);
    expect(await countRows("comment_votes")).toBe(1);
    expect(await countRows("conversations", "character_id = ?", kept)).toBe(1);
    expect(await json(await call(`/api/characters/${kept}`), 200)).toMatchObject({ favoriteCount: 1, commentCount: 1 });

    expect(await tagCounts()).toEqual({ fantasy: 1 });
    expect(await env.DB.prepare("SELECT count, sfw_count AS sfw FROM tags WHERE name = 'maps'").first()).toEqual({ count: 0, sfw: 0 });
    expect(await catalogCount("all")).toBe(1);
    expect(await catalogCount("sfw")).toBe(1);
    expect((await listed("search=doomed")).characters).toEqual([]);
    const fts = await env.DB.prepare("SELECT count(*) AS n FROM characters_fts WHERE characters_fts MATCH 'doomed'").first<{ n: number }>();
    expect(fts!.n).toBe(0);
    expect((await call(`/api/characters/${id}`, { user: owner })).status).toBe(404);
    expect(await json(await call("/api/my-characters", { user: owner }), 200)).toEqual([]);
  });
});

describe("deleteConversationStorage", () => {
  it("asks each conversation's room to delete its storage and ignores failures", async () => {
    const asked: string[] = [];
    const rooms = {
      idFromName: (name: string) => name,
      get: (id: string) => ({
        fetch: async (url: string, init: RequestInit) => {
          asked.push(`${init.method} ${url} ${id}`);
          if (id === "broken") throw new Error("room unavailable");
          return new Response(null, { status: 404 });
        },
      }),
    } as unknown as DurableObjectNamespace;
    await expect(deleteConversationStorage({ CONVERSATIONS: rooms }, ["a", "broken", "b"])).resolves.toBeUndefined();
    expect(asked.sort()).toEqual(["DELETE https://room/delete a", "DELETE https://room/delete b", "DELETE https://room/delete broken"]);
    await expect(deleteConversationStorage({}, ["a"])).resolves.toBeUndefined();
  });

  it("works against the real ConversationRoom binding", async () => {
    await expect(deleteConversationStorage(env, [crypto.randomUUID()])).resolves.toBeUndefined();
  });
});
