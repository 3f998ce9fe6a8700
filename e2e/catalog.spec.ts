/**
 * A visitor browses the catalog in Chromium, as SPEC.md §2 and §4 describe:
 * home, tags, search, NSFW toggle, Load More, a character page, a legal page,
 * the 404 page — with an axe accessibility check on each.
 */
import { expect, type Page, test } from "@playwright/test";
import type { CharacterListResponse, Tag } from "../schema/api.ts";
import { expectAccessible } from "./helpers.ts";

const cards = (page: Page) => page.locator('main a[href^="/character/"]');

async function resultsCount(page: Page): Promise<number> {
  const text = await page.getByText(/^[\d,]+ results found$/).textContent();
  return Number(text!.replace(/[^\d]/g, ""));
}

test("home lists the catalog with tabs, skeleton-free results and Load More", async ({ page, request }) => {
  const api = (await (await request.get("/api/characters?showNsfw=false&nsfw=false&limit=20")).json()) as CharacterListResponse;
  await page.goto("/");
  await expect(page.getByText("Join the #1 Free AI Roleplay Platform")).toBeVisible();
  await expect(page.getByRole("link", { name: "Create Free Account" }).or(page.getByRole("button", { name: "Create Free Account" }))).toBeVisible();
  await expect(page.getByText(`${api.total} results found`)).toBeVisible();
  await expect(cards(page)).toHaveCount(20);
  await expect(cards(page).first()).toContainText(api.characters[0]!.name);
  for (const tab of ["For You", "Trending", "New", "Popular"]) {
    await expect(page.getByRole("tab", { name: tab }).or(page.getByRole("button", { name: tab, exact: true }))).toBeVisible();
  }
  await expectAccessible(page);

  // Load More appends the next page of 20.
  await page.getByRole("button", { name: "Load More Characters" }).click();
  await expect(cards(page)).toHaveCount(Math.min(api.total, 40));

  // The New tab reorders: its first card is the newest character.
  const newest = (await (await request.get("/api/characters?showNsfw=false&nsfw=false&limit=1&sort=new")).json()) as CharacterListResponse;
  await page.getByRole("tab", { name: "New" }).or(page.getByRole("button", { name: "New", exact: true })).click();
  await expect(cards(page).first()).toContainText(newest.characters[0]!.name);
  await expect(cards(page)).toHaveCount(20);
});

test("tags filter the grid and can be removed again", async ({ page, request }) => {
  const tags = (await (await request.get("/api/tags?popular=true")).json()) as Tag[];
  const tag = tags[0]!;
  const filtered = (await (await request.get(`/api/characters?tags=${encodeURIComponent(tag.name)}&showNsfw=false&nsfw=false`)).json()) as CharacterListResponse;

  await page.goto("/");
  const all = await resultsCount(page);
  const sidebar = page.getByRole("complementary");
  await sidebar.getByRole("button", { name: new RegExp(`^#?${tag.name}\\b`, "i") }).first().click();
  await expect(page.getByText("Selected Filters (1)")).toBeVisible();
  await expect(page.getByText(`${filtered.total} results found`)).toBeVisible();
  expect(filtered.total).toBeLessThan(all);
  await expect(cards(page).first()).toContainText(filtered.characters[0]!.name);

  await page.getByRole("button", { name: new RegExp(`remove.*${tag.name}`, "i") }).click();
  await expect(page.getByText("Selected Filters (1)")).toBeHidden();
  await expect(page.getByText(`${all} results found`)).toBeVisible();
});

test("search finds a character by a word of its name; NSFW toggle widens the list", async ({ page, request }) => {
  const newest = (await (await request.get("/api/characters?limit=1&sort=new&showNsfw=false&nsfw=false")).json()) as CharacterListResponse;
  const target = newest.characters[0]!;
  const word = target.name.split(/\s+/).sort((a, b) => b.length - a.length)[0]!;

  await page.goto("/");
  const sfwTotal = await resultsCount(page);
  await page.getByRole("switch").first().click();
  // The first time, the visitor confirms being 18 or older.
  await page.getByRole("alertdialog", { name: "Are you 18 or older?" }).getByRole("button", { name: "I am 18 or older" }).click();
  await expect.poll(() => resultsCount(page)).toBeGreaterThan(sfwTotal);

  await page.getByPlaceholder("Search characters...").first().fill(word);
  await expect(cards(page).filter({ hasText: target.name })).toHaveCount(1);

  await page.getByPlaceholder("Search characters...").first().fill("zzqxjnothingmatches");
  await expect(page.getByText("No characters found matching your criteria")).toBeVisible();
  await expect(page.getByText("Try adjusting your filters or search query")).toBeVisible();
});

test("a character page shows the card and sends visitors to sign in to chat", async ({ page, request }) => {
  const list = (await (await request.get("/api/characters?limit=1&showNsfw=false&nsfw=false")).json()) as CharacterListResponse;
  const character = list.characters[0]!;

  await page.goto("/");
  await cards(page).first().click();
  await expect(page).toHaveURL(new RegExp(`/character/${character.id}$`));
  await expect(page.getByRole("heading", { name: character.name, level: 1 })).toBeVisible();
  await expect(page.getByText(`by @${character.creator}`)).toBeVisible();
  await expect(page.getByText("Personality", { exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: /Back to Characters/ })).toBeVisible();
  await expectAccessible(page);

  // Start Chat sends a visitor to the sign-in path.
  const [signIn] = await Promise.all([
    page.waitForRequest((req) => new URL(req.url()).pathname === "/api/login"),
    page.getByRole("button", { name: /Start Chat/ }).or(page.getByRole("link", { name: /Start Chat/ })).click(),
  ]);
  expect(signIn.isNavigationRequest()).toBe(true);
});

test("an unknown character shows Character not found", async ({ page }) => {
  await page.goto("/character/99999999");
  await expect(page.getByText("Character not found")).toBeVisible();
  await page.getByRole("link", { name: /Back to Home/ }).click();
  await expect(page).toHaveURL(/\/$/);
});

test("legal pages are linked from the footer and dated today", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("contentinfo").getByRole("link", { name: /Privacy/ }).click();
  await expect(page).toHaveURL(/\/privacy-policy$/);
  const today = new Date().toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric" });
  await expect(page.getByText(new RegExp(`Last Updated:?\\s*${today}`))).toBeVisible();
  await expect(page.getByText(/18/).first()).toBeVisible();
  await expectAccessible(page);

  for (const [name, path] of [[/Terms/, "/terms-of-use"], [/Disclaimer/, "/disclaimer"]] as const) {
    await page.getByRole("contentinfo").getByRole("link", { name }).click();
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await expect(page.getByText(/Last Updated/)).toBeVisible();
    await expectAccessible(page);
  }
  await expect(page.getByRole("contentinfo")).toContainText(String(new Date().getFullYear()));
});

test("any other path is a 404 page", async ({ page }) => {
  await page.goto("/no/such/page");
  await expect(page.getByText("Page Not Found")).toBeVisible();
  await expectAccessible(page);
});

test("on a phone the tag sidebar is hidden and the grid still works", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  await expect(cards(page).first()).toBeVisible();
  await expect(page.getByRole("complementary")).toBeHidden();
  await expectAccessible(page);
});

test("pages and API answers carry the security headers", async ({ request }) => {
  for (const path of ["/", "/character/1", "/api/characters?limit=1"]) {
    const res = await request.get(path);
    const headers = res.headers();
    expect(headers["content-security-policy"], path).toContain("script-src 'self'");
    expect(headers["content-security-policy"], path).toContain("frame-ancestors 'none'");
    expect(headers["x-content-type-options"], path).toBe("nosniff");
    expect(headers["referrer-policy"], path).toBe("strict-origin-when-cross-origin");
  }
});
