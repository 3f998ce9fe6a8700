/**
 * Trust and safety in Chromium (issue "Trust and safety"): people report a
 * character, a comment and a character's reply with the Report action; the
 * operator's CLI (`npm run moderation`, scripts/moderation.ts) upholds the
 * reports against this app's local state (E2E_STATE_DIR, set by
 * scripts/e2e.ts) and the content is gone from what people see; the owner
 * of a removed character sees it on My Characters and cannot reactivate it;
 * a suspended person is told so. Visitors are sent to sign in (SPEC.md §8).
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import type { Character, Comment, Report } from "../schema/api.ts";
import { MODERATED_MESSAGE_TEXT } from "../schema/chat.ts";
import { expectAccessible, expectSentToSignIn, letters, toast, unique } from "./helpers.ts";

const run = promisify(execFile);

/**
 * Budget of a test that runs the operator's CLI `calls` times: each run starts
 * `wrangler d1 execute` (its own Miniflare) once per query, a few per command,
 * which took up to a minute per command at load 18 on a 2-core machine. It
 * catches a hang; it does not time the test.
 */
const withCliCalls = (calls: number) => 90_000 + calls * 60_000;
const STATE_DIR = process.env.E2E_STATE_DIR;

/** Runs `npm run moderation -- <args>` on the e2e app's local database; returns what it printed. */
async function moderation(...args: string[]): Promise<string> {
  if (!STATE_DIR) throw new Error("E2E_STATE_DIR is not set: run the browser tests with npm run test:e2e");
  const { stdout } = await run("sh", ["scripts/node.sh", "scripts/moderation.ts", ...args, "--persist-to", STATE_DIR, "--as", "e2e"], {
    cwd: new URL("..", import.meta.url).pathname,
  });
  return stdout;
}

/** Signs in (local sign-in) as the person with `email`, creating them the first time; the page shares the cookies. */
async function signInAs(request: APIRequestContext, email: string, firstName: string) {
  const res = await request.post("/api/login/dev", { data: { email, firstName } });
  expect(res.ok()).toBe(true);
}

/** A character of the signed-in person of `request`, with a greeting (the chat's first reply) and a one-word name. */
async function createCharacter(request: APIRequestContext): Promise<Character> {
  const name = `Mara${letters()}`;
  const res = await request.post("/api/characters", {
    data: {
      name,
      description: "A lighthouse keeper for the moderation browser test.",
      personality: "Patient and dry-humoured. She counts the ships.",
      greeting: `*${name} trims the lamp.* "Storm's coming. Tea?"`,
      tags: [],
      isNsfw: false,
    },
  });
  expect(res.status()).toBe(201);
  return (await res.json()) as Character;
}

const dialog = (page: Page) => page.getByRole("dialog");
const commentArticle = (page: Page, text: string) => page.getByRole("article").filter({ has: page.getByText(text, { exact: true }) });

/** Fills the open Report dialog and sends it; returns the report the server answered with (201 new, 200 already open). */
async function sendReport(page: Page, reason: string, details: string): Promise<{ status: number; report: Report }> {
  await dialog(page).getByRole("radio", { name: reason }).check();
  if (details) await dialog(page).getByLabel("Details (Optional)").fill(details);
  const answer = page.waitForResponse((res) => new URL(res.url()).pathname === "/api/reports" && res.request().method() === "POST");
  await dialog(page).getByRole("button", { name: "Send Report" }).click();
  const res = await answer;
  await expect(toast(page, "Report sent")).toBeVisible();
  await expect(toast(page, "Thank you. Our team will review it.")).toBeVisible();
  await expect(dialog(page)).toBeHidden();
  return { status: res.status(), report: (await res.json()) as Report };
}

test("report a character and a comment, then `npm run moderation -- uphold` removes it from Home", async ({ page }) => {
  test.setTimeout(withCliCalls(4));
  // The owner makes a character and comments on it: neither shows them a Report action.
  const ownerEmail = `owner-${unique()}@example.com`;
  await signInAs(page.request, ownerEmail, "Owen");
  const character = await createCharacter(page.request);
  const commentText = `Come visit the lighthouse ${unique()}`;
  const posted = await page.request.post(`/api/characters/${character.id}/comments`, { data: { content: commentText } });
  expect(posted.ok()).toBe(true);
  const comment = (await posted.json()) as Comment;
  await page.goto(`/character/${character.id}`);
  await expect(commentArticle(page, commentText)).toBeVisible();
  // Once the page knows who this is (the user menu shows), there is nothing for them to report.
  await expect(page.getByRole("button", { name: "Owen", exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: /^Report/ })).toHaveCount(0);

  // Someone else reports both.
  await signInAs(page.request, `reporter-${unique()}@example.com`, "Rhea");
  await page.goto(`/character/${character.id}`);
  await page.getByRole("button", { name: `Report ${character.name}` }).click();
  await expect(dialog(page).getByRole("heading", { name: "Report character" })).toBeVisible();
  await expectAccessible(page);
  const first = await sendReport(page, "Spam or scam", "Advertises a paid service in the description.");
  expect(first.status).toBe(201);
  expect(first.report).toMatchObject({ targetType: "character", targetId: String(character.id), reason: "spam", status: "open" });

  // A second report of the same character is the same open report, and says so just as kindly.
  await page.getByRole("button", { name: `Report ${character.name}` }).click();
  const again = await sendReport(page, "Other", "");
  expect(again.status).toBe(200);
  expect(again.report.id).toBe(first.report.id);

  await commentArticle(page, commentText).getByRole("button", { name: `Report comment by ${comment.username}` }).click();
  await expect(dialog(page).getByRole("heading", { name: "Report comment" })).toBeVisible();
  const commentReport = await sendReport(page, "Hate or harassment", "");
  expect(commentReport.status).toBe(201);

  // The operator sees both and upholds them.
  const open = await moderation("reports");
  expect(open).toMatch(new RegExp(`^#${first.report.id}  .+  character ${character.id}  spam  by `, "m"));
  expect(open).toMatch(new RegExp(`^#${commentReport.report.id}  .+  comment ${comment.id}  hate  by `, "m"));

  expect(await moderation("uphold", String(commentReport.report.id))).toContain(`Comment ${comment.id} deleted`);
  await page.reload();
  await expect(page.getByRole("heading", { name: /^Comments \(\d+\)$/ })).toHaveText("Comments (0)");
  await expect(commentArticle(page, commentText)).toHaveCount(0);

  // Before: Home finds the character. After the uphold: neither Home nor its page shows it.
  await page.goto("/");
  await page.getByPlaceholder("Search characters...").fill(character.name);
  const card = page.getByRole("article").filter({ has: page.getByRole("link", { name: character.name, exact: true }) });
  await expect(card).toHaveCount(1);

  expect(await moderation("uphold", String(first.report.id))).toContain(`Character ${character.id} removed`);
  await page.reload();
  await page.getByPlaceholder("Search characters...").fill(character.name);
  await expect(page.getByText("No characters found matching your criteria")).toBeVisible();
  await expect(card).toHaveCount(0);
  await page.goto(`/character/${character.id}`);
  await expect(page.getByRole("heading", { name: "Character not found" })).toBeVisible();
  expect(await moderation("reports")).not.toMatch(new RegExp(`^#(${first.report.id}|${commentReport.report.id}) `, "m"));

  // Its owner still sees it on My Characters, marked, and cannot reactivate it.
  await signInAs(page.request, ownerEmail, "Owen");
  await page.goto("/my-characters");
  const mine = page.getByRole("article", { name: character.name });
  await expect(mine.getByText("Removed by moderation", { exact: true })).toBeVisible();
  const toggle = mine.getByRole("button", { name: `Activate ${character.name}` });
  await expect(toggle).toHaveAttribute("aria-disabled", "true");
  await expect(toggle).toHaveAccessibleDescription("Removed by moderation; it cannot be reactivated.");
  let toggled = false;
  page.on("request", (req) => {
    if (req.url().endsWith(`/api/characters/${character.id}/toggle-active`)) toggled = true;
  });
  // Reachable by keyboard (so its reason is heard), but pressing it sends nothing.
  await toggle.focus();
  await expect(toggle).toBeFocused();
  await page.keyboard.press("Enter");
  await page.reload();
  await expect(mine.getByText("Removed by moderation", { exact: true })).toBeVisible();
  expect(toggled).toBe(false);
  await expectAccessible(page);
  await page.goto(`/character/${character.id}`);
  await expect(page.getByText("Removed by moderation. Only you can see this character; it cannot be reactivated.")).toBeVisible();
});

test("a visitor who presses Report is told to sign in and sent to the sign-in page", async ({ page }) => {
  const list = (await (await page.request.get("/api/characters?showNsfw=false&nsfw=false&limit=1")).json()) as { characters: Character[] };
  const character = list.characters[0]!;
  await page.goto(`/character/${character.id}`);
  const report = page.getByRole("button", { name: `Report ${character.name}` });
  await expect(report).toBeVisible();
  // Once the page knows this is a visitor (until then, Report opens the dialog and the server decides).
  await expect(page.getByRole("link", { name: "Sign In" })).toBeVisible();
  await expectSentToSignIn(page, () => report.click(), "You need to log in to report. Redirecting...");
});

test("the report dialog on a phone: reachable by keyboard, counts the details, fits the screen", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await signInAs(page.request, `phone-${unique()}@example.com`, "Pia");
  const list = (await (await page.request.get("/api/characters?showNsfw=false&nsfw=false&limit=1")).json()) as { characters: Character[] };
  const character = list.characters[0]!;
  await page.goto(`/character/${character.id}`);
  await page.getByRole("button", { name: `Report ${character.name}` }).click();
  await expect(dialog(page).getByRole("heading", { name: "Report character" })).toBeVisible();
  const box = (await dialog(page).boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(375);

  // Send without a reason: the dialog says why and nothing is sent.
  await dialog(page).getByRole("button", { name: "Send Report" }).click();
  await expect(dialog(page).getByText("Choose a reason for the report", { exact: true })).toBeVisible();

  // The reasons are one radio group: arrows move through them.
  const reasons = dialog(page).getByRole("radio");
  await expect(reasons).toHaveCount(6);
  await reasons.first().focus();
  await page.keyboard.press("ArrowDown");
  await expect(dialog(page).getByRole("radio", { name: "Non-consensual or illegal content" })).toBeChecked();
  await expect(dialog(page).getByText("Choose a reason for the report", { exact: true })).toHaveCount(0);
  await page.keyboard.press("Tab");
  await expect(dialog(page).getByLabel("Details (Optional)")).toBeFocused();
  await page.keyboard.type("The scenario describes a real person.");
  await expect(dialog(page).getByText("37/1,000")).toBeVisible();
  await expectAccessible(page);

  await page.keyboard.press("Escape");
  await expect(dialog(page)).toBeHidden();
  await expect(page.getByRole("button", { name: `Report ${character.name}` })).toBeFocused();
});

test("report a character's reply in the chat; once upheld, the chat shows it was removed", async ({ page }) => {
  test.setTimeout(withCliCalls(1));
  await signInAs(page.request, `chat-${unique()}@example.com`, "Cleo");
  const character = await createCharacter(page.request);
  await page.goto(`/character/${character.id}`);
  await page.getByRole("button", { name: "Start Chat" }).click();
  await expect(page).toHaveURL(/\/chat\//);
  const greeting = page.getByRole("log").getByRole("article", { name: character.name, exact: true });
  await expect(greeting).toHaveCount(1);
  await greeting.getByRole("button", { name: "More actions" }).click();
  await page.getByRole("menuitem", { name: "Report", exact: true }).click();
  await expect(dialog(page).getByRole("heading", { name: "Report reply" })).toBeVisible();
  const { status, report } = await sendReport(page, "Sexual content involving minors", "");
  expect(status).toBe(201);
  expect(report.targetType).toBe("message");

  expect(await moderation("uphold", String(report.id))).toContain("hidden");
  // Closing the dialog gave the focus back to the menu's button.
  await expect(greeting.getByRole("button", { name: "More actions" })).toBeFocused();
  await page.reload();
  await expect(greeting).toContainText(MODERATED_MESSAGE_TEXT);
});

test("a suspended person browses as a visitor and is told why", async ({ page }) => {
  test.setTimeout(withCliCalls(1));
  const email = `suspended-${unique()}@example.com`;
  await signInAs(page.request, email, "Sid");
  const me = (await (await page.request.get("/api/auth/user")).json()) as { username: string };
  expect(await moderation("suspend", me.username)).toContain("is suspended");
  // Signing in again gives a session that is refused with the reason.
  await signInAs(page.request, email, "Sid");
  await page.goto("/");
  const sentence = "Your account has been suspended for breaking Fabled's rules. You can no longer post, chat or create characters.";
  await expect(page.getByRole("status").getByText(sentence, { exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "Sign In" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Sign out" })).toHaveAttribute("href", "/api/logout");
  await expectAccessible(page);
});
