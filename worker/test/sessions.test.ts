/**
 * Sessions as a browser and an attacker see them (worker/lib/sessions.ts,
 * worker/middleware/session.ts): what the cookie and the row hold, forged,
 * malformed and expired cookies, sliding renewal at most once a day, the cron
 * that removes expired rows, the scheme-bound cookie name, and the same-origin
 * rule for state-changing requests.
 */
import { createScheduledController } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  SESSION_RENEW_BELOW_MS,
  SESSION_TTL_MS,
  createSession,
  generateSessionToken,
  isSecureRequest,
  sha256Hex,
  validateSessionToken,
} from "../lib/sessions.ts";
import worker from "../index.ts";
import { setCookie } from "./cookies.ts";
import { signIn } from "./fixtures.ts";

const DAY = 24 * 60 * 60 * 1000;

function get(path: string, headers: Record<string, string> = {}, origin = "http://localhost"): Promise<Response> {
  return exports.default.fetch(new URL(path, origin), { headers, redirect: "manual" });
}

/** A session row for `userId` expiring at `expire` (ms); returns its cookie token. */
async function sessionExpiringAt(userId: string, expire: number): Promise<string> {
  const token = generateSessionToken();
  await env.DB.prepare("INSERT INTO sessions (sid, sess, expire) VALUES (?, ?, ?)")
    .bind(await sha256Hex(token), JSON.stringify({ userId }), expire)
    .run();
  return token;
}

async function storedExpire(token: string): Promise<number | null> {
  return env.DB.prepare("SELECT expire FROM sessions WHERE sid = ?").bind(await sha256Hex(token)).first<number>("expire");
}

describe("what is stored", () => {
  it("keeps only the SHA-256 of a random 32-byte token, with {userId} and a 30-day expiry", async () => {
    const user = await signIn();
    const before = Date.now();
    const { token, expire } = await createSession(env.DB, user.id);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 32 bytes, base64url
    expect(expire - before).toBeGreaterThanOrEqual(SESSION_TTL_MS);
    expect(expire - before).toBeLessThan(SESSION_TTL_MS + 5000);
    const rows = await env.DB.prepare("SELECT sid, sess, expire FROM sessions WHERE sess = ?")
      .bind(JSON.stringify({ userId: user.id }))
      .all<{ sid: string; sess: string; expire: number }>();
    const row = rows.results.find((r) => r.expire === expire)!;
    expect(row.sid).toBe(await sha256Hex(token));
    expect(row.sid).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(token);
  });

  it("makes a different token every time", () => {
    const tokens = new Set(Array.from({ length: 100 }, generateSessionToken));
    expect(tokens.size).toBe(100);
  });

  it("does not let a stolen row's sid act as a cookie", async () => {
    const user = await signIn();
    const token = user.cookie.split("=")[1]!;
    const sid = await sha256Hex(token);
    expect((await get("/api/auth/user", { Cookie: `fabled_session=${sid}` })).status).toBe(401);
    expect(await validateSessionToken(env.DB, sid)).toBeNull();
  });
});

describe("cookies that do not open a session", () => {
  it("refuses a forged cookie (well-formed, unknown) and clears it", async () => {
    const res = await get("/api/auth/user", { Cookie: `fabled_session=${generateSessionToken()}` });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "Unauthorized", code: "unauthorized" });
    expect(setCookie(res, "fabled_session")?.cleared).toBe(true);
  });

  it.each(["abc", "A".repeat(44), `${"A".repeat(42)}!`, "%00%00", "", `${"A".repeat(42)}+`, "../../etc/passwd"])(
    "refuses a malformed cookie %j",
    async (value) => {
      const res = await get("/api/auth/user", { Cookie: `fabled_session=${value}` });
      expect(res.status).toBe(401);
    },
  );

  it("refuses an expired session, deletes its row and clears the cookie", async () => {
    const user = await signIn();
    const token = await sessionExpiringAt(user.id, Date.now() - 1000);
    const res = await get("/api/auth/user", { Cookie: `fabled_session=${token}` });
    expect(res.status).toBe(401);
    expect(setCookie(res, "fabled_session")?.cleared).toBe(true);
    expect(await storedExpire(token)).toBeNull();
  });

  it("refuses the session of a user who no longer exists", async () => {
    const user = await signIn();
    await env.DB.prepare("DELETE FROM users WHERE id = ?").bind(user.id).run();
    expect((await get("/api/auth/user", { Cookie: user.cookie })).status).toBe(401);
  });
});

describe("sliding expiry", () => {
  it("renews a session with less than 29 days left to 30 days, with a new cookie", async () => {
    const user = await signIn();
    const token = await sessionExpiringAt(user.id, Date.now() + 28 * DAY);
    const before = Date.now();
    const res = await get("/api/auth/user", { Cookie: `fabled_session=${token}` });
    expect(res.status).toBe(200);
    const expire = (await storedExpire(token))!;
    expect(expire - before).toBeGreaterThanOrEqual(SESSION_TTL_MS);
    expect(expire - before).toBeLessThan(SESSION_TTL_MS + 5000);
    const cookie = setCookie(res, "fabled_session")!;
    expect(cookie.value).toBe(token);
    expect(cookie.attributes).toMatchObject({ httponly: "", samesite: "Lax", path: "/" });
    expect(Math.abs(Date.parse(cookie.attributes.expires!) - expire)).toBeLessThan(1000);
  });

  it("leaves a session with more than 29 days left alone (renewal at most once a day)", async () => {
    const user = await signIn();
    const expire = Date.now() + SESSION_RENEW_BELOW_MS + 60 * 60 * 1000;
    const token = await sessionExpiringAt(user.id, expire);
    const res = await get("/api/auth/user", { Cookie: `fabled_session=${token}` });
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(await storedExpire(token)).toBe(expire);
  });
});

describe("the daily cron", () => {
  it("deletes expired sessions and keeps live ones", async () => {
    const user = await signIn();
    const expired = [
      await sessionExpiringAt(user.id, Date.now() - 1),
      await sessionExpiringAt(user.id, Date.now() - 40 * DAY),
    ];
    const live = await sessionExpiringAt(user.id, Date.now() + DAY);
    await worker.scheduled(createScheduledController({ cron: "17 3 * * *", scheduledTime: new Date() }), env);
    for (const token of expired) expect(await storedExpire(token)).toBeNull();
    expect(await storedExpire(live)).not.toBeNull();
    expect(await env.DB.prepare("SELECT count(*) AS n FROM sessions WHERE expire <= ?").bind(Date.now()).first("n")).toBe(0);
  });
});

describe("the cookie is bound to the scheme", () => {
  it("is Secure with the __Host- prefix everywhere but plain-http localhost", () => {
    expect(isSecureRequest("http://localhost:8787/api/login")).toBe(false);
    expect(isSecureRequest("http://127.0.0.1:8787/")).toBe(false);
    expect(isSecureRequest("http://[::1]:8787/")).toBe(false);
    expect(isSecureRequest("https://localhost/")).toBe(true);
    expect(isSecureRequest("https://fabled.example/")).toBe(true);
    expect(isSecureRequest("http://fabled.example/")).toBe(true);
  });

  it("reads and renews __Host-fabled_session over https, and ignores the plain name there", async () => {
    const user = await signIn();
    const token = await sessionExpiringAt(user.id, Date.now() + 10 * DAY);
    const origin = "https://fabled.example";
    const res = await get("/api/auth/user", { Cookie: `__Host-fabled_session=${token}` }, origin);
    expect(res.status).toBe(200);
    const cookie = setCookie(res, "__Host-fabled_session")!;
    expect(cookie.attributes).toMatchObject({ secure: "", httponly: "", samesite: "Lax", path: "/" });
    expect(cookie.attributes.domain).toBeUndefined();
    expect((await get("/api/auth/user", { Cookie: `fabled_session=${token}` }, origin)).status).toBe(401);

    const logout = await get("/api/logout", { Cookie: `__Host-fabled_session=${token}`, "Sec-Fetch-Site": "same-origin" }, origin);
    expect(logout.status).toBe(302);
    expect(setCookie(logout, "__Host-fabled_session")).toMatchObject({ cleared: true, attributes: { secure: "" } });
    expect(await storedExpire(token)).toBeNull();
  });
});

describe("cross-site request forgery", () => {
  async function putProfile(cookie: string, headers: Record<string, string>, name: string): Promise<Response> {
    const me = (await (await get("/api/auth/user", { Cookie: cookie })).json()) as { username: string };
    return exports.default.fetch("http://localhost/api/profile", {
      method: "PUT",
      headers: { Cookie: cookie, "Content-Type": "application/json", ...headers },
      body: JSON.stringify({ name, username: me.username, profileImageUrl: "" }),
    });
  }
  const nameOf = async (cookie: string) =>
    ((await (await get("/api/auth/user", { Cookie: cookie })).json()) as { name: string }).name;

  it.each<Record<string, string>>([
    { "Sec-Fetch-Site": "cross-site" },
    { "Sec-Fetch-Site": "same-site" },
    { "Sec-Fetch-Site": "cross-site", Origin: "http://localhost" },
    { Origin: "https://evil.example" },
    { Origin: "null" },
    { Origin: "http://localhost:8788" },
  ])("refuses a state-changing request with %j (403, nothing changed)", async (headers) => {
    const user = await signIn({ firstName: "Before" });
    const res = await putProfile(user.cookie, headers, "Hacked");
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: "Cross-site requests are not allowed", code: "forbidden" });
    expect(await nameOf(user.cookie)).toBe("Before");
  });

  it.each<Record<string, string>>([{ "Sec-Fetch-Site": "same-origin" }, { Origin: "http://localhost" }, {}])(
    "lets a same-origin (or non-browser) request through: %j",
    async (headers) => {
      const user = await signIn({ firstName: "Before" });
      const res = await putProfile(user.cookie, headers, "After");
      expect(res.status).toBe(200);
      expect(await nameOf(user.cookie)).toBe("After");
    },
  );

  it("leaves reads alone", async () => {
    const user = await signIn();
    const res = await get("/api/auth/user", { Cookie: user.cookie, "Sec-Fetch-Site": "cross-site", Origin: "https://evil.example" });
    expect(res.status).toBe(200);
  });

  it("guards every /api path, not only known routes", async () => {
    const res = await exports.default.fetch("http://localhost/api/anything", {
      method: "DELETE",
      headers: { "Sec-Fetch-Site": "cross-site" },
    });
    expect(res.status).toBe(403);
  });
});
