/**
 * Steering a chat in Chromium (docs/decisions/0007-steering-a-chat.md): edit,
 * delete and rewind a message through its "More actions" menu, continue the
 * last reply, branch from a message and find the branch in My Chats, play a
 * persona picked in the chat header, keep a memory note, export the chat as
 * SillyTavern JSONL and import that file from the character's page. The
 * offline chat model answers (a word every 25 ms) and addresses the person
 * by their `{{user}}` name. Every test signs in as a new person.
 */
import { readFile } from "node:fs/promises";
import { type APIRequestContext, expect, type Locator, type Page, test } from "@playwright/test";
import type { Character } from "../schema/api.ts";
import type { ChatMessage } from "../schema/chat.ts";
import {
  expectAccessible,
  expectChatJoined,
  expectSentToSignIn,
  followChatSockets,
  letters,
  signInWithApi as signIn,
  toast,
} from "./helpers.ts";

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const CHAT_URL = new RegExp(`/chat/(${UUID})$`);

/** A character of the signed-in person of `request`; its greeting names `{{user}}`. */
async function createCharacter(request: APIRequestContext): Promise<Character> {
  const res = await request.post("/api/characters", {
    data: {
      name: `Dame ${letters()}`,
      description: "A travelling knight for the steering browser test.",
      personality: "Steady, curious and kind. She keeps her promises.",
      scenario: "A crossroads inn at dusk.",
      greeting: '*The knight sets down her helmet.* "Evening, {{user}}. Sit, the stew is hot."',
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
const input = (page: Page, name: string) => page.getByLabel(`Message ${name}`);
const footer = (page: Page, count: number) =>
  page.getByText(`All stories and characters are fictional • ${count} messages in this conversation`, { exact: true });
const normal = (text: string | null) => (text ?? "").replace(/\s+/g, " ").trim();
/** The text of a message as shown (its bubble, without the buttons around it). */
const shownText = async (message: Locator) => normal(await message.locator("[data-message-text]").textContent());

/** Starts a chat with `character` from its page; returns the conversation id once the greeting shows. */
async function startChat(page: Page, character: Character): Promise<string> {
  await page.goto(`/character/${character.id}`);
  await page.getByRole("button", { name: "Start Chat" }).click();
  await expect(page).toHaveURL(CHAT_URL);
  await expect(characterMessages(page, character.name)).toHaveCount(1);
  await expectChatJoined(page);
  return CHAT_URL.exec(page.url())![1]!;
}

/** Sends `text` with Enter and waits until the reply is complete; returns the reply's text. */
async function sendAndAwaitReply(page: Page, name: string, text: string): Promise<string> {
  await expectChatJoined(page);
  const before = await characterMessages(page, name).count();
  await input(page, name).fill(text);
  await input(page, name).press("Enter");
  const reply = characterMessages(page, name).nth(before);
  await expect(reply).toHaveAttribute("aria-busy", "false");
  return shownText(reply);
}

/** Opens the "More actions" menu of `message` and chooses `action`. */
async function chooseAction(page: Page, message: Locator, action: string): Promise<void> {
  await message.getByRole("button", { name: "More actions" }).click();
  await page.getByRole("menuitem", { name: action, exact: true }).click();
}

/** Opens the chat header's menu and chooses `item`. */
async function chooseOption(page: Page, item: string | RegExp): Promise<void> {
  await page.getByRole("button", { name: "Conversation options" }).click();
  await page.getByRole("menuitem", { name: item }).click();
}

/**
 * Waits until no finite animation runs (a toast, menu or dialog fading in),
 * so axe measures colours at rest rather than halfway through a fade.
 */
async function expectAccessibleAtRest(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== "running" || a.effect?.getComputedTiming().endTime === Infinity),
  );
  await expectAccessible(page);
}

async function storedMessages(page: Page, conversationId: string): Promise<ChatMessage[]> {
  return (await (await page.request.get(`/api/conversations/${conversationId}/messages`)).json()) as ChatMessage[];
}

// A chat page shows its messages before its socket has joined; sending waits for the join (expectChatJoined).
test.beforeEach(({ page }) => followChatSockets(page));

test("edit a reply and keep it after a reload; cancel an edit with Escape; rewind and delete through the confirmation", async ({ page }) => {
  // A long journey (several replies or saves, reloads, axe checks): it ran past 60 s once on a
  // loaded machine. The budget catches a hang; each step still waits on what is shown.
  test.setTimeout(120_000);
  await signIn(page, "Edda");
  const character = await createCharacter(page.request);
  const id = await startChat(page, character);
  await sendAndAwaitReply(page, character.name, "Which road leads to the mountains?");
  await sendAndAwaitReply(page, character.name, "And where can we sleep tonight?");
  await expect(footer(page, 5)).toBeVisible();

  // Edit the first reply: the bubble becomes an editor holding its text; Ctrl+Enter saves.
  const reply = characterMessages(page, character.name).nth(1);
  await chooseAction(page, reply, "Edit");
  const editor = reply.getByRole("textbox", { name: `Edit ${character.name}'s reply` });
  await expect(editor).toBeFocused();
  const stored = await storedMessages(page, id);
  await expect(editor).toHaveValue(stored[2]!.content);
  await expectAccessibleAtRest(page);
  await editor.fill('*She points north.* "Take the old pilgrims\' road past the mill."');
  await editor.press("Control+Enter");
  await expect(editor).toHaveCount(0);
  await expect(reply.locator("[data-message-text]")).toHaveText(`She points north. "Take the old pilgrims' road past the mill."`);
  await expect(reply.getByText("(edited)", { exact: true })).toBeVisible();

  // Escape leaves an edit of the person's own message without changing it.
  const question = userMessages(page).nth(0);
  await chooseAction(page, question, "Edit");
  const ownEditor = question.getByRole("textbox", { name: "Edit your message" });
  await ownEditor.fill("Something else entirely");
  await ownEditor.press("Escape");
  await expect(ownEditor).toHaveCount(0);
  await expect(question.locator("[data-message-text]")).toHaveText("Which road leads to the mountains?");
  await expect(question.getByText("(edited)", { exact: true })).toHaveCount(0);

  // After a reload the edit is the server's.
  await page.reload();
  await expect(reply.locator("[data-message-text]")).toHaveText(`She points north. "Take the old pilgrims' road past the mill."`);
  await expect(reply.getByText("(edited)", { exact: true })).toBeVisible();
  expect((await storedMessages(page, id))[2]).toMatchObject({
    content: '*She points north.* "Take the old pilgrims\' road past the mill."',
    editedAt: expect.any(String),
  });

  // Rewind to the second question: the dialog counts what goes with it; Cancel keeps everything.
  const second = userMessages(page).nth(1);
  await chooseAction(page, second, "Rewind to here");
  const confirm = page.getByRole("alertdialog", { name: "Delete this message and the 1 after it?" });
  await expect(confirm).toBeVisible();
  await expectAccessibleAtRest(page);
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toBeHidden();
  await expect(userMessages(page)).toHaveCount(2);
  await chooseAction(page, second, "Rewind to here");
  await confirm.getByRole("button", { name: "Rewind" }).click();
  await expect(userMessages(page)).toHaveText(["Which road leads to the mountains?"]);
  await expect(characterMessages(page, character.name)).toHaveCount(2);
  await expect(footer(page, 3)).toBeVisible();
  await page.reload();
  await expect(characterMessages(page, character.name)).toHaveCount(2);
  await expect(userMessages(page)).toHaveCount(1);

  // The last message has nothing after it: no rewind, only a delete.
  await characterMessages(page, character.name).nth(1).getByRole("button", { name: "More actions" }).click();
  const menu = page.getByRole("menu");
  await expect(menu.getByRole("menuitem", { name: "Delete" })).toBeVisible();
  await expect(menu.getByRole("menuitem", { name: "Rewind to here" })).toHaveCount(0);
  await page.keyboard.press("Escape");
  await expect(menu).toHaveCount(0);

  // Delete the person's message alone: the replies around it stay.
  await chooseAction(page, userMessages(page).nth(0), "Delete");
  const deleteConfirm = page.getByRole("alertdialog", { name: "Delete this message?" });
  await deleteConfirm.getByRole("button", { name: "Delete" }).click();
  await expect(userMessages(page)).toHaveCount(0);
  await expect(characterMessages(page, character.name)).toHaveCount(2);
  await expect(footer(page, 2)).toBeVisible();
  expect((await storedMessages(page, id)).map((m) => m.isUser)).toEqual([false, false]);
});

test("continue the last reply: it grows in place and stays grown after a reload", async ({ page }) => {
  await signIn(page, "Corin");
  const character = await createCharacter(page.request);
  const id = await startChat(page, character);
  const before = await sendAndAwaitReply(page, character.name, "Tell me about the inn.");
  const reply = characterMessages(page, character.name).nth(1);

  // Only the last reply offers Continue, next to Regenerate.
  await expect(characterMessages(page, character.name).nth(0).getByRole("button", { name: "Continue" })).toHaveCount(0);
  await expect(reply.getByRole("button", { name: "Regenerate" })).toBeVisible();
  await reply.getByRole("button", { name: "Continue" }).click();
  await expect.poll(() => shownText(reply)).not.toBe(before);
  await expect(reply).toHaveAttribute("aria-busy", "false");
  const grown = await shownText(reply);
  expect(grown.startsWith(before)).toBe(true);
  expect(grown.length).toBeGreaterThan(before.length);
  await expect(characterMessages(page, character.name)).toHaveCount(2);
  await expect(footer(page, 3)).toBeVisible();

  await page.reload();
  await expect(characterMessages(page, character.name).nth(1).locator("[data-message-text]")).toHaveText(grown);
  expect((await storedMessages(page, id)).map((m) => m.isUser)).toEqual([false, true, false]);
});

test("branch from a message on a phone: a new chat up to it, found in My Chats as branched from the first", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await signIn(page, "Bryn");
  const character = await createCharacter(page.request);
  const sourceId = await startChat(page, character);
  const firstReply = await sendAndAwaitReply(page, character.name, "Is the ferry still running?");
  await sendAndAwaitReply(page, character.name, "Then we cross at dawn.");

  // Every stored message has its "More actions" button on a phone; nothing overflows sideways.
  await expect(log(page).getByRole("button", { name: "More actions" })).toHaveCount(5);
  expect(await log(page).evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
  await expectAccessibleAtRest(page);

  await chooseAction(page, characterMessages(page, character.name).nth(1), "Branch from here");
  await expect(toast(page, "Branched")).toBeVisible();
  await expect(toast(page, "A new chat starts from this message.")).toBeVisible();
  await expect(page).not.toHaveURL(new RegExp(sourceId));
  await expect(page).toHaveURL(CHAT_URL);
  const branchId = CHAT_URL.exec(page.url())![1]!;
  await expect(characterMessages(page, character.name)).toHaveCount(2);
  await expect(userMessages(page)).toHaveText(["Is the ferry still running?"]);
  expect(await shownText(characterMessages(page, character.name).nth(1))).toBe(firstReply);
  const header = page.locator("header", { has: page.getByRole("heading", { level: 1, name: character.name }) });
  await expect(header.getByText("Branched from", { exact: false })).toBeVisible();
  await expect(header.getByRole("link", { name: `Chat with ${character.name}` })).toHaveAttribute("href", `/chat/${sourceId}`);

  // My Chats: the branch first, saying where it came from; its link goes back to the source.
  await page.goto("/chats");
  const rows = page.getByRole("main").getByRole("listitem");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0).getByRole("link").first()).toHaveAttribute("href", `/chat/${branchId}`);
  await expect(rows.nth(0)).toContainText(`Branched from Chat with ${character.name}`);
  await expect(rows.nth(1)).not.toContainText("Branched from");
  await expectAccessibleAtRest(page);
  await rows.nth(0).getByRole("link", { name: `Chat with ${character.name}`, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/chat/${sourceId}$`));
  await expect(userMessages(page)).toHaveCount(2);
});

test("a persona made on /profile and picked in the chat header: the next reply calls the person by its name", async ({ page }) => {
  await signIn(page, "Piers");
  // Two personas: the first becomes the default, the second is only picked for one chat.
  await page.goto("/profile");
  const personas = page.getByRole("region", { name: "Personas" });
  const dialog = page.getByRole("dialog", { name: "New Persona" });
  for (const name of ["Wren Ashdown", "Kit Marlowe"]) {
    await personas.getByRole("button", { name: "New Persona" }).click();
    await dialog.getByLabel("Name", { exact: true }).fill(name);
    await dialog.getByRole("button", { name: "Create Persona" }).click();
    await expect(toast(page, "Persona created")).toBeVisible();
    await expect(dialog).toBeHidden();
  }

  // A new chat's greeting is written for the default persona.
  const character = await createCharacter(page.request);
  await startChat(page, character);
  await expect(characterMessages(page, character.name).nth(0)).toContainText('"Evening, Wren Ashdown.');

  // Pick the other one for this chat.
  await chooseOption(page, /Persona/);
  const picker = page.getByRole("dialog", { name: "Persona" });
  await expect(picker.getByRole("radio", { name: /Default persona/ })).toBeChecked();
  await expect(picker.getByRole("radio", { name: /Default persona/ })).toHaveAccessibleName(/You as Wren Ashdown/);
  await expectAccessibleAtRest(page);
  // click, not check(): picking closes the dialog, and check() then waits on a radio that is gone
  // to read back as checked. What the person sees next (toast, dialog closed, reply) is the check.
  await picker.getByRole("radio", { name: /Kit Marlowe/ }).click();
  await expect(toast(page, "Persona changed")).toBeVisible();
  await expect(picker).toBeHidden();

  const reply = await sendAndAwaitReply(page, character.name, "Do you know who I am?");
  expect(reply).toContain("Kit Marlowe");
  expect(reply).not.toContain("Wren");

  // The choice is the conversation's: after a reload the menu and the picker still say so.
  await page.reload();
  await page.getByRole("button", { name: "Conversation options" }).click();
  await expect(page.getByRole("menuitem", { name: /Persona/ })).toContainText("Kit Marlowe");
  await page.getByRole("menuitem", { name: /Persona/ }).click();
  await expect(picker.getByRole("radio", { name: /Kit Marlowe/ })).toBeChecked();
});

test("a memory note is saved over the socket and kept after a reload", async ({ page }) => {
  await signIn(page, "Mara");
  const character = await createCharacter(page.request);
  await startChat(page, character);

  await chooseOption(page, "Memory");
  const dialog = page.getByRole("dialog", { name: "Memory" });
  const note = dialog.getByLabel("Memory note");
  await expect(note).toHaveValue("");
  await expect(note).toBeFocused();
  await note.fill("We are travelling north to find my sister Ysolde.");
  await expect(dialog.getByText("49/2,000")).toBeVisible();
  await expectAccessibleAtRest(page);
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(toast(page, "Memory saved")).toBeVisible();
  await expect(dialog).toBeHidden();

  await page.reload();
  await expect(characterMessages(page, character.name)).toHaveCount(1);
  await chooseOption(page, "Memory");
  await expect(dialog.getByLabel("Memory note")).toHaveValue("We are travelling north to find my sister Ysolde.");
});

test("export a chat as SillyTavern JSONL and Markdown, import the JSONL from the character page into a new chat", async ({ page }) => {
  await signIn(page, "Ione");
  const character = await createCharacter(page.request);
  await startChat(page, character);
  await sendAndAwaitReply(page, character.name, "What news from the capital?");
  const shown = await log(page).locator("[data-message-text]").allTextContents();

  // The exports are plain downloads, named by the server.
  await page.getByRole("button", { name: "Conversation options" }).click();
  const [markdown] = await Promise.all([page.waitForEvent("download"), page.getByRole("menuitem", { name: "Export as Markdown" }).click()]);
  expect(markdown.suggestedFilename()).toMatch(/\.md$/);
  await page.getByRole("button", { name: "Conversation options" }).click();
  const [jsonl] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("menuitem", { name: "Export as SillyTavern (.jsonl)" }).click(),
  ]);
  expect(jsonl.suggestedFilename()).toMatch(/\.jsonl$/);
  const file = await jsonl.path();
  const lines = (await readFile(file, "utf8")).trim().split("\n");
  expect(JSON.parse(lines[0]!)).toMatchObject({ character_name: character.name, user_name: "Ione" });
  expect(lines).toHaveLength(4);

  // A broken file is refused with the server's sentence, and nothing opens.
  await page.goto(`/character/${character.id}`);
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: "Import chat" }).click();
  await (await chooser).setFiles({ name: "broken.jsonl", mimeType: "application/jsonl", buffer: Buffer.from("this is not json\n") });
  await expect(toast(page, "Line 1 is not JSON.")).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/character/${character.id}$`));

  // The exported file becomes a new chat with the same messages.
  const again = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: "Import chat" }).click();
  await (await again).setFiles(file);
  await expect(page).toHaveURL(CHAT_URL);
  await expect(characterMessages(page, character.name)).toHaveCount(2);
  await expect(userMessages(page)).toHaveText(["What news from the capital?"]);
  expect(await log(page).locator("[data-message-text]").allTextContents()).toEqual(shown);
});

test("a visitor who presses Import chat is told to sign in and sent to the sign-in page", async ({ page }) => {
  const res = await page.request.get("/api/characters?showNsfw=false&nsfw=false&limit=1");
  const { characters } = (await res.json()) as { characters: Character[] };
  await page.goto(`/character/${characters[0]!.id}`);
  // The page knows it has a visitor (the header offers Sign In); toasts load with the first one (issue 26).
  await expect(page.getByRole("banner").getByRole("link", { name: "Sign In" })).toBeVisible();
  await expectSentToSignIn(
    page,
    () => page.getByRole("button", { name: "Import chat" }).click(),
    "You need to log in to import a chat. Redirecting...",
  );
});
