/**
 * Nothing a client sends may produce a 500 (DESIGN.md "Errors"): every
 * route that takes a body, sent what an attacker or a broken client sends —
 * multipart without a boundary or with a wrong one, JSON cut short, a form
 * where JSON is expected, no body at all — answers a 4xx in the JSON error
 * shape, signed in or not. (The local sign-in, which only exists in
 * development, is covered by auth.test.ts.)
 */
import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import app from "../app.ts";
import { insertCharacter, signIn, type TestUser } from "./fixtures.ts";

const BODIES: [string, Record<string, string>, string][] = [
  ["multipart without a boundary", { "content-type": "multipart/form-data" }, '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--\r\n'],
  ["multipart with a wrong boundary", { "content-type": "multipart/form-data; boundary=nope" }, '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--\r\n'],
  ["JSON cut short", { "content-type": "application/json" }, '{"name": "Bro'],
  ["a form where JSON is expected", { "content-type": "application/x-www-form-urlencoded" }, "name=%ZZ&&=="],
  ["no body", { "content-type": "application/json" }, ""],
];

let user: TestUser;
let characterId: number;

beforeAll(async () => {
  user = await signIn();
  characterId = await insertCharacter({ creatorId: user.id });
});

/** Every route of the API that takes a body, with its parameters filled in. */
function bodyRoutes(): { method: string; path: string }[] {
  const seen = new Set<string>();
  const routes: { method: string; path: string }[] = [];
  for (const route of app.routes) {
    if (!["POST", "PUT", "PATCH"].includes(route.method) || !route.path.startsWith("/api/")) continue;
    // It ends the session the other calls are made with (and takes no body).
    if (route.path === "/api/logout") continue;
    const path = route.path
      .replace(":key{.+}", `avatars/${user.id}/x`)
      .replace(/:id\b/g, String(characterId))
      .replace(/:[a-zA-Z]+(\{[^}]*\})?/g, "1");
    const key = `${route.method} ${path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    routes.push({ method: route.method, path });
  }
  return routes;
}

describe("malformed bodies never answer 500", () => {
  it.each(BODIES)("%s: every route with a body answers 4xx with the error shape", async (_, headers, body) => {
    const routes = bodyRoutes();
    expect(routes.length).toBeGreaterThan(10);
    for (const { method, path } of routes) {
      for (const cookie of [user.cookie, null]) {
        const res = await exports.default.fetch(`http://localhost${path}`, {
          method,
          headers: { ...headers, origin: "http://localhost", ...(cookie ? { cookie } : {}) },
          body,
        });
        const text = await res.text();
        // DESIGN.md "Voices": without a speech-to-text provider (as in these tests) transcription is a 503 "unavailable", whatever the body.
        if (path === "/api/transcriptions" && res.status === 503) {
          expect(JSON.parse(text)).toMatchObject({ code: "unavailable" });
          continue;
        }
        expect(res.status, `${method} ${path} (${cookie ? "signed in" : "visitor"}): ${text}`).toBeLessThan(500);
        if (res.status >= 400 && res.headers.get("content-type")?.startsWith("application/json")) {
          expect(JSON.parse(text), `${method} ${path}`).toHaveProperty("code");
        }
      }
    }
  }, 60_000);
});
