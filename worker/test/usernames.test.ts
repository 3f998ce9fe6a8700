/**
 * The username hole (issue 16): one canonical form, "@" + name, stored,
 * compared, checked and shown (DESIGN.md "Usernames"). Seeded creators used
 * to be stored without the "@" ("nightowl"), so "@nightowl" answered
 * available and could be taken. Here: the canonicalising function, the
 * migration that rewrites existing rows (collisions included), and the
 * availability check, the profile save, new sign-ins and the operator's
 * lookups against a seeded creator in every spelling.
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { canonicalUsername, creatorPath, usernameKey } from "../../schema/usernames.ts";
import { suspendUser, unsuspendUser } from "../lib/moderation-actions.ts";
import { findOrCreateDevUser } from "../lib/users.ts";
import { insertCharacter, signIn, type TestUser } from "./fixtures.ts";
import { OPERATOR, operatorDb } from "./operator-db.ts";

const TAKEN = "This username is already taken. Please choose another one.";

/** The rewriting statements of migrations/0009 (its UPDATEs), run again on rows written the old way. */
async function rewriteUsernames(): Promise<void> {
  const migration = env.TEST_MIGRATIONS.find((m) => m.name.startsWith("0009_"));
  if (!migration) throw new Error("migrations/0009_*.sql not found");
  const updates = migration.queries
    .map((q) => q.replace(/^\s*--.*$/gm, "").trim())
    .filter((q) => /^UPDATE\b/i.test(q) && /username|creator/.test(q));
  expect(updates.length).toBeGreaterThanOrEqual(5);
  for (const sql of updates) await env.DB.prepare(sql).run();
}

/** A user row as written before the canonical form: `username` exactly as given. */
async function insertUser(username: string, createdAt: number): Promise<string> {
  const id = crypto.randomUUID();
  await env.DB.prepare("INSERT INTO users (id, email, first_name, name, username, created_at) VALUES (?, ?, 'Old', 'Old', ?, ?)")
    .bind(id, `${id}@example.test`, username, createdAt)
    .run();
  return id;
}

const usernameOf = (id: string) => env.DB.prepare("SELECT username FROM users WHERE id = ?").bind(id).first<string>("username");
const creatorOf = (characterId: number) =>
  env.DB.prepare("SELECT creator FROM characters WHERE id = ?").bind(characterId).first<string>("creator");
const hex6 = (id: string) => id.replace(/-/g, "").slice(0, 6).toLowerCase();

/** Letters nobody else in this file uses. */
const fresh = (prefix: string) =>
  prefix + [...crypto.getRandomValues(new Uint8Array(6))].map((b) => String.fromCharCode(97 + (b % 26))).join("");

async function checkUsername(user: TestUser, username: string): Promise<boolean> {
  const res = await exports.default.fetch(`http://localhost/api/profile/check-username/${encodeURIComponent(username)}`, {
    headers: { Cookie: user.cookie },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { available: boolean }).available;
}

function putProfile(user: TestUser, username: string): Promise<Response> {
  return exports.default.fetch("http://localhost/api/profile", {
    method: "PUT",
    headers: { "Content-Type": "application/json", Cookie: user.cookie },
    body: JSON.stringify({ name: "Copycat", username, profileImageUrl: "" }),
  });
}

describe("canonicalUsername", () => {
  it.each([
    ["nightowl", "@nightowl"],
    ["@nightowl", "@nightowl"],
    ["@NightOwl", "@NightOwl"],
    ["  @@nightowl ", "@nightowl"],
    ["", "@"],
  ])("%j → %j", (input, canonical) => {
    expect(canonicalUsername(input)).toBe(canonical);
  });

  it("compares the three spellings as one key, and links to /u/ without the @", () => {
    expect(new Set(["nightowl", "@nightowl", "@NightOwl"].map(usernameKey))).toEqual(new Set(["@nightowl"]));
    expect(creatorPath("@NightOwl")).toBe("/u/NightOwl");
    expect(creatorPath("nightowl")).toBe("/u/nightowl");
  });
});

describe("migration 0009: usernames rewritten to the canonical form", () => {
  it("prefixes '@' where it is missing and leaves canonical names alone", async () => {
    const bare = fresh("bare");
    const canonical = `@${fresh("canon")}`;
    const a = await insertUser(bare, 1000);
    const b = await insertUser(canonical, 1000);
    await rewriteUsernames();
    expect(await usernameOf(a)).toBe(`@${bare}`);
    expect(await usernameOf(b)).toBe(canonical);
  });

  it("keeps a name for its first holder: an older bare name wins over a newer '@' copy, whose characters get the new handle", async () => {
    const name = fresh("owl");
    const original = await insertUser(name, 1000);
    const copy = await insertUser(`@${name.toUpperCase()}`, 2000);
    const originalCharacter = await insertCharacter({ creatorId: original, creator: name });
    const copyCharacter = await insertCharacter({ creatorId: copy, creator: name.toUpperCase() });
    await rewriteUsernames();
    expect(await usernameOf(original)).toBe(`@${name}`);
    expect(await usernameOf(copy)).toBe(`@${name.toUpperCase()}_${hex6(copy)}`);
    expect(await creatorOf(originalCharacter)).toBe(name);
    expect(await creatorOf(copyCharacter)).toBe(`${name.toUpperCase()}_${hex6(copy)}`);
  });

  it("keeps a name for its first holder: an older '@' name wins over a newer bare copy", async () => {
    const name = fresh("fox");
    const original = await insertUser(`@${name}`, 1000);
    const copy = await insertUser(name, 2000);
    const copyCharacter = await insertCharacter({ creatorId: copy, creator: name });
    await rewriteUsernames();
    expect(await usernameOf(original)).toBe(`@${name}`);
    expect(await usernameOf(copy)).toBe(`@${name}_${hex6(copy)}`);
    expect(await creatorOf(copyCharacter)).toBe(`${name}_${hex6(copy)}`);
  });

  it("breaks a tie of creation times by the smaller id, and keeps renamed names within 30 characters", async () => {
    const name = fresh("tie").padEnd(28, "x");
    const [small, large] = [crypto.randomUUID(), crypto.randomUUID()].sort() as [string, string];
    await env.DB.batch([
      env.DB.prepare("INSERT INTO users (id, email, username, created_at) VALUES (?, ?, ?, 5)").bind(large, `${large}@example.test`, name),
      env.DB.prepare("INSERT INTO users (id, email, username, created_at) VALUES (?, ?, ?, 5)").bind(small, `${small}@example.test`, `@${name}`),
    ]);
    await rewriteUsernames();
    expect(await usernameOf(small)).toBe(`@${name}`);
    const renamed = await usernameOf(large);
    expect(renamed).toBe(`@${name.slice(0, 22)}_${hex6(large)}`);
    expect(renamed).toHaveLength(30);
  });
});

describe("a seeded creator in every spelling", () => {
  // The demo creator "nightowl" as the seed wrote it before (no "@"), brought to the canonical form by the migration.
  let created: Promise<string> | undefined;
  const seeded = () =>
    (created ??= (async () => {
      const id = await insertUser("nightowl", 1000);
      await rewriteUsernames();
      return id;
    })());

  it("is stored as @nightowl", async () => {
    expect(await usernameOf(await seeded())).toBe("@nightowl");
  });

  it.each(["nightowl", "@nightowl", "@NightOwl", "NIGHTOWL"])("check-username/%s answers taken", async (spelling) => {
    await seeded();
    const someone = await signIn();
    expect(await checkUsername(someone, spelling)).toBe(false);
  });

  it.each(["nightowl", "@nightowl", "@NightOwl"])("PUT /api/profile with %s answers 409 and saves nothing", async (spelling) => {
    const id = await seeded();
    const someone = await signIn();
    const res = await putProfile(someone, spelling);
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ error: TAKEN, code: "conflict" });
    expect(await usernameOf(someone.id)).toBe(someone.username);
    expect(await env.DB.prepare("SELECT id FROM users WHERE lower(username) = '@nightowl'").all()).toMatchObject({
      results: [{ id }],
    });
  });

  it("is still the creator's own: they may keep it in any letter case", async () => {
    const id = await seeded();
    const { createSession } = await import("../lib/sessions.ts");
    const { token } = await createSession(env.DB, id);
    const creator = { id, username: "@nightowl", cookie: `fabled_session=${token}` };
    expect(await checkUsername(creator, "NightOwl")).toBe(true);
    const res = await putProfile(creator, "@NightOwl");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ username: "@NightOwl" });
    expect((await putProfile(creator, "nightowl")).status).toBe(200);
    expect(await usernameOf(id)).toBe("@nightowl");
  });

  it("is not handed to a new person signing in as Nightowl", async () => {
    await seeded();
    const user = await findOrCreateDevUser(env.DB, { email: `${fresh("n")}@example.test`, firstName: "NightOwl" });
    expect(user.username).toMatch(/^@nightowl_\d{2}$/);
  });

  it.each(["nightowl", "@NightOwl"])("is found by the operator's suspend/restore as %s", async (spelling) => {
    await seeded();
    expect(await suspendUser(operatorDb, spelling, OPERATOR)).toMatch(
      /^@nightowl is suspended: signed out everywhere; every write of theirs is refused; \d+ characters? of theirs hidden from every list\.$/,
    );
    expect(await unsuspendUser(operatorDb, spelling, OPERATOR)).toBe(
      "@nightowl may post, chat and create again; the characters the suspension hid are listed again.",
    );
  });
});
