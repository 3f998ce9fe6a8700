/**
 * The installable app in Chromium (issue 39): the page links a valid web
 * app manifest whose icons load, the service worker registers and controls
 * the page (built by vite-plugin-pwa from web/sw/sw.ts, served at /sw.js),
 * and with the network gone a navigation shows the "You're offline" page
 * (never a cached page of the app, a share page included) while the app's
 * precached code still loads. API answers are never kept: offline, /api/
 * fails. A push shows as a notification with its picture and page.
 * Screenshots of the offline page at 1280 and
 * 375 px go to test-results/installable (looked at by people, not compared).
 */
import { expect, type Page, test } from "@playwright/test";
import { expectAccessible } from "./helpers.ts";

const SHOTS = "test-results/installable";

async function shoot(page: Page, name: string) {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width > 500 ? 900 : 800 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png` });
  }
}

interface Manifest {
  name: string;
  short_name: string;
  start_url: string;
  scope: string;
  display: string;
  icons: { src: string; sizes: string; type: string; purpose?: string }[];
}

test.describe.configure({ timeout: 120_000 });
// The other specs block service workers (e2e/playwright.config.ts); this one is about it.
test.use({ serviceWorkers: "allow" });

test("the manifest is linked and valid, and its icons load", async ({ page, request }) => {
  await page.goto("/");
  const href = await page.locator('link[rel="manifest"]').getAttribute("href");
  expect(href).toBe("/manifest.webmanifest");
  const res = await request.get(href!);
  expect(res.status()).toBe(200);
  const manifest = (await res.json()) as Manifest;
  expect(manifest).toMatchObject({ name: "Fabled", short_name: "Fabled", start_url: "/", scope: "/", display: "standalone" });
  // Chromium installs an app with a 192 px and a 512 px icon.
  for (const size of ["192x192", "512x512"]) expect(manifest.icons.some((icon) => icon.sizes === size && icon.type === "image/png" && icon.purpose !== "maskable")).toBe(true);
  for (const icon of manifest.icons) {
    const file = await request.get(icon.src);
    expect(file.status(), icon.src).toBe(200);
    expect(file.headers()["content-type"]).toContain(icon.type);
  }
});

test("the service worker registers, and offline a navigation shows the offline page", async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto("/");
  const entry = await page.locator('script[type="module"][src]').first().getAttribute("src");
  // Registered after the load and in control once it activated (it claims open pages).
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null), { timeout: 30_000 }).toMatch(/\/sw\.js$/);
  expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.state)).toBe("activated");

  await context.setOffline(true);
  await page.goto("/characters");
  await expect(page.getByRole("heading", { level: 1, name: "You're offline" })).toBeVisible();
  await expect(page).toHaveURL(/\/characters$/);
  await expect(page.getByRole("link", { name: "Try again" })).toBeVisible();
  await expectAccessible(page);
  await shoot(page, "offline");
  // No API answer was kept: offline, it fails.
  expect(await page.evaluate(() => fetch("/api/characters").then(() => "answered", () => "failed"))).toBe("failed");
  // The shell's code was precached: the entry script loads offline, from the worker (never the HTTP cache: no-store).
  expect(entry).toMatch(/\/assets\/index-[\w-]+\.js$/);
  expect(await page.evaluate((src) => fetch(src!, { cache: "no-store" }).then((res) => res.status, () => "failed"), entry)).toBe(200);
  // A share page (written by the Worker) is a page like any other: offline, the offline page, never a kept copy.
  const other = await context.newPage();
  await other.goto("/s/some-share");
  await expect(other.getByRole("heading", { level: 1, name: "You're offline" })).toBeVisible();
  await expect(other).toHaveURL(/\/s\/some-share$/);
  // The API is left to the browser, even when navigated to: no offline page stands in for it.
  await expect(other.goto("/api/characters")).rejects.toThrow(/ERR_INTERNET_DISCONNECTED/);
  await other.close();

  await context.setOffline(false);
  await page.getByRole("link", { name: "Try again" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "You're offline" })).toHaveCount(0);
  await expect(page).toHaveURL(/\/characters$/);
  await context.close();
});

test("a push shows as a notification with the character's picture, and names the page it opens", async ({ browser, baseURL }) => {
  const context = await browser.newContext();
  await context.grantPermissions(["notifications"], { origin: baseURL! });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("ServiceWorker.enable");
  const registrationIds = new Set<string>();
  cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
    for (const registration of registrations) if (!registration.isDeleted) registrationIds.add(registration.registrationId);
  });
  await page.goto("/");
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null), { timeout: 30_000 }).toMatch(/\/sw\.js$/);
  await expect.poll(() => registrationIds.size).toBe(1);

  // What the Inbox sends for a check-in (durable-objects/inbox/push.ts pushMessageOf), as the push service delivers it.
  const data = JSON.stringify({ title: "Fabled", body: "Wren checked in on you", url: "/chat/c1", icon: "/icons/icon-512.png", tag: "n1" });
  await cdp.send("ServiceWorker.deliverPushMessage", { origin: new URL(baseURL!).origin, registrationId: [...registrationIds][0]!, data });
  const shown = () =>
    page.evaluate(async () =>
      (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({ title: n.title, body: n.body, icon: n.icon, tag: n.tag, data: n.data as unknown })),
    );
  await expect.poll(shown).toEqual([{ title: "Fabled", body: "Wren checked in on you", icon: `${new URL(baseURL!).origin}/icons/icon-512.png`, tag: "n1", data: { url: "/chat/c1" } }]);

  // A folded notification (same tag) replaces its earlier push instead of piling up.
  await cdp.send("ServiceWorker.deliverPushMessage", {
    origin: new URL(baseURL!).origin,
    registrationId: [...registrationIds][0]!,
    data: JSON.stringify({ title: "Fabled", body: "Wren and Ana checked in", url: "https://evil.example/", tag: "n1" }),
  });
  await expect.poll(shown).toEqual([{ title: "Fabled", body: "Wren and Ana checked in", icon: `${new URL(baseURL!).origin}/icons/icon-192.png`, tag: "n1", data: { url: "/notifications" } }]);
  await context.close();
});
