/**
 * Sign-in beyond the provider's flow (worker/test/auth.test.ts): logout
 * requested by another website, what the configuration allows (no provider,
 * the local development sign-in and when it must not exist), and how new
 * users get their usernames and e-mails.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import app from "../app.ts";
import { signInWithIdentity, usernameStem, usernameStemFor } from "../lib/users.ts";
import { CookieJar, setCookie } from "./cookies.ts";
import { signIn } from "./fixtures.ts";
import {
  count,
  currentUser,
  ORIGIN,
  SESSION_COOKIE,
  signInThroughProvider,
  uniqueFirstName,
  worker,
} from "./sign-in-flow.ts";

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

    it.each(["//evil.example", "https://evil.example/x", "/\\evil.example", "\\\\evil.example", "/%09/evil.example", "javascript:alert(1)"])(
      "a form posted with returnTo %j comes back to Home, never to another site",
      async (returnTo) => {
        const email = `${uniqueFirstName("redirect").toLowerCase()}@example.test`;
        const res = await withEnv(development, "/api/login/dev", {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "same-origin", Origin: ORIGIN },
          body: `email=${encodeURIComponent(email)}&firstName=Ivy&returnTo=${encodeURIComponent(decodeURIComponent(returnTo))}`,
        });
        expect(res.status).toBe(303);
        expect(res.headers.get("Location")).toBe("/");
      },
    );

    it("keeps the query and fragment of the page to come back to", async () => {
      const email = `${uniqueFirstName("back").toLowerCase()}@example.test`;
      const res = await withEnv(development, "/api/login/dev", {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "same-origin", Origin: ORIGIN },
        body: `email=${encodeURIComponent(email)}&firstName=Ivy&returnTo=${encodeURIComponent("/?tags=romance&q=elf#grid")}`,
      });
      expect(res.status).toBe(303);
      expect(res.headers.get("Location")).toBe("/?tags=romance&q=elf#grid");
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
