/**
 * Real-time chat in Chromium, as SPEC.md §2 ("Chat"), §4 ("Start chat",
 * "Chat send", "Real-time connection", "New conversation from chat menu")
 * and §8 describe, with the protocol additions of DESIGN.md (streamed
 * deltas, history_sync after reconnects, regenerate, swipes, stop, ratings). The
 * offline chat model answers, a word every 25 ms, so a reply streams for
 * about a second. Every test signs in as a new person (local sign-in).
 */
import { type APIRequestContext, type Browser, expect, type Locator, type Page, test, type WebSocketRoute } from "@playwright/test";
import type { Character, CharacterListResponse, CurrentUser } from "../schema/api.ts";
import type { ChatMessage, Conversation, ConversationSummary } from "../schema/chat.ts";
import {
  expectAccessible,
  expectChatJoined,
  expectSentToSignIn,
  followChatSockets,
  letters,
  signInWithApi as signIn,
  startHeldModel,
  toast,
  unique,
} from "./helpers.ts";

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const CHAT_URL = new RegExp(`/chat/(${UUID})$`);




const GREETING =
  '*The knight looks up from the campfire.* "Well met, {{user}}." **draws her sword and salutes** "The road north is dangerous tonight."';

/** A character of the signed-in person of `request` with a greeting in roleplay formatting. */
async function createCharacter(request: APIRequestContext): Promise<Character> {
  const res = await request.post("/api/characters", {
    data: {
      name: `Sir ${letters()}`,
      description: "A wandering knight for the chat browser test.",
      personality: "Brave, dry-humoured and loyal. She speaks plainly and protects travellers.",
      scenario: "A campfire on the road north.",
      greeting: GREETING,
      tags: [],
      isNsfw: false,
    },
  });
  expect(res.status()).toBe(201);
  return (await res.json()) as Character;
}

/** Any character from the public catalog (for visitors). */
async function someCharacter(request: APIRequestContext): Promise<Character> {
  const list = (await (await request.get("/api/characters?showNsfw=false&nsfw=false&limit=1")).json()) as CharacterListResponse;
  return list.characters[0] as Character;
}

const log = (page: Page) => page.getByRole("log");
const characterMessages = (page: Page, name: string) => log(page).getByRole("article", { name, exact: true });
const userMessages = (page: Page) => log(page).getByRole("article", { name: "You", exact: true });
const input = (page: Page, name: string) => page.getByLabel(`Message ${name}`);
const sendButton = (page: Page) => page.getByRole("button", { name: "Send message" });
const footer = (page: Page, count: number) =>
  page.getByText(`All stories and characters are fictional • ${count} messages in this conversation`, {
    exact: true,
  });
const normal = (text: string | null) => (text ?? "").replace(/\s+/g, " ").trim();
/** The text of a message as shown (its bubble, without the buttons under it). */
const shownText = async (message: Locator) => normal(await message.locator("[data-message-text]").textContent());

/**
 * Records, from now on, what the chat log shows while a reply arrives: whether
 * the typing indicator appeared, and each text of the newest character
 * message while it was still being written (aria-busy).
 */
async function recordReply(page: Page, name: string): Promise<void> {
  await page.evaluate((characterName) => {
    const root = document.querySelector('[role="log"]')!;
    const seen = { typing: false, partial: [] as string[] };
    (window as unknown as { __reply: typeof seen }).__reply = seen;
    new MutationObserver(() => {
      if (root.querySelector('[data-testid="typing-indicator"]')) seen.typing = true;
      const articles = root.querySelectorAll(`article[aria-label="${CSS.escape(characterName)}"]`);
      const last = articles[articles.length - 1];
      if (last?.getAttribute("aria-busy") === "true") {
        const text = (last.querySelector("[data-message-text]")?.textContent ?? "").replace(/\s+/g, " ").trim();
        if (text && seen.partial.at(-1) !== text) seen.partial.push(text);
      }
    }).observe(root, { subtree: true, childList: true, characterData: true, attributes: true });
  }, name);
}

async function recorded(page: Page): Promise<{ typing: boolean; partial: string[] }> {
  return page.evaluate(() => (window as unknown as { __reply: { typing: boolean; partial: string[] } }).__reply);
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

// A chat page shows its messages before its socket has joined; sending waits for the join (expectChatJoined).
test.beforeEach(({ page }) => followChatSockets(page));

/** A held loopback model a test started (startHeldModel), closed after it whatever happened. */
let heldModel: Awaited<ReturnType<typeof startHeldModel>> | null = null;
test.afterEach(async () => {
  await heldModel?.close();
  heldModel = null;
});

test("start a chat, watch the reply stream in, reload, start a new conversation, find both in My Chats", async ({ page }) => {
  const me = await signIn(page, "Nora");
  const character = await createCharacter(page.request);

  // The character page: Start Chat creates the conversation and opens it.
  await page.goto(`/character/${character.id}`);
  await page.getByRole("button", { name: "Start Chat" }).click();
  await expect(page).toHaveURL(CHAT_URL);
  const firstId = CHAT_URL.exec(page.url())![1]!;
  const conversation = (await (await page.request.get(`/api/conversations/${firstId}`)).json()) as Conversation;
  expect(conversation).toMatchObject({ characterId: character.id, title: `Chat with ${character.name}` });

  // Header: back link, name, @creator, offline notice.
  await expect(page.getByRole("heading", { level: 1, name: character.name })).toBeVisible();
  await expect(page.getByText(`@${character.creator}`, { exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: `Back to ${character.name}` })).toHaveAttribute("href", `/character/${character.id}`);
  await expect(page.getByText("Offline demo model — replies are generated locally from the character card")).toBeVisible();

  // The greeting is the first message, {{user}} filled in, with its actions styled.
  const greeting = characterMessages(page, character.name).first();
  await expect(greeting).toContainText(`"Well met, ${me.firstName}."`);
  const action = greeting.locator('em[data-segment="action"]');
  await expect(action).toHaveText("draws her sword and salutes");
  await expect(action).toHaveCSS("font-style", "italic");
  await expect(action).toHaveClass(/text-pink-400/);
  await expect(greeting.locator('em[data-segment="emote"]')).toHaveText("The knight looks up from the campfire.");
  await expect(greeting).not.toContainText("*");
  await expect(footer(page, 1)).toBeVisible();

  // Send with Enter: the message shows at once, the input empties, the reply streams in.
  await recordReply(page, character.name);
  const reply = await sendAndAwaitReply(page, character.name, "Which road should we take to the mountains?");
  await expect(userMessages(page)).toHaveText(["Which road should we take to the mountains?"]);
  await expect(input(page, character.name)).toHaveValue("");
  const seen = await recorded(page);
  expect(seen.typing).toBe(true);
  expect(seen.partial.length).toBeGreaterThan(1);
  // Every intermediate text is a beginning of the final one, growing; the first is well short of it.
  for (const partial of seen.partial) expect(reply.startsWith(partial)).toBe(true);
  expect(seen.partial.map((p) => p.length)).toEqual([...seen.partial.map((p) => p.length)].sort((a, b) => a - b));
  expect(seen.partial[0]!.length).toBeLessThan(reply.length / 2);
  await expect(footer(page, 3)).toBeVisible();
  await expect(page.getByTestId("typing-indicator")).toHaveCount(0);
  await expectAccessible(page);

  // Reload: the history is kept, nothing doubled.
  await page.reload();
  await expect(characterMessages(page, character.name)).toHaveCount(2);
  await expect(userMessages(page)).toHaveText(["Which road should we take to the mountains?"]);
  expect(await shownText(characterMessages(page, character.name).nth(1))).toBe(reply);
  const stored = (await (await page.request.get(`/api/conversations/${firstId}/messages`)).json()) as ChatMessage[];
  expect(stored.map((m) => m.isUser)).toEqual([false, true, false]);

  // The menu starts a fresh conversation; the previous one stays.
  await page.getByRole("button", { name: "Conversation options" }).click();
  await page.getByRole("menuitem", { name: "Start a New Conversation" }).click();
  await expect(toast(page, "New conversation started")).toBeVisible();
  await expect(toast(page, "You're now in a fresh conversation. Previous history is preserved.")).toBeVisible();
  await expect(page).not.toHaveURL(new RegExp(firstId));
  await expect(page).toHaveURL(CHAT_URL);
  const secondId = CHAT_URL.exec(page.url())![1]!;
  await expect(characterMessages(page, character.name)).toHaveCount(1);
  await expect(userMessages(page)).toHaveCount(0);
  await expect(footer(page, 1)).toBeVisible();

  // My Chats, from the user menu: both, latest activity first, linking back.
  await page.getByRole("button", { name: "Nora" }).click();
  await page.getByRole("menuitem", { name: "My Chats" }).click();
  await expect(page).toHaveURL(/\/chats$/);
  await expect(page.getByRole("heading", { name: "My Chats", level: 1 })).toBeVisible();
  const rows = page.getByRole("main").getByRole("listitem").getByRole("link");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toHaveAttribute("href", `/chat/${secondId}`);
  await expect(rows.nth(1)).toHaveAttribute("href", `/chat/${firstId}`);
  await expect(rows.nth(1)).toContainText(character.name);
  await expect(rows.nth(1)).toContainText(`Chat with ${character.name}`);
  await expect(rows.nth(1)).toContainText(reply.slice(0, 30));
  await expect(rows.nth(1).locator("time")).toHaveText(/ ago$/);
  const list = (await (await page.request.get("/api/conversations")).json()) as ConversationSummary[];
  expect(list.map((c) => c.id)).toEqual([secondId, firstId]);
  await expectAccessible(page);
  await rows.nth(1).click();
  await expect(page).toHaveURL(new RegExp(`/chat/${firstId}$`));
  await expect(userMessages(page)).toHaveText(["Which road should we take to the mountains?"]);
});

test("the input: Send disabled when empty or waiting, Shift+Enter adds a line, the box grows to 120 px and resets", async ({ page }) => {
  await signIn(page, "Ivo");
  // Replies come from a model that holds them open until stopped: the wait is there however fast the machine.
  const model = (heldModel = await startHeldModel());
  const connection = await page.request.post("/api/model-connections", {
    data: { name: "Held model", kind: "openai", baseUrl: model.baseUrl, model: "held-model", isDefault: true },
  });
  expect(connection.status()).toBe(201);
  const character = await createCharacter(page.request);
  await page.goto(`/character/${character.id}`);
  await page.getByRole("button", { name: "Start Chat" }).click();
  await expect(page).toHaveURL(CHAT_URL);

  const box = input(page, character.name);
  await expect(box).toBeVisible();
  const height = async () => (await box.boundingBox())!.height;
  expect(await height()).toBeCloseTo(44, 0);
  await expect(sendButton(page)).toBeDisabled();
  await box.fill("   \n  ");
  await expect(sendButton(page)).toBeDisabled();
  await box.press("Enter"); // nothing to send
  await expect(userMessages(page)).toHaveCount(0);

  await box.fill("");
  await box.pressSequentially("First line");
  await box.press("Shift+Enter");
  await box.pressSequentially("second line");
  await expect(box).toHaveValue("First line\nsecond line");
  await expect(sendButton(page)).toBeEnabled();
  const twoLines = await height();
  expect(twoLines).toBeGreaterThan(44);
  for (let i = 0; i < 8; i++) await box.press("Shift+Enter");
  expect(await height()).toBeCloseTo(120, 0);

  await expectChatJoined(page);
  await box.fill("Tell me a long story about the mountains and the road north");
  await sendButton(page).click();
  await expect(box).toHaveValue("");
  expect(await height()).toBeCloseTo(44, 0);
  // Waiting for the reply: typing is allowed, sending is not.
  await box.fill("Another one");
  await expect(sendButton(page)).toBeDisabled();
  await page.getByRole("button", { name: "Stop the reply" }).click();
  await expect(characterMessages(page, character.name).nth(1)).toHaveAttribute("aria-busy", "false");
  await expect(sendButton(page)).toBeEnabled();
  await expect(box).toHaveValue("Another one");
});

test("regenerate adds a version; swiping back to it is what the chat goes on from, in every tab and after a reload; thumbs; Stop", async ({
  page,
}) => {
  // Three replies, two tabs, a reload and a stop: longer than one minute while vitest shares the machine.
  test.slow();
  // The type of every frame this tab sends over its chat sockets: which clicks reach the server.
  const sentFrames: string[] = [];
  page.on("websocket", (socket) =>
    socket.on("framesent", ({ payload }) => {
      try {
        sentFrames.push((JSON.parse(String(payload)) as { type: string }).type);
      } catch {
        sentFrames.push("(not JSON)");
      }
    }),
  );
  await signIn(page, "Pia");
  const character = await createCharacter(page.request);
  await page.goto(`/character/${character.id}`);
  await page.getByRole("button", { name: "Start Chat" }).click();
  await expect(page).toHaveURL(CHAT_URL);
  const id = CHAT_URL.exec(page.url())![1]!;
  const storedMessages = async () => (await (await page.request.get(`/api/conversations/${id}/messages`)).json()) as ChatMessage[];
  /** A stored message's text as a bubble shows it (actions lose their asterisks). */
  const asShown = (message: ChatMessage | undefined) => normal((message?.content ?? "").replace(/\*/g, ""));

  // The greeting alone: nothing to regenerate or rate.
  await expect(characterMessages(page, character.name)).toHaveCount(1);
  await expect(page.getByRole("button", { name: "Regenerate" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Good reply" })).toHaveCount(0);

  const first = await sendAndAwaitReply(page, character.name, "Tell me about your sword");
  await page.getByRole("button", { name: "Regenerate" }).click();
  const last = characterMessages(page, character.name).last();
  await expect(last.getByText("2/2")).toBeVisible();
  await expect(last).toHaveAttribute("aria-busy", "false");
  await expect(characterMessages(page, character.name)).toHaveCount(2);
  const second = await shownText(last);
  expect(second).not.toBe(first);

  // A second tab of the same conversation follows the swipes.
  const otherTab = await page.context().newPage();
  await otherTab.goto(`/chat/${id}`);
  const otherLast = characterMessages(otherTab, character.name).last();
  await expect(otherLast.getByText("2/2")).toBeVisible();

  // Swipe back: the earlier version is now the reply, here, in the other tab and on the server.
  const versions = last.getByRole("group", { name: "Versions of this reply" });
  await versions.getByRole("button", { name: "Previous version" }).click();
  await expect(last.getByText("1/2")).toBeVisible();
  await expect(last.locator("[data-message-text]")).toHaveText(first);
  await expect(versions.getByText("Version 1 of 2")).toBeAttached();
  await expect(versions.getByRole("button", { name: "Previous version" })).toBeDisabled();
  await expect(last.getByText(/Not the version the chat went on from/)).toHaveCount(0);
  await expect(otherLast.getByText("1/2")).toBeVisible();
  await expect(otherLast.locator("[data-message-text]")).toHaveText(first);
  await expect.poll(async () => asShown((await storedMessages()).at(-1))).toBe(first);
  // The recorder sees a swipe when one is sent (it is relied on below).
  expect(sentFrames).toContain("swipe");
  await otherTab.close();

  // Forward and back again; the thumbs belong to the reply, whichever version it shows.
  await versions.getByRole("button", { name: "Next version" }).click();
  await expect(last.getByText("2/2")).toBeVisible();
  await expect(last.locator("[data-message-text]")).toHaveText(second);
  const up = last.getByRole("button", { name: "Good reply" });
  const down = last.getByRole("button", { name: "Bad reply" });
  await up.click();
  await expect(up).toHaveAttribute("aria-pressed", "true");
  await down.click();
  await expect(down).toHaveAttribute("aria-pressed", "true");
  await expect(up).toHaveAttribute("aria-pressed", "false");
  await versions.getByRole("button", { name: "Previous version" }).click();
  await expect(last.getByText("1/2")).toBeVisible();
  await expect(down).toHaveAttribute("aria-pressed", "true");
  await expect.poll(async () => (await storedMessages()).at(-1)?.rating).toBe(-1);
  await expect.poll(async () => asShown((await storedMessages()).at(-1))).toBe(first);
  await expectAccessible(page);

  // The chat goes on from the chosen version; after a reload it is still the one shown.
  await sendAndAwaitReply(page, character.name, "And what about your shield?");
  await page.reload();
  const chosen = characterMessages(page, character.name).nth(1);
  await expect(chosen.getByText("1/2")).toBeVisible();
  await expect(chosen.locator("[data-message-text]")).toHaveText(first);
  await expect(chosen.getByRole("button", { name: "Bad reply" })).toHaveAttribute("aria-pressed", "true");
  const stored = await storedMessages();
  expect(stored.map((m) => m.isUser)).toEqual([false, true, false, true, false]);
  expect(asShown(stored[2])).toBe(first);
  expect(stored[2]).toMatchObject({ swipeIndex: 0, alternatives: [expect.any(String)] });
  // An earlier reply's other version can be looked at, not chosen.
  const framesBefore = sentFrames.length;
  await chosen.getByRole("button", { name: "Next version" }).click();
  await expect(chosen.locator("[data-message-text]")).toHaveText(second);
  await expect(chosen.getByText("Not the version the chat went on from (1/2)")).toBeVisible();
  // Looking sent nothing to the server but perhaps the keep-alive (a swipe is sent in the click, before
  // the page shows its result), and the stored reply is unchanged.
  expect(sentFrames.slice(framesBefore).filter((type) => type !== "ping")).toEqual([]);
  expect(asShown((await storedMessages())[2])).toBe(first);
  await chosen.getByRole("button", { name: "Previous version" }).click();
  await expect(chosen.getByText("Not the version the chat went on from (1/2)")).toHaveCount(0);

  // Stop: the reply ends early and is kept as far as it got. It comes from a model that holds it open
  // until stopped (picked for this chat), so Stop always meets a reply being written.
  const model = (heldModel = await startHeldModel());
  const held = await page.request.post("/api/model-connections", {
    data: { name: "Held model", kind: "openai", baseUrl: model.baseUrl, model: "held-model", isDefault: false },
  });
  expect(held.status()).toBe(201);
  const { id: heldId } = (await held.json()) as { id: string };
  expect((await page.request.patch(`/api/conversations/${id}`, { data: { modelConnectionId: heldId } })).ok()).toBe(true);
  await input(page, character.name).fill("Now tell me everything about the road north and the mountains beyond it");
  await input(page, character.name).press("Enter");
  const streaming = characterMessages(page, character.name).nth(3);
  await expect(streaming).toHaveAttribute("aria-busy", "true");
  await page.getByRole("button", { name: "Stop the reply" }).click();
  await expect(streaming).toHaveAttribute("aria-busy", "false");
  await expect(streaming.getByText("Stopped", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Stop the reply" })).toHaveCount(0);
  await expect(input(page, character.name)).toBeFocused();
});

test("a dropped connection reconnects, loses nothing and doubles nothing; a message sent while disconnected stays in the input", async ({
  page,
}) => {
  await signIn(page, "Remy");
  const character = await createCharacter(page.request);
  // Every chat socket goes through here (to the real server), so the test can drop one.
  const sockets: WebSocketRoute[] = [];
  /** Per socket: whether the server has answered its join (history_sync); until then a send is dropped. */
  const joined: boolean[] = [];
  await page.routeWebSocket(/\/ws\?conversationId=/, (ws) => {
    const index = sockets.push(ws) - 1;
    joined[index] = false;
    // The server's frames are passed on as they are; the join's answer is noted.
    ws.connectToServer().onMessage((message) => {
      if (typeof message === "string" && message.includes('"type":"history_sync"')) joined[index] = true;
      ws.send(message);
    });
  });

  await page.goto(`/character/${character.id}`);
  await page.getByRole("button", { name: "Start Chat" }).click();
  await expect(page).toHaveURL(CHAT_URL);
  const id = CHAT_URL.exec(page.url())![1]!;
  await expect(characterMessages(page, character.name)).toHaveCount(1);
  await expect.poll(() => sockets.length).toBe(1);
  await expect.poll(() => joined[0]).toBe(true);

  // Drop the socket while the reply is being written (an unclean close: 4001).
  const box = input(page, character.name);
  await box.fill("Sing me the song of the northern road");
  await box.press("Enter");
  const reply = characterMessages(page, character.name).nth(1);
  await expect(reply).toHaveAttribute("aria-busy", "true");
  await sockets[0]!.close({ code: 4001, reason: "dropped by the test" });
  await expect(page.getByText("Connection lost. Reconnecting…")).toBeVisible();

  // Disconnected (the first retry waits 1 s): a message is not sent, and not lost from the input.
  await box.fill("Are you still there?");
  await box.press("Enter");
  await expect(box).toHaveValue("Are you still there?");
  await expect(userMessages(page)).toHaveCount(1);

  // Back after 1 s: history_sync brings the whole reply, once, however far it got meanwhile.
  await expect.poll(() => sockets.length).toBe(2);
  await expect(page.getByText("Connection lost. Reconnecting…")).toBeHidden();
  await expect(characterMessages(page, character.name)).toHaveCount(2);
  await expect(reply).toHaveAttribute("aria-busy", "false");
  await expect(userMessages(page)).toHaveText(["Sing me the song of the northern road"]);
  const stored = (await (await page.request.get(`/api/conversations/${id}/messages`)).json()) as ChatMessage[];
  expect(stored.map((m) => m.isUser)).toEqual([false, true, false]);
  expect(await shownText(reply)).toBe(normal(stored[2]!.content.replace(/\*/g, "")));

  // The kept text can be sent now.
  await expect(sendButton(page)).toBeEnabled();
  await sendButton(page).click();
  await expect(userMessages(page)).toHaveText(["Sing me the song of the northern road", "Are you still there?"]);
  await expect(characterMessages(page, character.name).nth(2)).toHaveAttribute("aria-busy", "false");
});

test("a chat with a character deactivated since keeps its header: name, @creator, avatar, back link; no character request", async ({
  page,
  browser,
  baseURL,
}) => {
  // Mira starts a chat with someone else's character, which its creator then deactivates.
  const makerContext = await browser.newContext({ baseURL });
  const maker = await makerContext.newPage();
  await signIn(maker, "Maker");
  const avatarUrl = "/avatars/demo/ada-fairweather.svg";
  const res = await maker.request.post("/api/characters", {
    data: {
      name: `Dame ${letters()}`,
      description: "A knight whose creator retires her.",
      personality: "Steady and kind.",
      greeting: "Well met.",
      avatarUrl,
      tags: [],
      isNsfw: false,
    },
  });
  expect(res.status()).toBe(201);
  const character = (await res.json()) as Character;

  await signIn(page, "Mira");
  await page.goto(`/character/${character.id}`);
  await page.getByRole("button", { name: "Start Chat" }).click();
  await expect(page).toHaveURL(CHAT_URL);
  const id = CHAT_URL.exec(page.url())![1]!;
  expect((await maker.request.patch(`/api/characters/${character.id}/toggle-active`)).status()).toBe(200);
  await makerContext.close();
  expect((await page.request.get(`/api/characters/${character.id}`)).status()).toBe(404);

  const characterRequests: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname.startsWith("/api/characters/")) characterRequests.push(request.url());
  });
  await page.goto(`/chat/${id}`);
  const heading = page.getByRole("heading", { level: 1, name: character.name });
  await expect(heading).toBeVisible();
  const header = page.locator("header", { has: heading });
  await expect(header.getByText(`@${character.creator}`, { exact: true })).toBeVisible();
  await expect(header.locator("img")).toHaveAttribute("src", avatarUrl);
  await expect(page.getByRole("link", { name: `Back to ${character.name}` })).toHaveAttribute("href", `/character/${character.id}`);
  await expect(page).toHaveTitle(`Chat with ${character.name} — Fabled`);
  await expect(characterMessages(page, character.name)).toHaveCount(1);
  await expect(header.getByText("Character", { exact: true })).toHaveCount(0);
  expect(characterRequests).toEqual([]);
});

test("a visitor who presses Start Chat is told to sign in and sent to the sign-in page", async ({ page }) => {
  const character = await someCharacter(page.request);
  await page.goto(`/character/${character.id}`);
  await expectSentToSignIn(
    page,
    () => page.getByRole("button", { name: "Start Chat" }).click(),
    "You need to log in to start a chat. Redirecting...",
  );
});

test("on a slow connection a click made before the toasts' code arrives still shows the toast before leaving", async ({ page }) => {
  const character = await someCharacter(page.request);
  // The toaster's code (loaded after the first render) arrives only after the click.
  let release!: () => void;
  const clicked = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/toaster-[^/]+\.js$/, async (route) => {
    await clicked;
    await route.continue();
  });
  await page.goto(`/character/${character.id}`);
  await expect(page.getByRole("banner").getByRole("link", { name: "Sign In" })).toBeVisible();
  await expect(page.getByRole("region", { name: /Notifications/ })).toHaveCount(0);
  await expectSentToSignIn(
    page,
    async () => {
      await page.getByRole("button", { name: "Start Chat" }).click();
      release();
    },
    "You need to log in to start a chat. Redirecting...",
  );
});

test("failures to start a chat or a new conversation are told in toasts", async ({ page }) => {
  await signIn(page, "Tove");
  const character = await createCharacter(page.request);
  await page.goto(`/character/${character.id}`);
  await page.route("**/api/conversations", (route) =>
    route.request().method() === "POST" ? route.fulfill({ status: 500, json: { error: "Internal error", code: "internal" } }) : route.fallback(),
  );
  await page.getByRole("button", { name: "Start Chat" }).click();
  await expect(toast(page, "Failed to start chat. Please try again.")).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/character/${character.id}$`));
  await page.unroute("**/api/conversations");

  await page.getByRole("button", { name: "Start Chat" }).click();
  await expect(page).toHaveURL(CHAT_URL);
  const id = CHAT_URL.exec(page.url())![1]!;
  await page.route("**/api/conversations/new", (route) => route.fulfill({ status: 500, json: { error: "Internal error", code: "internal" } }));
  await page.getByRole("button", { name: "Conversation options" }).click();
  await page.getByRole("menuitem", { name: "Start a New Conversation" }).click();
  await expect(toast(page, "Failed to start a new conversation. Please try again.")).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/chat/${id}$`));
});

async function otherPersonsConversation(browser: Browser, baseURL: string): Promise<string> {
  const context = await browser.newContext({ baseURL });
  const owner = await context.newPage();
  await signIn(owner, "Owen");
  const character = await createCharacter(owner.request);
  const res = await owner.request.post("/api/conversations", { data: { characterId: character.id, title: `Chat with ${character.name}` } });
  expect(res.status()).toBe(201);
  const { id } = (await res.json()) as Conversation;
  await context.close();
  return id;
}

test("someone else's conversation is not found; a visitor is sent to sign in", async ({ page, browser, baseURL }) => {
  const id = await otherPersonsConversation(browser, baseURL!);

  // A visitor: the Unauthorized flow.
  await expectSentToSignIn(page, () => page.goto(`/chat/${id}`), "You need to log in to view this conversation. Redirecting...");

  // Another person: "Conversation not found", Back to Home.
  await signIn(page, "Mallory");
  await page.goto(`/chat/${id}`);
  await expect(page.getByRole("heading", { name: "Conversation not found" })).toBeVisible();
  await expect(page.getByRole("log")).toHaveCount(0);
  await page.goto("/chat/not-a-conversation");
  await expect(page.getByRole("heading", { name: "Conversation not found" })).toBeVisible();
  await page.getByRole("link", { name: "Back to Home" }).click();
  await expect(page).toHaveURL(/\/$/);
});

test("My Chats: empty state for a new person, sign-in request for visitors; the chat fits a phone", async ({ page }) => {
  await page.goto("/chats");
  await expect(page.getByText("Please sign in to view your chats")).toBeVisible();
  await expect(page.getByRole("link", { name: "Sign In" }).last()).toHaveAttribute("href", "/api/login?returnTo=%2Fchats");

  await signIn(page, "Yara");
  await page.goto("/chats");
  await expect(page.getByText("You haven't started any chats yet")).toBeVisible();
  await page.getByRole("link", { name: "Browse Characters" }).click();
  await expect(page).toHaveURL(/\/$/);

  await page.setViewportSize({ width: 390, height: 844 });
  const character = await createCharacter(page.request);
  await page.goto(`/character/${character.id}`);
  await page.getByRole("button", { name: "Start Chat" }).click();
  await expect(page).toHaveURL(CHAT_URL);
  await sendAndAwaitReply(page, character.name, "Hello from a small screen");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  const composer: Locator = input(page, character.name);
  const box = (await composer.boundingBox())!;
  expect(box.y + box.height).toBeLessThanOrEqual(844);
  await expectAccessible(page);
});
