/**
 * Helpers shared by the browser tests: unique names, the local sign-in, the
 * axe check and toast lookup.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";
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

/** Texts of the toasts each page has shown, across its navigations. */
const toastLogs = new WeakMap<Page, string[]>();

/**
 * Starts recording, on `page` and every document it loads from now on, the
 * text of each toast put into the notifications region (title and description
 * run together), as it appears. A toast shown for a moment before the page
 * navigates away is still recorded; polling the page could miss it.
 */
async function recordToasts(page: Page): Promise<string[]> {
  const known = toastLogs.get(page);
  if (known) return known;
  const log: string[] = [];
  toastLogs.set(page, log);
  await page.exposeFunction("__fabledToastShown", (text: string) => log.push(text));
  const observe = () => {
    const report = (window as unknown as { __fabledToastShown: (text: string) => void }).__fabledToastShown;
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of Array.from(record.addedNodes)) {
          const text = node.textContent?.trim();
          if (text && node instanceof Element && node.closest('[role="region"][aria-label^="Notifications"]')) report(text);
        }
      }
    }).observe(document, { childList: true, subtree: true });
  };
  await page.addInitScript(observe);
  await page.evaluate(observe);
  return log;
}

/**
 * The Unauthorized flow of SPEC.md §8 as a visitor sees it: `trigger` (a
 * click, a navigation) brings the "Unauthorized" toast with `description`,
 * then the page goes to the sign-in path. The app navigates 500 ms after
 * showing the toast, less than Playwright's later polling intervals, so the
 * toast is recorded as it appears (see recordToasts) rather than polled for.
 */
export async function expectSentToSignIn(page: Page, trigger: () => Promise<unknown>, description: string): Promise<void> {
  const toasts = await recordToasts(page);
  const before = toasts.length;
  await trigger();
  await expect(page).toHaveURL(SIGN_IN_PATH);
  // The page reports each toast through a binding call, which may land just after the navigation.
  await expect.poll(() => toasts.slice(before)).toContain(`Unauthorized${description}`);
}
