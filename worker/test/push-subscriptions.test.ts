/**
 * Web Push subscriptions (issue 39, DESIGN.md turn 4 "Notifications";
 * worker/routes/push.ts): the site's VAPID key, a device subscribing and
 * unsubscribing, the address rules of model connections applied to the
 * push endpoint, nobody reaching another person's subscriptions, the rows
 * leaving with the account; and pushes (durable-objects/inbox/push.ts)
 * reaching the loopback push service of push-service.ts, which checks the
 * VAPID signature and decrypts the aes128gcm body as a browser would.
 */
import { createExecutionContext, runInDurableObject, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import type { Inbox } from "../../durable-objects/inbox/inbox.ts";
import type { NotificationSettings } from "../../schema/notifications.ts";
import app from "../app.ts";
import { inbox, notify, targets } from "../lib/notifications/notify.ts";
import { eventually, ORIGIN } from "./chat-client.ts";
import { openNotifications } from "./notifications-client.ts";
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
    expect(await json(await call("/api/push/key"), 200)).toEqual({ publicKey: (env as unknown as { VAPID_PUBLIC_KEY: string }).VAPID_PUBLIC_KEY });
    const ctx = createExecutionContext();
    const missing = await app.fetch(new Request("http://localhost/api/push/key"), { ...env, VAPID_PUBLIC_KEY: "" }, ctx);
    await waitOnExecutionContext(ctx);
    expect(missing.status).toBe(503);
    expect(await missing.json()).toMatchObject({ code: "unavailable", error: "Push notifications are not set up on this site." });
  });
});

describe("pushes", () => {
  const base = inject("pushServiceBase");
  const port = new URL(base).port;

  /** A device of the loopback push service, subscribed for `user`. */
  async function device(user: TestUser): Promise<{ id: string; endpoint: string }> {
    const made = (await (await fetch(`${base}/devices`, { method: "POST" })).json()) as { id: string; path: string; p256dh: string; auth: string };
    const endpoint = `https://localhost:${port}${made.path}`;
    expect((await subscribe(user, { endpoint, keys: { p256dh: made.p256dh, auth: made.auth } })).status).toBe(201);
    return { id: made.id, endpoint };
  }

  const received = async (id: string) => (await (await fetch(`${base}/devices/${id}/received`)).json()) as { payload: { title: string; body: string; url: string; tag: string }; ttl: string }[];

  /** The person's Inbox reaches the loopback service over http (it answers the https address the site signed for). */
  async function pushOverLoopback(user: TestUser): Promise<void> {
    await runInDurableObject(inbox(env, user.id), (box: Inbox) => {
      box.pushFetch = (input, init) => fetch(String(input).replace(`https://localhost:${port}`, base), init);
    });
  }

  it("a notification reaches the person's device encrypted and signed, only with push on and no tab open", async () => {
    const me = await signIn();
    const ana = await signIn({ firstName: "Ana" });
    const bo = await signIn({ firstName: "Bo" });
    const phone = await device(me);
    await pushOverLoopback(me);

    // Push is off until the person turns it on.
    const first = await notify(env, me.id, ana.id, { kind: "room_joined", target: targets.conversation(crypto.randomUUID(), "Harbour"), foldKey: `a:${crypto.randomUUID()}`, scope: null });
    expect(first).toBe(true);
    expect((await json<NotificationSettings>(await call("/api/profile/notifications", { method: "PUT", user: me, body: { push: true }, headers: { origin: ORIGIN } }), 200)).push).toBe(true);

    // With a tab open, the bell says it; no push.
    const tab = await openNotifications(me);
    await notify(env, me.id, bo.id, { kind: "room_joined", target: targets.conversation(crypto.randomUUID(), "Open tab"), foldKey: `b:${crypto.randomUUID()}`, scope: null });
    await tab.unreadIs(2);
    tab.close();
    await eventually(async () => (await inbox(env, me.id).socketCount()) === 0);

    const conversationId = crypto.randomUUID();
    await notify(env, me.id, bo.id, { kind: "room_joined", target: targets.conversation(conversationId, "Lighthouse"), foldKey: `c:${crypto.randomUUID()}`, scope: null });
    const pushes = await eventually(async () => {
      const list = await received(phone.id);
      return list.length > 0 ? list : null;
    }, 10_000);
    expect(pushes).toEqual([{ payload: { title: "Fabled", body: "Bo joined Lighthouse", url: `/chat/${conversationId}`, icon: null, tag: expect.any(String) }, ttl: "86400", topic: expect.stringMatching(/^[0-9a-f]{32}$/), urgency: "normal" }]);
  });

  it("a device whose push service answers 410 is dropped", async () => {
    const me = await signIn();
    const ana = await signIn({ firstName: "Ana" });
    const old = await device(me);
    const kept = await device(me);
    await fetch(`${base}/devices/${old.id}/gone`, { method: "POST" });
    await call("/api/profile/notifications", { method: "PUT", user: me, body: { push: true }, headers: { origin: ORIGIN } });
    await pushOverLoopback(me);
    await notify(env, me.id, ana.id, { kind: "room_joined", target: targets.conversation(crypto.randomUUID(), "Gone"), foldKey: `g:${crypto.randomUUID()}`, scope: null });
    await eventually(async () => {
      const endpoints = await endpointsOf(me);
      return endpoints.length === 1 && endpoints[0] === kept.endpoint;
    }, 10_000);
    expect(await eventually(async () => (await received(kept.id)).length === 1 && (await received(kept.id)))).toHaveLength(1);
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
