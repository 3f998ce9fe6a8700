/**
 * Tag filters in Chromium (issue "Finding and following", Tag filters): a
 * visitor and a signed-in person hide a tag and its characters leave Home,
 * also after a reload; a visitor's hidden tags join the account on sign-in;
 * selected tags combine as "All of" or "Any of"; below 768 px the Filters
 * sheet offers the same controls — with axe checks and screenshots at 1280
 * and 375 px.
 */
import { expect, type Page, test } from "@playwright/test";
import type { CharacterListResponse, Tag } from "../schema/api.ts";
import { expectAccessible, signInWithApi } from "./helpers.ts";

const cards = (page: Page) => page.locator('main a[href^="/character/"]');
const results = (page: Page, total: number) => page.getByText(`${total} results found`, { exact: true });

async function catalog(page: Page, query: string): Promise<CharacterListResponse> {
  const res = await page.request.get(`/api/characters?showNsfw=false&nsfw=false&${query}`);
  expect(res.ok()).toBe(true);
  return (await res.json()) as CharacterListResponse;
}

/** The popular tags, most used first. */
async function popularTags(page: Page): Promise<Tag[]> {
  return (await (await page.request.get("/api/tags?popular=true")).json()) as Tag[];
}

/** A popular tag that some but not all listed characters carry, and the list without it. */
async function tagToHide(page: Page) {
  const all = await catalog(page, "");
  for (const tag of await popularTags(page)) {
    const without = await catalog(page, `excludeTags=${encodeURIComponent(tag.name)}`);
    if (without.total > 0 && without.total < all.total) return { tag: tag.name, all, without };
  }
  throw new Error("the demo catalog has no tag to hide");
}

const hideButton = (page: Page, tag: string) => page.getByRole("complementary").getByRole("button", { name: `Hide ${tag}`, exact: true });

test("a visitor hides a tag: its characters leave Home, and stay hidden after a reload", async ({ page }, testInfo) => {
  await page.goto("/");
  const { tag, all, without } = await tagToHide(page);
  await expect(results(page, all.total)).toBeVisible();

  // From the keyboard: focus the tag's eye button and press Enter.
  await hideButton(page, tag).focus();
  await page.keyboard.press("Enter");
  await expect(hideButton(page, tag)).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByText("Hidden Tags (1)")).toBeVisible();
  await expect(results(page, without.total)).toBeVisible();
  await expect(cards(page).first()).toContainText(without.characters[0]!.name);
  // No card on the page carries the hidden tag.
  const shown = await cards(page).allTextContents();
  const carrying = (await catalog(page, `tags=${encodeURIComponent(tag)}&limit=100`)).characters.map((c) => c.name);
  expect(shown.filter((text) => carrying.some((name) => text.includes(name)))).toEqual([]);
  await page.screenshot({ path: testInfo.outputPath("home-hidden-tag-1280.png"), fullPage: false });
  await expectAccessible(page);

  await page.reload();
  await expect(page.getByText("Hidden Tags (1)")).toBeVisible();
  await expect(results(page, without.total)).toBeVisible();
  await expect(hideButton(page, tag)).toHaveAttribute("aria-pressed", "true");

  // Shown again from the Hidden Tags list.
  await page.getByRole("button", { name: `Show ${tag} again` }).first().click();
  await expect(results(page, all.total)).toBeVisible();
  await expect(page.getByText("Hidden Tags (1)")).toBeHidden();
  await page.reload();
  await expect(results(page, all.total)).toBeVisible();
});

test("a signed-in person's hidden tags are kept on their account", async ({ page }) => {
  await signInWithApi(page, "Hester");
  await page.goto("/");
  const { tag, without } = await tagToHide(page);
  const saved = page.waitForResponse((res) => res.url().endsWith("/api/profile/hidden-tags") && res.request().method() === "PUT");
  await hideButton(page, tag).click();
  expect((await saved).status()).toBe(200);
  await expect(results(page, without.total)).toBeVisible();
  expect(await (await page.request.get("/api/profile/hidden-tags")).json()).toEqual({ tags: [tag] });

  // A browser that never saw the list (storage cleared) gets it from the account.
  await page.evaluate(() => window.localStorage.clear());
  await page.reload();
  await expect(page.getByText("Hidden Tags (1)")).toBeVisible();
  await expect(results(page, without.total)).toBeVisible();
});

test("a visitor's hidden tags join the account when they sign in", async ({ page }) => {
  await page.goto("/");
  const { tag, without } = await tagToHide(page);
  await hideButton(page, tag).click();
  await expect(results(page, without.total)).toBeVisible();

  await signInWithApi(page, "Vera");
  expect(await (await page.request.get("/api/profile/hidden-tags")).json()).toEqual({ tags: [] });
  await page.reload();
  await expect(page.getByRole("button", { name: /Vera/ }).first()).toBeVisible();
  await expect.poll(async () => (await (await page.request.get("/api/profile/hidden-tags")).json()) as unknown).toEqual({ tags: [tag] });
  await expect(results(page, without.total)).toBeVisible();
});

test("selected tags combine as All of, or Any of", async ({ page }, testInfo) => {
  await page.goto("/");
  const tags = await popularTags(page);
  // Two popular tags that some characters carry together and others alone.
  let pair: { a: string; b: string; both: number; either: number } | null = null;
  for (const [a, b] of tags.slice(0, 6).flatMap((x, i) => tags.slice(i + 1, 6).map((y) => [x.name, y.name] as const))) {
    const names = `tags=${encodeURIComponent(a)},${encodeURIComponent(b)}`;
    const both = (await catalog(page, names)).total;
    const either = (await catalog(page, `${names}&tagMode=any`)).total;
    if (both > 0 && either > both) {
      pair = { a, b, both, either };
      break;
    }
  }
  expect(pair).not.toBeNull();
  const { a, b, both, either } = pair!;
  const sidebar = page.getByRole("complementary");
  await sidebar.getByRole("button", { name: new RegExp(`^${a} ,`) }).click();
  await sidebar.getByRole("button", { name: new RegExp(`^${b} ,`) }).click();
  await expect(page.getByText("Selected Filters (2)")).toBeVisible();
  await expect(sidebar.getByRole("radio", { name: "All of" })).toBeChecked();
  await expect(sidebar.getByRole("group", { name: "Characters with" })).toContainText("these tags");
  await expect(results(page, both)).toBeVisible();

  await sidebar.getByText("Any of").click();
  await expect(sidebar.getByRole("radio", { name: "Any of" })).toBeChecked();
  await expect(results(page, either)).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("sidebar-any-of-1280.png") });
  // Arrow keys move between the two modes, as radio buttons do.
  await sidebar.getByRole("radio", { name: "Any of" }).press("ArrowLeft");
  await expect(sidebar.getByRole("radio", { name: "All of" })).toBeChecked();
  await expect(results(page, both)).toBeVisible();
  await expectAccessible(page);
});

test("on a 375 px phone the Filters sheet selects tags and the grid follows", async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto("/");
  const all = await catalog(page, "");
  await expect(results(page, all.total)).toBeVisible();
  await expect(page.getByRole("complementary")).toBeHidden();
  await page.screenshot({ path: testInfo.outputPath("home-375.png") });

  await page.getByRole("button", { name: "Filters" }).click();
  const sheet = page.getByRole("dialog", { name: "Filters" });
  await expect(sheet).toBeVisible();
  await expect(sheet.getByRole("switch", { name: "Show NSFW" })).toBeVisible();
  const tag = (await popularTags(page))[0]!.name;
  const filtered = await catalog(page, `tags=${encodeURIComponent(tag)}`);
  await sheet.getByRole("button", { name: new RegExp(`^${tag} ,`) }).click();
  await expect(sheet.getByText("Selected Filters (1)")).toBeVisible();
  await expect(sheet.getByRole("button", { name: `Show ${filtered.total} results` })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("filters-sheet-375.png") });
  await expectAccessible(page);

  await sheet.getByRole("button", { name: `Show ${filtered.total} results` }).click();
  await expect(sheet).toBeHidden();
  await expect(results(page, filtered.total)).toBeVisible();
  await expect(cards(page).first()).toContainText(filtered.characters[0]!.name);
  // The button says how many filters are on, and focus is back on it.
  await expect(page.getByRole("button", { name: "Filters 1 active" })).toBeFocused();

  // Hiding a tag in the sheet; the close button shuts it.
  await page.getByRole("button", { name: "Filters 1 active" }).click();
  const other = (await popularTags(page))[1]!.name;
  const hidden = await catalog(page, `tags=${encodeURIComponent(tag)}&excludeTags=${encodeURIComponent(other)}`);
  await sheet.getByRole("button", { name: `Hide ${other}`, exact: true }).click();
  await expect(sheet.getByText("Hidden Tags (1)")).toBeVisible();
  await sheet.getByRole("button", { name: "Close filters" }).click();
  await expect(sheet).toBeHidden();
  await expect(results(page, hidden.total)).toBeVisible();
});
