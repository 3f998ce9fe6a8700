/**
 * Moving around the app as a person does (docs/decisions/0004: React
 * Router's declarative mode with web/app/use-scroll-restoration.ts and an
 * error boundary in place of the data router's): Back returns to where you
 * were on Home, a new page starts at the top, and a page whose code cannot
 * load says so with a way out.
 */
import { expect, test } from "@playwright/test";

const cardLinks = (page: import("@playwright/test").Page) => page.getByRole("main").getByRole("article").getByRole("heading", { level: 3 }).getByRole("link");

test("Back returns to the place on Home; a character page opens at its top", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 700 });
  await page.goto("/");
  await expect(cardLinks(page).nth(7)).toBeVisible();
  // Far enough that the card is below the hero and the first row.
  const card = cardLinks(page).nth(7);
  await card.scrollIntoViewIfNeeded();
  await page.evaluate(() => window.scrollBy(0, 200));
  const scrolled = await page.evaluate(() => Math.round(window.scrollY));
  expect(scrolled).toBeGreaterThan(300);
  // The position is recorded as the person scrolls (next animation frame).
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

  const name = (await card.textContent())!;
  await card.click();
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
  expect(await page.evaluate(() => window.scrollY)).toBe(0);

  await page.goBack();
  await expect(cardLinks(page).nth(7)).toBeVisible();
  await expect.poll(() => page.evaluate(() => Math.round(window.scrollY))).toBe(scrolled);
});

test("a page whose code fails to load shows 'Something went wrong' with Reload and Back to Home", async ({ page }) => {
  await page.goto("/");
  await expect(cardLinks(page).first()).toBeVisible();
  // A deploy replaced the character page's chunk: the old file is gone.
  await page.route(/\/assets\/character-[^/]*\.js$/, (route) => route.fulfill({ status: 404, body: "gone" }));
  await cardLinks(page).first().click();
  await expect(page.getByRole("heading", { name: "Something went wrong", level: 1 })).toBeVisible();
  await expect(page.getByRole("button", { name: "Reload" })).toBeVisible();
  await page.unroute(/\/assets\/character-[^/]*\.js$/);
  await page.getByRole("link", { name: "Back to Home" }).click();
  await expect(cardLinks(page).first()).toBeVisible();
});
