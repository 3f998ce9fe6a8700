/**
 * Personas as callers see them: `/api/personas` from a visitor's side (401),
 * another person's side (404, nothing changed) and the owner's; the limits
 * and their messages; the default rules, concurrent "make default" included;
 * what a deleted user or persona takes with it; avatar clean-up in R2. Then
 * the worker/lib/personas.ts functions directly.
 */
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import type { Persona } from "../../schema/api.ts";
import { MAX_PERSONAS } from "../../schema/constants.ts";
import {
  createPersona,
  deletePersona,
  getDefaultPersona,
  getPersona,
  listPersonas,
  parsePersonaId,
  updatePersona,
} from "../lib/personas.ts";
import { bucketKeys, call, callSettled, countRows, json, TINY_PNG } from "./creator-api.ts";
import { clearCatalog, insertCharacter, signIn, type TestUser } from "./fixtures.ts";

const UNAUTHORIZED = { error: "Unauthorized", code: "unauthorized" };
const NOT_FOUND = { error: "Persona not found", code: "not_found" };

const create = async (user: TestUser, body: Record<string, unknown>) =>
  json<Persona>(await call("/api/personas", { method: "POST", user, body }), 201);

// Updates and deletions answer once their avatar clean-up after the response is done (callSettled),
// so a test sees at once what it deleted and what it kept.
const update = (user: TestUser | null, id: string, body: unknown) => callSettled(`/api/personas/${id}`, { method: "PUT", user, body });

const remove = (user: TestUser | null, id: string) => callSettled(`/api/personas/${id}`, { method: "DELETE", user });

const list = async (user: TestUser) => json<Persona[]>(await call("/api/personas", { user }), 200);

/** The names of `user`'s personas in list order, the default marked with "*". */
const names = async (user: TestUser) => (await list(user)).map((p) => (p.isDefault ? `*${p.name}` : p.name));

/** The 400 body's headline and issues for a POST of `body`. */
async function refusal(user: TestUser, body: unknown) {
  return json<{ error: string; code: string; issues: { path: string; message: string }[] }>(
    await call("/api/personas", { method: "POST", user, body }),
    400,
  );
}

beforeEach(async () => {
  await clearCatalog();
  await env.DB.prepare("DELETE FROM users").run();
  for (const key of await bucketKeys()) await env.AVATARS.delete(key);
});

describe("visitors", () => {
  it("get 401 from every endpoint, and nothing is written", async () => {
    const mira = await signIn();
    const persona = await create(mira, { name: "Wren" });
    expect(await json(await call("/api/personas"), 401)).toEqual(UNAUTHORIZED);
    expect(await json(await call("/api/personas", { method: "POST", body: { name: "Ghost" } }), 401)).toEqual(UNAUTHORIZED);
    expect(await json(await update(null, persona.id, { name: "Hijacked" }), 401)).toEqual(UNAUTHORIZED);
    expect(await json(await remove(null, persona.id), 401)).toEqual(UNAUTHORIZED);
    expect(await countRows("personas")).toBe(1);
    expect(await names(mira)).toEqual(["*Wren"]);
  });
});

describe("POST /api/personas", () => {
  it("creates a persona; the first becomes the default, later ones do not", async () => {
    const mira = await signIn();
    const before = Date.now();
    const wren = await create(mira, {
      name: "  Wren  ",
      description: "  A quiet archivist with ink-stained fingers.\n",
      avatarUrl: "https://example.com/wren.png",
    });
    expect(wren).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      name: "Wren",
      description: "A quiet archivist with ink-stained fingers.",
      avatarUrl: "https://example.com/wren.png",
      isDefault: true,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(Date.parse(wren.createdAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(wren.updatedAt).toBe(wren.createdAt);

    const kit = await create(mira, { name: "Kit" });
    expect(kit).toMatchObject({ name: "Kit", description: "", avatarUrl: null, isDefault: false });
    expect(await list(mira)).toEqual([wren, kit]);
  });

  it("isDefault: true takes the default from the previous one; isDefault: false keeps even a first one plain", async () => {
    const mira = await signIn();
    const plain = await create(mira, { name: "Plain", isDefault: false });
    expect(plain.isDefault).toBe(false);
    await create(mira, { name: "Wren", isDefault: true });
    await create(mira, { name: "Kit", isDefault: true });
    await create(mira, { name: "Ash" });
    expect(await names(mira)).toEqual(["*Kit", "Plain", "Wren", "Ash"]);
  });

  it(`refuses persona ${MAX_PERSONAS + 1} with 409 and leaves the default alone`, async () => {
    const mira = await signIn();
    for (let i = 1; i <= MAX_PERSONAS; i++) await createPersona(env.DB, mira.id, { name: `P${i}`, description: "", avatarUrl: null });
    const res = await call("/api/personas", { method: "POST", user: mira, body: { name: "One too many", isDefault: true } });
    expect(await json(res, 409)).toEqual({ error: "You can keep at most 20 personas", code: "conflict" });
    expect(await countRows("personas", "user_id = ?", mira.id)).toBe(MAX_PERSONAS);
    expect((await list(mira))[0]).toMatchObject({ name: "P1", isDefault: true });
    // After deleting one there is room again.
    const last = (await list(mira)).at(-1)!;
    await json(await remove(mira, last.id), 200);
    expect((await create(mira, { name: "Room again" })).isDefault).toBe(false);
  });

  it("the limit is per person", async () => {
    const [mira, theo] = [await signIn(), await signIn()];
    for (let i = 1; i <= MAX_PERSONAS; i++) await createPersona(env.DB, mira.id, { name: `P${i}`, description: "", avatarUrl: null });
    expect((await create(theo, { name: "Theo's first" })).isDefault).toBe(true);
  });

  it("checks names, descriptions, avatars and isDefault with clear messages", async () => {
    const mira = await signIn();
    expect(await refusal(mira, {})).toMatchObject({
      error: "Persona name is required",
      code: "validation_failed",
      issues: [{ path: "name", message: "Persona name is required" }],
    });
    expect((await refusal(mira, { name: "   " })).error).toBe("Persona name is required");
    expect((await refusal(mira, { name: 7 })).error).toBe("Name must be text");
    expect((await refusal(mira, { name: "x".repeat(51) })).error).toBe("Name is too long (at most 50 characters)");
    expect((await refusal(mira, { name: "Wren", description: "d".repeat(2001) })).issues).toEqual([
      { path: "description", message: "Description is too long (at most 2,000 characters)" },
    ]);
    expect((await refusal(mira, { name: "Wren", avatarUrl: "javascript:alert(1)" })).issues).toEqual([
      { path: "avatarUrl", message: "Must be a valid URL" },
    ]);
    expect((await refusal(mira, { name: "Wren", avatarUrl: "http://example.com/a.png" })).error).toBe("Must be a valid URL");
    expect((await refusal(mira, { name: "Wren", isDefault: "yes" })).error).toBe("isDefault must be true or false");
    expect(await json(await call("/api/personas", { method: "POST", user: mira, body: "{not json" }), 400)).toEqual({
      error: "Malformed request body",
      code: "validation_failed",
    });
    expect(await countRows("personas")).toBe(0);

    // The limits themselves pass; surrounding spaces do not count.
    const longest = await create(mira, {
      name: ` ${"n".repeat(50)} `,
      description: ` ${"d".repeat(2000)} `,
      avatarUrl: `/objects/avatars/${mira.id}/some-upload`,
    });
    expect([longest.name.length, longest.description.length]).toEqual([50, 2000]);
    const demo = await create(mira, { name: "Demo face", avatarUrl: "/avatars/demo/aria-nightshade.svg", description: "" });
    expect(demo.avatarUrl).toBe("/avatars/demo/aria-nightshade.svg");
    expect((await create(mira, { name: "No face", avatarUrl: "" })).avatarUrl).toBeNull();
  });

  it("refuses a body over 16 KB with 413", async () => {
    const mira = await signIn();
    const res = await call("/api/personas", { method: "POST", user: mira, body: { name: "Big", description: "x".repeat(20_000) } });
    expect(await json(res, 413)).toMatchObject({ code: "payload_too_large" });
  });
});

describe("GET /api/personas", () => {
  it("lists only the caller's own, the default first, then oldest first, not cached", async () => {
    const [mira, theo] = [await signIn(), await signIn()];
    expect(await list(mira)).toEqual([]);
    await create(mira, { name: "First" });
    await create(mira, { name: "Second" });
    await create(mira, { name: "Third" });
    await create(theo, { name: "Theo's" });
    const third = (await list(mira))[2]!;
    await json(await update(mira, third.id, { isDefault: true }), 200);
    expect(await names(mira)).toEqual(["*Third", "First", "Second"]);
    expect(await names(theo)).toEqual(["*Theo's"]);
    const res = await call("/api/personas", { user: mira });
    expect(res.headers.get("cache-control")).toBe("private, no-store");
  });
});

describe("PUT /api/personas/:id", () => {
  it("changes only the fields sent and moves updatedAt", async () => {
    const mira = await signIn();
    const wren = await create(mira, { name: "Wren", description: "Archivist.", avatarUrl: "https://example.com/w.png" });
    // Last changed an hour ago, so the update must move it (no waiting for the clock to tick).
    await env.DB.prepare("UPDATE personas SET updated_at = updated_at - 3600000 WHERE id = ?").bind(wren.id).run();
    const renamed = await json<Persona>(await update(mira, wren.id, { name: " Wren Ashdown " }), 200);
    expect(renamed).toEqual({ ...wren, name: "Wren Ashdown", updatedAt: expect.any(String) });
    expect(Date.parse(renamed.updatedAt)).toBeGreaterThanOrEqual(Date.parse(wren.updatedAt));
    const cleared = await json<Persona>(await update(mira, wren.id, { description: "", avatarUrl: null }), 200);
    expect(cleared).toMatchObject({ name: "Wren Ashdown", description: "", avatarUrl: null, isDefault: true });
    expect(await list(mira)).toEqual([cleared]);
  });

  it("isDefault: true moves the default; isDefault: false on the default leaves none", async () => {
    const mira = await signIn();
    const wren = await create(mira, { name: "Wren" });
    const kit = await create(mira, { name: "Kit" });
    expect((await json<Persona>(await update(mira, kit.id, { isDefault: true }), 200)).isDefault).toBe(true);
    expect(await names(mira)).toEqual(["*Kit", "Wren"]);
    // Making the default the default again changes nothing.
    await json(await update(mira, kit.id, { isDefault: true }), 200);
    expect(await names(mira)).toEqual(["*Kit", "Wren"]);
    // isDefault: false on another persona leaves the default where it is.
    await json(await update(mira, wren.id, { isDefault: false }), 200);
    expect(await names(mira)).toEqual(["*Kit", "Wren"]);
    expect((await json<Persona>(await update(mira, kit.id, { isDefault: false }), 200)).isDefault).toBe(false);
    expect(await names(mira)).toEqual(["Wren", "Kit"]);
    expect(await getDefaultPersona(env.DB, mira.id)).toBeNull();
  });

  it("refuses an empty change and bad fields with 400", async () => {
    const mira = await signIn();
    const wren = await create(mira, { name: "Wren" });
    expect(await json(await update(mira, wren.id, {}), 400)).toMatchObject({
      error: "Nothing to change: send a name, description, avatarUrl or isDefault",
      code: "validation_failed",
    });
    expect(await json(await update(mira, wren.id, { nickname: "W" }), 400)).toMatchObject({ code: "validation_failed" });
    expect(await json(await update(mira, wren.id, { name: "" }), 400)).toMatchObject({ error: "Persona name is required" });
    expect(await json(await update(mira, wren.id, { description: "d".repeat(2001) }), 400)).toMatchObject({
      error: "Description is too long (at most 2,000 characters)",
    });
    expect(await list(mira)).toEqual([wren]);
  });

  it("answers the owner for an id in upper case too", async () => {
    const mira = await signIn();
    const wren = await create(mira, { name: "Wren" });
    expect((await json<Persona>(await update(mira, wren.id.toUpperCase(), { name: "Loud" }), 200)).id).toBe(wren.id);
  });
});

describe("DELETE /api/personas/:id", () => {
  it("deletes it; deleting the default leaves no default (no other is promoted)", async () => {
    const mira = await signIn();
    const wren = await create(mira, { name: "Wren" });
    const kit = await create(mira, { name: "Kit" });
    expect(await json(await remove(mira, kit.id), 200)).toEqual({ deleted: true });
    expect(await names(mira)).toEqual(["*Wren"]);
    const ash = await create(mira, { name: "Ash" });
    expect(await json(await remove(mira, wren.id), 200)).toEqual({ deleted: true });
    expect(await list(mira)).toEqual([ash]);
    expect(ash.isDefault).toBe(false);
    expect(await json(await remove(mira, wren.id), 404)).toEqual(NOT_FOUND);
  });
});

describe("another person's personas", () => {
  it("are 404 for reads and writes, exactly like unknown and malformed ids, and nothing changes", async () => {
    const [mira, theo] = [await signIn(), await signIn()];
    const wren = await create(mira, { name: "Wren", description: "Mira's.", avatarUrl: "https://example.com/w.png" });
    const theos = await create(theo, { name: "Theo's own" });
    const unknown = crypto.randomUUID();
    for (const id of [wren.id, unknown, "not-a-uuid", "1", "%20"]) {
      expect(await json(await update(theo, id, { name: "Mine now" }), 404)).toEqual(NOT_FOUND);
      expect(await json(await update(theo, id, { isDefault: true }), 404)).toEqual(NOT_FOUND);
      expect(await json(await remove(theo, id), 404)).toEqual(NOT_FOUND);
    }
    expect(await list(mira)).toEqual([wren]);
    // Theo's failed "make default" did not take his own default away either.
    expect(await list(theo)).toEqual([theos]);
  });
});

describe("concurrency", () => {
  it("two concurrent 'make default' requests leave exactly one default", async () => {
    const mira = await signIn();
    const personas: Persona[] = [];
    for (const name of ["A", "B", "C", "D"]) personas.push(await create(mira, { name }));
    for (let round = 0; round < 5; round++) {
      const answers = await Promise.all(personas.map((p) => update(mira, p.id, { isDefault: true })));
      // Each request either won for a moment or met the other one (409); never a 500.
      for (const answer of answers) expect([200, 409]).toContain(answer.status);
      const defaults = (await list(mira)).filter((p) => p.isDefault);
      expect(defaults).toHaveLength(1);
      expect(await countRows("personas", "user_id = ? AND is_default = 1", mira.id)).toBe(1);
    }
  });

  it("concurrent creates of a first persona make exactly one default; concurrent creates cannot pass the limit", async () => {
    const mira = await signIn();
    const answers = await Promise.all(
      ["A", "B", "C"].map((name) => call("/api/personas", { method: "POST", user: mira, body: { name } })),
    );
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201]);
    expect(await countRows("personas", "user_id = ? AND is_default = 1", mira.id)).toBe(1);

    for (let i = 4; i < MAX_PERSONAS; i++) await createPersona(env.DB, mira.id, { name: `P${i}`, description: "", avatarUrl: null });
    const racing = await Promise.all(
      ["X", "Y", "Z"].map((name) => call("/api/personas", { method: "POST", user: mira, body: { name, isDefault: true } })),
    );
    expect(racing.map((a) => a.status).sort()).toEqual([201, 409, 409]);
    expect(await countRows("personas", "user_id = ?", mira.id)).toBe(MAX_PERSONAS);
    expect(await countRows("personas", "user_id = ? AND is_default = 1", mira.id)).toBe(1);
  });

  it("the database itself refuses a second default for one person", async () => {
    const mira = await signIn();
    await create(mira, { name: "Wren" });
    await expect(
      env.DB.prepare("INSERT INTO personas (id, user_id, name, is_default) VALUES (?, ?, 'Rogue', 1)")
        .bind(crypto.randomUUID(), mira.id)
        .run(),
    ).rejects.toThrow(/UNIQUE constraint failed/);
  });
});

describe("what goes with a user or a persona", () => {
  it("deleting a user deletes their personas", async () => {
    const [mira, theo] = [await signIn(), await signIn()];
    await create(mira, { name: "Wren" });
    await create(mira, { name: "Kit" });
    await create(theo, { name: "Theo's" });
    await env.DB.prepare("DELETE FROM users WHERE id = ?").bind(mira.id).run();
    expect(await countRows("personas", "user_id = ?", mira.id)).toBe(0);
    expect(await countRows("personas", "user_id = ?", theo.id)).toBe(1);
  });

  it("a conversation that used a deleted persona keeps going without it; a branch outlives its origin", async () => {
    const mira = await signIn();
    const wren = await create(mira, { name: "Wren" });
    const characterId = await insertCharacter({ creatorId: mira.id });
    const [origin, branch] = [crypto.randomUUID(), crypto.randomUUID()];
    await env.DB.batch([
      env.DB.prepare("INSERT INTO conversations (id, character_id, user_id, persona_id) VALUES (?, ?, ?, ?)").bind(
        origin,
        characterId,
        mira.id,
        wren.id,
      ),
      env.DB.prepare(
        "INSERT INTO conversations (id, character_id, user_id, persona_id, branched_from_id) VALUES (?, ?, ?, ?, ?)",
      ).bind(branch, characterId, mira.id, wren.id, origin),
    ]);
    await json(await remove(mira, wren.id), 200);
    const personaIds = await env.DB.prepare("SELECT persona_id AS personaId FROM conversations ORDER BY id").all();
    expect(personaIds.results).toEqual([{ personaId: null }, { personaId: null }]);
    await env.DB.prepare("DELETE FROM conversations WHERE id = ?").bind(origin).run();
    const left = await env.DB.prepare("SELECT id, branched_from_id AS branchedFromId FROM conversations").all();
    expect(left.results).toEqual([{ id: branch, branchedFromId: null }]);
  });
});

describe("persona avatars in R2", () => {
  /** An uploaded and registered avatar of `user`: its `/objects/…` path. */
  async function avatar(user: TestUser): Promise<string> {
    const { uploadURL } = await json<{ uploadURL: string }>(await call("/api/objects/upload", { method: "POST", user }), 200);
    const put = await call(uploadURL, { method: "PUT", body: TINY_PNG, headers: { "content-type": "image/png" } });
    expect(put.status).toBe(200);
    const registered = await call("/api/character-avatars", { method: "PUT", user, body: { avatarURL: uploadURL } });
    return (await json<{ objectPath: string }>(registered, 200)).objectPath;
  }
  /** Status of GET `path` (an avatar as a browser fetches it). */
  const status = async (path: string) => (await call(path)).status;

  it("deleting a persona deletes its uploaded avatar", async () => {
    const mira = await signIn();
    const path = await avatar(mira);
    const wren = await create(mira, { name: "Wren", avatarUrl: path });
    expect(await status(path)).toBe(200);
    await json(await remove(mira, wren.id), 200);
    expect(await status(path)).toBe(404);
    expect(await bucketKeys()).toEqual([]);
  });

  it("replacing or removing an avatar deletes the old one; other changes delete nothing", async () => {
    const mira = await signIn();
    const [first, second] = [await avatar(mira), await avatar(mira)];
    const wren = await create(mira, { name: "Wren", avatarUrl: first });
    await json(await update(mira, wren.id, { avatarUrl: second }), 200);
    expect(await status(first)).toBe(404);
    await json(await update(mira, wren.id, { name: "Renamed", isDefault: false }), 200);
    expect(await status(second)).toBe(200);
    await json(await update(mira, wren.id, { avatarUrl: null }), 200);
    expect(await status(second)).toBe(404);
  });

  it("keeps an avatar another persona or a character still shows, in both directions", async () => {
    const mira = await signIn();
    const path = await avatar(mira);
    const wren = await create(mira, { name: "Wren", avatarUrl: path });
    const kit = await create(mira, { name: "Kit", avatarUrl: path });
    await json(await remove(mira, wren.id), 200);
    expect(await status(path)).toBe(200);

    const character = await json<{ id: number }>(
      await call("/api/characters", {
        method: "POST",
        user: mira,
        body: { name: "Twin", description: "Wears the same face.", personality: "Calm and watchful.", avatarUrl: path },
      }),
      201,
    );
    await json(await remove(mira, kit.id), 200);
    expect(await status(path)).toBe(200);

    // A persona still showing it keeps it when the character goes.
    const ash = await create(mira, { name: "Ash", avatarUrl: path });
    await json(await callSettled(`/api/characters/${character.id}`, { method: "DELETE", user: mira }), 200);
    expect(await status(path)).toBe(200);
    await json(await remove(mira, ash.id), 200);
    expect(await status(path)).toBe(404);
  });

  it("never deletes someone else's upload, and a refused delete deletes nothing", async () => {
    const [mira, theo] = [await signIn(), await signIn()];
    const miras = await avatar(mira);
    const wren = await create(mira, { name: "Wren", avatarUrl: miras });
    // Someone else's upload is refused as an avatar; one that got in before that rule is never deleted.
    expect((await refusal(theo, { name: "Borrowed face", avatarUrl: miras })).issues).toEqual([
      { path: "avatarUrl", message: "This picture is someone else's upload. Upload your own image instead." },
    ]);
    const theos = await createPersona(env.DB, theo.id, { name: "Borrowed face", description: "", avatarUrl: miras });
    await json(await remove(theo, theos.id), 200);
    expect(await json(await remove(theo, wren.id), 404)).toEqual(NOT_FOUND);
    expect(await json(await update(theo, wren.id, { avatarUrl: null }), 404)).toEqual(NOT_FOUND);
    expect(await status(miras)).toBe(200);
  });
});

describe("someone else's upload as a persona's avatar", () => {
  it("is refused on create and update with a 400 naming avatarUrl; one's own and outside https URLs pass", async () => {
    const [mira, theo] = [await signIn(), await signIn()];
    const theos = `/objects/avatars/${theo.id}/${crypto.randomUUID()}`;
    const message = "This picture is someone else's upload. Upload your own image instead.";
    expect(await refusal(mira, { name: "Thief", avatarUrl: theos })).toEqual({
      error: message,
      code: "validation_failed",
      issues: [{ path: "avatarUrl", message }],
    });
    expect(await refusal(mira, { name: "Thief", avatarUrl: `https://fabled.example${theos}` })).toMatchObject({ error: message });
    expect(await countRows("personas", "user_id = ?", mira.id)).toBe(0);

    const own = `/objects/avatars/${mira.id}/${crypto.randomUUID()}`;
    const wren = await create(mira, { name: "Wren", avatarUrl: own });
    expect(await json(await update(mira, wren.id, { avatarUrl: theos }), 400)).toMatchObject({ error: message });
    expect((await list(mira))[0]!.avatarUrl).toBe(own);
    expect((await json<Persona>(await update(mira, wren.id, { avatarUrl: "https://images.example.test/w.png" }), 200)).avatarUrl).toBe(
      "https://images.example.test/w.png",
    );
  });
});

describe("worker/lib/personas.ts", () => {
  const fields = (name: string) => ({ name, description: "", avatarUrl: null });

  it("parsePersonaId takes UUIDs (lower-cased) and throws 404 for anything else", () => {
    const id = crypto.randomUUID();
    expect(parsePersonaId(id.toUpperCase())).toBe(id);
    for (const raw of ["", "abc", `${id}x`, `${id.slice(0, -1)}g`, "../personas"]) {
      expect(() => parsePersonaId(raw)).toThrow("Persona not found");
    }
  });

  it("reads, writes and deletes only the given person's personas", async () => {
    const [mira, theo] = [await signIn(), await signIn()];
    const wren = await createPersona(env.DB, mira.id, fields("Wren"));
    const kit = await createPersona(env.DB, mira.id, { ...fields("Kit"), isDefault: true });
    expect(await getDefaultPersona(env.DB, mira.id)).toEqual(kit);
    expect(await getDefaultPersona(env.DB, theo.id)).toBeNull();
    expect(await getPersona(env.DB, mira.id, wren.id)).toEqual({ ...wren, isDefault: false, updatedAt: expect.any(String) });
    expect(await getPersona(env.DB, theo.id, wren.id)).toBeNull();
    expect(await listPersonas(env.DB, theo.id)).toEqual([]);

    await expect(updatePersona(env.DB, theo.id, wren.id, { isDefault: true })).rejects.toThrow("Persona not found");
    expect((await getDefaultPersona(env.DB, mira.id))?.id).toBe(kit.id);
    expect(await deletePersona(env.DB, theo.id, kit.id)).toBeNull();

    const moved = await updatePersona(env.DB, mira.id, wren.id, { isDefault: true, description: "Now the default." });
    expect(moved).toMatchObject({ id: wren.id, isDefault: true, description: "Now the default." });
    expect((await listPersonas(env.DB, mira.id)).map((p) => [p.name, p.isDefault])).toEqual([
      ["Wren", true],
      ["Kit", false],
    ]);
    expect(await deletePersona(env.DB, mira.id, wren.id)).toMatchObject({ id: wren.id, isDefault: true });
    expect(await getDefaultPersona(env.DB, mira.id)).toBeNull();
  });

  it("createPersona throws 409 at the limit", async () => {
    const mira = await signIn();
    for (let i = 0; i < MAX_PERSONAS; i++) await createPersona(env.DB, mira.id, fields(`P${i}`));
    await expect(createPersona(env.DB, mira.id, fields("Extra"))).rejects.toMatchObject({
      status: 409,
      code: "conflict",
      message: "You can keep at most 20 personas",
    });
  });
});
