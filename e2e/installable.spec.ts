/**
 * The installable app in Chromium (issue 39): the page links a valid web
 * app manifest whose icons load, the service worker registers and controls
 * the page, and with the network gone a navigation shows the "You're
 * offline" page (never a cached page of the app). API answers are never
 * kept: offline, /api/ fails. Screenshots of the offline page at 1280 and
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

  await context.setOffline(false);
  await page.getByRole("link", { name: "Try again" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "You're offline" })).toHaveCount(0);
  await expect(page).toHaveURL(/\/characters$/);
  await context.close();
});
