/**
 * Group chats in Chromium (DESIGN.md "Group chats", issue 22): start a group
 * of three from a character's page through the picker, see the cast in the
 * header, mute one and let them speak from the cast panel, see each reply's
 * speaker; in the manual order swipe a reply (a regenerate keeps its
 * speaker) and export the chat as SillyTavern JSONL (each reply's `name` is
 * its speaker); add and remove a member from the chat; import a SillyTavern
 * group chat onto a chosen cast (a name that matches no one is refused,
 * naming it); hide a message from context; keep an author's note. The offline
 * model answers in each speaker's own voice, a word every 25 ms. Every test
 * signs in as a new person.
 */
import { readFile } from "node:fs/promises";
import { type APIRequestContext, expect, type Locator, type Page, test } from "@playwright/test";
import type { Character } from "../schema/api.ts";
import type { Conversation } from "../schema/chat.ts";
import { expectAccessible, expectChatJoined, followChatSockets, letters, signInWithApi as signIn, toast } from "./helpers.ts";

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const CHAT_URL = new RegExp(`/chat/(${UUID})$`);
/** Where the screenshots of the group chat go (looked at by people, not compared). */
const SHOTS = "test-results/group-chat";

const capitalized = () => {
  const word = letters();
  return word[0]!.toUpperCase() + word.slice(1);
};

/** A character of the signed-in person with a voice of its own and a greeting that names it. */
async function createCharacter(request: APIRequestContext, personality: string): Promise<Character> {
  const name = capitalized();
  const res = await request.post("/api/characters", {
    data: {
      name,
      description: `${name}, a member of a travelling company for the group chat browser test.`,
      personality,
      scenario: "A company of travellers around a campfire.",
      greeting: `*${name} looks up from the fire.* "Evening, {{user}}."`,
      tags: [],
      isNsfw: false,
    },
  });
  expect(res.status()).toBe(201);
  return (await res.json()) as Character;
}

const log = (page: Page) => page.getByRole("log");
const characterMessages = (page: Page, name: string) => log(page).getByRole("article", { name, exact: true });
const allReplies = (page: Page) => log(page).locator('article:not([aria-label="You"])');
const normal = (text: string | null) => (text ?? "").replace(/\s+/g, " ").trim();
const shownText = async (message: Locator) => normal(await message.locator("[data-message-text]").textContent());
const castDialog = (page: Page) => page.getByRole("dialog", { name: "Cast" });

/** Waits until no finite animation runs, so axe measures colours at rest rather than mid-fade. */
async function expectAccessibleAtRest(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== "running" || a.effect?.getComputedTiming().endTime === Infinity),
  );
  await expectAccessible(page);
}

/** In the open picker: searches for `name` and presses its row (`label` is the row's name). */
async function pick(page: Page, name: string, label: string): Promise<void> {
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("searchbox", { name: "Search characters" }).fill(name);
  await dialog.getByRole("button", { name: label, exact: true }).click();
}

/** Starts a group chat with `first` and `others` from `first`'s page; returns the conversation id once every greeting shows. */
async function startGroup(page: Page, first: Character, others: Character[]): Promise<string> {
  await page.goto(`/character/${first.id}`);
  await page.getByRole("button", { name: "Start group chat" }).click();
  const dialog = page.getByRole("dialog", { name: "Start a group chat" });
  await expect(dialog).toBeVisible();
  for (const other of others) {
    await pick(page, other.name, `Add ${other.name} to the group`);
    await expect(dialog.getByRole("button", { name: `Take ${other.name} out of the group` }).first()).toBeVisible();
  }
  await dialog.getByRole("button", { name: "Start group chat" }).click();
  await expect(page).toHaveURL(CHAT_URL);
  for (const member of [first, ...others]) await expect(characterMessages(page, member.name)).toHaveCount(1);
  await expectChatJoined(page);
  return CHAT_URL.exec(page.url())![1]!;
}

async function openCast(page: Page): Promise<Locator> {
  await page.getByRole("button", { name: "Cast", exact: true }).click();
  await expect(castDialog(page)).toBeVisible();
  return castDialog(page);
}

/** The replies' speakers in the order shown: each bubble's name (its article) and the name written above it. */
function speakers(page: Page): Promise<{ article: string | null; shown: string }[]> {
  return allReplies(page).evaluateAll((articles) =>
    articles.map((a) => ({ article: a.getAttribute("aria-label"), shown: (a.querySelector("[data-speaker]")?.textContent ?? "").trim() })),
  );
}

test.beforeEach(({ page }) => followChatSockets(page));

test("a group of three from the character page: cast in the header, mute one, let them speak, each reply's speaker", async ({ page }) => {
  // Three characters, a picker, a round of two streamed replies and another one, axe at two widths: longer than most.
  test.slow();
  await signIn(page, "Noor");
  const ana = await createCharacter(page.request, "Cheerful and loud. She laughs at danger and talks of songs.");
  const bo = await createCharacter(page.request, "Grim and terse. He speaks of steel and old wars.");
  const cy = await createCharacter(page.request, "A quiet scholar who speaks of stars and old books.");
  const id = await startGroup(page, ana, [bo, cy]);

  // The header names the whole cast; every member greeted, in member order, each under its own name.
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`${ana.name}, ${bo.name} and ${cy.name}`);
  await expect(page.locator("header").filter({ hasText: "Group chat · 3 characters" })).toBeVisible();
  expect(await speakers(page)).toEqual([ana, bo, cy].map((c) => ({ article: c.name, shown: c.name })));

  // Mute Cy; the list order makes every unmuted member answer, in member order.
  const cast = await openCast(page);
  await expect(cast.getByRole("listitem", { name: ana.name })).toBeVisible();
  await cast.getByRole("switch", { name: `Mute ${cy.name}` }).click();
  await expect(cast.getByRole("switch", { name: `Mute ${cy.name}` })).toBeChecked();
  await cast.getByRole("radio", { name: /^List/ }).click();
  await expect(cast.getByRole("radio", { name: /^List/ })).toBeChecked();
  await expectAccessibleAtRest(page);
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: `${SHOTS}/cast-panel-375.png` });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: `${SHOTS}/cast-panel-1280.png` });
  await page.keyboard.press("Escape");
  await expect(cast).toBeHidden();
  const stored = (await (await page.request.get(`/api/conversations/${id}`)).json()) as Conversation;
  expect(stored.replyOrder).toBe("list");
  expect(stored.characters.map((m) => [m.name, m.muted])).toEqual([
    [ana.name, false],
    [bo.name, false],
    [cy.name, true],
  ]);

  const message = page.getByLabel(`Message ${ana.name}, ${bo.name} and ${cy.name}`);
  await message.fill("What do you make of the road ahead?");
  await message.press("Enter");
  await expect(characterMessages(page, bo.name)).toHaveCount(2);
  await expect(characterMessages(page, bo.name).last()).toHaveAttribute("aria-busy", "false");
  await expect(characterMessages(page, ana.name)).toHaveCount(2);
  await expect(characterMessages(page, cy.name)).toHaveCount(1);

  // "Let Cy speak": the muted member answers when asked.
  await (await openCast(page)).getByRole("button", { name: `Let ${cy.name} speak` }).click();
  await expect(castDialog(page)).toBeHidden();
  await expect(characterMessages(page, cy.name)).toHaveCount(2);
  const cyReply = characterMessages(page, cy.name).last();
  await expect(cyReply).toHaveAttribute("aria-busy", "false");
  // Regenerate is for a reply to the person's message (the server's rule); Cy's follows Bo's.
  await expect(cyReply.getByRole("button", { name: "Regenerate" })).toHaveCount(0);

  // Each bubble carries its speaker, and each speaker answers in a voice of its own.
  expect(await speakers(page)).toEqual([ana, bo, cy, ana, bo, cy].map((c) => ({ article: c.name, shown: c.name })));
  const replies = await Promise.all([ana, bo, cy].map((c) => shownText(characterMessages(page, c.name).last())));
  expect(new Set(replies).size).toBe(3);
  await expectAccessibleAtRest(page);
  await page.screenshot({ path: `${SHOTS}/chat-1280.png` });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: `${SHOTS}/chat-375.png` });
  await expectAccessibleAtRest(page);
  await page.setViewportSize({ width: 1280, height: 900 });
});

test("manual order: nobody answers until let; a swipe keeps its speaker; the export names every speaker", async ({ page }) => {
  await signIn(page, "Oona");
  const ana = await createCharacter(page.request, "Cheerful and loud. She laughs at danger and talks of songs.");
  const bo = await createCharacter(page.request, "Grim and terse. He speaks of steel and old wars.");
  const created = await page.request.post("/api/conversations", { data: { characterIds: [ana.id, bo.id] } });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as Conversation;
  await page.goto(`/chat/${id}`);
  await expect(characterMessages(page, bo.name)).toHaveCount(1);
  await expectChatJoined(page);
  const message = page.getByLabel(`Message ${ana.name} and ${bo.name}`);

  // In the manual order nobody answers on their own: the page is not left waiting, and Bo answers when let.
  await (await openCast(page)).getByRole("radio", { name: /^Manual/ }).click();
  await expect(castDialog(page).getByRole("radio", { name: /^Manual/ })).toBeChecked();
  await page.keyboard.press("Escape");
  await message.fill("Bo, what say you?");
  await message.press("Enter");
  await expect(log(page).getByRole("article", { name: "You" }).last()).toHaveAttribute("aria-busy", "false");
  await expect(page.getByTestId("typing-indicator")).toHaveCount(0);
  await message.fill("Anyone?");
  await expect(page.getByRole("button", { name: "Send message" })).toBeEnabled();
  await message.fill("");
  await (await openCast(page)).getByRole("button", { name: `Let ${bo.name} speak` }).click();
  await expect(characterMessages(page, bo.name)).toHaveCount(2);
  const boReply = characterMessages(page, bo.name).last();
  await expect(boReply).toHaveAttribute("aria-busy", "false");
  const first = await shownText(boReply);

  // A swipe of Bo's reply: the new version is Bo's too.
  await boReply.getByRole("button", { name: "Regenerate" }).click();
  await expect(boReply.getByText("2/2")).toBeVisible();
  await expect(boReply).toHaveAttribute("aria-busy", "false");
  await expect(characterMessages(page, bo.name)).toHaveCount(2);
  await expect(allReplies(page).last()).toHaveAttribute("aria-label", bo.name);
  await boReply.getByRole("group", { name: "Versions of this reply" }).getByRole("button", { name: "Previous version" }).click();
  await expect(boReply.getByText("1/2")).toBeVisible();
  await expect(boReply.locator("[data-message-text]")).toHaveText(first);

  // The SillyTavern export names each reply's speaker.
  await page.getByRole("button", { name: "Conversation options" }).click();
  const [jsonl] = await Promise.all([page.waitForEvent("download"), page.getByRole("menuitem", { name: "Export as SillyTavern (.jsonl)" }).click()]);
  const file = await jsonl.path();
  const lines = (await readFile(file, "utf8"))
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { name?: string; is_user?: boolean });
  expect(lines.slice(1).map((l) => (l.is_user ? "You" : l.name))).toEqual([ana.name, bo.name, "You", bo.name]);
});

test("add a character from the chat, let them speak, remove them: their reply keeps their name, after a reload too", async ({ page }) => {
  await signIn(page, "Rhea");
  const ana = await createCharacter(page.request, "Cheerful and loud. She laughs at danger.");
  const bo = await createCharacter(page.request, "Grim and terse. He speaks of steel.");
  await page.goto(`/character/${ana.id}`);
  await page.getByRole("button", { name: "Start Chat" }).click();
  await expect(page).toHaveURL(CHAT_URL);
  await expect(characterMessages(page, ana.name)).toHaveCount(1);
  await expectChatJoined(page);

  // A one-to-one chat becomes a group: "Add character" from the chat's menu, favorites first in the picker.
  await page.getByRole("button", { name: "Conversation options" }).click();
  await page.getByRole("menuitem", { name: "Add character" }).click();
  const adding = page.getByRole("dialog", { name: "Add character" });
  await expect(adding).toBeVisible();
  await adding.getByRole("searchbox", { name: "Search characters" }).fill(ana.name);
  await expect(adding.getByRole("button", { name: `Add ${ana.name}` })).toBeDisabled();
  await expect(adding.getByText("Already in this chat")).toBeVisible();
  await pick(page, bo.name, `Add ${bo.name}`);
  // Back in the cast (the page behind the dialog, toasts included, is hidden from assistive technology while it is open).
  await expect(castDialog(page).getByRole("listitem", { name: bo.name })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, includeHidden: true })).toHaveText(`${ana.name} and ${bo.name}`);

  // Bo speaks, then leaves the cast (after a confirmation): his reply stays, still under his name.
  await page.getByRole("button", { name: `Let ${bo.name} speak` }).click();
  await expect(characterMessages(page, bo.name)).toHaveCount(1);
  await expect(characterMessages(page, bo.name)).toHaveAttribute("aria-busy", "false");
  const cast = await openCast(page);
  await cast.getByRole("button", { name: `Remove ${bo.name}` }).click();
  const confirm = page.getByRole("alertdialog", { name: `Remove ${bo.name}?` });
  await confirm.getByRole("button", { name: "Remove" }).click();
  await expect(confirm).toBeHidden();
  await expect(cast.getByRole("listitem")).toHaveCount(1);
  await expect(cast.getByRole("button", { name: `Remove ${ana.name}` })).toBeDisabled();
  await cast.getByRole("button", { name: "Done" }).click();
  await expect(cast).toBeHidden();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(ana.name);
  await expect(characterMessages(page, bo.name).locator("[data-speaker]")).toHaveText(bo.name);
  await page.reload();
  await expect(characterMessages(page, bo.name).locator("[data-speaker]")).toHaveText(bo.name);
});

test("hide a message from context and keep an author's note", async ({ page }) => {
  await signIn(page, "Sela");
  const ana = await createCharacter(page.request, "Cheerful and loud. She laughs at danger.");
  await page.goto(`/character/${ana.id}`);
  await page.getByRole("button", { name: "Start Chat" }).click();
  await expect(page).toHaveURL(CHAT_URL);
  await expect(characterMessages(page, ana.name)).toHaveCount(1);
  await expectChatJoined(page);

  // Hide the greeting from context: outlined, labelled, and Unhide brings it back.
  const greeting = characterMessages(page, ana.name).first();
  await greeting.getByRole("button", { name: "More actions" }).click();
  await page.getByRole("menuitem", { name: "Hide from context" }).click();
  await expect(greeting.getByText("Hidden from context")).toBeVisible();
  await expectAccessibleAtRest(page);
  await page.reload();
  await expect(greeting.getByText("Hidden from context")).toBeVisible();
  await expectChatJoined(page);
  await greeting.getByRole("button", { name: "Unhide" }).click();
  await expect(greeting.getByText("Hidden from context")).toHaveCount(0);

  // The author's note is saved over the socket and comes back with the history.
  await page.getByRole("button", { name: "Conversation options" }).click();
  await page.getByRole("menuitem", { name: "Author's note" }).click();
  const note = page.getByRole("dialog", { name: "Author's note" });
  await note.getByLabel("Note").fill("[A storm is coming. Keep replies short.]");
  await note.getByLabel("Insert at depth").fill("2");
  await note.getByLabel("Every N messages").fill("3");
  await expectAccessibleAtRest(page);
  await note.getByRole("button", { name: "Save" }).click();
  await expect(toast(page, "Author's note savedIt steers the story from the next reply on.")).toBeVisible();
  await expect(note).toBeHidden();
  await page.reload();
  await expectChatJoined(page);
  await page.getByRole("button", { name: "Conversation options" }).click();
  await page.getByRole("menuitem", { name: "Author's note" }).click();
  await expect(note.getByLabel("Note")).toHaveValue("[A storm is coming. Keep replies short.]");
  await expect(note.getByLabel("Insert at depth")).toHaveValue("2");
  await expect(note.getByLabel("Every N messages")).toHaveValue("3");
});

test("import a SillyTavern group chat onto a chosen cast; a name nobody in the cast has is refused, naming it", async ({ page }) => {
  await signIn(page, "Iris");
  const ana = await createCharacter(page.request, "Cheerful and loud.");
  const bo = await createCharacter(page.request, "Grim and terse.");
  /** A SillyTavern group chat file: its header, then one line per message, each named by its speaker. */
  const chatFile = (speakers: string[]) => ({
    name: "group.jsonl",
    mimeType: "application/jsonl",
    buffer: Buffer.from(
      [
        { user_name: "Iris", character_name: ana.name, create_date: "2026-11-25T10:00:00.000Z", chat_metadata: {} },
        ...speakers.map((name, i) => ({
          name,
          is_user: name === "Iris",
          is_system: false,
          send_date: `2026-11-25T10:0${i}:00.000Z`,
          mes: name === "Iris" ? "Where to, friends?" : `${name} speaks, line ${i}.`,
        })),
      ]
        .map((line) => JSON.stringify(line))
        .join("\n"),
    ),
  });

  await page.goto(`/character/${ana.id}`);
  await page.getByRole("button", { name: "Start group chat" }).click();
  const dialog = page.getByRole("dialog", { name: "Start a group chat" });
  await pick(page, bo.name, `Add ${bo.name} to the group`);
  await expect(dialog.getByRole("button", { name: `Take ${bo.name} out of the group` }).first()).toBeVisible();
  await expectAccessibleAtRest(page);

  const refused = page.waitForEvent("filechooser");
  await dialog.getByRole("button", { name: "Import group chat file" }).click();
  await (await refused).setFiles(chatFile([ana.name, "Iris", bo.name, "Zedediah"]));
  await expect(dialog.getByRole("alert")).toContainText("Zedediah");
  await expect(page).toHaveURL(new RegExp(`/character/${ana.id}$`));

  const chooser = page.waitForEvent("filechooser");
  await dialog.getByRole("button", { name: "Import group chat file" }).click();
  await (await chooser).setFiles(chatFile([ana.name, "Iris", bo.name, ana.name]));
  await expect(page).toHaveURL(CHAT_URL);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`${ana.name} and ${bo.name}`);
  await expect.poll(async () => (await speakers(page)).map((s) => s.article)).toEqual([ana.name, bo.name, ana.name]);
  await expect(characterMessages(page, bo.name).locator("[data-message-text]")).toHaveText(`${bo.name} speaks, line 2.`);
});
