/**
 * Forks in Chromium (issue 40): a person forks someone's character from its
 * page, lands on their private copy that says "Forked from {name} by
 * @{creator}", and the original's page counts the fork and lists it once
 * published; the studio's "Allow forks" switch takes the Fork button away.
 * Screenshots at 1280 and 375 px go to test-results/forks (looked at by
 * people, not compared).
 */
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import type { Character } from "../schema/api.ts";
import { expectAccessible, letters, toast, unique } from "./helpers.ts";

const SHOTS = "test-results/forks";

/** Signs in (local sign-in) as the person with `email`, creating them the first time; the page shares the cookies. */
async function signInAs(request: APIRequestContext, email: string, firstName: string): Promise<{ username: string }> {
  const res = await request.post("/api/login/dev", { data: { email, firstName } });
  expect(res.ok()).toBe(true);
  return (await res.json()) as { username: string };
}

/** Screenshots of the page at 1280 and 375 px wide; the page is left at 1280. */
async function shoot(page: Page, name: string) {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width > 500 ? 900 : 800 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: false });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** Budget of each test here: it catches a hang on a loaded machine, it does not time anything. */
test.describe.configure({ timeout: 300_000 });

/** For what a page shows once it has loaded: on a loaded 2-core machine a first load took over 10 s. */
const loaded = expect.configure({ timeout: 60_000 });

test("fork from the character page: the copy credits the original, the original counts and lists the fork", async ({ page }) => {
  const creatorEmail = `mira-${unique()}@example.com`;
  const creator = await signInAs(page.request, creatorEmail, "Mira");
  const name = `Wren${letters()}`;
  const created = await page.request.post("/api/characters", {
    data: {
      name,
      description: "A cartographer who argues about coastlines for the forks browser test.",
      personality: "Precise and stubborn. She redraws every bay twice.",
      greeting: `*${name} unrolls a chart.* "Which coast today?"`,
      tags: ["maps"],
    },
  });
  expect(created.status()).toBe(201);
  const original = (await created.json()) as Character;

  const forker = await signInAs(page.request, `juno-${unique()}@example.com`, "Juno");
  await page.goto(`/character/${original.id}`);
  await loaded(page.getByRole("heading", { level: 1, name })).toBeVisible();
  // No fork yet: no count, and no credit on an original.
  await expect(page.getByRole("button", { name: /\d+ forks?$/ })).toHaveCount(0);
  await expect(page.getByText(/^Forked from/)).toHaveCount(0);

  await page.getByRole("button", { name: "Fork", exact: true }).click();
  await expect(toast(page, `${name} is yours to edit. It stays private until you publish it from My Characters.`)).toBeVisible();
  await loaded(page).toHaveURL(/\/character\/\d+$/);
  expect(page.url()).not.toMatch(new RegExp(`/character/${original.id}$`));
  const forkId = Number(page.url().split("/").pop());
  await loaded(page.getByRole("heading", { level: 1, name })).toBeVisible();
  const credit = page.getByText(/^Forked from/);
  await expect(credit).toHaveText(`Forked from ${name} by ${creator.username}`);
  await expect(page.getByText(`by @${forker.username.slice(1)}`, { exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "Edit Character" })).toBeVisible();
  await expectAccessible(page);
  await shoot(page, "fork-page");

  // Published, it is in the original's list of forks.
  const published = await page.request.patch(`/api/characters/${forkId}/toggle-active`);
  expect(published.status()).toBe(200);

  await page.getByRole("link", { name, exact: true }).click();
  await loaded(page).toHaveURL(new RegExp(`/character/${original.id}$`));
  const count = page.getByRole("button", { name: "1 fork" });
  await loaded(count).toBeVisible();
  await expect(page.getByText(/^Forked from/)).toHaveCount(0);
  await shoot(page, "original-page");
  await count.click();
  const dialog = page.getByRole("dialog", { name: `Forks of ${name}` });
  await expect(dialog).toBeVisible();
  const item = dialog.getByRole("list", { name: "Public forks" }).getByRole("listitem");
  await expect(item).toHaveCount(1);
  await expect(item).toContainText(`by @${forker.username.slice(1)}`);
  await expectAccessible(page);
  await shoot(page, "forks-list");
  await item.getByRole("link", { name }).click();
  await loaded(page).toHaveURL(new RegExp(`/character/${forkId}$`));

  // A creator turns forks off in the studio: the Fork button goes for everyone else.
  // Juno's open page leaves first: a request of hers in flight while Otto signs in could be answered
  // with a cookie that signs the shared context out again.
  await page.goto("about:blank");
  await signInAs(page.request, `otto-${unique()}@example.com`, "Otto");
  const ottoName = `Otto${letters()}`;
  const own = await page.request.post("/api/characters", {
    data: {
      name: ottoName,
      description: "A lighthouse keeper who keeps his stories to himself.",
      personality: "Gruff, kind underneath, never lends a book.",
    },
  });
  expect(own.status()).toBe(201);
  const closed = (await own.json()) as Character;
  await page.goto(`/edit-character/${closed.id}`);
  const allow = page.getByRole("switch", { name: "Allow forks" });
  await loaded(allow).toBeChecked();
  await allow.scrollIntoViewIfNeeded();
  await shoot(page, "studio-switch");
  await allow.click();
  await expect(allow).not.toBeChecked();
  await page.getByRole("button", { name: "Update Character" }).click();
  await loaded(page).toHaveURL(/\/my-characters$/);
  expect(((await (await page.request.get(`/api/characters/${closed.id}`)).json()) as Character).allowForks).toBe(false);
  await signInAs(page.request, `pia-${unique()}@example.com`, "Pia");
  await page.goto(`/character/${closed.id}`);
  await loaded(page.getByRole("heading", { level: 1, name: ottoName })).toBeVisible();
  await expect(page.getByRole("button", { name: "Start Chat" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Fork", exact: true })).toHaveCount(0);
});
