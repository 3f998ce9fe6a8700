/**
 * D1 Sessions API bookmarks as a browser sees them (worker/middleware/d1-session.ts):
 * a write answers with its bookmark (cookie and `x-d1-bookmark` header); the
 * next request that carries it reads that write and gets the bookmark back;
 * a visitor who only reads gets no cookie; a malformed bookmark is ignored;
 * signing out drops the bookmark. Local D1 has one instance, so these tests
 * check the bookmark's round trip and what the person reads — which replica
 * serves a read is Cloudflare's part.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import type { Character, Comment } from "../../schema/api.ts";
import app from "../app.ts";
import { BOOKMARK_COOKIE, BOOKMARK_HEADER, BOOKMARK_MAX_AGE_S, BOOKMARK_PATTERN } from "../middleware/d1-session.ts";
import { upgrade } from "./chat-client.ts";
import { setCookie } from "./cookies.ts";
import { clearCatalog, insertCharacter, signIn, type TestUser } from "./fixtures.ts";

beforeEach(clearCatalog);

interface Request {
  method?: string;
  user?: TestUser | null;
  /** A bookmark sent as the cookie. */
  cookie?: string;
  /** A bookmark sent as the `x-d1-bookmark` header. */
  header?: string;
  body?: unknown;
  origin?: string;
}

function send(path: string, { method = "GET", user = null, cookie, header, body, origin = "http://localhost" }: Request = {}) {
  const cookies = [user?.cookie, cookie !== undefined ? `${BOOKMARK_COOKIE}=${cookie}` : undefined].filter(Boolean);
  const headers: Record<string, string> = {};
  if (cookies.length > 0) headers.cookie = cookies.join("; ");
  if (header !== undefined) headers[BOOKMARK_HEADER] = header;
  if (body !== undefined) headers["content-type"] = "application/json";
  return exports.default.fetch(`${origin}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

/** The bookmark a response hands back; fails unless cookie and header agree and have a bookmark's shape. */
function bookmarkOf(res: Response): string {
  const header = res.headers.get(BOOKMARK_HEADER);
  const cookie = setCookie(res, BOOKMARK_COOKIE);
  expect(header, "x-d1-bookmark response header").toMatch(BOOKMARK_PATTERN);
  expect(cookie?.value).toBe(header);
  expect(cookie?.cleared).toBe(false);
  return header!;
}

function hasNoBookmark(res: Response): void {
  expect(res.headers.get(BOOKMARK_HEADER)).toBeNull();
  expect(setCookie(res, BOOKMARK_COOKIE)).toBeUndefined();
}

describe("read your writes with the bookmark", () => {
  it("favorite, then read: the favorite's answer carries a bookmark; the next read with it shows the heart", async () => {
    const mira = await signIn();
    const id = await insertCharacter({ name: "Hearted" });
    const favorite = await send(`/api/characters/${id}/favorite`, { method: "POST", user: mira });
    expect(await favorite.json()).toEqual({ isFavorited: true, favoriteCount: 1 });
    const bookmark = bookmarkOf(favorite);

    const status = await send(`/api/characters/${id}/favorite`, { user: mira, cookie: bookmark });
    expect(await status.json()).toEqual({ isFavorited: true });
    expect(bookmarkOf(status) >= bookmark).toBe(true);

    const page = await send("/api/characters", { user: mira, cookie: bookmark });
    const body = (await page.json()) as { characters: { id: number; isFavorited?: boolean; favoriteCount: number }[] };
    expect(body.characters.find((c) => c.id === id)).toMatchObject({ isFavorited: true, favoriteCount: 1 });
  });

  it("comment, then list: the comment is in the list read with the comment's bookmark", async () => {
    const mira = await signIn();
    const id = await insertCharacter();
    const posted = await send(`/api/characters/${id}/comments`, { method: "POST", user: mira, body: { content: "Lovely greeting." } });
    expect(posted.status).toBe(201);
    const bookmark = bookmarkOf(posted);
    const comment = (await posted.json()) as Comment;

    // A client that keeps the bookmark in the header (Cloudflare's examples) rather than the cookie.
    const listed = await send(`/api/characters/${id}/comments`, { header: bookmark });
    expect(((await listed.json()) as Comment[]).map((c) => [c.id, c.content])).toEqual([[comment.id, "Lovely greeting."]]);
    expect(bookmarkOf(listed) >= bookmark).toBe(true);
  });

  it("edit, then detail: the character page read with the edit's bookmark shows the edit", async () => {
    const owner = await signIn();
    const created = await send("/api/characters", {
      method: "POST",
      user: owner,
      body: { name: "Before", description: "A character about to be renamed.", personality: "Patient and exact.", tags: [] },
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const first = bookmarkOf(created);
    const { id } = (await created.json()) as Character;

    const edited = await send(`/api/characters/${id}`, { method: "PUT", user: owner, cookie: first, body: { name: "After" } });
    expect(edited.status).toBe(200);
    const second = bookmarkOf(edited);
    expect(second > first, "a later write has a later bookmark").toBe(true);

    const detail = await send(`/api/characters/${id}`, { user: owner, cookie: second });
    expect(((await detail.json()) as Character).name).toBe("After");
    expect(bookmarkOf(detail) >= second).toBe(true);
  });

  it("with both a header and a cookie, the later bookmark wins", async () => {
    const mira = await signIn();
    const id = await insertCharacter();
    const early = bookmarkOf(await send(`/api/characters/${id}/favorite`, { method: "POST", user: mira }));
    const late = bookmarkOf(await send(`/api/characters/${id}/favorite`, { method: "POST", user: mira }));
    expect(late > early).toBe(true);
    for (const [cookie, header] of [[early, late], [late, early]]) {
      const res = await send(`/api/characters/${id}/favorite`, { user: mira, cookie, header });
      expect(bookmarkOf(res) >= late).toBe(true);
    }
  });
});

describe("the bookmark cookie", () => {
  it("is HttpOnly, SameSite=Lax, site-wide, a day long, and Secure over https", async () => {
    const mira = await signIn();
    const id = await insertCharacter();
    const local = setCookie(await send(`/api/characters/${id}/favorite`, { method: "POST", user: mira }), BOOKMARK_COOKIE)!;
    expect(local.attributes).toMatchObject({ httponly: "", samesite: "Lax", path: "/", "max-age": String(BOOKMARK_MAX_AGE_S) });
    expect(local.attributes).not.toHaveProperty("secure");

    const secureUser = { ...mira, cookie: mira.cookie.replace(/^fabled_session=/, "__Host-fabled_session=") };
    const res = await send(`/api/characters/${id}/favorite`, { method: "POST", user: secureUser, origin: "https://fabled.example" });
    expect(res.status).toBe(200);
    expect(setCookie(res, BOOKMARK_COOKIE)!.attributes).toMatchObject({ secure: "", httponly: "", samesite: "Lax", path: "/" });
  });

  it("a visitor who only reads gets neither cookie nor header, so visitor answers stay cacheable", async () => {
    const id = await insertCharacter({ tags: ["drama"] });
    for (const path of ["/api/tags?popular=true", "/api/characters", "/api/characters?search=test", `/api/characters/${id}`, `/api/characters/${id}/comments`]) {
      const res = await send(path);
      expect(res.status, path).toBe(200);
      hasNoBookmark(res);
      expect(res.headers.getSetCookie(), path).toEqual([]);
    }
  });

  it("a signed-in person who only reads and carries no bookmark gets none either", async () => {
    const mira = await signIn();
    const id = await insertCharacter();
    hasNoBookmark(await send(`/api/characters/${id}`, { user: mira }));
    hasNoBookmark(await send("/api/my-characters", { user: mira }));
  });

  it("a write that fails still answers with the session's bookmark when it queried D1", async () => {
    const mira = await signIn();
    const res = await send("/api/characters/999999/favorite", { method: "POST", user: mira });
    expect(res.status).toBe(404);
    bookmarkOf(res);
  });
});

describe("a malformed bookmark", () => {
  const malformed = ["", "garbage", "first-primary", "first-unconstrained", "0000007b-0000b26e-00001538", `${"0".repeat(8)}-${"0".repeat(8)}-${"0".repeat(8)}-${"g".repeat(32)}`, "x".repeat(5000)];

  it("is ignored on a read: the answer is the same as without it, and no bookmark comes back", async () => {
    const id = await insertCharacter({ name: "Steady" });
    for (const value of malformed) {
      for (const carried of [{ cookie: value }, { header: value }]) {
        const res = await send(`/api/characters/${id}`, carried);
        expect(res.status, JSON.stringify(carried).slice(0, 80)).toBe(200);
        expect(((await res.json()) as Character).name).toBe("Steady");
        hasNoBookmark(res);
      }
    }
  });

  it("is ignored on a write: the write happens and answers with a fresh, valid bookmark", async () => {
    const mira = await signIn();
    const id = await insertCharacter();
    for (const value of malformed) {
      const res = await send(`/api/characters/${id}/favorite`, { method: "POST", user: mira, cookie: value, header: value });
      expect(res.status).toBe(200);
      bookmarkOf(res);
    }
  });
});

describe("a request that fails on our side", () => {
  it("drops the bookmark, so a bookmark D1 would refuse cannot fail the browser's every request", async () => {
    const mira = await signIn();
    const id = await insertCharacter({ tags: ["drama"] });
    const bookmark = bookmarkOf(await send(`/api/characters/${id}/favorite`, { method: "POST", user: mira }));
    // The tags table goes missing for a moment: D1 answers this query with an error.
    await env.DB.prepare("ALTER TABLE tags RENAME TO tags_elsewhere").run();
    try {
      const res = await send("/api/tags?popular=true", { user: mira, cookie: bookmark });
      expect(res.status).toBe(500);
      expect(await res.json()).toMatchObject({ code: "internal" });
      expect(res.headers.get(BOOKMARK_HEADER)).toBeNull();
      expect(setCookie(res, BOOKMARK_COOKIE)?.cleared).toBe(true);
    } finally {
      await env.DB.prepare("ALTER TABLE tags_elsewhere RENAME TO tags").run();
    }
    expect((await send("/api/tags?popular=true", { user: mira })).status).toBe(200);
  });
});

describe("signing in and out", () => {
  const development = { ENVIRONMENT: "development", AUTH_ISSUER: "", AUTH_CLIENT_ID: "" };
  async function devApp(path: string, init: RequestInit = {}): Promise<Response> {
    const ctx = createExecutionContext();
    const res = await app.fetch(new Request(new URL(path, "http://localhost"), { ...init, redirect: "manual" }), { ...env, ...development }, ctx);
    await waitOnExecutionContext(ctx);
    return res;
  }

  it("signing in hands out a bookmark with the session; signing out clears it; then the browser reads as a visitor", async () => {
    const signedIn = await devApp("/api/login/dev", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: `${crypto.randomUUID()}@example.test`, firstName: "Bea" }),
    });
    expect(signedIn.status).toBe(200);
    const session = setCookie(signedIn, "fabled_session")!.value;
    const bookmark = bookmarkOf(signedIn);

    // The very next request, with the sign-in's bookmark, finds the new session.
    const me = await devApp("/api/auth/user", { headers: { cookie: `fabled_session=${session}; ${BOOKMARK_COOKIE}=${bookmark}` } });
    expect(me.status).toBe(200);
    const latest = bookmarkOf(me);

    const out = await devApp("/api/logout", { method: "POST", headers: { cookie: `fabled_session=${session}; ${BOOKMARK_COOKIE}=${latest}` } });
    expect(out.status).toBe(303);
    expect(setCookie(out, "fabled_session")?.cleared).toBe(true);
    expect(setCookie(out, BOOKMARK_COOKIE)?.cleared).toBe(true);

    const visitor = await devApp("/api/characters");
    expect(visitor.headers.getSetCookie()).toEqual([]);
  });

  it("an unknown session cookie is cleared together with the bookmark", async () => {
    const id = await insertCharacter();
    const bookmark = bookmarkOf(await send(`/api/characters/${id}/favorite`, { method: "POST", user: await signIn() }));
    const res = await send(`/api/characters/${id}`, { user: { id: "x", username: "@x", cookie: `fabled_session=${"a".repeat(43)}` }, cookie: bookmark });
    expect(res.status).toBe(200);
    expect(setCookie(res, "fabled_session")?.cleared).toBe(true);
    expect(setCookie(res, BOOKMARK_COOKIE)?.cleared).toBe(true);
  });
});

describe("the chat socket", () => {
  it("upgrades with a bookmark cookie (the 101 answer is left as it is)", async () => {
    const mira = await signIn();
    const id = await insertCharacter();
    const bookmark = bookmarkOf(await send(`/api/characters/${id}/favorite`, { method: "POST", user: mira }));
    const res = await upgrade({ user: { ...mira, cookie: `${mira.cookie}; ${BOOKMARK_COOKIE}=${bookmark}` } });
    expect(res.status).toBe(101);
    expect(res.webSocket).not.toBeNull();
    res.webSocket!.accept();
    res.webSocket!.close(1000, "done");
  });
});
