/**
 * Names no one can counterfeit (issue 21), from the attacker's side: the
 * requests that got through before — a username with an "I" for an "l" or a
 * trailing "_", a pen name with a Cyrillic letter, a zero-width space, a
 * soft hyphen or a right-to-left override, a character named "a\u0000b" —
 * are refused and nothing is stored; the owner of a name keeps every
 * spelling of it. Skeletons: schema/skeleton.ts; hidden characters:
 * schema/names.ts; the stored skeleton: migrations/0012_name_skeletons.sql.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Character } from "../../schema/api.ts";
import { HIDDEN_CHARACTERS_MESSAGE, hasHiddenCharacters, NO_VISIBLE_CHARACTER_MESSAGE } from "../../schema/names.ts";
import { nameSkeleton, usernameSkeletonSql } from "../../schema/skeleton.ts";
import { findOrCreateDevUser } from "../lib/users.ts";
import { USERNAME_TAKEN } from "../routes/profile.ts";
import { CREATOR_NAME_TAKEN } from "../routes/characters.ts";
import { call, countRows, json } from "./creator-api.ts";
import { signIn, type TestUser } from "./fixtures.ts";

/** Letters that no skeleton step changes (no i, l, o, r, n, v), so a name's only lookalikes are the ones a test writes. */
const plain = (length = 6) =>
  [...crypto.getRandomValues(new Uint8Array(length))].map((b) => "abcdefghjkmpqstuxyz"[b % 19]).join("");

/** A victim whose username is "@nightowl" + a unique tail of plain letters. */
async function victim(): Promise<TestUser & { bare: string }> {
  const bare = `nightowl${plain()}`;
  return { ...(await signIn({ username: `@${bare}` })), bare };
}

const usernameOf = (id: string) => env.DB.prepare("SELECT username FROM users WHERE id = ?").bind(id).first<string>("username");
const putProfile = (user: TestUser, username: string, name = "Copycat") =>
  call("/api/profile", { method: "PUT", user, body: { name, username, profileImageUrl: "" } });
const newCharacter = async (user: TestUser, fields: Record<string, unknown> = {}) =>
  call("/api/characters", {
    method: "POST",
    user,
    body: { name: "Harbor Witch", description: "A sea witch who trades in storms.", personality: "Sly and generous to sailors.", ...fields },
  });

describe("skeletons", () => {
  it("map every lookalike of a name to one skeleton", () => {
    const forms = [
      "@nightowl",
      "@nightowI",
      "@NightOwl",
      "@nightowl_",
      "@night_owl",
      "@night0wl",
      "nightоwl",
      "night\u00ADowl",
      "night\u200Bowl",
      "\u202Dnightowl",
      "ｎｉｇｈｔｏｗｌ",
      "@nlghtowl",
      // Digits that stand for letters (issue 42): 1 for i or l, 0 o, 7 t, and both in one name.
      "@n1ghtowl",
      "@nightow1",
      "@n1ght0w1",
      "@N1GH7OWL",
    ];
    expect(new Set(forms.map(nameSkeleton))).toEqual(new Set(["nlghtowl"]));
    expect(nameSkeleton("@fabIed")).toBe(nameSkeleton("@fabled"));
    expect(nameSkeleton("@f4b13d")).toBe(nameSkeleton("@fabled"));
    expect(nameSkeleton("@5t4r8urst")).toBe(nameSkeleton("@starburst"));
    expect(nameSkeleton("@rnira")).toBe(nameSkeleton("@mira"));
    // Each digit is its own letter: names that differ in numbers stay apart, and 2, 6, 9 are left as they are.
    expect(new Set(["@mira_42", "@mira_43", "@mira_24", "@mira_96", "@mira_69"].map(nameSkeleton)).size).toBe(5);
    expect(nameSkeleton("@night0wl")).not.toBe(nameSkeleton("@nightowi_2"));
  });

  it("SQLite computes the same skeleton for usernames as nameSkeleton (the generated column, migrations 0012 and 0019)", async () => {
    const samples = ["@nightowl", "@NightOwI", "@fab1ed_", "@O0o_Il1", "@rnvv_RN", "@tester_11_a0b1c2", "@__", "@n1ght0w1", "@L33T_5p34k_0123456789", "@iIl1"];
    for (const username of samples) {
      const sql = await env.DB.prepare(`SELECT ${usernameSkeletonSql("?1")} AS s`).bind(username).first<string>("s");
      expect(sql, username).toBe(nameSkeleton(username));
    }
    const user = await signIn({ username: "@FabIed_Quiet" });
    const stored = await env.DB.prepare("SELECT username_skeleton AS s FROM users WHERE id = ?").bind(user.id).first<string>("s");
    expect(stored).toBe(nameSkeleton("@FabIed_Quiet"));
  });
});

describe("usernames", () => {
  it("refuses digits standing for letters beside someone's username: @n1ghtowl beside @nightowl (409), and the check says taken", async () => {
    const owner = await victim();
    const attacker = await signIn();
    const tail = owner.bare.slice("nightowl".length);
    for (const counterfeit of [`@n1ghtowl${tail}`, `@nightow1${tail}`, `@n1ght0w1${tail}`, `@nigh7owl${tail}`, `@N1GHT0WL${tail.toUpperCase()}`]) {
      expect(await json(await putProfile(attacker, counterfeit), 409), counterfeit).toEqual({ error: USERNAME_TAKEN, code: "conflict" });
      const check = await json<{ available: boolean }>(await call(`/api/profile/check-username/${encodeURIComponent(counterfeit)}`, { user: attacker }), 200);
      expect(check.available, counterfeit).toBe(false);
    }
    expect(await usernameOf(attacker.id)).toBe(attacker.username);
  });

  it("the report's request: @n1ghtowl beside the seeded @nightowl is refused", async () => {
    const taken = await env.DB.prepare("SELECT 1 AS found FROM users WHERE lower(username) = '@nightowl'").first();
    if (!taken) await signIn({ username: "@nightowl" });
    const attacker = await signIn();
    expect(await json(await putProfile(attacker, "@n1ghtowl"), 409)).toEqual({ error: USERNAME_TAKEN, code: "conflict" });
    expect(await usernameOf(attacker.id)).toBe(attacker.username);
  });

  it("names that already looked alike before the new skeleton both stay, and the first holder can still save theirs", async () => {
    // Rows written before migration 0020 (the index is not unique, so both exist).
    const first = await signIn({ username: `@l33t${plain()}` });
    const second = await signIn({ username: `@${first.username.slice(1).replace("33", "ee")}` });
    expect(nameSkeleton(second.username)).toBe(nameSkeleton(first.username));
    const skeletons = await env.DB.prepare("SELECT username_skeleton AS s FROM users WHERE id IN (?, ?)").bind(first.id, second.id).all<{ s: string }>();
    expect(skeletons.results.map((r) => r.s)).toEqual([nameSkeleton(first.username), nameSkeleton(first.username)]);
    // Each keeps saving their profile and may re-spell their own name; neither may take the other's exact name.
    expect((await json<{ username: string }>(await putProfile(first, first.username, "Leet"), 200)).username).toBe(first.username);
    expect((await json<{ username: string }>(await putProfile(second, second.username, "Elite"), 200)).username).toBe(second.username);
    const respelled = first.username.replace("@l", "@L");
    expect((await json<{ username: string }>(await putProfile(first, respelled, "Leet"), 200)).username).toBe(respelled);
    expect(await json(await putProfile(first, second.username.toUpperCase()), 409)).toEqual({ error: USERNAME_TAKEN, code: "conflict" });
    const mine = await json<{ available: boolean }>(await call(`/api/profile/check-username/${encodeURIComponent(second.username)}`, { user: second }), 200);
    expect(mine.available).toBe(true);
    // A third person gets neither.
    const third = await signIn();
    for (const taken of [first.username, second.username, first.username.replace("33", "3e")]) {
      expect(await json(await putProfile(third, taken), 409), taken).toEqual({ error: USERNAME_TAKEN, code: "conflict" });
    }
  });

  it("refuses a counterfeit of someone else's username (I for l, trailing _, 0 for o) with 409 and keeps the attacker's name", async () => {
    const owner = await victim();
    const attacker = await signIn();
    for (const counterfeit of [`@${owner.bare.replace("l", "I")}`, `@${owner.bare}_`, `@${owner.bare.replace("o", "0")}`, `@night_${owner.bare.slice(5)}`]) {
      expect(await json(await putProfile(attacker, counterfeit), 409), counterfeit).toEqual({ error: USERNAME_TAKEN, code: "conflict" });
      const check = await json<{ available: boolean }>(await call(`/api/profile/check-username/${encodeURIComponent(counterfeit)}`, { user: attacker }), 200);
      expect(check.available, counterfeit).toBe(false);
    }
    expect(await usernameOf(attacker.id)).toBe(attacker.username);
  });

  it("the requests of the report: @nightowI and @fabIed beside the seeded @nightowl and @fabled are refused", async () => {
    for (const seeded of ["@nightowl", "@fabled"]) {
      const taken = await env.DB.prepare("SELECT 1 AS found FROM users WHERE lower(username) = ?").bind(seeded).first();
      if (!taken) await signIn({ username: seeded });
    }
    const attacker = await signIn();
    for (const counterfeit of ["@nightowI", "@fabIed", "@nightowl_", "@fabled_"]) {
      expect(await json(await putProfile(attacker, counterfeit), 409), counterfeit).toEqual({ error: USERNAME_TAKEN, code: "conflict" });
    }
    expect(await usernameOf(attacker.id)).toBe(attacker.username);
  });

  it("lets a person take any spelling of their own name, and a name nobody's resembles", async () => {
    const owner = await victim();
    const mine = `@${owner.bare.replace("l", "I")}_`;
    expect((await json(await putProfile(owner, mine, "Owl"), 200)).username).toBe(mine);
    const other = await signIn();
    const free = `@quill${plain()}`;
    expect((await json(await putProfile(other, free), 200)).username).toBe(free);
  });

  it("a new sign-in is not given a counterfeit of an existing name", async () => {
    const owner = await victim();
    // "NightowI…" as a first name: its stem would be the owner's name with a capital-I-less spelling of l.
    const created = await findOrCreateDevUser(env.DB, { email: `${crypto.randomUUID()}@example.test`, firstName: owner.bare.replace("o", "0") });
    expect(nameSkeleton(created.username)).not.toBe(nameSkeleton(owner.username));
  });
});

describe("pen names (a character's creator)", () => {
  it("refuses another person's handle with a Cyrillic letter (400 on creator) and stores nothing", async () => {
    const owner = await victim();
    const attacker = await signIn();
    const character = await json<Character>(await newCharacter(attacker), 201);
    for (const creator of [owner.bare.replace("o", "о"), owner.bare.replace("l", "I"), `${owner.bare}_`, `@${owner.bare.toUpperCase()}`]) {
      const res = await call(`/api/characters/${character.id}`, { method: "PUT", user: attacker, body: { creator } });
      expect(await json(res, 400), creator).toEqual({
        error: CREATOR_NAME_TAKEN,
        code: "validation_failed",
        issues: [{ path: "creator", message: CREATOR_NAME_TAKEN }],
      });
    }
    expect((await json<Character>(await call(`/api/characters/${character.id}`, { user: attacker }), 200)).creator).toBe(character.creator);
  });

  it("refuses zero-width, soft-hyphen and right-to-left-override forms (400 on creator) and stores nothing", async () => {
    const owner = await victim();
    const attacker = await signIn();
    const character = await json<Character>(await newCharacter(attacker), 201);
    const reversed = [...owner.bare].reverse().join("");
    for (const creator of [`night\u200B${owner.bare.slice(5)}`, `night\u00AD${owner.bare.slice(5)}`, `\u202E${reversed}`, `${owner.bare}\u2066`]) {
      const res = await call(`/api/characters/${character.id}`, { method: "PUT", user: attacker, body: { creator } });
      const body = await json<{ code: string; issues: { path: string; message: string }[] }>(res, 400);
      expect(body.code).toBe("validation_failed");
      expect(body.issues, JSON.stringify(creator)).toEqual([{ path: "creator", message: HIDDEN_CHARACTERS_MESSAGE }]);
    }
    expect((await json<Character>(await call(`/api/characters/${character.id}`, { user: attacker }), 200)).creator).toBe(character.creator);
  });

  it("lets the owner show any spelling of their own handle", async () => {
    const owner = await victim();
    const character = await json<Character>(await newCharacter(owner), 201);
    const creator = owner.bare.replace("l", "I").replace("o", "о");
    const updated = await json<Character>(await call(`/api/characters/${character.id}`, { method: "PUT", user: owner, body: { creator } }), 200);
    expect(updated.creator).toBe(creator);
  });
});

describe("names and titles hold no hidden characters", () => {
  it("knows which characters are hidden, and keeps emoji joiners, Persian non-joiners and variation selectors", () => {
    for (const text of ["a\u0000b", "a\tb", "a\u200Bb", "a\u00ADb", "\u202Eabc", "a\u2066b\u2069", "\u3164", "a\u034Fb", "a\u200Db", "ab\u200Ccd", "a\u{E0041}"]) {
      expect(hasHiddenCharacters(text), JSON.stringify(text)).toBe(true);
    }
    for (const text of ["Ada 👩\u200D💻", "می\u200Cخواهم", "❤\uFE0F Rose", "Zoë", "Ночная сова", "夜のフクロウ"]) {
      expect(hasHiddenCharacters(text), JSON.stringify(text)).toBe(false);
    }
  });

  it("a character named \"a\\u0000b\" is refused and nothing is stored; an emoji name is fine", async () => {
    const user = await signIn();
    const before = await countRows("characters", "creator_id = ?", user.id);
    for (const name of ["a\u0000b", "Mira\u200B", "\u202EMira"]) {
      const body = await json<{ issues: { path: string; message: string }[] }>(await newCharacter(user, { name }), 400);
      expect(body.issues).toEqual([{ path: "name", message: HIDDEN_CHARACTERS_MESSAGE }]);
    }
    expect(await countRows("characters", "creator_id = ?", user.id)).toBe(before);
    expect((await json<Character>(await newCharacter(user, { name: "Ada 👩\u200D💻" }), 201)).name).toBe("Ada 👩\u200D💻");
  });

  it("tags, persona names, display names and conversation titles refuse them too", async () => {
    const user = await signIn();
    const tagged = await json<{ issues: { path: string; message: string }[] }>(await newCharacter(user, { tags: ["sea\u3164witch"] }), 400);
    expect(tagged.issues).toEqual([{ path: "tags.0", message: HIDDEN_CHARACTERS_MESSAGE }]);

    const persona = await call("/api/personas", { method: "POST", user, body: { name: "\u202EAnna", description: "" } });
    expect((await json<{ issues: { path: string; message: string }[] }>(persona, 400)).issues).toEqual([{ path: "name", message: HIDDEN_CHARACTERS_MESSAGE }]);
    expect(await countRows("personas", "user_id = ?", user.id)).toBe(0);

    const profile = await putProfile(user, user.username, "Tess\u0000");
    expect((await json<{ issues: { path: string; message: string }[] }>(profile, 400)).issues).toEqual([{ path: "name", message: HIDDEN_CHARACTERS_MESSAGE }]);

    const character = await json<Character>(await newCharacter(user), 201);
    const conversation = await call("/api/conversations", { method: "POST", user, body: { characterId: character.id, title: "Hi\u2066there" } });
    expect((await json<{ issues: { path: string; message: string }[] }>(conversation, 400)).issues).toEqual([{ path: "title", message: HIDDEN_CHARACTERS_MESSAGE }]);
    expect(await countRows("conversations", "user_id = ?", user.id)).toBe(0);
  });
});

describe("one rule for every name and title (issue 42)", () => {
  /** Each text an attacker sent, and the message it now gets. */
  const BAD: [text: string, message: string][] = [
    ["a\u0000b", HIDDEN_CHARACTERS_MESSAGE],
    ["Mira\u200B", HIDDEN_CHARACTERS_MESSAGE],
    ["\u202EMira", HIDDEN_CHARACTERS_MESSAGE],
    ["Mi\u2067ra\u2069", HIDDEN_CHARACTERS_MESSAGE],
    ["\u3164", HIDDEN_CHARACTERS_MESSAGE],
    ["\u2800", HIDDEN_CHARACTERS_MESSAGE],
    ["\u0301\u0308\u0301", NO_VISIBLE_CHARACTER_MESSAGE],
    ["\u0301 \u0308", NO_VISIBLE_CHARACTER_MESSAGE],
    ["\u20DD\u20DD", NO_VISIBLE_CHARACTER_MESSAGE],
    ["\u0301Mira", NO_VISIBLE_CHARACTER_MESSAGE],
  ];

  type Input = { field: string; path: string; send: (user: TestUser, text: string) => Promise<Response> };

  /** Every input that takes a name or a title, with what it needs around it. */
  async function inputs(user: TestUser): Promise<Input[]> {
    const character = await json<Character>(await newCharacter(user), 201);
    const chat = await json<{ id: string }>(await call("/api/conversations", { method: "POST", user, body: { characterId: character.id } }), 201);
    const persona = await json<{ id: string }>(await call("/api/personas", { method: "POST", user, body: { name: "Anna", description: "" } }), 201);
    const connection = await json<{ id: string }>(
      await call("/api/model-connections", { method: "POST", user, body: { name: "Mine", kind: "site", model: "offline" } }),
      201,
    );
    return [
      { field: "character name", path: "name", send: (u, name) => newCharacter(u, { name }) },
      { field: "character rename", path: "name", send: (u, name) => call(`/api/characters/${character.id}`, { method: "PUT", user: u, body: { name } }) },
      { field: "pen name", path: "creator", send: (u, creator) => call(`/api/characters/${character.id}`, { method: "PUT", user: u, body: { creator } }) },
      { field: "display name", path: "name", send: (u, name) => putProfile(u, u.username, name) },
      { field: "persona name", path: "name", send: (u, name) => call("/api/personas", { method: "POST", user: u, body: { name, description: "" } }) },
      { field: "persona rename", path: "name", send: (u, name) => call(`/api/personas/${persona.id}`, { method: "PUT", user: u, body: { name, description: "" } }) },
      {
        field: "conversation title",
        path: "title",
        send: (u, title) => call("/api/conversations", { method: "POST", user: u, body: { characterId: character.id, title } }),
      },
      { field: "conversation rename", path: "title", send: (u, title) => call(`/api/conversations/${chat.id}`, { method: "PATCH", user: u, body: { title } }) },
      {
        field: "model connection name",
        path: "name",
        send: (u, name) => call("/api/model-connections", { method: "POST", user: u, body: { name, kind: "site", model: "offline" } }),
      },
      { field: "model connection rename", path: "name", send: (u, name) => call(`/api/model-connections/${connection.id}`, { method: "PUT", user: u, body: { name } }) },
    ];
  }

  it("refuses control, invisible and bidi characters and names without a visible character, on every input, and stores nothing", async () => {
    const counts = async (user: TestUser) => [
      await countRows("characters", "creator_id = ?", user.id),
      await countRows("personas", "user_id = ?", user.id),
      await countRows("conversations", "user_id = ?", user.id),
      await countRows("model_connections", "user_id = ?", user.id),
    ];
    const fields = (await inputs(await signIn())).length;
    // One person per input, so the writes stay under the per-person limit (WRITE_RATE_LIMITER).
    for (let i = 0; i < fields; i++) {
      const user = await signIn();
      const input = (await inputs(user))[i]!;
      const before = await counts(user);
      for (const [text, message] of BAD) {
        const res = await input.send(user, text);
        const body = await json<{ code: string; issues: { path: string; message: string }[] }>(res, 400);
        expect(body.issues, `${input.field}: ${JSON.stringify(text)}`).toEqual([{ path: input.path, message }]);
      }
      expect(await counts(user), input.field).toEqual(before);
    }
    const user = await signIn();
    // Tags are letters and numbers from their first character, so a mark alone never starts one.
    for (const [text] of BAD) {
      expect((await json<{ issues: { path: string }[] }>(await newCharacter(user, { tags: [`sea${text}`] }), 400)).issues[0]?.path, JSON.stringify(text)).toBe(
        "tags.0",
      );
    }
  });

  it("keeps names whose marks sit on letters, in every script, on every input", async () => {
    const user = await signIn();
    const table = await inputs(user);
    const good = ["Zoe\u0308", "Nguyê\u0303n", "ขอบคุณ", "नमस्ते", "Ada 👩\u200D💻", "می\u200Cخواهم"];
    for (const input of table.filter((i) => i.field !== "pen name")) {
      for (const text of good) {
        const res = await input.send(user, text);
        expect(res.status, `${input.field}: ${text} → ${await res.clone().text()}`).toBeLessThan(300);
      }
    }
  });
});
