/**
 * Forks (issue 40, DESIGN.md turn 4 "Sharing and forks") as callers see
 * them: what a fork copies and what it credits, who may fork what (from the
 * wrong side too), the credit after the original is renamed or deleted, the
 * count under concurrent forks, and the list of public forks.
 */
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import type { Character, CharacterListResponse } from "../../schema/api.ts";
import { HIDDEN_CHARACTERS_MESSAGE } from "../../schema/names.ts";
import { FORKS_OFF_MESSAGE } from "../lib/forks.ts";
import { CHARACTER_REFUSED_MESSAGE } from "../lib/screening.ts";
import { putAvatar } from "../lib/uploads.ts";
import { call, countRows, json, TINY_PNG } from "./creator-api.ts";
import { clearCatalog, insertCharacter, signIn, type TestUser } from "./fixtures.ts";

const valid = {
  name: "Mira the Cartographer",
  description: "A wandering mapmaker who charts places that do not exist yet.",
  personality: "Curious, patient, fond of bad puns and good tea.",
};

const UNAUTHORIZED = { error: "Unauthorized", code: "unauthorized" };
const NOT_FOUND = { error: "Character not found", code: "not_found" };

const create = async (user: TestUser, body: Record<string, unknown> = {}) =>
  json<Character>(await call("/api/characters", { method: "POST", user, body: { ...valid, ...body } }), 201);

const fork = (id: number, user: TestUser | null) => call(`/api/characters/${id}/fork`, { method: "POST", user });

const forkOf = async (id: number, user: TestUser) => json<Character>(await fork(id, user), 201);

const shown = async (id: number, user: TestUser | null = null) => json<Character>(await call(`/api/characters/${id}`, { user }), 200);

const forksList = async (id: number, query = "", user: TestUser | null = null) =>
  json<CharacterListResponse>(await call(`/api/characters/${id}/forks${query}`, { user }), 200);

const activate = async (id: number, user: TestUser) =>
  json<Character>(await call(`/api/characters/${id}/toggle-active`, { method: "PATCH", user }), 200);

let mira: TestUser;
let juno: TestUser;

beforeEach(async () => {
  await clearCatalog();
  await env.DB.prepare("DELETE FROM users").run();
  mira = await signIn({ username: "@mira_maps" });
  juno = await signIn({ username: "@juno_writes" });
});

describe("POST /api/characters/{id}/fork", () => {
  it("copies every field, asset and extension into a new inactive character of the forker, credited to the original", async () => {
    const original = await create(mira, {
      tags: ["fantasy", "maps"],
      isNsfw: true,
      longDescription: "Long text about maps.",
      scenario: "A foggy harbour town.",
      exampleConversation: "{{user}}: Hi\n{{char}}: *unrolls a map* Hello!",
      greeting: "*She looks up from her desk.* Oh! A visitor.",
      alternateGreetings: ["Hello again.", "You found me."],
      systemPrompt: "Stay in character.",
      postHistoryInstructions: "Keep replies short.",
      creatorNotes: "Made for testing.",
      characterBook: { name: "Atlas", entries: [{ keys: ["map"], content: "Maps are drawn on vellum." }] },
    });
    // An uploaded avatar, a voice and card extensions, as a card import or the studio leaves them.
    const avatarKey = `avatars/${mira.id}/${crypto.randomUUID()}`;
    await putAvatar(env.AVATARS, avatarKey, TINY_PNG, "image/png", mira.id);
    const extensions = { depth_prompt: { prompt: "Remember the sea.", depth: 4 }, talkativeness: "0.7" };
    await env.DB.prepare("UPDATE characters SET avatar_url = ?, voice = ?, extensions = ? WHERE id = ?")
      .bind(`/objects/${avatarKey}`, "aura-luna-en", JSON.stringify(extensions), original.id)
      .run();
    const before = await shown(original.id, mira);

    const copy = await forkOf(original.id, juno);

    expect(copy.id).not.toBe(original.id);
    const copied = [
      "name", "description", "longDescription", "personality", "scenario", "exampleConversation", "tags", "isNsfw",
      "greeting", "alternateGreetings", "systemPrompt", "postHistoryInstructions", "creatorNotes", "characterBook",
      "voice", "extensions",
    ] as const;
    for (const field of copied) expect(copy[field], field).toEqual(before[field]);
    expect(copy).toMatchObject({
      creator: "juno_writes",
      creatorId: juno.id,
      creatorUsername: "@juno_writes",
      isActive: false,
      allowForks: true,
      forkedFrom: { id: original.id, name: "Mira the Cartographer", creatorUsername: "@mira_maps" },
      forkCount: 0,
      viewCount: 0,
      favoriteCount: 0,
      commentCount: 0,
      moderationStatus: "ok",
    });
    // The picture is the forker's own copy: it outlives the original's.
    expect(copy.avatarUrl).toMatch(new RegExp(`^/objects/avatars/${juno.id}/`));
    const picture = await call(copy.avatarUrl!);
    expect(picture.status).toBe(200);
    expect(new Uint8Array(await picture.arrayBuffer())).toEqual(TINY_PNG);
    // GET shows the fork the same way to its owner; the original now counts it.
    expect(await shown(copy.id, juno)).toEqual(copy);
    expect((await shown(original.id)).forkCount).toBe(1);
    // Inactive: in nobody's list until its owner publishes it.
    expect(await call(`/api/characters/${copy.id}`)).toHaveProperty("status", 404);
  });

  it("lists the original's expressions and backgrounds for the fork, and gives the forker their own copy of each attached lorebook", async () => {
    const original = await create(mira);
    // Two pictures as a CharX import or the studio leaves them (stored once, by content hash).
    await env.DB.batch(
      [
        ["emotion", "joy", "/objects/assets/aaaa"],
        ["background", "harbour", "/objects/assets/bbbb"],
      ].map(([type, name, url], position) =>
        env.DB.prepare("INSERT INTO character_assets (character_id, type, name, ext, url, object_key, size, position) VALUES (?, ?, ?, 'png', ?, ?, 68, ?)")
          .bind(original.id, type, name, url, url!.slice("/objects/".length), position),
      ),
    );
    const book = await json<{ id: string }>(
      await call("/api/lorebooks", { method: "POST", user: mira, body: { name: "Harbour lore", entries: [{ keys: ["tide"], content: "The tide turns at noon." }] } }),
      201,
    );
    await json(await call(`/api/characters/${original.id}/lorebooks`, { method: "PUT", user: mira, body: { lorebookIds: [book.id] } }), 200);

    const copy = await forkOf(original.id, juno);

    expect(copy.assets.map(({ type, name, url }) => ({ type, name, url }))).toEqual([
      { type: "emotion", name: "joy", url: "/objects/assets/aaaa" },
      { type: "background", name: "harbour", url: "/objects/assets/bbbb" },
    ]);
    const attached = await json<{ lorebookIds: string[] }>(await call(`/api/characters/${copy.id}/lorebooks`, { user: juno }), 200);
    expect(attached.lorebookIds).toHaveLength(1);
    expect(attached.lorebookIds[0]).not.toBe(book.id);
    const own = await json<{ name: string; entries: { content: string }[] }>(await call(`/api/lorebooks/${attached.lorebookIds[0]}`, { user: juno }), 200);
    expect(own).toMatchObject({ name: "Harbour lore", entries: [{ content: "The tide turns at noon." }] });
    // The original's book stays Mira's alone: deleting it leaves Juno's copy.
    expect((await call(`/api/lorebooks/${book.id}`, { user: juno })).status).toBe(404);
    expect((await call(`/api/lorebooks/${book.id}`, { method: "DELETE", user: mira })).status).toBe(204);
    expect((await call(`/api/lorebooks/${attached.lorebookIds[0]}`, { user: juno })).status).toBe(200);
  });

  it("answers 401 to a visitor, 404 for a character the caller cannot see, and writes nothing", async () => {
    const hidden = await create(mira, {});
    await activate(hidden.id, mira);
    expect(await json(await fork(hidden.id, null), 401)).toEqual(UNAUTHORIZED);
    expect(await json(await fork(hidden.id, juno), 404)).toEqual(NOT_FOUND);
    expect(await json(await fork(999_999, juno), 404)).toEqual(NOT_FOUND);
    expect(await countRows("characters", "forked_from_id IS NOT NULL")).toBe(0);
    // Its owner may still copy their own private character.
    expect((await forkOf(hidden.id, mira)).forkedFrom?.id).toBe(hidden.id);
  });

  it("answers 403 forbidden when the creator turned forks off, and forks again once they turn them on", async () => {
    const closed = await create(mira, { allowForks: false });
    expect(closed.allowForks).toBe(false);
    expect(await json(await fork(closed.id, juno), 403)).toEqual({ error: FORKS_OFF_MESSAGE, code: "forbidden" });
    expect((await shown(closed.id)).forkCount).toBe(0);
    // The creator keeps copying their own.
    expect((await forkOf(closed.id, mira)).forkedFrom?.id).toBe(closed.id);

    // Only the creator changes it: someone else's PUT is 403 and changes nothing.
    expect((await call(`/api/characters/${closed.id}`, { method: "PUT", user: juno, body: { allowForks: true } })).status).toBe(403);
    expect((await shown(closed.id)).allowForks).toBe(false);
    const opened = await json<Character>(await call(`/api/characters/${closed.id}`, { method: "PUT", user: mira, body: { allowForks: true } }), 200);
    expect(opened.allowForks).toBe(true);
    expect((await forkOf(closed.id, juno)).forkedFrom).toEqual({ id: closed.id, name: valid.name, creatorUsername: "@mira_maps" });
  });

  it("refuses allowForks that is not a boolean with 400", async () => {
    const res = await call("/api/characters", { method: "POST", user: mira, body: { ...valid, allowForks: "no" } });
    expect(await json(res, 400)).toMatchObject({ code: "validation_failed", issues: [{ path: "allowForks" }] });
  });

  it("meets the rules of a new character: a name no longer allowed is 400, text the screen refuses is 422, nothing stored", async () => {
    const hiddenName = await insertCharacter({ name: "Mira\u200B", creatorId: mira.id });
    expect(await json(await fork(hiddenName, juno), 400)).toMatchObject({ code: "validation_failed", error: HIDDEN_CHARACTERS_MESSAGE });
    const refused = await insertCharacter({ name: "Old Harbor", description: "She is 15 years old and naked.", creatorId: mira.id });
    expect(await json(await fork(refused, juno), 422)).toMatchObject({ error: CHARACTER_REFUSED_MESSAGE, code: "content_refused" });
    expect(await countRows("characters", "creator_id = ?", juno.id)).toBe(0);
    expect((await shown(refused)).forkCount).toBe(0);
  });

  it("a character removed by moderation cannot be forked, even by its owner", async () => {
    const removed = await insertCharacter({ name: "Gone", creatorId: mira.id });
    await env.DB.prepare("UPDATE characters SET moderation_status = 'removed', is_active = 0 WHERE id = ?").bind(removed).run();
    expect((await fork(removed, mira)).status).toBe(403);
    expect((await fork(removed, juno)).status).toBe(404);
  });
});

describe("the credit", () => {
  it("names the original's current name after a rename, and 'a deleted character' (null name) once it is deleted", async () => {
    const original = await create(mira, {});
    const copy = await forkOf(original.id, juno);
    // A private fork is nobody else's to fork; published, it is.
    expect((await fork(copy.id, mira)).status).toBe(404);
    await activate(copy.id, juno);
    const grandchild = await forkOf(copy.id, mira);
    expect(grandchild.forkedFrom).toEqual({ id: copy.id, name: valid.name, creatorUsername: "@juno_writes" });

    await json(await call(`/api/characters/${original.id}`, { method: "PUT", user: mira, body: { name: "Mira of the Maps" } }), 200);
    expect((await shown(copy.id, juno)).forkedFrom).toEqual({ id: original.id, name: "Mira of the Maps", creatorUsername: "@mira_maps" });
    // The fork's own name stays what it copied.
    expect((await shown(copy.id, juno)).name).toBe(valid.name);

    await json(await call(`/api/characters/${original.id}`, { method: "DELETE", user: mira }), 200);
    const orphan = await shown(copy.id, juno);
    expect(orphan.forkedFrom).toEqual({ id: original.id, name: null, creatorUsername: null });
    // It is still a fork in My Characters, and its own forks still credit it.
    const mine = await json<Character[]>(await call("/api/my-characters", { user: juno }), 200);
    expect(mine.find((c) => c.id === copy.id)?.forkedFrom).toEqual({ id: original.id, name: null, creatorUsername: null });
    expect((await shown(copy.id, juno)).forkCount).toBe(1);
  });

  it("shows the credit to everyone once the fork is published, in the catalog too", async () => {
    const original = await create(mira, {});
    const copy = await forkOf(original.id, juno);
    await json(await call(`/api/characters/${copy.id}`, { method: "PUT", user: juno, body: { name: "Juno's Cartographer" } }), 200);
    await activate(copy.id, juno);
    const credit = { id: original.id, name: valid.name, creatorUsername: "@mira_maps" };
    expect((await shown(copy.id)).forkedFrom).toEqual(credit);
    const { characters } = await json<CharacterListResponse>(await call("/api/characters?sort=new"), 200);
    expect(characters.find((c) => c.id === copy.id)).toMatchObject({ forkedFrom: credit, forkCount: 0, allowForks: true });
    expect(characters.find((c) => c.id === original.id)).toMatchObject({ forkedFrom: null, forkCount: 1, allowForks: true });
  });
});

describe("the fork count", () => {
  it("counts every one of concurrent forks exactly, and gives one back when a fork is deleted", async () => {
    const original = await create(mira, {});
    const forkers = await Promise.all(Array.from({ length: 12 }, (_, i) => signIn({ username: `@forker_${i}` })));
    const answers = await Promise.all(forkers.map((user) => fork(original.id, user)));
    expect(answers.map((res) => res.status)).toEqual(forkers.map(() => 201));
    // Read signed in: a visitor's copy may come from the edge cache within its bound.
    expect((await shown(original.id, mira)).forkCount).toBe(12);
    const first = (await answers[0]!.json()) as Character;
    await json(await call(`/api/characters/${first.id}`, { method: "DELETE", user: forkers[0] }), 200);
    expect((await shown(original.id, mira)).forkCount).toBe(11);
    // Deleting a forker's account takes their fork, and its count, with it.
    await env.DB.prepare("DELETE FROM users WHERE id = ?").bind(forkers[1]!.id).run();
    expect((await shown(original.id, mira)).forkCount).toBe(10);
  });
});

describe("search", () => {
  const searched = async (text: string) =>
    (await json<CharacterListResponse>(await call(`/api/characters?search=${encodeURIComponent(text)}`, { user: mira }), 200)).characters.map(
      (c) => c.id,
    );

  it("never ranks a fork above its original for the original's name, even with a text bm25 prefers", async () => {
    const original = await create(mira, {
      name: "Mira",
      description: "A wandering mapmaker who charts places that do not exist yet, in ink, vellum, rain and fog and long walks.",
    });
    // A fork as it came (the same text: a tie the newer id would win), and one trimmed to outrank it by bm25.
    const same = await forkOf(original.id, juno);
    await activate(same.id, juno);
    const trimmed = await forkOf(original.id, juno);
    await json(await call(`/api/characters/${trimmed.id}`, { method: "PUT", user: juno, body: { description: "Mira, Mira, Mira." } }), 200);
    await activate(trimmed.id, juno);
    // A fork of that fork, trimmed further.
    const grandchild = await forkOf(trimmed.id, mira);
    await json(await call(`/api/characters/${grandchild.id}`, { method: "PUT", user: mira, body: { description: "Mira Mira Mira Mira." } }), 200);
    await activate(grandchild.id, mira);
    // Something else named so: not a fork, so ranked on its own merits.
    const other = await create(juno, { name: "Mira Vale", description: "A lighthouse keeper on a cold northern coast." });

    const order = await searched("mira");
    expect(order).toHaveLength(5);
    expect(order.indexOf(original.id)).toBeLessThan(order.indexOf(same.id));
    expect(order.indexOf(original.id)).toBeLessThan(order.indexOf(trimmed.id));
    expect(order.indexOf(trimmed.id)).toBeLessThan(order.indexOf(grandchild.id));
    expect(order).toContain(other.id);
    // Renamed away from the original's name, a fork is found under its own.
    await json(await call(`/api/characters/${same.id}`, { method: "PUT", user: juno, body: { name: "Cartographer Noor" } }), 200);
    expect(await searched("noor")).toEqual([same.id]);
  });
});

describe("a fork's character card", () => {
  const card = async (id: number, user: TestUser) =>
    json<{ spec: string; data: Record<string, any> }>(await call(`/api/characters/${id}/card.json`, { user }), 200);

  it("is the forker's (V3 creator), credits the original in extensions and creator_notes, and says so once it is deleted", async () => {
    const original = await create(mira, { creatorNotes: "Best with a slow burn." });
    // An imported card keeps its own `creator` for export (worker/lib/card-export.ts); a fork must not pass it on.
    await env.DB.prepare("UPDATE characters SET extensions = ? WHERE id = ?")
      .bind(JSON.stringify({ "fabled/card": { data: { creator: "Mira Original", character_version: "2" } } }), original.id)
      .run();
    expect((await card(original.id, mira)).data.creator).toBe("Mira Original");

    const copy = await forkOf(original.id, juno);
    const exported = await card(copy.id, juno);
    expect(exported.spec).toBe("chara_card_v3");
    expect(exported.data.creator).toBe("juno_writes");
    expect(exported.data.character_version).toBe("2");
    expect(exported.data.extensions.fabled.forked_from).toEqual({ id: original.id, name: valid.name, creator: "@mira_maps" });
    expect(exported.data.creator_notes).toBe(`Best with a slow burn.\n\nForked from “${valid.name}” by @mira_maps on Fabled.`);
    // The original's own card carries no credit.
    const own = await card(original.id, mira);
    expect(own.data.extensions.fabled.forked_from).toBeUndefined();
    expect(own.data.creator_notes).toBe("Best with a slow burn.");

    await json(await call(`/api/characters/${original.id}`, { method: "DELETE", user: mira }), 200);
    const orphan = await card(copy.id, juno);
    expect(orphan.data.extensions.fabled.forked_from).toEqual({ id: original.id, name: null, creator: null });
    expect(orphan.data.creator_notes).toBe("Best with a slow burn.\n\nForked from a deleted character on Fabled.");
  });
});

describe("GET /api/characters/{id}/forks", () => {
  it("lists the public forks to anyone, never a private one, with the total", async () => {
    const original = await create(mira, {});
    const published = await forkOf(original.id, juno);
    await activate(published.id, juno);
    await forkOf(original.id, mira); // stays private
    const nsfw = await forkOf(original.id, juno);
    await json(await call(`/api/characters/${nsfw.id}`, { method: "PUT", user: juno, body: { isNsfw: true } }), 200);
    await activate(nsfw.id, juno);

    const sfw = await forksList(original.id);
    expect({ ids: sfw.characters.map((c) => c.id), total: sfw.total }).toEqual({ ids: [published.id], total: 1 });
    const all = await forksList(original.id, "?showNsfw=true", mira);
    expect(all.total).toBe(2);
    expect(all.characters.map((c) => c.id).sort()).toEqual([published.id, nsfw.id].sort());
    expect(all.characters[0]?.forkedFrom?.id).toBe(original.id);
    expect((await shown(original.id)).forkCount).toBe(3);
  });

  it("answers 404 for a character the caller cannot see, 400 for a bad page", async () => {
    const hidden = await create(mira, {});
    await activate(hidden.id, mira);
    expect(await json(await call(`/api/characters/${hidden.id}/forks`), 404)).toEqual(NOT_FOUND);
    expect(await json(await call(`/api/characters/${hidden.id}/forks`, { user: juno }), 404)).toEqual(NOT_FOUND);
    expect((await forksList(hidden.id, "", mira)).total).toBe(0);
    expect((await call(`/api/characters/${hidden.id}/forks?limit=0`, { user: mira })).status).toBe(400);
  });
});
