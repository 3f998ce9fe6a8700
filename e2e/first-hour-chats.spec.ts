/**
 * The first hour with chats (issue 26), from the person's side in Chromium:
 * swiping through many new versions of a reply is not "sending messages too
 * fast"; My Chats can be searched, a chat renamed and deleted (after a
 * confirmation), in the order of the times it shows; a character's page
 * offers "Continue chat" once there is a chat with it; the character form
 * edits the lorebook, which the card carries; the memory panel shows the
 * running summary, to correct or reset. Every test signs in as a new person
 * (local sign-in); the offline model answers.
 */
import { gzipSync } from "node:zlib";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import type { Character } from "../schema/api.ts";
import type { Conversation } from "../schema/chat.ts";
import { expectAccessible, expectChatJoined, followChatSockets, letters, signInWithApi as signIn, toast } from "./helpers.ts";

const MOBILE = { width: 375, height: 800 };

/** What a first visit to `/` may download of JavaScript, gzipped bytes (docs/decisions/0004-first-visit-budget.md). */
const FIRST_VISIT_JS_BUDGET = 140 * 1024;

/** A character of the signed-in person of `request`, named `name`, with `extra` fields. */
async function createCharacter(request: APIRequestContext, name = `Sir ${letters()}`, extra: Record<string, unknown> = {}): Promise<Character> {
  const res = await request.post("/api/characters", {
    data: {
      ...extra,
      name,
      description: "A wandering knight for the first-hour browser test.",
      personality: "Brave, dry-humoured and loyal.",
      scenario: "A campfire on the road north.",
      greeting: "*The knight looks up.* Well met, {{user}}.",
      tags: [],
      isNsfw: false,
    },
  });
  expect(res.status()).toBe(201);
  return (await res.json()) as Character;
}

/** A new chat of the signed-in person with `characterId`, through the API (as Start Chat makes it). */
async function startChat(request: APIRequestContext, characterId: number, title?: string): Promise<Conversation> {
  const res = await request.post("/api/conversations", { data: { characterId, title } });
  expect(res.status()).toBe(201);
  return (await res.json()) as Conversation;
}

const characterMessages = (page: Page, name: string) => page.getByRole("log").getByRole("article", { name, exact: true });

test.beforeEach(({ page }) => followChatSockets(page));

test("one message, then 21 new versions of its reply in a row: every one arrives, none is refused as too fast", async ({ page }) => {
  // 21 replies of the offline model one after the other (about a second each).
  test.setTimeout(120_000);
  await signIn(page, "Sasha");
  const character = await createCharacter(page.request);
  const chat = await startChat(page.request, character.id);
  await page.goto(`/chat/${chat.id}`);
  await expectChatJoined(page);
  const box = page.getByLabel(`Message ${character.name}`);
  await box.fill("Tell me about the road north.");
  await box.press("Enter");
  const reply = characterMessages(page, character.name).last();
  await expect(characterMessages(page, character.name)).toHaveCount(2);
  await expect(reply).toHaveAttribute("aria-busy", "false");

  // More than the 20 messages a minute a person may send: new versions have their own, larger limit.
  for (let version = 2; version <= 22; version++) {
    await reply.getByRole("button", { name: "Regenerate" }).click();
    await expect(reply.getByText(`${version}/${version}`)).toBeVisible();
    await expect(reply).toHaveAttribute("aria-busy", "false");
  }
  await expect(page.getByText(/too fast/)).toHaveCount(0);
  // Sending a message still works.
  await box.fill("And the bridge?");
  await box.press("Enter");
  await expect(characterMessages(page, character.name)).toHaveCount(3);
  await expect(characterMessages(page, character.name).last()).toHaveAttribute("aria-busy", "false");
  await expect(page.getByText(/too fast/)).toHaveCount(0);
});

test("My Chats at 375 px: search by title or character, rename, delete after confirming; the latest activity comes first, at the time shown", async ({ page }) => {
  await page.setViewportSize(MOBILE);
  await signIn(page, "Mona");
  const knight = await createCharacter(page.request, `Knight ${letters()}`);
  const witch = await createCharacter(page.request, `Witch ${letters()}`);
  const older = await startChat(page.request, knight.id, "The ledger affair");
  await startChat(page.request, witch.id);

  // A message in the older chat: it moves to the top, and its time is the one shown first.
  await page.goto(`/chat/${older.id}`);
  await expectChatJoined(page);
  const box = page.getByLabel(`Message ${knight.name}`);
  await box.fill("Back to the ledger.");
  await box.press("Enter");
  await expect(characterMessages(page, knight.name)).toHaveCount(2);
  await expect(characterMessages(page, knight.name).last()).toHaveAttribute("aria-busy", "false");

  await page.goto("/chats");
  const rows = page.getByRole("main").getByRole("listitem");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText(knight.name);
  await expect(rows.nth(1)).toContainText(witch.name);
  const times = await rows.locator("time").evaluateAll((nodes) => nodes.map((n) => Date.parse(n.getAttribute("datetime") ?? "")));
  expect(times).toEqual([...times].sort((a, b) => b - a));
  await expectAccessible(page);
  await page.screenshot({ path: test.info().outputPath("my-chats-375.png"), fullPage: true });

  // Search: by the title, then by the character's name; a search with no match says so.
  const search = page.getByRole("searchbox", { name: "Search your chats" });
  await search.fill("ledger");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("The ledger affair");
  await search.fill(witch.name.slice(0, 9).toLowerCase());
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(witch.name);
  await search.fill("no such chat");
  await expect(page.getByText("No chats match “no such chat”.")).toBeVisible();
  await search.fill("");
  await expect(rows).toHaveCount(2);

  // Rename the witch's chat.
  await page.getByRole("button", { name: `Rename Chat with ${witch.name}` }).click();
  const renameDialog = page.getByRole("dialog", { name: "Rename chat" });
  const title = renameDialog.getByLabel("Title");
  await expect(title).toHaveValue(`Chat with ${witch.name}`);
  await title.fill("Potions at midnight");
  await expectAccessible(page);
  await renameDialog.getByRole("button", { name: "Save" }).click();
  await expect(renameDialog).toBeHidden();
  await expect(rows.nth(1)).toContainText("Potions at midnight");
  // Renaming is not a message: the order stays.
  await expect(rows.nth(0)).toContainText(knight.name);

  // Delete it: Cancel keeps it; confirming removes it for good.
  await page.getByRole("button", { name: "Delete Potions at midnight" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete this chat?" });
  await expect(confirm).toContainText("“Potions at midnight” and every message in it will be deleted.");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(rows).toHaveCount(2);
  await page.getByRole("button", { name: "Delete Potions at midnight" }).click();
  await page.getByRole("alertdialog", { name: "Delete this chat?" }).getByRole("button", { name: "Delete Chat" }).click();
  await expect(toast(page, "Chat deleted“Potions at midnight” is gone.")).toBeVisible();
  await expect(rows).toHaveCount(1);
  await page.reload();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("The ledger affair");
});

test("a character's page offers Continue chat once there is a chat with it, opening the latest; Start Chat still starts a new one", async ({
  page,
}) => {
  await signIn(page, "Cleo");
  const character = await createCharacter(page.request);
  await page.goto(`/character/${character.id}`);
  await expect(page.getByRole("button", { name: "Start Chat" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Continue chat" })).toHaveCount(0);

  await startChat(page.request, character.id, "First visit");
  const latest = await startChat(page.request, character.id, "Second visit");
  await page.reload();
  await page.getByRole("link", { name: "Continue chat" }).click();
  await expect(page).toHaveURL(new RegExp(`/chat/${latest.id}$`));

  await page.goBack();
  await page.getByRole("button", { name: "Start Chat" }).click();
  await expect(page).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
  expect(page.url()).not.toContain(latest.id);
  const mine = (await (await page.request.get(`/api/conversations?characterId=${character.id}`)).json()) as Conversation[];
  expect(mine).toHaveLength(3);
});

test("the character form edits the lorebook at 375 px; the exported card carries it", async ({ page }) => {
  await page.setViewportSize(MOBILE);
  await signIn(page, "Lore");
  // As a card import keeps it: fields the form shows and some it does not.
  const book = {
    name: "Eldoria",
    scan_depth: 4,
    extensions: {},
    entries: [{ id: 3, keys: ["forest", "wood"], content: "Eldoria is an ancient forest.", enabled: true, insertion_order: 10, position: "before_char", extensions: { depth: 4 } }],
  };
  const character = await createCharacter(page.request, `Seer ${letters()}`, { characterBook: book });
  await page.goto(`/edit-character/${character.id}`);

  const lorebook = page.getByRole("group", { name: "Lorebook (Optional)" });
  await expect(lorebook).toBeVisible();
  const first = lorebook.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Entry 1" }) });
  await expect(first.getByLabel("Keys of entry 1", { exact: true })).toHaveValue("forest, wood");
  await expect(first.getByLabel("Content of entry 1")).toHaveValue("Eldoria is an ancient forest.");
  await expect(first.getByLabel("Insertion order")).toHaveValue("10");
  await expect(first.getByRole("switch", { name: "Enabled" })).toBeChecked();
  await first.getByLabel("Content of entry 1").fill("Eldoria is an ancient, whispering forest.");

  await lorebook.getByRole("button", { name: "Add lorebook entry" }).click();
  const second = lorebook.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Entry 2" }) });
  await second.getByLabel("Keys of entry 2", { exact: true }).fill("moon, Moon Queen");
  await second.getByLabel("Secondary keys of entry 2 (Optional)").fill("castle");
  await second.getByLabel("Content of entry 2").fill("The Moon Queen rules from a castle of glass.");
  await second.getByRole("switch", { name: "Always on" }).click();
  await second.getByLabel("Insertion order").fill("5");
  await expectAccessible(page);
  await lorebook.screenshot({ path: test.info().outputPath("lorebook-375.png") });
  await page.getByRole("button", { name: "Update Character" }).click();
  await expect(page).toHaveURL(/\/my-characters$/);

  const card = (await (await page.request.get(`/api/characters/${character.id}/card.json`)).json()) as { data: { character_book: Record<string, unknown> } };
  expect(card.data.character_book).toMatchObject({
    name: "Eldoria",
    scan_depth: 4,
    entries: [
      { id: 3, keys: ["forest", "wood"], content: "Eldoria is an ancient, whispering forest.", insertion_order: 10, position: "before_char", extensions: { depth: 4 } },
      { id: 4, keys: ["moon", "Moon Queen"], secondary_keys: ["castle"], selective: true, content: "The Moon Queen rules from a castle of glass.", constant: true, enabled: true, insertion_order: 5 },
    ],
  });

  // Back in the form, the entries are as saved; removing one removes it from the card.
  await page.goto(`/edit-character/${character.id}`);
  await expect(lorebook.getByLabel("Keys of entry 2", { exact: true })).toHaveValue("moon, Moon Queen");
  await lorebook.getByRole("button", { name: "Remove lorebook entry 1" }).click();
  await page.getByRole("button", { name: "Update Character" }).click();
  await expect(page).toHaveURL(/\/my-characters$/);
  const after = (await (await page.request.get(`/api/characters/${character.id}/card.json`)).json()) as { data: { character_book: { entries: { keys: string[] }[] } } };
  expect(after.data.character_book.entries.map((e) => e.keys)).toEqual([["moon", "Moon Queen"]]);
});

test("the memory panel shows the story so far, to correct or reset; it is kept after a reload", async ({ page }) => {
  await page.setViewportSize(MOBILE);
  await signIn(page, "Rhea");
  const character = await createCharacter(page.request);
  const chat = await startChat(page.request, character.id);
  await page.goto(`/chat/${chat.id}`);
  await expectChatJoined(page);

  const openMemory = async () => {
    await page.getByRole("button", { name: "Conversation options" }).click();
    await page.getByRole("menuitem", { name: "Memory" }).click();
  };
  await openMemory();
  const dialog = page.getByRole("dialog", { name: "Memory" });
  const story = dialog.getByLabel("Story so far");
  // A short chat has no summary yet.
  await expect(story).toHaveValue("");
  await expect(story).toHaveAttribute("placeholder", "No summary yet: the chat still fits.");
  await expect(dialog.getByRole("button", { name: "Reset summary" })).toBeDisabled();
  await story.fill("Rhea met the knight at the campfire and asked about the road north.");
  await expectAccessible(page);
  await page.screenshot({ path: test.info().outputPath("memory-375.png"), fullPage: true });
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(toast(page, "Memory saved")).toBeVisible();
  await expect(dialog).toBeHidden();

  await page.reload();
  await expectChatJoined(page);
  await openMemory();
  await expect(story).toHaveValue("Rhea met the knight at the campfire and asked about the road north.");
  await dialog.getByRole("button", { name: "Reset summary" }).click();
  await expect(story).toHaveValue("");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toBeHidden();
  await page.reload();
  await expectChatJoined(page);
  await openMemory();
  await expect(story).toHaveValue("");
});

test("a first visit to / loads at most 140 KB of gzipped JavaScript, toasts and dialogs included only when needed", async ({ page }) => {
  // Every script the page fetches, measured as the browser got it (gzipped here as the server's compression would).
  const scripts = new Map<string, number>();
  let pending = 0;
  page.on("request", (request) => {
    if (request.resourceType() === "script") pending++;
  });
  page.on("requestfailed", (request) => {
    if (request.resourceType() === "script") pending--;
  });
  page.on("response", async (response) => {
    if (response.request().resourceType() !== "script") return;
    const body = await response.body();
    scripts.set(new URL(response.url()).pathname, gzipSync(body).length);
    pending--;
  });
  await page.goto("/");
  // Its first seconds: the catalog is shown, the browser has been idle once (code loaded after the
  // first render has been asked for by then) and every script asked for has arrived.
  await expect(page.locator('main a[href^="/character/"]').first()).toBeVisible();
  await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve)));
  await expect.poll(() => pending).toBe(0);
  const total = [...scripts.values()].reduce((sum, size) => sum + size, 0);
  const listing = [...scripts].map(([path, size]) => `${path} ${(size / 1024).toFixed(1)} KB`).join("\n");
  console.log(`first visit: ${scripts.size} scripts, ${(total / 1024).toFixed(1)} KB gzipped\n${listing}`);
  expect(total, `first visit scripts:\n${listing}\ntotal ${(total / 1024).toFixed(1)} KB`).toBeLessThanOrEqual(FIRST_VISIT_JS_BUDGET);
});

test("a demo character's link preview names a PNG picture, and that picture is served as PNG", async ({ page, request }) => {
  const list = (await (await request.get("/api/characters?limit=50")).json()) as { characters: Character[] };
  const demo = list.characters.find((c) => c.avatarUrl?.startsWith("/avatars/demo/") && c.avatarUrl.endsWith(".svg") && !c.isNsfw);
  expect(demo, "a demo character with an SVG avatar").toBeDefined();
  // What a link preview crawler reads: the page's HTML as served, before any script runs.
  const html = await (await request.get(`/character/${demo!.id}`)).text();
  const image = /<meta property="og:image" content="([^"]+)"/.exec(html)?.[1];
  expect(image).toMatch(/\/avatars\/demo\/[a-z0-9-]+\.png$/);
  const picture = await request.get(new URL(image!).pathname);
  expect(picture.status()).toBe(200);
  expect(picture.headers()["content-type"]).toBe("image/png");
  const bytes = await picture.body();
  expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  // Shown as a person would see it: the picture opens in the browser.
  await page.goto(new URL(image!).pathname);
  expect(await page.evaluate(() => (document.querySelector("img") as HTMLImageElement | null)?.naturalWidth)).toBe(300);
});
