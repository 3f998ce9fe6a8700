/**
 * Memory in Chromium (DESIGN.md "Memory", docs/decisions/0031-memory.md):
 * pin a message from its "More actions" menu and see it in the chat menu's
 * "Pinned memories", then open "Why this reply?" on a reply that recalled a
 * fact pushed out of the history window, and jump to that fact. The window
 * is made small with a site model connection of 1,024 context tokens; the
 * offline model and the offline embedder answer.
 */
import { type APIRequestContext, expect, type Locator, type Page, test } from "@playwright/test";
import type { Character } from "../schema/api.ts";
import { expectAccessible, expectChatJoined, followChatSockets, letters, signInWithApi as signIn, toast } from "./helpers.ts";


async function createCharacter(request: APIRequestContext): Promise<Character> {
  const res = await request.post("/api/characters", {
    data: {
      name: `Keeper ${letters()}`,
      description: "An innkeeper with a long memory, for the memory browser test.",
      personality: "Warm and patient.",
      scenario: "A quiet inn by the river.",
      greeting: '"Welcome in, {{user}}. Sit by the fire."',
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

async function sendAndAwaitReply(page: Page, name: string, text: string): Promise<void> {
  await expectChatJoined(page);
  const before = await characterMessages(page, name).count();
  await page.getByLabel(`Message ${name}`).fill(text);
  await page.getByLabel(`Message ${name}`).press("Enter");
  await expect(characterMessages(page, name).nth(before)).toHaveAttribute("aria-busy", "false");
}

async function chooseAction(page: Page, message: Locator, action: string): Promise<void> {
  await message.getByRole("button", { name: "More actions" }).click();
  await page.getByRole("menuitem", { name: action, exact: true }).click();
}

async function atRest(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== "running" || a.effect?.getComputedTiming().endTime === Infinity),
  );
}

const FACT = "My sister Ilse keeps bees on the roof of the old mill.";
const FILLER = [
  "We walk along the river path in silence for a while.",
  "The wind picks up and the lanterns sway above the road.",
  "A cart rattles past, loaded with turnips and cabbages.",
  "Somewhere a dog barks twice and then goes quiet.",
  "I pull my cloak tighter against the evening chill.",
  "The tavern ahead glows warm through its small windows.",
  "Let's sit by the fire and order something hot to drink.",
  "The innkeeper nods at us and wipes down a table.",
  "Rain starts tapping on the shutters, soft at first.",
  "I stretch my legs toward the hearth and sigh.",
];

test.beforeEach(({ page }) => followChatSockets(page));

test("pin a message, see it in Pinned memories, and jump from Why this reply? to a recalled message", async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, "Mira");
  const character = await createCharacter(page.request);
  // A small history window on the site's model, so the fact falls out of it and has to be recalled.
  const connection = await page.request.post("/api/model-connections", {
    data: { name: "Small window", kind: "site", model: "offline", settings: { contextTokens: 1024, maxTokens: 300 }, isDefault: true },
  });
  expect(connection.status()).toBe(201);

  await page.goto(`/character/${character.id}`);
  await page.getByRole("button", { name: "Start Chat" }).click();
  await expect(characterMessages(page, character.name)).toHaveCount(1);
  await sendAndAwaitReply(page, character.name, FACT);

  // Pin the person's own message from its menu: a toast, and the message shows a pin.
  const pinnedLine = "The innkeeper keeps a spare key under the blue flowerpot.";
  await sendAndAwaitReply(page, character.name, pinnedLine);
  const toPin = userMessages(page).nth(1);
  await chooseAction(page, toPin, "Pin to memory");
  await expect(toast(page, "Pinned")).toBeVisible();
  await expect(toPin.getByText("Pinned", { exact: true })).toBeVisible();
  // Pinned once: the menu does not offer it again.
  await toPin.getByRole("button", { name: "More actions" }).click();
  await expect(page.getByRole("menuitem", { name: "Copy" })).toBeVisible();
  await expect(page.getByRole("menuitem", { name: "Pin to memory" })).toHaveCount(0);
  await page.keyboard.press("Escape");

  // The chat menu's "Pinned memories" lists it with its scope, and takes a new one for every chat with the character.
  await page.getByRole("button", { name: "Conversation options" }).click();
  await page.getByRole("menuitem", { name: "Pinned memories" }).click();
  const panel = page.getByRole("dialog", { name: "Pinned memories" });
  const list = panel.getByRole("list", { name: "Pinned memories" });
  await expect(list.getByRole("listitem")).toHaveCount(1);
  await expect(list.getByRole("listitem").first()).toContainText(pinnedLine);
  await expect(list.getByRole("listitem").first()).toContainText("This chat");
  await panel.getByLabel("New memory").fill("Mira is afraid of deep water.");
  await panel.getByRole("radio", { name: `Every chat with ${character.name}` }).check();
  await panel.getByRole("button", { name: "Add", exact: true }).click();
  await expect(list.getByRole("listitem")).toHaveCount(2);
  await expect(list.getByRole("listitem").nth(1)).toContainText(`Every chat with ${character.name}`);
  await expect(panel.getByLabel("New memory")).toHaveValue("");
  // Edit it in place.
  await list.getByRole("listitem").nth(1).getByRole("button", { name: "Edit memory" }).click();
  await panel.getByRole("textbox", { name: "Edit memory" }).fill("Mira is afraid of deep, dark water.");
  await panel.getByRole("button", { name: "Save" }).click();
  await expect(list.getByRole("listitem").nth(1)).toContainText("Mira is afraid of deep, dark water.");
  await atRest(page);
  await expectAccessible(page);
  await page.screenshot({ path: test.info().outputPath("memory-panel-1280.png") });
  await page.setViewportSize({ width: 375, height: 800 });
  await atRest(page);
  await page.screenshot({ path: test.info().outputPath("memory-panel-375.png") });
  await page.setViewportSize({ width: 1280, height: 900 });
  // Delete it again.
  await list.getByRole("listitem").nth(1).getByRole("button", { name: "Delete memory" }).click();
  await expect(list.getByRole("listitem")).toHaveCount(1);
  await page.keyboard.press("Escape");
  await expect(panel).toHaveCount(0);

  // Enough talk to push the fact out of the window, then ask about it.
  for (const line of FILLER) await sendAndAwaitReply(page, character.name, line);
  await sendAndAwaitReply(page, character.name, "Where does Ilse keep her bees again?");

  const reply = characterMessages(page, character.name).last();
  const menuButton = reply.getByRole("button", { name: "More actions" });
  await chooseAction(page, reply, "Why this reply?");
  const why = page.getByRole("dialog", { name: "Why this reply?" });
  await expect(why.getByText("Recalled memories", { exact: true })).toBeVisible();
  await expect(why.getByText("Pinned memories", { exact: true })).toBeVisible();
  const recalled = why.getByRole("button", { name: /^Mira: My sister Ilse keeps bees/ });
  await expect(recalled).toBeVisible();
  // The raw prompt is folded until asked for, and carries the recalled fact.
  await why.getByText("Raw prompt").click();
  await expect(why.locator("pre").first()).toContainText("keeps bees on the roof of the old mill");
  await atRest(page);
  await expectAccessible(page);
  await page.screenshot({ path: test.info().outputPath("why-this-reply-1280.png") });
  await page.setViewportSize({ width: 375, height: 800 });
  await atRest(page);
  await page.screenshot({ path: test.info().outputPath("why-this-reply-375.png") });
  await page.setViewportSize({ width: 1280, height: 900 });

  // Closing gives the focus back to the reply's menu button.
  await page.keyboard.press("Escape");
  await expect(why).toHaveCount(0);
  await expect(menuButton).toBeFocused();

  // Choosing the recalled message closes the dialog and goes to it, marked.
  await chooseAction(page, reply, "Why this reply?");
  await why.getByRole("button", { name: /^Mira: My sister Ilse keeps bees/ }).click();
  await expect(why).toHaveCount(0);
  const fact = userMessages(page).filter({ hasText: FACT });
  await expect(fact).toBeFocused();
  await expect(fact).toBeInViewport();
  await expect(log(page).locator("li[data-highlighted]")).toContainText(FACT);
  await page.screenshot({ path: test.info().outputPath("jumped-1280.png") });
});
