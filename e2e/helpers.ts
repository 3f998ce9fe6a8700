/**
 * Helpers shared by the browser tests: unique names, the local sign-in, the
 * axe check and toast lookup.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, type Route } from "@playwright/test";
import type { CurrentUser } from "../schema/api.ts";

/** A short unique string (time + randomness) for e-mails and names. */
export const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;

/** Eight random letters: a name that is one word for the catalog's prefix search. */
export const letters = () => Array.from({ length: 8 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join("");

/** Signs in with the JSON local sign-in; the page shares the request context's cookies. */
export async function signInWithApi(page: Page, firstName: string): Promise<CurrentUser> {
  const res = await page.request.post("/api/login/dev", {
    data: { email: `${firstName.toLowerCase()}-${unique()}@example.com`, firstName },
  });
  expect(res.ok()).toBe(true);
  return (await res.json()) as CurrentUser;
}

/** Signs in through the local sign-in form at /api/login, as a person would; returns the person. */
export async function signInWithForm(page: Page, firstName: string): Promise<CurrentUser> {
  await page.goto("/api/login");
  await page.getByLabel("E-mail").fill(`${firstName.toLowerCase()}-${unique()}@example.com`);
  await page.getByLabel("First name").fill(firstName);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/$/);
  return (await (await page.request.get("/api/auth/user")).json()) as CurrentUser;
}

/** axe finds no serious or critical violation on the page as it is now. */
export async function expectAccessible(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`)).toEqual([]);
}

/** A toast with exactly this text in the notifications region. */
export function toast(page: Page, text: string) {
  return page.getByRole("region", { name: /Notifications/ }).getByText(text, { exact: true });
}

const SIGN_IN_PATH = /\/api\/login$/;

/**
 * The Unauthorized flow of SPEC.md §8 as a visitor sees it: `trigger` (a
 * click, a navigation) brings the "Unauthorized" toast with `description`,
 * then the page goes to the sign-in path. The app navigates 500 ms after the
 * toast; the test holds that navigation until it has read the toast, so a slow
 * machine cannot make the toast vanish before it is checked (the old page
 * stays up while the request waits).
 */
export async function expectSentToSignIn(page: Page, trigger: () => Promise<unknown>, description: string): Promise<void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const hold = async (route: Route) => {
    await released;
    await route.continue();
  };
  await page.route(SIGN_IN_PATH, hold);
  try {
    await trigger();
    await expect(toast(page, "Unauthorized")).toBeVisible();
    await expect(toast(page, description)).toBeVisible();
  } finally {
    release();
  }
  await expect(page).toHaveURL(SIGN_IN_PATH);
  await page.unroute(SIGN_IN_PATH, hold);
}
