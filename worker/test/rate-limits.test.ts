/**
 * Heavy or enumerable endpoints as someone hammering them sees them: each
 * answers 429 `rate_limited` with `Retry-After` once the person is over the
 * limit of its wrangler.toml `[[ratelimits]]` binding (WRITE_RATE_LIMITER:
 * 120 a minute; LOOKUP_RATE_LIMITER: 60 a minute), and other people are not
 * affected. Every test uses fresh people: the limiters count per person.
 */
import { describe, expect, it } from "vitest";
import { call, json, TINY_PNG } from "./creator-api.ts";
import { signIn, type TestUser } from "./fixtures.ts";

const WRITES_PER_MINUTE = 120;
const LOOKUPS_PER_MINUTE = 60;

const RATE_LIMITED = { error: "You're doing that too often. Please wait a minute and try again.", code: "rate_limited" };

/**
 * The local rate limiter (miniflare's) counts in fixed windows aligned to the wall clock
 * (`floor(now / period)`), like Cloudflare's: a burst that straddles a minute boundary is
 * counted in two windows and never reaches the limit. Before a burst this waits until the
 * current minute has at least `budgetMs` left, so the whole burst lands in one window.
 */
async function inOneWindow(budgetMs = 15_000): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < budgetMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

/** Sends `request` `times` times in a row; returns the statuses. */
async function hammer(times: number, request: () => Promise<Response>): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < times; i++) {
    const res = await request();
    statuses.push(res.status);
    await res.body?.cancel();
  }
  return statuses;
}

/** The next request is refused with 429, `Retry-After: 60` and the error shape. */
async function expectRateLimited(res: Response): Promise<void> {
  expect(res.status).toBe(429);
  expect(res.headers.get("Retry-After")).toBe("60");
  expect(await res.json()).toEqual(RATE_LIMITED);
}

/** An uploaded and registered avatar of `user`: its `/objects/…` path. */
async function registeredAvatar(user: TestUser): Promise<string> {
  const { uploadURL } = await json<{ uploadURL: string }>(await call("/api/objects/upload", { method: "POST", user }), 200);
  expect((await call(uploadURL, { method: "PUT", body: TINY_PNG })).status).toBe(200);
  const { objectPath } = await json<{ objectPath: string }>(
    await call("/api/character-avatars", { method: "PUT", user, body: { avatarURL: uploadURL } }),
    200,
  );
  return objectPath;
}

describe("write rate limit (WRITE_RATE_LIMITER, 120 a minute per person)", () => {
  it("PUT /api/character-avatars: re-registering one object over and over is cut off", async () => {
    await inOneWindow();
    const [mira, theo] = [await signIn(), await signIn()];
    const path = await registeredAvatar(mira);
    // Two writes already counted: the upload URL and the first registration.
    const register = (user: TestUser) => call("/api/character-avatars", { method: "PUT", user, body: { avatarURL: path } });
    const statuses = await hammer(WRITES_PER_MINUTE - 2, () => register(mira));
    expect(new Set(statuses)).toEqual(new Set([200]));
    await expectRateLimited(await register(mira));
    // The object is untouched and still served; someone else is not limited by Mira's calls.
    expect((await call(path)).status).toBe(200);
    const other = await register(theo);
    expect(other.status).toBe(403);
  });

  it("PUT /api/profile", async () => {
    await inOneWindow();
    const mira = await signIn();
    const save = () => call("/api/profile", { method: "PUT", user: mira, body: { name: "Mira", username: mira.username, profileImageUrl: "" } });
    expect(new Set(await hammer(WRITES_PER_MINUTE, save))).toEqual(new Set([200]));
    await expectRateLimited(await save());
  });

  it("DELETE /api/comments/:id", async () => {
    await inOneWindow();
    const mira = await signIn();
    const remove = () => call(`/api/comments/${1_000_000 + Math.floor(Math.random() * 1000)}`, { method: "DELETE", user: mira });
    expect(new Set(await hammer(WRITES_PER_MINUTE, remove))).toEqual(new Set([404]));
    await expectRateLimited(await remove());
  });
});

describe("lookup rate limit (LOOKUP_RATE_LIMITER, 60 a minute per person)", () => {
  it("GET /api/profile/check-username/:username cannot be used to harvest names", async () => {
    await inOneWindow();
    const [mira, theo] = [await signIn(), await signIn()];
    const check = (user: TestUser, i: number) => call(`/api/profile/check-username/${encodeURIComponent(`@probe_${i}`)}`, { user });
    let i = 0;
    expect(new Set(await hammer(LOOKUPS_PER_MINUTE, () => check(mira, i++)))).toEqual(new Set([200]));
    await expectRateLimited(await check(mira, i++));
    // Counted per person.
    expect(await json(await check(theo, 0), 200)).toEqual({ available: true });
    // Still one binding per area: Mira's writes are not used up by her lookups.
    const saved = await call("/api/profile", { method: "PUT", user: mira, body: { name: "Mira", username: mira.username } });
    expect(saved.status).toBe(200);
  });
});
