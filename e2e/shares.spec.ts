/**
 * Share links in Chromium (DESIGN.md "Sharing and forks", issue 40): the
 * owner shares a chat from its menu ("Share" → "Create link", the link
 * copied and listed with Revoke); a visitor in another browser context
 * opens it — the story under the owner's persona name (never their
 * account's), its cast linked to the characters' pages, "Sign in
 * to continue this story" — signs in through the form, comes back to the
 * story and continues it as a chat of their own holding the snapshot. A
 * revoked link says the story is not shared any more. Screenshots at 1280
 * and 375 px. A visitor's first visit to a share loads no more JavaScript
 * than Home's budget. "Share up to here" in a message's menu makes a link
 * that ends at that message. The offline model answers.
 */
import { gzipSync } from "node:zlib";
import { expect, type Page, test } from "@playwright/test";
import type { Character } from "../schema/api.ts";
import type { Conversation } from "../schema/chat.ts";
import { expectAccessible, expectChatJoined, followChatSockets, letters, signInWithApi, unique } from "./helpers.ts";

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
/** Where the screenshots go (looked at by people, not compared). */
const SHOTS = "test-results/shares";

const capitalized = () => {
  const word = letters();
  return word[0]!.toUpperCase() + word.slice(1);
};

/**
 * The chat is live: its messages can be edited (only once the socket has
 * joined), then expectChatJoined. On a loaded machine a room's first wake in
 * `wrangler dev` can take longer than the helper's 10 s poll.
 */
async function chatReady(page: Page): Promise<void> {
  await expect(page.getByRole("button", { name: "Edit message" }).first()).toBeEnabled({ timeout: 60_000 });
  await expectChatJoined(page);
}

/** A character of the signed-in person, greeting "Another stormy night." (asserts 201). */
async function createCharacter(page: Page, name: string): Promise<Character> {
  const created = await page.request.post("/api/characters", {
    data: {
      name,
      description: `${name}, a lighthouse keeper in the share test.`,
      personality: "Patient, dry humour.",
      scenario: "A storm over the lighthouse.",
      greeting: `*${name} lights the lamp.* "Another stormy night."`,
      tags: [],
      isNsfw: false,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  return (await created.json()) as Character;
}

/**
 * In the open "Share this story" dialog: "Create link", then waits for the
 * new link to be listed first among `links` with its `messages` count and
 * shown in the link box (`{baseURL}/s/{token}`). Returns the link.
 */
async function createLink(page: Page, baseURL: string | undefined, { links, messages }: { links: number; messages: number }): Promise<string> {
  const dialog = page.getByRole("dialog", { name: "Share this story" });
  await dialog.getByRole("button", { name: "Create link" }).click();
  await expect(dialog.getByRole("listitem")).toHaveCount(links);
  await expect(dialog.getByRole("listitem").first()).toContainText(`${messages} messages`);
  const linkBox = dialog.getByRole("textbox", { name: "Share link" });
  await expect(linkBox).toHaveValue(new RegExp(`^${baseURL}/s/[A-Za-z0-9_-]{22}$`));
  return linkBox.inputValue();
}

/**
 * For the signed-in person: a new character named `name`, a chat with it,
 * opened and live (chatReady). Returns the chat.
 */
async function openNewChat(page: Page, name: string): Promise<{ character: Character; conversation: Conversation }> {
  const character = await createCharacter(page, name);
  const start = await page.request.post("/api/conversations", { data: { characterId: character.id } });
  expect(start.status()).toBe(201);
  const conversation = (await start.json()) as Conversation;
  followChatSockets(page);
  await page.goto(`/chat/${conversation.id}`);
  await chatReady(page);
  return { character, conversation };
}

async function openMenuItem(page: Page, item: string): Promise<void> {
  await page.getByRole("button", { name: "Conversation options" }).click();
  await page.getByRole("menuitem", { name: item, exact: true }).click();
}

test("share a chat from its menu, read it signed out, sign in and continue it as one's own chat", async ({ page, browser, baseURL }) => {
  test.setTimeout(240_000);
  const ownerName = capitalized();
  await signInWithApi(page, ownerName);
  // The owner plays a persona: the share names them by it, never by their account.
  const personaName = `Captain ${capitalized()}`;
  const persona = await page.request.post("/api/personas", { data: { name: personaName, description: "Keeps the logbook.", isDefault: true } });
  expect(persona.status()).toBe(201);
  const name = capitalized();
  const { character, conversation } = await openNewChat(page, name);
  const line = `The ship ${unique()} is late tonight.`;
  await page.getByRole("textbox", { name: /^Message / }).fill(line);
  await page.getByRole("button", { name: "Send message" }).click();
  // The reply is stored once Regenerate shows under it.
  await expect(page.getByRole("button", { name: "Regenerate" })).toBeVisible();

  // Share from the menu: a link, copied and listed with Revoke.
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await openMenuItem(page, "Share");
  const dialog = page.getByRole("dialog", { name: "Share this story" });
  await expect(dialog.getByText("No links yet.")).toBeVisible();
  const link = await createLink(page, baseURL, { links: 1, messages: 3 });
  await expect(dialog.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  await expectAccessible(page);
  await page.screenshot({ path: `${SHOTS}/share-dialog-1280.png` });
  await dialog.getByRole("button", { name: "Done" }).click();

  // A visitor opens it: the story, the cast linked to the character's page, and a way to continue.
  const readerContext = await browser.newContext({ baseURL });
  const reader = await readerContext.newPage();
  await reader.goto(link);
  await expect(reader.getByRole("heading", { name: `Chat with ${name}` })).toBeVisible();
  await expect(reader.getByText(`Shared by ${personaName}`)).toBeVisible();
  await expect(reader.getByText(ownerName)).toHaveCount(0);
  const messages = reader.getByRole("list", { name: "Messages" });
  await expect(messages.getByRole("listitem")).toHaveCount(3);
  await expect(messages).toContainText("Another stormy night.");
  await expect(messages).toContainText(line);
  await expect(messages.getByText(personaName, { exact: true })).toBeVisible();
  await expect(reader.getByRole("link", { name }).first()).toHaveAttribute("href", `/character/${character.id}`);
  const signInLink = reader.getByRole("link", { name: "Sign in to continue this story" }).first();
  await expect(signInLink).toHaveAttribute("href", `/api/login?returnTo=${encodeURIComponent(new URL(link).pathname)}`);
  await expectAccessible(reader);
  await reader.screenshot({ path: `${SHOTS}/story-visitor-1280.png`, fullPage: true });
  await reader.setViewportSize({ width: 375, height: 800 });
  await reader.screenshot({ path: `${SHOTS}/story-visitor-375.png`, fullPage: true });
  await reader.setViewportSize({ width: 1280, height: 900 });

  // Signing in comes back to the story; continuing opens a chat of the reader's own holding it.
  await signInLink.click();
  const readerName = capitalized();
  await reader.getByLabel("E-mail").fill(`${readerName.toLowerCase()}-${unique()}@example.com`);
  await reader.getByLabel("First name").fill(readerName);
  await reader.getByRole("button", { name: "Sign in" }).click();
  await expect(reader).toHaveURL(link);
  followChatSockets(reader);
  await reader.getByRole("button", { name: "Continue this story" }).first().click();
  await expect(reader).toHaveURL(new RegExp(`/chat/${UUID}$`));
  expect(reader.url()).not.toContain(conversation.id);
  await chatReady(reader);
  await expect(reader.getByRole("log")).toContainText(line);
  await expect(reader.getByRole("log")).toContainText("Another stormy night.");
  await reader.screenshot({ path: `${SHOTS}/continued-1280.png` });

  // The owner revokes the link: it leads nowhere.
  await openMenuItem(page, "Share");
  await page.getByRole("dialog", { name: "Share this story" }).getByRole("button", { name: /^Revoke link shared / }).click();
  await expect(page.getByRole("dialog", { name: "Share this story" }).getByText("No links yet.")).toBeVisible();
  const visitor = await browser.newContext({ baseURL });
  const gone = await visitor.newPage();
  await gone.goto(link);
  await expect(gone.getByRole("heading", { name: "This story is not shared any more" })).toBeVisible();
  await visitor.close();
  await readerContext.close();
});

test("share a chat up to a message from that message's menu: the link ends there", async ({ page, browser, baseURL }) => {
  test.setTimeout(180_000);
  await signInWithApi(page, capitalized());
  const name = capitalized();
  await openNewChat(page, name);
  const log = page.getByRole("log");
  const replies = log.getByRole("article", { name, exact: true });
  const kept = `Kept line ${unique()}.`;
  const later = `Later line ${unique()}.`;
  for (const [index, text] of [kept, later].entries()) {
    await page.getByRole("textbox", { name: /^Message / }).fill(text);
    await page.getByRole("button", { name: "Send message" }).click();
    await expect(replies).toHaveCount(index + 2);
    await expect(replies.nth(index + 1)).toHaveAttribute("aria-busy", "false");
  }
  const firstReply = replies.nth(1);
  const firstReplyText = ((await firstReply.locator("[data-message-text]").textContent()) ?? "").replace(/\s+/g, " ").trim();

  // The first reply's menu: "Share up to here" opens Share quoting where the story ends.
  await firstReply.getByRole("button", { name: "More actions" }).click();
  await page.getByRole("menuitem", { name: "Share up to here", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Share this story" });
  const end = dialog.getByRole("figure", { name: "The story ends at" });
  await expect(end).toContainText(`Ends at ${name}`);
  await expect(end.getByRole("blockquote")).toContainText(firstReplyText.slice(0, 40));
  await expectAccessible(page);
  await page.screenshot({ path: `${SHOTS}/share-up-to-1280.png` });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: `${SHOTS}/share-up-to-375.png` });
  await page.setViewportSize({ width: 1280, height: 900 });
  // Greeting, the kept line and its reply: the later exchange is not in it.
  const link = await createLink(page, baseURL, { links: 1, messages: 3 });
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(dialog).toBeHidden();
  // The focus is back on the message's menu button.
  await expect(firstReply.getByRole("button", { name: "More actions" })).toBeFocused();

  // "Share the whole chat instead" goes back to a link of everything.
  await firstReply.getByRole("button", { name: "More actions" }).click();
  await page.getByRole("menuitem", { name: "Share up to here", exact: true }).click();
  await dialog.getByRole("button", { name: "Share the whole chat instead" }).click();
  await expect(dialog.getByRole("figure", { name: "The story ends at" })).toHaveCount(0);
  await createLink(page, baseURL, { links: 2, messages: 5 });
  await dialog.getByRole("button", { name: "Done" }).click();

  // A visitor reads the first link: it ends at the chosen reply.
  const visitorContext = await browser.newContext({ baseURL });
  const visitor = await visitorContext.newPage();
  await visitor.goto(link);
  const messages = visitor.getByRole("list", { name: "Messages" });
  await expect(messages.getByRole("listitem")).toHaveCount(3);
  await expect(messages).toContainText(kept);
  await expect(messages.getByRole("listitem").last()).toContainText(firstReplyText.slice(0, 40));
  await expect(messages).not.toContainText(later);
  await visitorContext.close();
});

test("a picture imagined in the chat is on the share page for a visitor, at its own size, with its prompt", async ({ page, browser, baseURL }) => {
  test.setTimeout(180_000);
  await signInWithApi(page, capitalized());
  const name = capitalized();
  await openNewChat(page, name);
  const prompt = `A lighthouse beam over a night sea ${unique()}`;
  await page.getByRole("button", { name: "Imagine", exact: true }).click();
  const imagine = page.getByRole("dialog", { name: "Imagine the scene" });
  await imagine.getByLabel("Describe the picture (optional)").fill(prompt);
  await imagine.getByRole("button", { name: "Imagine" }).click();
  await expect(page.getByRole("log").getByRole("img", { name: `Picture: ${prompt}` })).toBeVisible({ timeout: 30_000 });
  const line = `After the picture ${unique()}.`;
  await page.getByRole("textbox", { name: /^Message / }).fill(line);
  await page.getByRole("button", { name: "Send message" }).click();
  await expect(page.getByRole("button", { name: "Regenerate" })).toBeVisible();

  await openMenuItem(page, "Share");
  // The greeting, the picture, the line and its reply.
  const link = await createLink(page, baseURL, { links: 1, messages: 4 });

  const visitorContext = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } });
  const visitor = await visitorContext.newPage();
  await visitor.goto(link);
  const messages = visitor.getByRole("list", { name: "Messages" });
  await expect(messages.getByRole("listitem")).toHaveCount(4);
  const picture = messages.getByRole("img", { name: `Picture: ${prompt}` });
  await picture.scrollIntoViewIfNeeded();
  await expect(picture).toBeVisible();
  await expect(picture).toHaveAttribute("src", new RegExp(`^/objects/shares/[A-Za-z0-9_-]{22}/1$`));
  await expect(picture).toHaveAttribute("loading", "lazy");
  await expect(picture).toHaveAttribute("width", "768");
  await expect(picture).toHaveAttribute("height", "768");
  await expect(picture).toHaveJSProperty("complete", true);
  expect(await picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(768);
  await expect(messages.getByRole("figure", { name: `${name}: picture` })).toContainText(prompt);
  // The picture comes after the greeting and before the line, as in the chat.
  await expect(messages.getByRole("listitem").nth(1).getByRole("img")).toHaveCount(1);
  await expect(messages.getByRole("listitem").nth(2)).toContainText(line);
  await expectAccessible(visitor);
  await visitor.screenshot({ path: `${SHOTS}/story-picture-1280.png`, fullPage: true });
  await visitor.setViewportSize({ width: 375, height: 800 });
  await picture.scrollIntoViewIfNeeded();
  await visitor.screenshot({ path: `${SHOTS}/story-picture-375.png` });
  const box = await picture.boundingBox();
  expect(box!.width).toBeLessThanOrEqual(375);
  expect(Math.abs(box!.width - box!.height)).toBeLessThanOrEqual(1);
  await visitorContext.close();
});

/** Home's first-visit budget, gzipped bytes (docs/decisions/0004-first-visit-budget.md, e2e/first-hour-chats.spec.ts). */
const FIRST_VISIT_JS_BUDGET = 140 * 1024;

test("a visitor's first visit to a shared story loads no more JavaScript than Home's budget", async ({ page, browser, baseURL }) => {
  await signInWithApi(page, capitalized());
  const character = await createCharacter(page, capitalized());
  const start = await page.request.post("/api/conversations", { data: { characterId: character.id } });
  const conversation = (await start.json()) as Conversation;
  const shared = await page.request.post(`/api/conversations/${conversation.id}/shares`, { data: {} });
  expect(shared.status()).toBe(201);
  const { url } = (await shared.json()) as { url: string };

  const visitorContext = await browser.newContext({ baseURL });
  const visitor = await visitorContext.newPage();
  // Every script the page fetches, measured as the browser got it (gzipped as the server's compression would).
  const scripts = new Map<string, number>();
  let pending = 0;
  visitor.on("request", (request) => {
    if (request.resourceType() === "script") pending++;
  });
  visitor.on("requestfailed", (request) => {
    if (request.resourceType() === "script") pending--;
  });
  visitor.on("response", async (response) => {
    if (response.request().resourceType() !== "script") return;
    scripts.set(new URL(response.url()).pathname, gzipSync(await response.body()).length);
    pending--;
  });
  await visitor.goto(url);
  await expect(visitor.getByRole("list", { name: "Messages" })).toContainText("Another stormy night.");
  await visitor.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve)));
  await expect.poll(() => pending).toBe(0);
  const total = [...scripts.values()].reduce((sum, size) => sum + size, 0);
  const listing = [...scripts].map(([path, size]) => `${path} ${(size / 1024).toFixed(1)} KB`).join("\n");
  console.log(`first visit to a share: ${scripts.size} scripts, ${(total / 1024).toFixed(1)} KB gzipped\n${listing}`);
  expect(total, `first visit scripts:\n${listing}`).toBeLessThanOrEqual(FIRST_VISIT_JS_BUDGET);
  await visitorContext.close();
});
