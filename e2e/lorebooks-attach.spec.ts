/**
 * Attaching lorebooks in Chromium (DESIGN.md turn 4 "Lorebooks"): from the
 * chat menu's "Lorebooks" a person ticks their book for the chat (the focus
 * goes back to the menu's button), mentions the lantern its entry is keyed
 * on, and "Why this reply?" names the entry, its book and the key that
 * fired it, and the reply's prompt shows it;
 * in the studio they attach two books to their character, put the second
 * first, and find both in that order after a reload. At 1280 and 375 px
 * wide, axe clean. The offline model answers.
 */
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import type { Character } from "../schema/api.ts";
import type { ChatMessage } from "../schema/chat.ts";
import type { LorebookRecord } from "../schema/lorebook/book.ts";
import { expectAccessible, expectChatJoined, followChatSockets, letters, signInWithApi as signIn, toast } from "./helpers.ts";

async function createCharacter(request: APIRequestContext): Promise<Character> {
  const res = await request.post("/api/characters", {
    data: {
      name: `Wick ${letters()}`,
      description: "A lamplighter of the old quarter, for the lorebook browser test.",
      personality: "Quiet, careful, fond of old stories.",
      scenario: "Dusk in the old quarter.",
      greeting: '"Evening, {{user}}. The lamps want lighting."',
      tags: [],
      isNsfw: false,
    },
  });
  expect(res.status()).toBe(201);
  return (await res.json()) as Character;
}

async function createBook(request: APIRequestContext, name: string, entries: unknown[]): Promise<LorebookRecord> {
  const res = await request.post("/api/lorebooks", { data: { name, entries } });
  expect(res.status()).toBe(201);
  return (await res.json()) as LorebookRecord;
}

const LANTERN = "The lantern of the old quarter burns blue and never goes out.";

const log = (page: Page) => page.getByRole("log");
const characterMessages = (page: Page, name: string) => log(page).getByRole("article", { name, exact: true });

async function atRest(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== "running" || a.effect?.getComputedTiming().endTime === Infinity),
  );
}

test.beforeEach(({ page }) => followChatSockets(page));

for (const width of [1280, 375]) {
  test(`attach a lorebook to a chat and to a character at ${width} px`, async ({ page }) => {
    // Two pages, a reply and three axe passes: thrice the default time.
    test.slow();
    await page.setViewportSize({ width, height: 900 });
    await signIn(page, "Lumen");
    const character = await createCharacter(page.request);
    const lantern = await createBook(page.request, "Old Quarter", [{ keys: ["lantern"], content: LANTERN, comment: "The lantern" }]);
    const streets = await createBook(page.request, "Streets", [{ keys: ["street"], content: "The streets are cobbled.", comment: "Streets" }]);

    // The chat menu: Lorebooks, tick the book, Save.
    await page.goto(`/character/${character.id}`);
    await page.getByRole("button", { name: "Start Chat" }).click();
    await expect(characterMessages(page, character.name)).toHaveCount(1);
    const menuButton = page.getByRole("button", { name: "Conversation options" });
    await menuButton.click();
    await page.getByRole("menuitem", { name: "Lorebooks" }).click();
    const dialog = page.getByRole("dialog", { name: "Lorebooks" });
    await expect(dialog.getByRole("checkbox", { name: /Old Quarter/ })).not.toBeChecked();
    await dialog.getByRole("checkbox", { name: /Old Quarter/ }).check();
    await expect(dialog.getByText("Applies 1st")).toBeVisible();
    await atRest(page);
    await expectAccessible(page);
    await page.screenshot({ path: test.info().outputPath(`chat-lorebooks-${width}.png`) });
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(toast(page, "Lorebooks saved")).toBeVisible();
    await expect(dialog).toHaveCount(0);
    await expect(menuButton).toBeFocused();
    const conversationId = new URL(page.url()).pathname.split("/").pop()!;
    expect((await (await page.request.get(`/api/conversations/${conversationId}`)).json()).lorebookIds).toEqual([lantern.id]);
    // The menu says how many, and the dialog opens with it ticked.
    await menuButton.click();
    await expect(page.getByRole("menuitem", { name: /^Lorebooks\s*1 attached$/ })).toBeVisible();
    await page.getByRole("menuitem", { name: "Lorebooks" }).click();
    await expect(dialog.getByRole("checkbox", { name: /Old Quarter/ })).toBeChecked();
    await expect(dialog.getByRole("checkbox", { name: /Streets/ })).not.toBeChecked();
    await page.keyboard.press("Escape");
    await expect(menuButton).toBeFocused();

    // Mention the lantern: its entry joins the prompt of the reply.
    await expectChatJoined(page);
    await page.getByLabel(`Message ${character.name}`).fill("I hold up the lantern and look around.");
    await page.getByLabel(`Message ${character.name}`).press("Enter");
    const reply = characterMessages(page, character.name).nth(1);
    await expect(reply).toHaveAttribute("aria-busy", "false");
    await reply.getByRole("button", { name: "More actions" }).click();
    await page.getByRole("menuitem", { name: "Why this reply?", exact: true }).click();
    const why = page.getByRole("dialog", { name: "Why this reply?" });
    const fired = why.getByRole("list", { name: "Lorebook entries" });
    await expect(fired.getByRole("listitem")).toHaveText(["The lantern · Old QuarterKey “lantern” matched"]);
    await atRest(page);
    await expectAccessible(page);
    await page.screenshot({ path: test.info().outputPath(`why-this-reply-${width}.png`) });
    await why.getByText("Raw prompt").click();
    await expect(why.locator("pre").filter({ hasText: LANTERN })).toHaveCount(1);
    await page.keyboard.press("Escape");
    const messages = (await (await page.request.get(`/api/conversations/${conversationId}/messages`)).json()) as ChatMessage[];
    const messageId = messages.filter((message) => !message.isUser).at(-1)!.id;
    const prompt = await (await page.request.get(`/api/conversations/${conversationId}/messages/${messageId}/prompt`)).json();
    expect(prompt.lorebook).toEqual([
      { lorebookId: lantern.id, entryId: lantern.entries[0]!.id, reason: "key", lorebookName: "Old Quarter", title: "The lantern", key: "lantern", secondaryKey: null, decorator: null },
    ]);

    // The studio: attach both books to the character, the second one first.
    await page.goto(`/edit-character/${character.id}`);
    const section = page.getByRole("region", { name: "Lorebooks", exact: true });
    await expect(section.getByRole("checkbox", { name: /Old Quarter/ })).toBeEnabled();
    await section.getByRole("checkbox", { name: /Old Quarter/ }).check();
    await section.getByRole("checkbox", { name: /Streets/ }).check();
    await expect(section.getByRole("checkbox", { name: /Streets/ })).toHaveAccessibleName(/Applies 2nd/);
    await section.getByRole("button", { name: "Move Streets earlier" }).click();
    await expect(section.getByRole("checkbox", { name: /Streets/ })).toHaveAccessibleName(/Applies 1st/);
    await expect(section.getByRole("button", { name: "Move Streets earlier" })).toBeFocused();
    await section.scrollIntoViewIfNeeded();
    await expectAccessible(page);
    await section.screenshot({ path: test.info().outputPath(`studio-lorebooks-${width}.png`) });
    await page.getByRole("button", { name: "Update Character" }).click();
    await expect(page).toHaveURL(/\/my-characters$/);
    // A new page load: what the server kept.
    await page.goto(`/edit-character/${character.id}`);
    await expect(section.getByRole("checkbox", { name: /Streets/ })).toHaveAccessibleName(/Applies 1st/);
    await expect(section.getByRole("checkbox", { name: /Old Quarter/ })).toHaveAccessibleName(/Applies 2nd/);
    expect(await (await page.request.get(`/api/characters/${character.id}/lorebooks`)).json()).toEqual({ lorebookIds: [streets.id, lantern.id] });
  });
}
