/**
 * Your account, your data (DESIGN.md turn 4) in Chromium, on /profile:
 * "Download my data" saves a zip that unzips to the person's data (and a
 * second one within a minute is refused in words); "Signed-in devices"
 * lists each browser the person signed in with, signs one out; "Delete
 * account" asks for the username, then every browser of theirs is signed
 * out. Screenshots at 1280 and 375 px.
 */
import { readFile } from "node:fs/promises";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { strFromU8, unzipSync } from "fflate";
import type { CurrentUser } from "../schema/api.ts";
import { expectAccessible, toast, unique } from "./helpers.ts";

/** Signs `page` in as the person with `email` (the same e-mail is the same person, in another session). */
async function signInAs(page: Page, email: string, firstName: string): Promise<CurrentUser> {
  const res = await page.request.post("/api/login/dev", { data: { email, firstName } });
  expect(res.ok()).toBe(true);
  return (await res.json()) as CurrentUser;
}

async function newBrowserOf(browser: Browser, email: string, firstName: string, userAgent: string) {
  const context = await browser.newContext({ userAgent });
  const page = await context.newPage();
  await signInAs(page, email, firstName);
  return { context, page };
}

const FIREFOX_ON_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0";
const SAFARI_ON_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";

test.setTimeout(180_000);

test("Download my data saves a zip of the person's data; a second one within a minute is refused in words", async ({ page }) => {
  const user = await signInAs(page, `dana-${unique()}@example.com`, "Dana");
  await page.goto("/profile");
  const section = page.getByRole("region", { name: "Your data" });
  // The profile page's chunk can take a while on a busy machine.
  await expect(section.getByRole("heading", { name: "Download my data" })).toBeVisible({ timeout: 30_000 });

  const [download] = await Promise.all([page.waitForEvent("download"), section.getByRole("button", { name: "Download my data" }).click()]);
  expect(download.suggestedFilename()).toMatch(/^fabled-.+-\d{4}-\d{2}-\d{2}\.zip$/);
  const files = unzipSync(new Uint8Array(await readFile((await download.path())!)));
  expect(Object.keys(files)).toEqual(expect.arrayContaining(["README.txt", "profile.json", "personas.json", "model-connections.json"]));
  expect(JSON.parse(strFromU8(files["profile.json"]!))).toMatchObject({ id: user.id, username: user.username, firstName: "Dana" });
  await expect(toast(page, "Download started")).toBeVisible();

  await section.getByRole("button", { name: "Download my data" }).click();
  await expect(toast(page, "Please wait a moment")).toBeVisible();
});

test("signed-in devices: each browser listed, one signed out; Delete account asks for the username and signs out everywhere", async ({ browser, page }) => {
  const email = `ezra-${unique()}@example.com`;
  const user = await signInAs(page, email, "Ezra");
  const laptop = await newBrowserOf(browser, email, "Ezra", FIREFOX_ON_WINDOWS);
  const phone = await newBrowserOf(browser, email, "Ezra", SAFARI_ON_IPHONE);

  await page.goto("/profile");
  const devices = page.getByRole("list", { name: "Signed-in devices" });
  await expect(devices.getByRole("listitem")).toHaveCount(3, { timeout: 30_000 });
  await expect(devices.getByRole("listitem").first().getByText("This device")).toBeVisible();
  await expect(devices.getByRole("listitem", { name: "Firefox on Windows" })).toContainText("Last seen");
  await expect(devices.getByRole("listitem", { name: "Safari on iOS" })).toBeVisible();
  await expectAccessible(page);

  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.getByRole("region", { name: "Signed-in devices" }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath(`account-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  // The lost phone is signed out: gone from the list, its next request is a visitor's.
  await devices.getByRole("button", { name: "Sign out Safari on iOS" }).click();
  await expect(toast(page, "Signed out")).toBeVisible();
  await expect(devices.getByRole("listitem")).toHaveCount(2);
  expect((await phone.page.request.get("/api/auth/user")).status()).toBe(401);

  // Delete: the button waits for the username.
  await page.getByRole("button", { name: "Delete account" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Delete your account?" });
  const confirm = dialog.getByRole("button", { name: "Delete my account" });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(`Type ${user.username} to confirm`).fill("@someone_else");
  await expect(confirm).toBeDisabled();
  await page.screenshot({ path: test.info().outputPath("delete-dialog-1280.png") });
  await dialog.getByLabel(`Type ${user.username} to confirm`).fill(user.username);
  await confirm.click();

  await expect(page).toHaveURL(/\/$/);
  await expect(toast(page, "Account deleted")).toBeVisible();
  await expect(page.getByRole("link", { name: "Sign In" }).first()).toBeVisible();
  // Signed out everywhere: the laptop's next page is a visitor's, and its profile sends it home.
  expect((await laptop.page.request.get("/api/auth/user")).status()).toBe(401);
  await laptop.page.goto("/profile");
  await expect(laptop.page).toHaveURL(/\/$/);
  await laptop.context.close();
  await phone.context.close();
});
