/**
 * Sign-in as a browser goes through it: `/api/login` → the loopback OpenID
 * provider of worker/test/oidc-server.ts (a real one: discovery, JWKS, PKCE,
 * signed ID tokens) → `/api/callback` → a session; then `/api/auth/user` and
 * `/api/logout`. Every way the callback can be fooled must answer 400 and
 * create nothing. Also: returnTo. The local development sign-in, the
 * configuration and new users' usernames: worker/test/auth-configuration.test.ts;
 * the browser's side of the flow: worker/test/sign-in-flow.ts.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { safeReturnTo } from "../routes/auth.ts";
import { sha256Hex } from "../lib/sessions.ts";
import { setCookie } from "./cookies.ts";
import { signIn } from "./fixtures.ts";
import {
  count,
  currentUser,
  expectSignInFailed,
  type IdTokenMode,
  instructProvider,
  OAUTH_COOKIES,
  ORIGIN,
  personClaims,
  SESSION_COOKIE,
  signInThroughProvider,
  startSignIn,
  uniqueFirstName,
  worker,
} from "./sign-in-flow.ts";

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
      bio: null,
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
      bio: null,
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
      bio: null,
    });
  });

  it("logout without a session still returns home", async () => {
    const res = await worker("/api/logout");
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/");
  });
});

