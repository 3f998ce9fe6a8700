/**
 * The dead ends a newcomer met (issue 41), in Chromium: a chat that is gone
 * for the person (deleted while open) turns read-only at once with one line
 * and a way back to My Chats; a chat that ends on the person's message (a
 * branch from it, a manual-order group) offers "Generate reply"; a branch is
 * titled after its source and My Chats search finds a chat by any of its
 * messages, opening it at the one that matched. The offline model answers.
 */
import { type APIRequestContext, expect, type Locator, type Page, test } from "@playwright/test";
import type { Character } from "../schema/api.ts";
import type { Conversation } from "../schema/chat.ts";
import { expectAccessible, expectChatJoined, followChatSockets, letters, signInWithApi as signIn, toast } from "./helpers.ts";

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const CHAT_URL = new RegExp(`/chat/(${UUID})$`);
/** Where the screenshots go (looked at by people, not compared). */
const SHOTS = "test-results/dead-ends";

async function createCharacter(request: APIRequestContext): Promise<Character> {
  const word = letters();
  const name = word[0]!.toUpperCase() + word.slice(1);
  const res = await request.post("/api/characters", {
    data: {
      name,
      description: `${name}, a ferryman for the dead-ends browser test. She is patient.`,
      personality: "Patient and dry.",
      scenario: "A river crossing at dusk.",
      greeting: `*${name} unties the boat.* "Going across?"`,
      tags: [],
      isNsfw: false,
    },
  });
  expect(res.status()).toBe(201);
  return (await res.json()) as Character;
}

const log = (page: Page) => page.getByRole("log");
const characterMessages = (page: Page, name: string) => log(page).getByRole("article", { name, exact: true });
const userMessages = (page: Page) => log(page).getByRole("article", { name: "You", exact: true });
const composer = (page: Page) => page.getByRole("textbox", { name: /^Message / });
const generateReply = (page: Page) => page.getByRole("button", { name: "Generate reply" });

/**
 * `over` (a toast) covers none of `controls`, by their boxes on the screen
 * once the toast has come to rest: it slides in from the bottom edge, so
 * while its entrance runs it passes over the composer on its way up.
 */
async function expectClear(page: Page, over: Locator, controls: Locator[]): Promise<void> {
  const item = over.locator("xpath=ancestor-or-self::li[1]");
  await item.evaluate((element) => Promise.all(element.getAnimations({ subtree: true }).map((animation) => animation.finished)));
  const box = (await item.boundingBox())!;
  for (const control of controls) {
    const other = (await control.first().boundingBox())!;
    const overlaps = box.x < other.x + other.width && other.x < box.x + box.width && box.y < other.y + other.height && other.y < box.y + box.height;
    expect(overlaps, `the toast covers ${String(control)} at ${page.viewportSize()?.width} px`).toBe(false);
  }
}

async function sendAndAwaitReply(page: Page, name: string, text: string): Promise<void> {
  const before = await characterMessages(page, name).count();
  await composer(page).fill(text);
  await composer(page).press("Enter");
  await expect(characterMessages(page, name).nth(before)).toHaveAttribute("aria-busy", "false");
}

test("a chat deleted while open turns read-only at once: one line, a way back, nothing to send or ask for", async ({ page }) => {
  followChatSockets(page);
  await signIn(page, "Wren");
  const character = await createCharacter(page.request);
  const created = await page.request.post("/api/conversations", { data: { characterId: character.id } });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as Conversation;
  await page.goto(`/chat/${id}`);
  await expectChatJoined(page);
  await sendAndAwaitReply(page, character.name, "How deep is the river?");
  await expect(page.getByRole("button", { name: "Regenerate" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Continue" })).toBeVisible();

  // Deleted from elsewhere (another tab, My Chats on a phone).
  expect((await page.request.delete(`/api/conversations/${id}`)).status()).toBe(204);
  const notice = page.getByRole("status").filter({ hasText: "This chat was deleted." });
  await expect(notice).toBeVisible();
  await expect(composer(page)).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Send message" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Regenerate" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Continue" })).toHaveCount(0);
  await expect(generateReply(page)).toHaveCount(0);
  // What was said stays to read; its menu keeps only what changes nothing.
  await expect(userMessages(page)).toHaveText(["How deep is the river?"]);
  await userMessages(page).getByRole("button", { name: "More actions" }).click();
  await expect(page.getByRole("menuitem", { name: "Copy" })).toBeVisible();
  await expect(page.getByRole("menuitem", { name: "Branch from here" })).toBeDisabled();
  await expect(page.getByRole("menuitem", { name: "Edit" })).toHaveCount(0);
  await expect(page.getByRole("menuitem", { name: "Delete", exact: true })).toHaveCount(0);
  await page.keyboard.press("Escape");
  await expectAccessible(page);
  await page.screenshot({ path: `${SHOTS}/deleted-1280.png` });
  await page.setViewportSize({ width: 375, height: 740 });
  await page.screenshot({ path: `${SHOTS}/deleted-375.png` });
  await notice.getByRole("link", { name: "Back to My Chats" }).click();
  await expect(page).toHaveURL(/\/chats$/);
});

test("a branch from the person's own message: titled after its source, Generate reply answers it; My Chats search finds a chat by any of its messages", async ({ page }) => {
  followChatSockets(page);
  await signIn(page, "Odile");
  const character = await createCharacter(page.request);
  await page.goto(`/character/${character.id}`);
  await page.getByRole("button", { name: "Start Chat" }).click();
  await expect(page).toHaveURL(CHAT_URL);
  const sourceId = CHAT_URL.exec(page.url())![1]!;
  await expectChatJoined(page);
  // The greeting answers nothing: nothing to generate yet.
  await expect(generateReply(page)).toHaveCount(0);
  await sendAndAwaitReply(page, character.name, "Take me to the lantern island.");

  await userMessages(page).getByRole("button", { name: "More actions" }).click();
  await page.getByRole("menuitem", { name: "Branch from here", exact: true }).click();
  await expect(toast(page, "Branched")).toBeVisible();
  await expect(page).not.toHaveURL(new RegExp(sourceId));
  await expectChatJoined(page);
  // The toast sits above the composer, never over Send or the voice switch.
  await expectClear(page, toast(page, "Branched"), [page.getByRole("button", { name: "Send message" }), composer(page), page.getByRole("switch")]);
  await expect(userMessages(page)).toHaveText(["Take me to the lantern island."]);
  await expect(characterMessages(page, character.name)).toHaveCount(1);
  // It ends on the person's message: no Regenerate, but a reply can be asked for without typing.
  await expect(page.getByRole("button", { name: "Regenerate" })).toHaveCount(0);
  await expect(generateReply(page)).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: `${SHOTS}/generate-reply-1280.png` });
  await generateReply(page).click();
  await expect(characterMessages(page, character.name)).toHaveCount(2);
  await expect(characterMessages(page, character.name).nth(1)).toHaveAttribute("aria-busy", "false");
  await expect(generateReply(page)).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Regenerate" })).toBeVisible();

  // My Chats tells the branch from its source; search finds a chat by its last message.
  await page.goto("/chats");
  const rows = page.getByRole("main").getByRole("listitem");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText(`Chat with ${character.name} (branch)`);
  await expect(rows.nth(1)).toContainText(`Chat with ${character.name}`);
  await expect(rows.nth(1)).not.toContainText("(branch)");
  const search = page.getByRole("searchbox", { name: "Search your chats" });
  await expect(search).toHaveAttribute("placeholder", "Search by title, character or message");
  // Words said earlier in a chat find it too: the greeting's, in the source and in the branch, shown with the words marked.
  await search.fill("going across");
  await expect(rows).toHaveCount(2);
  for (const row of await rows.all()) {
    await expect(row.locator("mark")).toHaveText("Going across");
    await expect(row).toContainText("Found in a message:");
  }
  await page.screenshot({ path: `${SHOTS}/search-messages-1280.png` });
  // Opening a result shows the chat at the message that matched.
  await rows.filter({ hasNotText: "(branch)" }).getByRole("link").first().click();
  await expect(page).toHaveURL(new RegExp(`/chat/${sourceId}\\?message=`));
  await expect(page.locator(":focus")).toContainText("Going across?");
  await page.goBack();
  await expect(search).toHaveValue("going across");
  // Words said nowhere find nothing.
  await search.fill("marmalade zeppelin");
  await expect(page.getByRole("status").filter({ hasText: "No chats match" })).toBeVisible();
  await expect(rows).toHaveCount(0);
  const preview = (await (await page.request.get(`/api/conversations/${sourceId}`)).json()) as Conversation;
  // A run of its words as written (no punctuation, so nothing in between).
  const words = ((preview.lastMessagePreview ?? "").match(/[\p{L} ]{12,}/u)?.[0] ?? "").trim();
  expect(words.length).toBeGreaterThanOrEqual(10);
  await search.fill(words);
  await expect(rows.filter({ hasText: `Chat with ${character.name}` }).first()).toBeVisible();
  await expect(rows.filter({ hasNotText: words })).toHaveCount(0);
});

test("a manual-order group: the person's message waits, Generate reply lets the order choose who answers", async ({ page }) => {
  followChatSockets(page);
  await signIn(page, "Pim");
  const ana = await createCharacter(page.request);
  const bo = await createCharacter(page.request);
  const created = await page.request.post("/api/conversations", { data: { characterIds: [ana.id, bo.id] } });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as Conversation;
  expect((await page.request.patch(`/api/conversations/${id}`, { data: { replyOrder: "manual" } })).status()).toBe(200);
  await page.goto(`/chat/${id}`);
  await expectChatJoined(page);
  const replies = log(page).getByRole("article");
  // The two greetings.
  await expect(replies).toHaveCount(2);
  const before = 2;
  await composer(page).fill("Who rows tonight?");
  await composer(page).press("Enter");
  await expect(userMessages(page)).toHaveText(["Who rows tonight?"]);
  // Nobody answers on their own in the manual order; the button asks for a reply.
  await expect(generateReply(page)).toBeVisible();
  await generateReply(page).click();
  await expect(replies).toHaveCount(before + 2);
  await expect(replies.last()).toHaveAttribute("aria-busy", "false");
  await expect(replies.last()).toHaveAccessibleName(new RegExp(`^(${ana.name}|${bo.name})$`));
  await expect(generateReply(page)).toHaveCount(0);
  await page.setViewportSize({ width: 375, height: 740 });
  await page.screenshot({ path: `${SHOTS}/group-375.png` });
});
