/**
 * `PUT /api/profile` and `GET /api/profile/check-username/:username` as the
 * Edit Profile page calls them: SPEC.md §5 at every boundary with the same
 * messages, usernames unique in any letter case (also under a race), and 401
 * for visitors.
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signIn, type TestUser } from "./fixtures.ts";

const TAKEN = "This username is already taken. Please choose another one.";

function putProfile(user: TestUser | null, body: unknown): Promise<Response> {
  return exports.default.fetch("http://localhost/api/profile", {
    method: "PUT",
    headers: { "Content-Type": "application/json", ...(user ? { Cookie: user.cookie } : {}) },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function checkUsername(user: TestUser | null, username: string): Promise<Response> {
  return exports.default.fetch(`http://localhost/api/profile/check-username/${encodeURIComponent(username)}`, {
    headers: user ? { Cookie: user.cookie } : {},
  });
}

async function available(user: TestUser, username: string): Promise<boolean> {
  const res = await checkUsername(user, username);
  expect(res.status).toBe(200);
  return ((await res.json()) as { available: boolean }).available;
}

/** A username nobody else in this file holds: "@" + prefix + 8 random letters. */
function freshUsername(prefix = "u"): string {
  const letters = [...crypto.getRandomValues(new Uint8Array(8))].map((b) => String.fromCharCode(97 + (b % 26))).join("");
  return `@${prefix}${letters}`;
}

const valid = () => ({ name: "Mira Kowalski", username: freshUsername("mira"), profileImageUrl: "https://images.example.test/m.png" });

describe("visitors", () => {
  it.each([
    ["PUT /api/profile", () => putProfile(null, valid())],
    ["GET /api/profile/check-username/:username", () => checkUsername(null, "@mira")],
    ["GET /api/auth/user", () => exports.default.fetch("http://localhost/api/auth/user")],
  ])("%s answers 401", async (_label, call) => {
    const res = await call();
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "Unauthorized", code: "unauthorized" });
  });

  it("cannot change anything with a visitor's request", async () => {
    const res = await putProfile(null, { name: "x", username: "@x_visitor", profileImageUrl: "" });
    expect(res.status).toBe(401);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM users WHERE username = '@x_visitor'").first("n")).toBe(0);
  });
});

describe("the bio (issue 26)", () => {
  it("is saved trimmed, shown on the person's page, kept when a save leaves it out, and removed with an empty one", async () => {
    const user = await signIn();
    const input = valid();
    const res = await putProfile(user, { ...input, bio: "  I write lighthouse keepers and sea witches.  " });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ bio: "I write lighthouse keepers and sea witches." });
    const page = async () => (await (await exports.default.fetch(`http://localhost/api/users/${input.username.slice(1)}`)).json()) as { bio: string | null };
    expect((await page()).bio).toBe("I write lighthouse keepers and sea witches.");

    // SPEC.md §7's three fields alone leave the bio as it is.
    expect(await (await putProfile(user, input)).json()).toMatchObject({ bio: "I write lighthouse keepers and sea witches." });
    expect(await (await putProfile(user, { ...input, bio: "" })).json()).toMatchObject({ bio: null });
    expect((await page()).bio).toBeNull();
  });

  it("takes 500 characters and refuses 501 with the message, changing nothing", async () => {
    const user = await signIn();
    const input = valid();
    expect((await putProfile(user, { ...input, bio: "b".repeat(500) })).status).toBe(200);
    const res = await putProfile(user, { ...input, bio: "c".repeat(501) });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "validation_failed", error: "Bio is too long (at most 500 characters)" });
    expect(await env.DB.prepare("SELECT bio FROM users WHERE id = ?").bind(user.id).first("bio")).toBe("b".repeat(500));
  });
});

describe("content settings: NSFW and the 18+ confirmation (issue 26)", () => {
  const content = (user: TestUser | null, body?: unknown) =>
    exports.default.fetch("http://localhost/api/profile/content", {
      method: body === undefined ? "GET" : "PUT",
      headers: { "Content-Type": "application/json", ...(user ? { Cookie: user.cookie } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it("starts off and unconfirmed; NSFW on needs the confirmation, which is recorded once with its time", async () => {
    const user = await signIn();
    expect(await (await content(user)).json()).toEqual({ showNsfw: false, adultConfirmedAt: null });

    const refused = await content(user, { showNsfw: true });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ error: "Confirm that you are 18 or older to show NSFW content", code: "validation_failed" });
    expect(await (await content(user)).json()).toEqual({ showNsfw: false, adultConfirmedAt: null });

    const before = Date.now();
    const on = await content(user, { showNsfw: true, confirmAdult: true });
    expect(on.status).toBe(200);
    const confirmed = (await on.json()) as { showNsfw: boolean; adultConfirmedAt: number };
    expect(confirmed.showNsfw).toBe(true);
    expect(confirmed.adultConfirmedAt).toBeGreaterThanOrEqual(before);
    expect(confirmed.adultConfirmedAt).toBeLessThanOrEqual(Date.now());

    // Off and on again: no second confirmation needed, and the first one's time is kept.
    expect(await (await content(user, { showNsfw: false })).json()).toEqual({ showNsfw: false, adultConfirmedAt: confirmed.adultConfirmedAt });
    expect(await (await content(user, { showNsfw: true })).json()).toEqual({ showNsfw: true, adultConfirmedAt: confirmed.adultConfirmedAt });
    expect(await (await content(user, { showNsfw: true, confirmAdult: true })).json()).toEqual({
      showNsfw: true,
      adultConfirmedAt: confirmed.adultConfirmedAt,
    });
  });

  it("is each person's own: another person's settings are untouched", async () => {
    const mira = await signIn();
    const other = await signIn();
    await content(mira, { showNsfw: true, confirmAdult: true });
    expect(await (await content(other)).json()).toEqual({ showNsfw: false, adultConfirmedAt: null });
  });

  it.each<[string, unknown, string]>([
    ["no showNsfw", {}, "showNsfw must be true or false"],
    ["a string", { showNsfw: "true" }, "showNsfw must be true or false"],
    ["confirmAdult false", { showNsfw: true, confirmAdult: false }, "confirmAdult can only be true"],
  ])("answers %s with a 400 in the JSON error shape", async (_label, body, message) => {
    const res = await content(await signIn(), body);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "validation_failed", error: message });
  });

  it("answers visitors 401", async () => {
    for (const res of [await content(null), await content(null, { showNsfw: true, confirmAdult: true })]) {
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: "Unauthorized", code: "unauthorized" });
    }
  });
});

describe("PUT /api/profile", () => {
  it("saves the profile, returns it in the /api/auth/user shape and updates updated_at", async () => {
    const user = await signIn();
    // Last changed an hour ago, so the save must move it (no waiting for the clock to tick).
    const anHourAgo = Date.now() - 3_600_000;
    await env.DB.prepare("UPDATE users SET updated_at = ? WHERE id = ?").bind(anHourAgo, user.id).run();
    const input = valid();
    const res = await putProfile(user, { ...input, name: "  Mira Kowalski  " });
    expect(res.status).toBe(200);
    const saved = await res.json();
    expect(saved).toEqual({
      id: user.id,
      firstName: "Tess",
      lastName: null,
      name: "Mira Kowalski",
      username: input.username,
      email: `${user.id}@example.test`,
      profileImageUrl: input.profileImageUrl,
      bio: null,
    });
    const me = await exports.default.fetch("http://localhost/api/auth/user", { headers: { Cookie: user.cookie } });
    expect(await me.json()).toEqual(saved);
    const after = await env.DB.prepare("SELECT updated_at FROM users WHERE id = ?").bind(user.id).first<number>("updated_at");
    expect(after!).toBeGreaterThan(Date.now() - 60_000);
  });

  describe("SPEC.md §5 boundaries", () => {
    it.each<[string, Record<string, unknown>, string]>([
      ["an empty name", { name: "" }, "Name is required"],
      ["a blank name", { name: "   " }, "Name is required"],
      ["a 101-character name", { name: "n".repeat(101) }, "Name is too long"],
      ["a 1-character username", { username: "@" }, "Username must be at least 2 characters"],
      ["a 31-character username", { username: `@${"u".repeat(30)}` }, "Username is too long"],
      ["a username with a space", { username: "@mira k" }, "Username must start with @ and contain only letters, numbers, and underscores"],
      ["a username with a dash", { username: "@mira-k" }, "Username must start with @ and contain only letters, numbers, and underscores"],
      ["a username with a second @", { username: "@mi@ra" }, "Username must start with @ and contain only letters, numbers, and underscores"],
      ["a username with an accent", { username: "@zoë" }, "Username must start with @ and contain only letters, numbers, and underscores"],
      ["an image URL that is not a URL", { profileImageUrl: "not a url" }, "Must be a valid URL"],
      ["a javascript: image URL", { profileImageUrl: "javascript:alert(1)" }, "Must be a valid URL"],
      ["a plain http image URL", { profileImageUrl: "http://images.example.test/a.png" }, "Image URLs must start with https://"],
      ["an HTTP image URL in capitals", { profileImageUrl: "HTTP://images.example.test/a.png" }, "Image URLs must start with https://"],
      ["someone else's upload", { profileImageUrl: `/objects/avatars/${crypto.randomUUID()}/${crypto.randomUUID()}` }, "This picture is someone else's upload. Upload your own image instead."],
      ["someone else's upload as an absolute URL", { profileImageUrl: `https://fabled.example/objects/avatars/${crypto.randomUUID()}/x` }, "This picture is someone else's upload. Upload your own image instead."],
    ])("refuses %s", async (_label, change, message) => {
      const user = await signIn();
      const res = await putProfile(user, { ...valid(), ...change });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: string; code: string; issues: { message: string }[] };
      expect(body.code).toBe("validation_failed");
      expect(body.error).toBe(message);
      expect(body.issues[0]!.message).toBe(message);
      // Nothing was saved.
      const me = (await (await exports.default.fetch("http://localhost/api/auth/user", { headers: { Cookie: user.cookie } })).json()) as {
        username: string;
      };
      expect(me.username).toBe(user.username);
    });

    it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
      ["a 1-character name", { name: "M" }, { name: "M" }],
      ["a 100-character name", { name: "n".repeat(100) }, { name: "n".repeat(100) }],
      ["an empty image URL (stored as none)", { profileImageUrl: "" }, { profileImageUrl: null }],
      ["a null image URL", { profileImageUrl: null }, { profileImageUrl: null }],
      ["no image URL at all", { profileImageUrl: undefined }, { profileImageUrl: null }],
      ["an https image URL", { profileImageUrl: "https://images.example.test/a.png" }, { profileImageUrl: "https://images.example.test/a.png" }],
    ])("accepts %s", async (_label, change, expected) => {
      const user = await signIn();
      const res = await putProfile(user, { ...valid(), ...change });
      expect(res.status, await res.clone().text()).toBe(200);
      expect(await res.json()).toMatchObject(expected);
    });

    it("accepts a username typed without its \"@\" and stores it with one", async () => {
      const user = await signIn();
      const username = freshUsername("bare");
      const res = await putProfile(user, { ...valid(), username: username.slice(1) });
      expect(res.status, await res.clone().text()).toBe(200);
      expect(await res.json()).toMatchObject({ username });
      expect(await env.DB.prepare("SELECT username FROM users WHERE id = ?").bind(user.id).first("username")).toBe(username);
    });

    it("accepts one's own upload as the image", async () => {
      const user = await signIn();
      const own = `/objects/avatars/${user.id}/${crypto.randomUUID()}`;
      const res = await putProfile(user, { ...valid(), profileImageUrl: own });
      expect(res.status, await res.clone().text()).toBe(200);
      expect(await res.json()).toMatchObject({ profileImageUrl: own });
    });

    it("accepts a 30-character username", async () => {
      const user = await signIn();
      const username = `${freshUsername("x")}${"_".repeat(30)}`.slice(0, 30);
      expect(username).toHaveLength(30);
      const res = await putProfile(user, { ...valid(), username });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ username });
    });

    it("accepts \"@a\"-style usernames (2 characters)", async () => {
      const user = await signIn();
      // Two-character names are few; take one that is free.
      const candidates = "abcdefghijklmnopqrstuvwxyz0123456789".split("").map((ch) => `@${ch}`);
      const free = [];
      for (const name of candidates) if (await available(user, name)) free.push(name);
      const res = await putProfile(user, { ...valid(), username: free[0] });
      expect(res.status).toBe(200);
    });

    it("answers a malformed JSON body with 400, not 500", async () => {
      const user = await signIn();
      const res = await putProfile(user, "{not json");
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: "validation_failed" });
    });

    it("answers a huge body with 413", async () => {
      const user = await signIn();
      const res = await putProfile(user, { ...valid(), name: "n".repeat(20_000) });
      expect(res.status).toBe(413);
      expect(await res.json()).toMatchObject({ code: "payload_too_large" });
    });
  });

  describe("unique usernames", () => {
    it("answers 409 for a username another person holds in any letter case", async () => {
      const holder = await signIn();
      const name = freshUsername("mira");
      expect((await putProfile(holder, { ...valid(), username: name })).status).toBe(200);

      const other = await signIn();
      for (const attempt of [name, name.toUpperCase(), `@${name.slice(1, 2).toUpperCase()}${name.slice(2)}`]) {
        const res = await putProfile(other, { ...valid(), username: attempt });
        expect(res.status, attempt).toBe(409);
        expect(await res.json()).toEqual({ error: TAKEN, code: "conflict" });
      }
    });

    it("lets people keep their own username or change its letter case", async () => {
      const user = await signIn();
      const name = freshUsername("case");
      expect((await putProfile(user, { ...valid(), username: name })).status).toBe(200);
      expect((await putProfile(user, { ...valid(), username: name })).status).toBe(200);
      const upper = `@${name.slice(1).toUpperCase()}`;
      const res = await putProfile(user, { ...valid(), username: upper });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ username: upper });
    });

    it("gives exactly one of two people racing for the same new username a 200, the other a 409", async () => {
      for (let round = 0; round < 5; round++) {
        const [a, b] = await Promise.all([signIn(), signIn()]);
        const name = freshUsername("race");
        const results = await Promise.all([
          putProfile(a!, { ...valid(), username: name }),
          putProfile(b!, { ...valid(), username: name.toUpperCase() }),
        ]);
        expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
        const loser = results.find((r) => r.status === 409)!;
        expect(await loser.json()).toEqual({ error: TAKEN, code: "conflict" });
        const holders = await env.DB.prepare("SELECT count(*) AS n FROM users WHERE lower(username) = lower(?)").bind(name).first("n");
        expect(holders).toBe(1);
      }
    });
  });
});

describe("GET /api/profile/check-username/:username", () => {
  it("counts the person's own current username as available, in any letter case", async () => {
    const user = await signIn();
    expect(await available(user, user.username)).toBe(true);
    expect(await available(user, user.username.toUpperCase())).toBe(true);
  });

  it("says a free username is available", async () => {
    const user = await signIn();
    expect(await available(user, freshUsername("free"))).toBe(true);
  });

  it("says a username someone else holds is taken, in any letter case", async () => {
    const holder = await signIn();
    const name = freshUsername("held");
    expect((await putProfile(holder, { ...valid(), username: name })).status).toBe(200);
    const user = await signIn();
    expect(await available(user, name)).toBe(false);
    expect(await available(user, name.toUpperCase())).toBe(false);
  });

  it.each(["@", "@mira k", "@mira-k", `@${"u".repeat(30)}`, "@zoë", "@@"])(
    "answers a malformed name %j with available: false, not an error",
    async (name) => {
      const user = await signIn();
      expect(await available(user, name)).toBe(false);
    },
  );
});
