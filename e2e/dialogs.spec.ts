/**
 * Every dialog gives the focus back to the control that opened it, on
 * Escape and on its close button (WAI-ARIA's dialog pattern; issue 41): the
 * chat menu's dialogs (Model, Persona, People, Invite people, Author's note,
 * Add character) go back to the menu's button, "Start group chat" on a
 * character's page to that button. Walked by keyboard, as a person would.
 */
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import type { Character } from "../schema/api.ts";
import { expectChatJoined, followChatSockets, letters, signInWithApi as signIn } from "./helpers.ts";

async function createCharacter(request: APIRequestContext): Promise<Character> {
  const word = letters();
  const name = word[0]!.toUpperCase() + word.slice(1);
  const res = await request.post("/api/characters", {
    data: {
      name,
      description: `${name}, a lighthouse keeper for the dialogs browser test.`,
      personality: "Quiet and watchful.",
      scenario: "A lighthouse on a stormy coast.",
      greeting: `*${name} trims the wick.* "Storm tonight."`,
      tags: [],
      isNsfw: false,
    },
  });
  expect(res.status()).toBe(201);
  return (await res.json()) as Character;
}

const focusedName = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.getAttribute("aria-label") ?? document.activeElement?.textContent?.trim() ?? "");

/** Opens the chat menu by keyboard and chooses `item`; the dialog shows. */
async function openFromMenu(page: Page, item: RegExp): Promise<void> {
  const menuButton = page.getByRole("button", { name: "Conversation options" });
  await menuButton.focus();
  await page.keyboard.press("Enter");
  await page.getByRole("menuitem", { name: item }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
}

test("each dialog of the chat menu and Start group chat gives the focus back to its opener, on Escape and on close", async ({ page }) => {
  test.setTimeout(120_000);
  followChatSockets(page);
  await signIn(page, "Ines");
  const character = await createCharacter(page.request);
  await page.goto(`/character/${character.id}`);

  // Start group chat, on the character's page.
  const startGroup = page.getByRole("button", { name: "Start group chat" });
  await startGroup.click();
  await expect(page.getByRole("dialog", { name: "Start a group chat" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(startGroup).toBeFocused();
  // By keyboard too.
  await startGroup.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("dialog", { name: "Start a group chat" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(startGroup).toBeFocused();

  await page.getByRole("button", { name: "Start Chat" }).click();
  await expect(page).toHaveURL(/\/chat\//);
  await expectChatJoined(page);
  const menuButton = page.getByRole("button", { name: "Conversation options" });
  for (const item of [/^Model/, /^Persona/, /^People/, /^Invite people/, /^Author's note/, /^Add character/]) {
    await openFromMenu(page, item);
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(menuButton, `${item} on Escape (focus on "${await focusedName(page)}")`).toBeFocused();
    if (String(item) === String(/^Add character/)) continue;

    await openFromMenu(page, item);
    await page.getByRole("dialog").getByRole("button", { name: /^(Close|Cancel|Done)$/ }).first().click();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(menuButton, `${item} on close (focus on "${await focusedName(page)}")`).toBeFocused();
  }
});

test("the character page's buttons stay in their column at 1280 and 375 px", async ({ page }) => {
  await signIn(page, "Jory");
  const character = await createCharacter(page.request);
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/character/${character.id}`);
    const row = page.getByTestId("character-actions");
    await expect(row.getByRole("button", { name: "Start Chat" })).toBeVisible();
    const column = (await row.boundingBox())!;
    for (const button of await row.getByRole("button").all()) {
      const box = (await button.boundingBox())!;
      expect(box.x + box.width, `${await button.textContent()} at ${width} px`).toBeLessThanOrEqual(column.x + column.width + 0.5);
    }
    await page.screenshot({ path: `test-results/dead-ends/character-${width}.png` });
  }
});

test("the cast panel's reply order stays in view at 800 px high, with a full cast, at 1280 and 375 px", async ({ page }) => {
  await signIn(page, "Kasi");
  const members: Character[] = [];
  for (let i = 0; i < 8; i++) members.push(await createCharacter(page.request));
  const created = await page.request.post("/api/conversations", { data: { characterIds: members.map((m) => m.id) } });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto(`/chat/${id}`);
    await page.getByRole("button", { name: "Cast", exact: true }).click();
    const cast = page.getByRole("dialog", { name: "Cast" });
    for (const order of [/^Natural/, /^List/, /^Manual/]) await expect(cast.getByRole("radio", { name: order })).toBeInViewport({ ratio: 1 });
    await expect(cast.getByRole("button", { name: "Done" })).toBeInViewport({ ratio: 1 });
    await cast.getByRole("radio", { name: /^Manual/ }).click();
    await expect(cast.getByRole("radio", { name: /^Manual/ })).toBeChecked();
    await page.screenshot({ path: `test-results/dead-ends/cast-${width}.png` });
    await cast.getByRole("radio", { name: /^Natural/ }).click();
    await expect(cast.getByRole("radio", { name: /^Natural/ })).toBeChecked();
    await page.keyboard.press("Escape");
  }
});
