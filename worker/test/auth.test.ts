/**
 * Sign-in as a browser goes through it: `/api/login` → the loopback OpenID
 * provider of worker/test/oidc-server.ts (a real one: discovery, JWKS, PKCE,
 * signed ID tokens) → `/api/callback` → a session; then `/api/auth/user` and
 * `/api/logout`. Every way the callback can be fooled must answer 400 and
 * create nothing. Also: returnTo, the local development sign-in and when it
 * must not exist, and how new users get their usernames and e-mails.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import app from "../app.ts";
import { safeReturnTo } from "../routes/auth.ts";
import { sha256Hex } from "../lib/sessions.ts";
import { signInWithIdentity, usernameStem, usernameStemFor } from "../lib/users.ts";
import { CookieJar, setCookie } from "./cookies.ts";
import { signIn } from "./fixtures.ts";

const ORIGIN = "http://localhost";
const SESSION_COOKIE = "fabled_session";
const OAUTH_COOKIES = ["fabled_oauth_state", "fabled_oauth_nonce", "fabled_oauth_verifier"];

type IdTokenMode =
  | "valid"
  | "expired"
  | "wrong-signature"
  | "unsigned"
  | "wrong-audience"
  | "wrong-nonce"
  | "wrong-issuer"
  | "no-id-token"
  | "invalid-grant";

function worker(path: string, init: RequestInit = {}, jar?: CookieJar): Promise<Response> {
  const headers = new Headers(init.headers);
  if (jar && jar.cookies.size > 0) headers.set("Cookie", jar.header());
  return exports.default.fetch(new URL(path, ORIGIN), { ...init, headers, redirect: "manual" });
}

/** A name with a username stem nobody else in this file has (letters only). */
function uniqueFirstName(prefix = "Mira"): string {
  const letters = [...crypto.getRandomValues(new Uint8Array(8))].map((b) => String.fromCharCode(97 + (b % 26))).join("");
  return `${prefix}${letters}`;
}

interface Flow {
  jar: CookieJar;
  login: Response;
  authorizeUrl: URL;
  callbackUrl: URL;
  code: string;
}

/** `/api/login` and the provider's authorize redirect, up to (not including) the callback. */
async function startSignIn(returnTo?: string): Promise<Flow> {
  const jar = new CookieJar();
  const login = await worker(`/api/login${returnTo === undefined ? "" : `?returnTo=${encodeURIComponent(returnTo)}`}`);
  expect(login.status, await login.clone().text()).toBe(302);
  jar.apply(login);
  const authorizeUrl = new URL(login.headers.get("Location")!);
  const atProvider = await fetch(authorizeUrl, { redirect: "manual" });
  expect(atProvider.status).toBe(302);
  const callbackUrl = new URL(atProvider.headers.get("Location")!);
  return { jar, login, authorizeUrl, callbackUrl, code: callbackUrl.searchParams.get("code")! };
}

/** Tells the provider what the ID token for `code` must look like (worker/test/oidc-server.ts). */
async function instructProvider(code: string, claims: Record<string, unknown>, mode: IdTokenMode = "valid"): Promise<void> {
  const res = await fetch(`${env.AUTH_ISSUER}/__test/id-token`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code, claims, mode }),
  });
  expect(res.status).toBe(200);
}

function personClaims(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const first = uniqueFirstName();
  return {
    sub: crypto.randomUUID(),
    email: `${first.toLowerCase()}@example.test`,
    email_verified: true,
    given_name: first,
    family_name: "Kowalski",
    name: `${first} Kowalski`,
    picture: "https://images.example.test/mira.png",
    ...overrides,
  };
}

/** The whole flow; returns the callback's response and the browser's cookies after it. */
async function signInThroughProvider(
  options: { claims?: Record<string, unknown>; mode?: IdTokenMode; returnTo?: string } = {},
): Promise<{ flow: Flow; callback: Response; jar: CookieJar; claims: Record<string, unknown> }> {
  const claims = options.claims ?? personClaims();
  const flow = await startSignIn(options.returnTo);
  await instructProvider(flow.code, claims, options.mode);
  const callback = await worker(flow.callbackUrl.pathname + flow.callbackUrl.search, {}, flow.jar);
  const jar = flow.jar.clone().apply(callback);
  return { flow, callback, jar, claims };
}

async function count(table: "users" | "sessions"): Promise<number> {
  const row = await env.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>();
  return row!.n;
}

async function currentUser(jar: CookieJar): Promise<Response> {
  return worker("/api/auth/user", {}, jar);
}

async function expectSignInFailed(res: Response, mentions?: RegExp): Promise<void> {
  expect(res.status).toBe(400);
  const body = (await res.json()) as { error: string; code: string };
  expect(body.code).toBe("validation_failed");
  expect(body.error).toMatch(/^Sign-in failed: /);
  if (mentions) expect(body.error).toMatch(mentions);
  expect(setCookie(res, SESSION_COOKIE)?.cleared ?? true).toBe(true);
}

describe("sign-in through the OpenID provider", () => {
  it("goes login → provider → callback → session → current user → logout", async () => {
    const usersBefore = await count("users");
    const flow = await startSignIn();

    // The authorization request: code flow, PKCE S256, state and nonce, our client and callback.
    const url = flow.authorizeUrl;
    expect(url.origin + url.pathname).toBe(`${env.AUTH_ISSUER}/authorize`);
    expect(url.searchParams.get("response_type")).toBe("code");
    expect(url.searchParams.get("client_id")).toBe("fabled-test");
    expect(url.searchParams.get("redirect_uri")).toBe(`${ORIGIN}/api/callback`);
    expect(url.searchParams.get("scope")).toBe("openid profile email");
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    const state = url.searchParams.get("state")!;
    const nonce = url.searchParams.get("nonce")!;
    expect(state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(nonce).not.toBe(state);

    // The flow's secrets wait in short-lived HttpOnly, SameSite=Lax cookies.
    for (const name of OAUTH_COOKIES) {
      const cookie = setCookie(flow.login, name)!;
      expect(cookie, name).toBeDefined();
      expect(cookie.attributes).toMatchObject({ httponly: "", samesite: "Lax", path: "/", "max-age": "600" });
      expect(cookie.attributes.secure).toBeUndefined(); // plain http on localhost
    }
    expect(flow.jar.get("fabled_oauth_state")).toBe(state);
    expect(flow.jar.get("fabled_oauth_nonce")).toBe(nonce);
    const verifier = flow.jar.get("fabled_oauth_verifier")!;
    const challenge = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
    const challengeB64 = btoa(String.fromCharCode(...challenge)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    expect(url.searchParams.get("code_challenge")).toBe(challengeB64);

    // The provider sends the browser back with a code and our state.
    expect(flow.callbackUrl.origin + flow.callbackUrl.pathname).toBe(`${ORIGIN}/api/callback`);
    expect(flow.callbackUrl.searchParams.get("state")).toBe(state);

    const claims = personClaims();
    await instructProvider(flow.code, claims);
    const callback = await worker(flow.callbackUrl.pathname + flow.callbackUrl.search, {}, flow.jar);
    expect(callback.status, await callback.clone().text()).toBe(302);
    expect(callback.headers.get("Location")).toBe("/");
    expect(callback.headers.get("Cache-Control")).toBe("no-store");

    const session = setCookie(callback, SESSION_COOKIE)!;
    expect(session.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(session.attributes).toMatchObject({ httponly: "", samesite: "Lax", path: "/" });
    expect(Date.parse(session.attributes.expires!) - Date.now()).toBeGreaterThan(29.9 * 24 * 3600 * 1000);
    for (const name of OAUTH_COOKIES) expect(setCookie(callback, name)?.cleared, name).toBe(true);
    expect(await count("users")).toBe(usersBefore + 1);

    const jar = flow.jar.clone().apply(callback);
    const me = await currentUser(jar);
    expect(me.status).toBe(200);
    expect(me.headers.get("Cache-Control")).toBe("no-store");
    const user = (await me.json()) as Record<string, unknown>;
    const first = String(claims.given_name);
    expect(user).toEqual({
      id: expect.any(String),
      firstName: first,
      lastName: "Kowalski",
      name: `${first} Kowalski`,
      username: `@${first.toLowerCase()}`,
      email: claims.email,
      profileImageUrl: "https://images.example.test/mira.png",
    });

    // Stored: the provider subject on the user; only the token's hash in the session.
    const row = await env.DB.prepare("SELECT auth_subject FROM users WHERE id = ?").bind(user.id).first<{ auth_subject: string }>();
    expect(row!.auth_subject).toBe(`${env.AUTH_ISSUER} ${claims.sub}`);
    const sid = await sha256Hex(session.value);
    const stored = await env.DB.prepare("SELECT sid, sess FROM sessions WHERE sid = ?").bind(sid).first<{ sid: string; sess: string }>();
    expect(JSON.parse(stored!.sess)).toEqual({ userId: user.id });
    expect(
      await env.DB.prepare("SELECT count(*) AS n FROM sessions WHERE sid = ?").bind(session.value).first("n"),
    ).toBe(0);

    // The user menu's Logout link: a navigation from our own page.
    const logout = await worker("/api/logout", { headers: { "Sec-Fetch-Site": "same-origin" } }, jar);
    expect(logout.status).toBe(302);
    expect(logout.headers.get("Location")).toBe("/");
    expect(setCookie(logout, SESSION_COOKIE)?.cleared).toBe(true);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM sessions WHERE sid = ?").bind(sid).first("n")).toBe(0);
    // The old cookie is worth nothing now.
    expect((await worker("/api/auth/user", { headers: { Cookie: `${SESSION_COOKIE}=${session.value}` } })).status).toBe(401);
  });

  it("finds the same user again by provider subject, refreshing e-mail and names but not the edited profile", async () => {
    const claims = personClaims();
    const first = await signInThroughProvider({ claims });
    expect(first.callback.status).toBe(302);
    const user = (await (await currentUser(first.jar)).json()) as { id: string; username: string };

    // The person edits their profile…
    const edit = await worker(
      "/api/profile",
      {
        method: "PUT",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ name: "Captain M", username: `${user.username}_x`, profileImageUrl: "" }),
      },
      first.jar,
    );
    expect(edit.status).toBe(200);

    // …and later signs in again; the provider now reports new details.
    const again = await signInThroughProvider({
      claims: {
        ...claims,
        email: `renamed.${claims.email}`,
        given_name: "Mirabel",
        family_name: "Nowak",
        name: "Mirabel Nowak",
        picture: "https://images.example.test/new.png",
      },
    });
    expect(again.callback.status).toBe(302);
    const after = await (await currentUser(again.jar)).json();
    expect(after).toEqual({
      id: user.id,
      firstName: "Mirabel",
      lastName: "Nowak",
      name: "Captain M",
      username: `${user.username}_x`,
      email: `renamed.${claims.email}`,
      profileImageUrl: null,
    });
    // Signing in again started a new session and kept the other one.
    expect((await currentUser(first.jar)).status).toBe(200);
  });

  it("splits `name` when the provider sends no given/family name, and works without e-mail", async () => {
    const first = uniqueFirstName("Ada");
    const { callback, jar } = await signInThroughProvider({
      claims: { sub: crypto.randomUUID(), name: `${first} Lovelace King` },
    });
    expect(callback.status).toBe(302);
    expect(await (await currentUser(jar)).json()).toMatchObject({
      firstName: first,
      lastName: "Lovelace King",
      name: `${first} Lovelace King`,
      username: `@${first.toLowerCase()}`,
      email: null,
      profileImageUrl: null,
    });
  });

  it("gives the second person with the same first name a suffixed username", async () => {
    const first = uniqueFirstName();
    const a = await signInThroughProvider({ claims: personClaims({ given_name: first, email: undefined }) });
    const b = await signInThroughProvider({ claims: personClaims({ given_name: first.toUpperCase(), email: undefined }) });
    const userA = (await (await currentUser(a.jar)).json()) as { username: string };
    const userB = (await (await currentUser(b.jar)).json()) as { username: string };
    expect(userA.username).toBe(`@${first.toLowerCase()}`);
    expect(userB.username).toMatch(new RegExp(`^@${first.toLowerCase()}_\\d{2}$`));
  });

  it("ends the session this browser had before signing in (no session fixation)", async () => {
    const earlier = await signIn();
    const flow = await startSignIn();
    await instructProvider(flow.code, personClaims());
    flow.jar.cookies.set(SESSION_COOKIE, earlier.cookie.split("=")[1]!);
    const callback = await worker(flow.callbackUrl.pathname + flow.callbackUrl.search, {}, flow.jar);
    expect(callback.status).toBe(302);
    expect((await worker("/api/auth/user", { headers: { Cookie: earlier.cookie } })).status).toBe(401);
  });
});

describe("e-mail already used by another account", () => {
  async function accountWith(email: string, authSubject: string | null): Promise<string> {
    const id = crypto.randomUUID();
    await env.DB.prepare("INSERT INTO users (id, email, first_name, name, username, auth_subject) VALUES (?, ?, 'Old', 'Old', ?, ?)")
      .bind(id, email, `@old_${id.slice(0, 8)}`, authSubject)
      .run();
    return id;
  }

  it("links an account without a provider subject when the provider verified the e-mail", async () => {
    const email = `${uniqueFirstName("link").toLowerCase()}@example.test`;
    const existing = await accountWith(email, null);
    const { callback, jar, claims } = await signInThroughProvider({ claims: personClaims({ email: email.toUpperCase() }) });
    expect(callback.status).toBe(302);
    const me = (await (await currentUser(jar)).json()) as { id: string; email: string; username: string; name: string };
    expect(me.id).toBe(existing);
    expect(me.email).toBe(email);
    expect(me.name).toBe("Old"); // the profile stays the person's own
    const row = await env.DB.prepare("SELECT auth_subject FROM users WHERE id = ?").bind(existing).first("auth_subject");
    expect(row).toBe(`${env.AUTH_ISSUER} ${claims.sub}`);
  });

  it("does not link when the e-mail is not verified: a new account without e-mail", async () => {
    const email = `${uniqueFirstName("unverified").toLowerCase()}@example.test`;
    const existing = await accountWith(email, null);
    const { callback, jar } = await signInThroughProvider({ claims: personClaims({ email, email_verified: false }) });
    expect(callback.status).toBe(302);
    const me = (await (await currentUser(jar)).json()) as { id: string; email: string | null };
    expect(me.id).not.toBe(existing);
    expect(me.email).toBeNull();
    expect(await env.DB.prepare("SELECT auth_subject FROM users WHERE id = ?").bind(existing).first("auth_subject")).toBeNull();
  });

  it("does not link an account that already has a provider subject", async () => {
    const email = `${uniqueFirstName("taken").toLowerCase()}@example.test`;
    const existing = await accountWith(email, "https://other.example somebody");
    const { callback, jar } = await signInThroughProvider({ claims: personClaims({ email }) });
    expect(callback.status).toBe(302);
    const me = (await (await currentUser(jar)).json()) as { id: string; email: string | null };
    expect(me.id).not.toBe(existing);
    expect(me.email).toBeNull();
  });

  it("keeps the old e-mail when a returning user's new e-mail belongs to someone else", async () => {
    const claims = personClaims();
    await signInThroughProvider({ claims });
    const otherEmail = `${uniqueFirstName("other").toLowerCase()}@example.test`;
    await accountWith(otherEmail, null);
    const { callback, jar } = await signInThroughProvider({ claims: { ...claims, email: otherEmail } });
    expect(callback.status).toBe(302);
    expect(await (await currentUser(jar)).json()).toMatchObject({ email: claims.email });
  });
});

describe("the callback refuses what it cannot trust, and creates nothing", () => {
  async function expectNothingCreated(run: () => Promise<Response>, mentions?: RegExp): Promise<void> {
    const users = await count("users");
    const sessions = await count("sessions");
    await expectSignInFailed(await run(), mentions);
    expect(await count("users")).toBe(users);
    expect(await count("sessions")).toBe(sessions);
  }

  it("refuses a missing state cookie (the sign-in did not start in this browser)", async () => {
    const flow = await startSignIn();
    await instructProvider(flow.code, personClaims());
    flow.jar.cookies.delete("fabled_oauth_state");
    await expectNothingCreated(() => worker(flow.callbackUrl.pathname + flow.callbackUrl.search, {}, flow.jar));
  });

  it("refuses a tampered state", async () => {
    const flow = await startSignIn();
    await instructProvider(flow.code, personClaims());
    const url = new URL(flow.callbackUrl);
    const state = url.searchParams.get("state")!;
    url.searchParams.set("state", `${state.slice(0, -1)}${state.endsWith("A") ? "B" : "A"}`);
    await expectNothingCreated(() => worker(url.pathname + url.search, {}, flow.jar));
  });

  it("refuses a callback without state", async () => {
    const flow = await startSignIn();
    await instructProvider(flow.code, personClaims());
    const url = new URL(flow.callbackUrl);
    url.searchParams.delete("state");
    await expectNothingCreated(() => worker(url.pathname + url.search, {}, flow.jar));
  });

  it("refuses a callback with no cookies at all (login CSRF)", async () => {
    const flow = await startSignIn();
    await instructProvider(flow.code, personClaims());
    await expectNothingCreated(() => worker(flow.callbackUrl.pathname + flow.callbackUrl.search));
  });

  it("reports an error the provider sent back", async () => {
    const flow = await startSignIn();
    const state = flow.callbackUrl.searchParams.get("state")!;
    await expectNothingCreated(
      () => worker(`/api/callback?error=access_denied&state=${state}`, {}, flow.jar),
      /cancelled or refused/,
    );
  });

  it("refuses a tampered PKCE code verifier (the provider checks it)", async () => {
    const flow = await startSignIn();
    await instructProvider(flow.code, personClaims());
    flow.jar.cookies.set("fabled_oauth_verifier", "x".repeat(43));
    await expectNothingCreated(() => worker(flow.callbackUrl.pathname + flow.callbackUrl.search, {}, flow.jar));
  });

  it.each<[IdTokenMode, RegExp]>([
    ["wrong-nonce", /not meant for this browser/],
    ["expired", /expired/],
    ["wrong-signature", /could not be verified/],
    ["unsigned", /could not be verified/],
    ["wrong-audience", /could not be verified/],
    ["wrong-issuer", /could not be verified/],
    ["no-id-token", /did not accept/],
    ["invalid-grant", /already used or has expired/],
  ])("refuses an ID token answer that is %s", async (mode, mentions) => {
    const flow = await startSignIn();
    await instructProvider(flow.code, personClaims(), mode);
    await expectNothingCreated(() => worker(flow.callbackUrl.pathname + flow.callbackUrl.search, {}, flow.jar), mentions);
  });

  it("refuses a replayed code: the second callback fails and makes no second session", async () => {
    const flow = await startSignIn();
    await instructProvider(flow.code, personClaims());
    const sessions = await count("sessions");
    const first = await worker(flow.callbackUrl.pathname + flow.callbackUrl.search, {}, flow.jar);
    expect(first.status).toBe(302);
    expect(await count("sessions")).toBe(sessions + 1);
    // An attacker who captured the callback URL and the flow cookies tries again.
    await expectNothingCreated(() => worker(flow.callbackUrl.pathname + flow.callbackUrl.search, {}, flow.jar));
  });

  it("clears the flow cookies even when it fails", async () => {
    const flow = await startSignIn();
    const res = await worker("/api/callback?code=x&state=y", {}, flow.jar);
    expect(res.status).toBe(400);
    for (const name of OAUTH_COOKIES) expect(setCookie(res, name)?.cleared, name).toBe(true);
  });
});

describe("returnTo", () => {
  it("returns the person to a same-origin path after sign-in", async () => {
    const { flow, callback } = await signInThroughProvider({ returnTo: "/character/3" });
    expect(decodeURIComponent(setCookie(flow.login, "fabled_oauth_return_to")!.value)).toBe("/character/3");
    expect(callback.status).toBe(302);
    expect(callback.headers.get("Location")).toBe("/character/3");
    expect(setCookie(callback, "fabled_oauth_return_to")?.cleared).toBe(true);
  });

  it.each(["//evil.example", "https://evil.example", "/\\evil.example", "/\t/evil.example", "evil.example", "javascript:alert(1)"])(
    "never sends the person to another site: %j",
    async (returnTo) => {
      const { flow, callback } = await signInThroughProvider({ returnTo });
      expect(setCookie(flow.login, "fabled_oauth_return_to")?.cleared ?? true).toBe(true);
      expect(callback.status).toBe(302);
      expect(callback.headers.get("Location")).toBe("/");
    },
  );

  it("accepts only paths on our origin", () => {
    expect(safeReturnTo("/character/3")).toBe("/character/3");
    expect(safeReturnTo("/chat/abc?x=1#end")).toBe("/chat/abc?x=1#end");
    expect(safeReturnTo("/")).toBe("/");
    for (const bad of ["", "//evil.example", "///evil.example", "https://evil.example", "/\\evil.example", "\\\\evil.example", "/\n/evil.example", "character/3", null, undefined]) {
      expect(safeReturnTo(bad), JSON.stringify(bad)).toBeNull();
    }
  });

  it("does not trust a returnTo cookie that was tampered with", async () => {
    const flow = await startSignIn();
    await instructProvider(flow.code, personClaims());
    flow.jar.cookies.set("fabled_oauth_return_to", "//evil.example");
    const callback = await worker(flow.callbackUrl.pathname + flow.callbackUrl.search, {}, flow.jar);
    expect(callback.status).toBe(302);
    expect(callback.headers.get("Location")).toBe("/");
  });
});

describe("GET /api/auth/user", () => {
  it("answers visitors 401 Unauthorized", async () => {
    const res = await worker("/api/auth/user");
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "Unauthorized", code: "unauthorized" });
  });

  it("returns exactly the user fields", async () => {
    const user = await signIn({ firstName: "Tess", email: "tess.fields@example.test" });
    const res = await worker("/api/auth/user", { headers: { Cookie: user.cookie } });
    expect(await res.json()).toEqual({
      id: user.id,
      firstName: "Tess",
      lastName: null,
      name: "Tess",
      username: user.username,
      email: "tess.fields@example.test",
      profileImageUrl: null,
    });
  });

  it("logout without a session still returns home", async () => {
    const res = await worker("/api/logout");
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/");
  });
});

describe("logout from another website", () => {
  const signedIn = async (user: { cookie: string }) =>
    (await worker("/api/auth/user", { headers: { Cookie: user.cookie } })).status;

  it.each([
    ["a link on another site", { "Sec-Fetch-Site": "cross-site" }],
    ["a link on a sibling subdomain", { "Sec-Fetch-Site": "same-site" }],
    ["a client that does not say where it comes from", {}],
  ])("%s gets a confirm page that POSTs, and the session keeps working", async (_label, headers) => {
    const user = await signIn();
    const res = await worker("/api/logout", { headers: { ...headers, Cookie: user.cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/html/);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(setCookie(res, SESSION_COOKIE)).toBeUndefined();
    const page = await res.text();
    expect(page).toContain("Log out of Fabled?");
    expect(page).toMatch(/<form method="post" action="\/api\/logout">\s*<button type="submit">Log out<\/button>/);
    expect(page).toContain('<a href="/">Stay signed in</a>');
    // Nothing the Content-Security-Policy would block, and the page cannot be framed for a clickjack.
    expect(page).not.toMatch(/<script|\son\w+=/i);
    expect(res.headers.get("Content-Security-Policy")).toMatch(/script-src 'self'(;|$)/);
    expect(res.headers.get("Content-Security-Policy")).toMatch(/form-action 'self'/);
    expect(res.headers.get("X-Frame-Options")).toBe("DENY");
    expect(await signedIn(user)).toBe(200);
  });

  it("the confirm page's button signs out (a same-origin POST), back home", async () => {
    const user = await signIn();
    const page = await (await worker("/api/logout", { headers: { "Sec-Fetch-Site": "cross-site", Cookie: user.cookie } })).text();
    const action = /<form method="post" action="([^"]+)"/.exec(page)![1]!;
    const res = await worker(action, {
      method: "POST",
      headers: { "Sec-Fetch-Site": "same-origin", Origin: ORIGIN, Cookie: user.cookie, "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe("/");
    expect(setCookie(res, SESSION_COOKIE)?.cleared).toBe(true);
    expect(await signedIn(user)).toBe(401);
  });

  it("a typed or bookmarked /api/logout (Sec-Fetch-Site: none) signs out at once", async () => {
    const user = await signIn();
    const res = await worker("/api/logout", { headers: { "Sec-Fetch-Site": "none", Cookie: user.cookie } });
    expect(res.status).toBe(302);
    expect(setCookie(res, SESSION_COOKIE)?.cleared).toBe(true);
    expect(await signedIn(user)).toBe(401);
  });

  it("a form on another site cannot POST /api/logout (403), and the session keeps working", async () => {
    const user = await signIn();
    const res = await worker("/api/logout", {
      method: "POST",
      headers: { "Sec-Fetch-Site": "cross-site", Origin: "https://evil.example", Cookie: user.cookie },
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: "Cross-site requests are not allowed", code: "forbidden" });
    expect(setCookie(res, SESSION_COOKIE)).toBeUndefined();
    expect(await signedIn(user)).toBe(200);
  });
});

describe("configuration", () => {
  /** Calls the app as the runtime would, with some bindings changed. */
  async function withEnv(overrides: Partial<Env>, path: string, init: RequestInit = {}): Promise<Response> {
    const ctx = createExecutionContext();
    const res = await app.fetch(new Request(new URL(path, ORIGIN), { ...init, redirect: "manual" }), { ...env, ...overrides }, ctx);
    await waitOnExecutionContext(ctx);
    return res;
  }
  const production = { ENVIRONMENT: "production", AUTH_ISSUER: "", AUTH_CLIENT_ID: "", AUTH_CLIENT_SECRET: undefined };
  const development = { ENVIRONMENT: "development", AUTH_ISSUER: "", AUTH_CLIENT_ID: "" };
  const devJson = (body: unknown): RequestInit => ({
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });

  it("has no local sign-in under the production configuration", async () => {
    const users = await count("users");
    const res = await withEnv(production, "/api/login/dev", devJson({ email: "intruder@example.test", firstName: "Eve" }));
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "Not found", code: "not_found" });
    const form = await withEnv(production, "/api/login/dev", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "email=intruder%40example.test&firstName=Eve",
    });
    expect(form.status).toBe(404);
    expect(await count("users")).toBe(users);
  });

  it("answers 503 when no identity provider is configured outside development", async () => {
    const res = await withEnv(production, "/api/login");
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ error: "Sign-in is not configured", code: "unavailable" });
  });

  it("has no local sign-in when a provider is configured, even in development", async () => {
    const res = await withEnv({ ENVIRONMENT: "development" }, "/api/login/dev", devJson({ email: "a@example.test", firstName: "A" }));
    expect(res.status).toBe(404);
    const login = await withEnv({ ENVIRONMENT: "development" }, "/api/login");
    expect(login.status).toBe(302);
    expect(login.headers.get("Location")).toMatch(new RegExp(`^${env.AUTH_ISSUER}/authorize\\?`));
  });

  it("has no local sign-in in the test configuration either", async () => {
    const res = await worker("/api/login/dev", devJson({ email: "a@example.test", firstName: "A" }));
    expect(res.status).toBe(404);
  });

  it("answers 503, not 500, when the provider's discovery document cannot be had", async () => {
    const res = await withEnv({ AUTH_ISSUER: `${env.AUTH_ISSUER}/no-such-tenant` }, "/api/login");
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ code: "unavailable", error: expect.stringMatching(/temporarily unavailable/) });
  });

  describe("local sign-in in development without a provider", () => {
    it("serves an accessible form without scripts", async () => {
      const res = await withEnv(development, "/api/login?returnTo=/character/3");
      expect(res.status).toBe(200);
      expect(res.headers.get("Content-Type")).toMatch(/^text\/html/);
      expect(res.headers.get("Content-Security-Policy")).toContain("script-src 'self'");
      const page = await res.text();
      expect(page).toContain('<html lang="en">');
      expect(page).toContain('<form method="post" action="/api/login/dev">');
      expect(page).toMatch(/<label for="email">[^<]+<\/label>\s*<input id="email" name="email" type="email"/);
      expect(page).toMatch(/<label for="firstName">[^<]+<\/label>\s*<input id="firstName" name="firstName"/);
      expect(page).toContain('<input type="hidden" name="returnTo" value="/character/3" />');
      expect(page).not.toMatch(/<script|javascript:|\son\w+=/i);
    });

    it("drops a returnTo to another site from the form", async () => {
      const page = await (await withEnv(development, "/api/login?returnTo=%2F%2Fevil.example")).text();
      expect(page).not.toContain("evil.example");
    });

    it("signs in from the form (303 to returnTo), creating the user on first use and finding them after", async () => {
      const email = `${uniqueFirstName("dev").toLowerCase()}@example.test`;
      const post = (body: string) =>
        withEnv(development, "/api/login/dev", {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "same-origin", Origin: ORIGIN },
          body,
        });
      const res = await post(`email=${encodeURIComponent(email)}&firstName=Juniper&returnTo=%2Fcharacter%2F3`);
      expect(res.status).toBe(303);
      expect(res.headers.get("Location")).toBe("/character/3");
      const jar = new CookieJar().apply(res);
      const me = (await (await currentUser(jar)).json()) as { id: string; email: string; firstName: string; username: string };
      expect(me).toMatchObject({ email, firstName: "Juniper", name: "Juniper" });
      expect(me.username).toMatch(/^@juniper(_\d+)?$/);

      const again = await post(`email=${encodeURIComponent(email.toUpperCase())}&firstName=Other&returnTo=%2F%2Fevil.example`);
      expect(again.status).toBe(303);
      expect(again.headers.get("Location")).toBe("/");
      const meAgain = (await (await currentUser(new CookieJar().apply(again))).json()) as { id: string; firstName: string };
      expect(meAgain).toMatchObject({ id: me.id, firstName: "Juniper" });
    });

    it("signs in with JSON and answers 200 with the user", async () => {
      const email = `${uniqueFirstName("json").toLowerCase()}@example.test`;
      const res = await withEnv(development, "/api/login/dev", devJson({ email, firstName: "Rowan" }));
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ email, firstName: "Rowan", username: expect.stringMatching(/^@rowan/) });
      expect(setCookie(res, SESSION_COOKIE)?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    });

    it.each([
      [{ email: "not-an-email", firstName: "Rowan" }, "Enter a valid e-mail address"],
      [{ email: "rowan@example.test", firstName: "" }, "First name is required"],
      [{ email: "rowan@example.test", firstName: "   " }, "First name is required"],
      [{ email: "rowan@example.test", firstName: "x".repeat(101) }, "First name is too long"],
      [{ firstName: "Rowan" }, "E-mail is required"],
    ])("refuses %j with 400 %j", async (body, message) => {
      const res = await withEnv(development, "/api/login/dev", devJson(body));
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: "validation_failed", error: message });
    });

    it("accepts a first name of exactly 100 characters", async () => {
      const email = `${uniqueFirstName("long").toLowerCase()}@example.test`;
      const res = await withEnv(development, "/api/login/dev", devJson({ email, firstName: "y".repeat(100) }));
      expect(res.status).toBe(200);
    });

    it("shows the form again with the reason when the form is wrong", async () => {
      const res = await withEnv(development, "/api/login/dev", {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: "email=nope&firstName=%3Cb%3EBold%3C%2Fb%3E",
      });
      expect(res.status).toBe(400);
      const page = await res.text();
      expect(page).toContain('role="alert"');
      expect(page).toContain("Enter a valid e-mail address");
      expect(page).toContain("&lt;b&gt;Bold&lt;/b&gt;"); // what was typed comes back escaped
      expect(setCookie(res, SESSION_COOKIE)).toBeUndefined();
    });

    it("refuses a cross-site form post (CSRF)", async () => {
      const res = await withEnv(development, "/api/login/dev", {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "cross-site" },
        body: "email=victim%40example.test&firstName=V",
      });
      expect(res.status).toBe(403);
    });

    it.each([
      ["no boundary", "multipart/form-data", "--x\r\nContent-Disposition: form-data; name=\"email\"\r\n\r\na@example.test\r\n--x--\r\n"],
      ["a wrong boundary", "multipart/form-data; boundary=nope", "--x\r\nContent-Disposition: form-data; name=\"email\"\r\n\r\na@example.test\r\n--x--\r\n"],
      ["a body that is not multipart", "multipart/form-data; boundary=x", "email=a@example.test"],
    ])("answers a multipart form with %s with 400, not 500, and signs nobody in", async (_, contentType, body) => {
      const users = await count("users");
      const res = await withEnv(development, "/api/login/dev", { method: "POST", headers: { "Content-Type": contentType }, body });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: "Malformed form data", code: "validation_failed" });
      expect(setCookie(res, SESSION_COOKIE)).toBeUndefined();
      expect(await count("users")).toBe(users);
    });

    it("refuses other body types", async () => {
      const res = await withEnv(development, "/api/login/dev", {
        method: "POST",
        headers: { "Content-Type": "text/plain" },
        body: "email=a@example.test",
      });
      expect(res.status).toBe(415);
    });
  });
});

describe("usernames for new users", () => {
  it("derives a stem from names and e-mail", () => {
    expect(usernameStem("Mira")).toBe("mira");
    expect(usernameStem("Zoë")).toBe("zoe");
    expect(usernameStem("Łukasz Żółć")).toBe("lukasz_zolc");
    expect(usernameStem("Jean-Luc Picard")).toBe("jean_luc_picard");
    expect(usernameStem("Straße")).toBe("strasse");
    expect(usernameStem("  --Ann--  ")).toBe("ann");
    expect(usernameStem("a".repeat(40))).toBe("a".repeat(20));
    expect(usernameStem("李")).toBeNull();
    expect(usernameStem("J")).toBeNull();
    expect(usernameStemFor({ firstName: "李", name: "李 Wei", email: "x@example.test" })).toBe("wei");
    expect(usernameStemFor({ firstName: null, name: null, email: "mira.k+tag@example.test" })).toBe("mira_k");
    expect(usernameStemFor({ firstName: "李", name: "李", email: null })).toBeNull();
  });

  it("gives people signing in at the same moment with the same name different usernames", async () => {
    const first = uniqueFirstName();
    const people = Array.from({ length: 4 }, () =>
      signInWithIdentity(env.DB, {
        subject: `${env.AUTH_ISSUER} ${crypto.randomUUID()}`,
        email: null,
        emailVerified: false,
        givenName: first,
        familyName: null,
        name: null,
        picture: null,
      }),
    );
    const usernames = (await Promise.all(people)).map((u) => u.username.toLowerCase());
    expect(new Set(usernames).size).toBe(4);
    expect(usernames).toContain(`@${first.toLowerCase()}`);
    for (const username of usernames) expect(username).toMatch(new RegExp(`^@${first.toLowerCase()}(_\\d{2})?$`));
  });

  it("makes one account when the same person's first sign-ins race", async () => {
    const identity = {
      subject: `${env.AUTH_ISSUER} ${crypto.randomUUID()}`,
      email: `${uniqueFirstName("twice").toLowerCase()}@example.test`,
      emailVerified: true,
      givenName: uniqueFirstName(),
      familyName: null,
      name: null,
      picture: null,
    };
    const users = await Promise.all([signInWithIdentity(env.DB, identity), signInWithIdentity(env.DB, identity)]);
    expect(users[0]!.id).toBe(users[1]!.id);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM users WHERE auth_subject = ?").bind(identity.subject).first("n")).toBe(1);
  });

  it("falls back to @user_1234 and always fits the profile rules", async () => {
    const { callback, jar } = await signInThroughProvider({ claims: { sub: crypto.randomUUID(), name: "李" } });
    expect(callback.status).toBe(302);
    const me = (await (await currentUser(jar)).json()) as { username: string; firstName: string };
    expect(me.firstName).toBe("李");
    expect(me.username).toMatch(/^@user_\d{4}$/);
  });
});
