/**
 * Web Push subscriptions (issue 39, DESIGN.md turn 4 "Notifications";
 * worker/routes/push.ts): the site's VAPID key, a device subscribing and
 * unsubscribing, the address rules of model connections applied to the
 * push endpoint, nobody reaching another person's subscriptions, and the
 * rows leaving with the account.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import app from "../app.ts";
import { ORIGIN } from "./chat-client.ts";
import { call, json } from "./creator-api.ts";
import { signIn, type TestUser } from "./fixtures.ts";

/** A device's keys as a browser gives them: a 65-byte P-256 point and 16 bytes of auth, base64url. */
async function deviceKeys(): Promise<{ p256dh: string; auth: string }> {
  const pair = (await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"])) as CryptoKeyPair;
  const raw = new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer);
  const b64url = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  return { p256dh: b64url(raw), auth: b64url(crypto.getRandomValues(new Uint8Array(16))) };
}

const subscribe = (user: TestUser | null, body: unknown) => call("/api/push/subscriptions", { method: "POST", user, body, headers: { origin: ORIGIN } });
const unsubscribe = (user: TestUser | null, endpoint: string) => call("/api/push/subscriptions", { method: "DELETE", user, body: { endpoint }, headers: { origin: ORIGIN } });

async function endpointsOf(user: TestUser): Promise<string[]> {
  const rows = await env.DB.prepare("SELECT endpoint FROM push_subscriptions WHERE user_id = ? ORDER BY endpoint").bind(user.id).all<{ endpoint: string }>();
  return rows.results.map((row) => row.endpoint);
}

describe("the VAPID key", () => {
  it("is the configured public key, and 503 with a clear message when the site has none", async () => {
    const missing = await call("/api/push/key");
    expect(missing.status).toBe(503);
    expect(await missing.json()).toMatchObject({ code: "unavailable", error: "Push notifications are not set up on this site." });
    const ctx = createExecutionContext();
    const res = await app.fetch(new Request("http://localhost/api/push/key"), { ...env, VAPID_PUBLIC_KEY: "BPublicKey_-" }, ctx);
    await waitOnExecutionContext(ctx);
    expect(await json(res, 200)).toEqual({ publicKey: "BPublicKey_-" });
  });
});

describe("subscriptions", () => {
  it("a device subscribes (again: its keys are replaced) and unsubscribes; a browser signed into another account moves to it", async () => {
    const ana = await signIn();
    const bo = await signIn();
    const endpoint = `https://push.example.com/send/${crypto.randomUUID()}`;
    expect(await json(await subscribe(ana, { endpoint, keys: await deviceKeys() }), 201)).toEqual({ endpoint });
    expect(await json(await subscribe(ana, { endpoint, keys: await deviceKeys(), expirationTime: null }), 201)).toEqual({ endpoint });
    expect(await endpointsOf(ana)).toEqual([endpoint]);
    // Bo cannot remove Ana's device: 204 all the same, and it stays.
    expect((await unsubscribe(bo, endpoint)).status).toBe(204);
    expect(await endpointsOf(ana)).toEqual([endpoint]);
    // The same browser, now signed in as Bo, subscribes: the device is Bo's.
    expect((await subscribe(bo, { endpoint, keys: await deviceKeys() })).status).toBe(201);
    expect(await endpointsOf(ana)).toEqual([]);
    expect(await endpointsOf(bo)).toEqual([endpoint]);
    expect((await unsubscribe(bo, endpoint)).status).toBe(204);
    expect(await endpointsOf(bo)).toEqual([]);
  });

  it("refuses visitors, addresses a model connection could not use, http, and malformed keys, naming the field", async () => {
    const me = await signIn();
    const keys = await deviceKeys();
    expect((await subscribe(null, { endpoint: "https://push.example.com/x", keys })).status).toBe(401);
    for (const [endpoint, words] of [
      ["http://push.example.com/x", "https://"],
      ["https://10.0.0.7/push", "private"],
      ["https://169.254.169.254/latest", "private"],
      ["https://user:pw@push.example.com/x", "user name"],
      ["not a url", "full URL"],
      [`${ORIGIN}/api/push/key`, "this site"],
    ] as const) {
      const res = await subscribe(me, { endpoint, keys });
      expect(res.status, endpoint).toBe(400);
      const body = (await res.json()) as { code: string; error: string; issues: { path: string }[] };
      expect(body.code).toBe("validation_failed");
      expect(body.error, endpoint).toContain(words);
      expect(body.issues[0]!.path).toBe("endpoint");
    }
    const short = await subscribe(me, { endpoint: "https://push.example.com/x", keys: { p256dh: keys.p256dh.slice(0, 20), auth: "!!" } });
    expect(short.status).toBe(400);
    expect([...new Set(((await short.json()) as { issues: { path: string }[] }).issues.map((i) => i.path))].sort()).toEqual(["keys.auth", "keys.p256dh"]);
    expect(await endpointsOf(me)).toEqual([]);
  });

  it("leave with the account", async () => {
    const me = await signIn();
    const endpoint = `https://push.example.com/send/${crypto.randomUUID()}`;
    expect((await subscribe(me, { endpoint, keys: await deviceKeys() })).status).toBe(201);
    const res = await call("/api/profile", { method: "DELETE", user: me, body: { confirm: me.username }, headers: { origin: ORIGIN } });
    expect(res.status).toBe(204);
    expect(await endpointsOf(me)).toEqual([]);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM push_subscriptions WHERE endpoint = ?").bind(endpoint).first("n")).toBe(0);
  });
});
