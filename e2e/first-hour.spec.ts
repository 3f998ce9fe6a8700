/**
 * The first hour of a newcomer (issue 26), from the person's side: what they
 * type and click, and what they then see. Chat while connecting; sign-in that
 * brings you back with your draft; Create one click away; browsing you can
 * share; adult content by choice; profiles; focus and Escape in the chat.
 * Layout checks run at 375 px where it matters.
 */
import AxeBuilder from "@axe-core/playwright";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import type { Character } from "../schema/api.ts";
import { expectAccessible, expectChatJoined, followChatSockets, letters, signInWithApi as signIn, startHeldModel, unique } from "./helpers.ts";

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const CHAT_URL = new RegExp(`/chat/(${UUID})$`);
const PHONE = { width: 375, height: 740 };
/** A 1×1 PNG: the smallest picture the upload panel takes. */
const PIXEL_PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

/** A character of the signed-in person of `request`. */
async function createCharacter(request: APIRequestContext, overrides: Record<string, unknown> = {}): Promise<Character> {
  const res = await request.post("/api/characters", {
    data: {
      name: `Wren ${letters()}`,
      description: "A lighthouse keeper for the first-hour browser test.",
      personality: "Patient, watchful and warm. She tells long stories about ships.",
      scenario: "A lighthouse on a stormy night.",
      greeting: '*The keeper lights the lamp.* "Come in out of the rain, {{user}}."',
      tags: [],
      isNsfw: false,
      ...overrides,
    },
  });
  expect(res.status()).toBe(201);
  return (await res.json()) as Character;
}

/** A new conversation with `character`, made over HTTP (SPEC.md §7). */
async function createConversation(request: APIRequestContext, character: Character): Promise<string> {
  const res = await request.post("/api/conversations", { data: { characterId: character.id, title: `Chat with ${character.name}` } });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { id: string }).id;
}

const log = (page: Page) => page.getByRole("log");
const characterMessages = (page: Page, name: string) => log(page).getByRole("article", { name, exact: true });
const userMessages = (page: Page) => log(page).getByRole("article", { name: "You", exact: true });
const messageBox = (page: Page, name: string) => page.getByLabel(`Message ${name}`);
const sendButton = (page: Page) => page.getByRole("button", { name: "Send message" });

/** The page fits the window's width: nothing sticks out sideways (phones). */
async function expectNoHorizontalScroll(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

/** Signs in at the local sign-in form the browser was sent to, as a person would. */
async function signInHere(page: Page, firstName: string): Promise<void> {
  await page.getByLabel("E-mail").fill(`${firstName.toLowerCase()}-${unique()}@example.com`);
  await page.getByLabel("First name").fill(firstName);
  await page.getByRole("button", { name: "Sign in" }).click();
}

test.describe("chat while connecting", () => {
  test("Send waits for the connection, the box says so, and what was typed stays", async ({ page }) => {
    followChatSockets(page);
    await signIn(page, "Cora");
    const character = await createCharacter(page.request);
    const id = await createConversation(page.request, character);

    // The first socket is held until the test lets it through; later ones connect at once.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const sockets: { close: (options: { code: number; reason: string }) => Promise<void> }[] = [];
    await page.routeWebSocket(/\/ws\?conversationId=/, async (ws) => {
      sockets.push(ws);
      if (sockets.length === 1) await held;
      ws.connectToServer();
    });

    await page.goto(`/chat/${id}`);
    const box = messageBox(page, character.name);
    await expect(box).toHaveAttribute("placeholder", "Connecting…");
    await box.fill("Is the lamp lit?");
    await box.press("Enter");
    await expect(sendButton(page)).toBeDisabled();
    await expect(box).toHaveValue("Is the lamp lit?");
    await expect(userMessages(page)).toHaveCount(0);

    // Connected: the same text goes with one press.
    release();
    await expectChatJoined(page);
    await expect(box).toHaveAttribute("placeholder", "Type your message...");
    await expect(sendButton(page)).toBeEnabled();
    await box.press("Enter");
    await expect(userMessages(page)).toHaveText(["Is the lamp lit?"]);
    await expect(box).toHaveValue("");
    await expect(characterMessages(page, character.name).nth(1)).toHaveAttribute("aria-busy", "false");

    // The connection drops: the box says it is reconnecting, and keeps the next words until it is back.
    await sockets[0]!.close({ code: 4001, reason: "dropped by the test" });
    await expect(box).toHaveAttribute("placeholder", "Reconnecting…");
    await box.fill("Hello?");
    await box.press("Enter");
    await expect(box).toHaveValue("Hello?");
    await expect(sendButton(page)).toBeDisabled();
    await expect(box).toHaveAttribute("placeholder", "Type your message...");
    await expect(sendButton(page)).toBeEnabled();
    await expect(box).toHaveValue("Hello?");
  });
});

test.describe("sign-in keeps your place", () => {
  test("a visitor's comment survives signing in, and they land back on the character page", async ({ page }) => {
    // A creator makes the character; the visitor comes in another browser context.
    const maker = await page.context().browser()!.newContext({ baseURL: test.info().project.use.baseURL });
    const makerPage = await maker.newPage();
    await signIn(makerPage, "Maker");
    const character = await createCharacter(makerPage.request);
    await maker.close();

    const path = `/character/${character.id}`;
    await page.goto(path);
    await page.getByRole("textbox", { name: "Write a comment" }).fill("The lighthouse scene made me cry.");
    await page.getByRole("button", { name: "Post Comment" }).click();
    await expect(page).toHaveURL(`/api/login?returnTo=${encodeURIComponent(path)}`);

    await signInHere(page, "Vera");
    await expect(page).toHaveURL(path);
    const box = page.getByRole("textbox", { name: "Write a comment" });
    await expect(box).toHaveValue("The lighthouse scene made me cry.");
    await page.getByRole("button", { name: "Post Comment" }).click();
    await expect(page.getByRole("list", { name: "Comments" }).getByText("The lighthouse scene made me cry.")).toBeVisible();
    await expect(box).toHaveValue("");
    // Posted: the draft is gone for good.
    await page.reload();
    await expect(page.getByRole("textbox", { name: "Write a comment" })).toHaveValue("");
  });

  test("Favorite and Start Chat send a visitor to sign in and back to the same page", async ({ page }) => {
    const maker = await page.context().browser()!.newContext({ baseURL: test.info().project.use.baseURL });
    const makerPage = await maker.newPage();
    await signIn(makerPage, "Maker");
    const character = await createCharacter(makerPage.request);
    await maker.close();
    const path = `/character/${character.id}`;
    const signInUrl = `/api/login?returnTo=${encodeURIComponent(path)}`;

    await page.goto(path);
    await page.getByRole("button", { name: `0, add ${character.name} to favorites` }).click();
    await expect(page).toHaveURL(signInUrl);
    await page.goto(path);
    await page.getByRole("button", { name: "Start Chat" }).click();
    await expect(page).toHaveURL(signInUrl);
    await signInHere(page, "Quinn");
    await expect(page).toHaveURL(path);
    await page.getByRole("button", { name: "Start Chat" }).click();
    await expect(page).toHaveURL(CHAT_URL);
  });
});

test.describe("focus and Escape in the chat", () => {
  test("the message box gets the focus back after memory and after an edit; Escape stops a reply", async ({ page }) => {
    followChatSockets(page);
    await signIn(page, "Esme");
    // Replies come from a model that never finishes on its own, so Escape always meets one being written.
    const model = await startHeldModel();
    try {
      const connection = await page.request.post("/api/model-connections", {
        data: { name: "Held model", kind: "openai", baseUrl: model.baseUrl, model: "held-model", isDefault: true },
      });
      expect(connection.status()).toBe(201);
      const character = await createCharacter(page.request);
      const id = await createConversation(page.request, character);
      await page.goto(`/chat/${id}`);
      await expectChatJoined(page);
      const box = messageBox(page, character.name);

      // Memory, closed with Escape: back in the message box.
      await page.getByRole("button", { name: "Conversation options" }).click();
      await page.getByRole("menuitem", { name: "Memory" }).click();
      await expect(page.getByRole("dialog", { name: "Memory" })).toBeVisible();
      await page.keyboard.press("Escape");
      await expect(page.getByRole("dialog", { name: "Memory" })).toBeHidden();
      await expect(box).toBeFocused();

      // Escape while the reply is being written stops it.
      await box.fill("Tell me the longest story you know about the ships.");
      await box.press("Enter");
      const reply = characterMessages(page, character.name).nth(1);
      await expect(reply).toHaveAttribute("aria-busy", "true");
      await page.keyboard.press("Escape");
      await expect(reply).toHaveAttribute("aria-busy", "false");
      await expect(reply.getByText("Stopped", { exact: true })).toBeVisible();

      // An edit saved: back in the message box.
      const mine = userMessages(page).first();
      await mine.getByRole("button", { name: "More actions" }).click();
      await page.getByRole("menuitem", { name: "Edit", exact: true }).click();
      const editor = mine.getByRole("textbox", { name: "Edit your message" });
      await editor.fill("Tell me a short story instead.");
      await mine.getByRole("button", { name: "Save" }).click();
      await expect(editor).toHaveCount(0);
      await expect(box).toBeFocused();
    } finally {
      await model.close();
    }
  });

  test("the favorite button's name says the count it shows", async ({ page }) => {
    await signIn(page, "Fern");
    const character = await createCharacter(page.request);
    await page.goto(`/character/${character.id}`);
    const heart = page.getByRole("button", { name: `0, add ${character.name} to favorites` });
    await expect(heart).toHaveText("0");
    await heart.click();
    await expect(page.getByRole("button", { name: `1, remove ${character.name} from favorites` })).toHaveText("1");
    const results = await new AxeBuilder({ page }).withRules(["label-content-name-mismatch"]).analyze();
    expect(results.violations.map((v) => v.nodes.map((n) => n.target.join(" "))).flat()).toEqual([]);
  });
});

test.describe("create is one click away", () => {
  test("on a phone: Create Character from the header, the greeting in the main form, Edit Character on your own page", async ({ page }) => {
    await page.setViewportSize(PHONE);
    await signIn(page, "Ada");
    await page.goto("/");
    await page.getByRole("link", { name: "Create Character" }).click();
    await expect(page).toHaveURL(/\/create-character$/);

    const name = `Keeper ${letters()}`;
    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByLabel("Description", { exact: true }).fill("A lighthouse keeper who collects other people's secrets.");
    await page.getByLabel("Personality", { exact: true }).fill("Quiet, observant, with a dry sense of humour.");
    // The greeting is right there, not behind "Advanced".
    const greeting = page.getByLabel("Greeting (first message)");
    await expect(greeting).toBeVisible();
    await expect(page.getByRole("button", { name: /Advanced \(character card\)/ })).toHaveAttribute("aria-expanded", "false");
    await greeting.fill("*The lamp swings toward you.* Another ship lost in the fog?");
    await page.getByRole("button", { name: "Create Character" }).click();
    await expect(page).toHaveURL(/\/my-characters$/);

    const mine = (await (await page.request.get("/api/my-characters")).json()) as Character[];
    const created = mine.find((c) => c.name === name)!;
    expect(created.greeting).toBe("*The lamp swings toward you.* Another ship lost in the fog?");
    await page.goto(`/character/${created.id}`);
    await expect(page.getByRole("link", { name: "Create Character" })).toBeVisible();
    await expectNoHorizontalScroll(page);
    await page.getByRole("link", { name: "Edit Character" }).click();
    await expect(page).toHaveURL(new RegExp(`/edit-character/${created.id}$`));
    await expect(page.getByLabel("Greeting (first message)")).toHaveValue(/Another ship lost in the fog/);
  });

  test("someone else's character has no Edit button; visitors have no Create Character", async ({ page, browser, baseURL }) => {
    const makerContext = await browser.newContext({ baseURL });
    const maker = await makerContext.newPage();
    await signIn(maker, "Maker");
    const character = await createCharacter(maker.request);
    await makerContext.close();

    await page.goto(`/character/${character.id}`);
    await expect(page.getByRole("button", { name: "Start Chat" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Create Character" })).toHaveCount(0);
    await signIn(page, "Other");
    await page.reload();
    await expect(page.getByRole("link", { name: "Create Character" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Edit Character" })).toHaveCount(0);
  });
});

test.describe("browsing you can share", () => {
  test("a tag leads to Home filtered by it; tab, search and tags are in the address, shareable, with Back and Forward", async ({ page, browser, baseURL }) => {
    const makerContext = await browser.newContext({ baseURL });
    const maker = await makerContext.newPage();
    await signIn(maker, "Maker");
    const tag = `t${letters()}`;
    const first = await createCharacter(maker.request, { name: `Harbor ${letters()}`, tags: [tag] });
    await createCharacter(maker.request, { name: `Beacon ${letters()}`, tags: [tag] });
    await makerContext.close();

    await page.goto(`/character/${first.id}`);
    await page.getByRole("list", { name: "Tags" }).getByRole("link", { name: tag }).click();
    await expect(page).toHaveURL(`/?tags=${tag}`);
    await expect(page.getByText("2 results found", { exact: true })).toBeVisible();
    await expect(page.getByText("Selected Filters (1)")).toBeVisible();

    await page.getByRole("tab", { name: "New" }).click();
    await expect(page).toHaveURL(`/?tab=new&tags=${tag}`);
    const word = first.name.split(" ")[1]!;
    await page.getByPlaceholder("Search characters...").fill(word);
    await expect(page).toHaveURL(`/?tab=new&q=${word}&tags=${tag}`);
    await expect(page.getByText("1 results found", { exact: true })).toBeVisible();

    // Shared: another visitor opening the address sees the same.
    const shared = await browser.newContext({ baseURL });
    const friend = await shared.newPage();
    await friend.goto(page.url());
    await expect(friend.getByRole("tab", { name: "New" })).toHaveAttribute("aria-selected", "true");
    await expect(friend.getByPlaceholder("Search characters...")).toHaveValue(word);
    await expect(friend.getByText("Selected Filters (1)")).toBeVisible();
    await expect(friend.getByText("1 results found", { exact: true })).toBeVisible();
    await shared.close();

    // Back steps over the typing to the tab change, then to the tag alone; Forward returns.
    await page.goBack();
    await expect(page).toHaveURL(`/?tags=${tag}`);
    await expect(page.getByRole("tab", { name: "For You" })).toHaveAttribute("aria-selected", "true");
    await expect(page.getByPlaceholder("Search characters...")).toHaveValue("");
    await expect(page.getByText("2 results found", { exact: true })).toBeVisible();
    await page.goForward();
    await expect(page.getByRole("tab", { name: "New" })).toHaveAttribute("aria-selected", "true");
    await expect(page.getByPlaceholder("Search characters...")).toHaveValue(word);
    await expect(page.getByText("1 results found", { exact: true })).toBeVisible();

    // The card's tags are links too.
    const card = page.getByRole("article").filter({ has: page.getByRole("link", { name: first.name, exact: true }) });
    await expect(card.getByRole("link", { name: tag, exact: true })).toHaveAttribute("href", `/?tags=${tag}`);
  });

  test("search finds characters by their creator's name", async ({ page, browser, baseURL }) => {
    const makerContext = await browser.newContext({ baseURL });
    const maker = await makerContext.newPage();
    await signIn(maker, "Maker");
    const character = await createCharacter(maker.request);
    await makerContext.close();

    await page.goto("/");
    await page.getByPlaceholder("Search characters...").fill(character.creator);
    const card = page.getByRole("article").filter({ has: page.getByRole("link", { name: character.name, exact: true }) });
    await expect(card).toHaveCount(1);
    await expect(card.getByText(`@${character.creator}`)).toBeVisible();
  });

  test("with NSFW off, a tag's count is what choosing it finds", async ({ page }) => {
    await page.goto("/");
    const sidebar = page.getByRole("complementary");
    const tagButtons = sidebar.getByRole("button", { name: /^.+, [\d.,k]+ characters$/ });
    await expect(tagButtons.first()).toBeVisible();
    for (let i = 0; i < 3; i++) {
      const name = (await tagButtons.nth(i).getAttribute("aria-label")) ?? (await tagButtons.nth(i).innerText());
      const label = (await tagButtons.nth(i).evaluate((el) => el.textContent ?? "")).replace(/\s+/g, " ").trim();
      const match = /^(.+?)\s*,\s*(\d+) characters$/.exec(label);
      expect(match, `${name} / ${label}`).not.toBeNull();
      const [, tag, count] = match!;
      await tagButtons.nth(i).click();
      await expect(page.getByText(`${count} results found`, { exact: true })).toBeVisible();
      await page.getByRole("button", { name: new RegExp(`remove.*${tag}`, "i") }).click();
      await expect(page.getByText("Selected Filters (1)")).toBeHidden();
    }
  });
});

test.describe("adult content, deliberately", () => {
  const nsfwSwitch = (page: Page) => page.getByRole("switch", { name: "Show NSFW" }).first();
  const ageDialog = (page: Page) => page.getByRole("alertdialog", { name: "Are you 18 or older?" });

  test("a visitor confirms 18+ the first time; the choice is remembered in the browser; a new visitor starts with it off", async ({
    page,
    browser,
    baseURL,
  }) => {
    await page.goto("/");
    await expect(nsfwSwitch(page)).not.toBeChecked();
    await nsfwSwitch(page).click();
    await expect(ageDialog(page)).toBeVisible();
    await expectAccessible(page);
    await ageDialog(page).getByRole("button", { name: "Cancel" }).click();
    await expect(ageDialog(page)).toBeHidden();
    await expect(nsfwSwitch(page)).not.toBeChecked();
    await expect(page).toHaveURL(/\/$/);

    await nsfwSwitch(page).click();
    await ageDialog(page).getByRole("button", { name: "I am 18 or older" }).click();
    await expect(nsfwSwitch(page)).toBeChecked();
    await expect(page).toHaveURL(/\/\?nsfw=true$/);

    // Remembered: a fresh visit to Home has it on, and off again needs no question.
    await page.goto("/");
    await expect(nsfwSwitch(page)).toBeChecked();
    await nsfwSwitch(page).click();
    await expect(nsfwSwitch(page)).not.toBeChecked();
    await nsfwSwitch(page).click();
    await expect(ageDialog(page)).toHaveCount(0);
    await expect(nsfwSwitch(page)).toBeChecked();

    const other = await browser.newContext({ baseURL });
    const stranger = await other.newPage();
    await stranger.goto("/");
    await expect(nsfwSwitch(stranger)).not.toBeChecked();
    // A shared link asking for NSFW asks a visitor who never confirmed; cancelling leaves it off.
    await stranger.goto("/?nsfw=true");
    await expect(ageDialog(stranger)).toBeVisible();
    await ageDialog(stranger).getByRole("button", { name: "Cancel" }).click();
    await expect(nsfwSwitch(stranger)).not.toBeChecked();
    await expect(stranger).toHaveURL(/\/$/);
    await other.close();
  });

  test("a signed-in person's choice and confirmation are kept in their profile, on every device", async ({ page, browser, baseURL }) => {
    const email = `nadia-${unique()}@example.com`;
    const signInAs = async (p: Page) => expect((await p.request.post("/api/login/dev", { data: { email, firstName: "Nadia" } })).ok()).toBe(true);
    await signInAs(page);
    await page.goto("/");
    await expect(nsfwSwitch(page)).not.toBeChecked();
    await nsfwSwitch(page).click();
    await ageDialog(page).getByRole("button", { name: "I am 18 or older" }).click();
    await expect(nsfwSwitch(page)).toBeChecked();
    await expect
      .poll(async () => ((await (await page.request.get("/api/profile/content")).json()) as { adultConfirmedAt: number | null }).adultConfirmedAt)
      .not.toBeNull();

    // Another device: signed in as the same person, NSFW is on, with no question.
    const otherContext = await browser.newContext({ baseURL });
    const other = await otherContext.newPage();
    await signInAs(other);
    await other.goto("/");
    await expect(nsfwSwitch(other)).toBeChecked();
    await expect(ageDialog(other)).toHaveCount(0);
    await otherContext.close();
  });
});

test.describe("profiles", () => {
  test("on a phone: upload a profile picture, write a bio, and see the new name in the header and the bio on your page", async ({ page }) => {
    await page.setViewportSize(PHONE);
    const me = await signIn(page, "Pia");
    await page.goto("/profile");
    await expect(page.locator(".uppy-Dashboard")).toBeVisible();
    await expectAccessible(page);
    const dashboard = page.locator(".uppy-Dashboard");
    await dashboard.locator("input.uppy-Dashboard-input").first().setInputFiles({ name: "me.png", mimeType: "image/png", buffer: PIXEL_PNG });
    await expect(page.getByLabel("Profile Image URL (Optional)")).toHaveValue(/^\/objects\/avatars\/[\w-]+\/[\w-]+$/);

    const bio = page.getByLabel("Bio (Optional)");
    await bio.fill("I write lighthouse keepers and the storms that find them.");
    await expect(page.getByText("57/500")).toBeVisible();
    await page.getByLabel("Display Name").fill("Captain Pia");
    await expectNoHorizontalScroll(page);
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect(page.getByText("Your profile has been updated successfully.").first()).toBeVisible();

    // The header names the person by the new display name at once (on a phone, the menu button's name).
    await expect(page.getByRole("button", { name: "Captain Pia" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Captain Pia" }).locator("img")).toHaveAttribute("src", /\/objects\/avatars\//);

    await page.goto(`/u/${me.username.slice(1)}`);
    await expect(page.getByRole("heading", { level: 1, name: "Captain Pia" })).toBeVisible();
    await expect(page.getByText("I write lighthouse keepers and the storms that find them.")).toBeVisible();
    await expectNoHorizontalScroll(page);

    // Over 500 characters: the form says so and nothing is saved.
    await page.goto("/profile");
    await page.getByLabel("Bio (Optional)").fill("x".repeat(501));
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect(page.getByText("Bio is too long (at most 500 characters)")).toBeVisible();
  });
});
