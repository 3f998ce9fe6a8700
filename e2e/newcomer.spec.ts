/**
 * A newcomer's walk through every page (issue 41, "Tests and figures"): each
 * page a visitor can open, then each page a signed-in person can, at 1280 and
 * at 375 px, checked with axe-core 4.14 once the page has loaded and its
 * animations have come to rest: no serious or critical finding anywhere, and
 * nothing wider than the screen on a phone.
 */
import { expect, type Page, test } from "@playwright/test";
import type { Character } from "../schema/api.ts";
import { expectAccessibleAtRest, followChatSockets, letters, signInWithApi as signIn } from "./helpers.ts";

const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 375, height: 740 },
];

/** Opens `path` and waits until it shows its heading and no skeleton is left (what it fetched has arrived). */
async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole("main").getByRole("heading", { level: 1 }).first()).toBeVisible();
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}

/** The page, as it is now, has no serious finding and (on a phone) no sideways scrolling. */
async function expectClean(page: Page, path: string): Promise<void> {
  await test.step(`${path} at ${page.viewportSize()!.width} px`, async () => {
    await expectAccessibleAtRest(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, `${path} scrolls sideways by ${overflow} px`).toBeLessThanOrEqual(0);
  });
}

/** A character of the newcomer's own (`page` is signed in), with a chat begun; its id and the chat's. */
async function characterWithChat(page: Page): Promise<{ character: Character; conversationId: string }> {
  const made = await page.request.post("/api/characters", {
    data: {
      name: `Iris ${letters()}`,
      description: "A cartographer for the newcomer's walk.",
      personality: "Curious and kind. She draws maps of places nobody has seen.",
      greeting: '*She unrolls a map.* "Where to, {{user}}?"',
      tags: [],
      isNsfw: false,
    },
  });
  expect(made.status()).toBe(201);
  const character = (await made.json()) as Character;
  const chat = await page.request.post("/api/conversations", { data: { characterId: character.id } });
  expect(chat.status()).toBe(201);
  const { id: conversationId } = (await chat.json()) as { id: string };
  return { character, conversationId };
}

// Each walk loads every page whole and checks it with axe: minutes while vitest shares the two cores.
// The budgets are for a hang, not a timing.
for (const size of WIDTHS) {
  test(`every page a visitor can open at ${size.width} px: no serious accessibility finding`, async ({ page, browser }) => {
    test.setTimeout(360_000);
    const me = await signIn(page, "Nadia");
    const { character } = await characterWithChat(page);
    // A visitor: a fresh context without the session.
    const visitorContext = await browser.newContext({ viewport: size });
    const visitor = await visitorContext.newPage();
    try {
      for (const path of ["/", `/character/${character.id}`, `/u/${me.username}`, "/privacy-policy", "/terms-of-use", "/disclaimer", "/no-such-page", "/api/login"]) {
        if (path === "/api/login") {
          await visitor.goto(path);
          await expect(visitor.getByRole("button", { name: "Sign in" })).toBeVisible();
        } else {
          await open(visitor, path);
        }
        await expectClean(visitor, path);
      }
    } finally {
      await visitorContext.close();
    }
  });

  test(`every page a newcomer can open at ${size.width} px: no serious accessibility finding`, async ({ page }) => {
    test.setTimeout(360_000);
    await page.setViewportSize(size);
    followChatSockets(page);
    const me = await signIn(page, "Nadia");
    const { character, conversationId } = await characterWithChat(page);
    for (const path of [
      "/",
      `/character/${character.id}`,
      "/chats",
      "/profile",
      "/settings/models",
      "/create-character",
      `/edit-character/${character.id}`,
      "/my-characters",
      "/favorites",
      `/u/${me.username}`,
      "/join/not-a-real-invitation",
    ]) {
      await open(page, path);
      await expectClean(page, path);
    }
    await page.goto(`/chat/${conversationId}`);
    await expect(page.getByRole("log").getByRole("article", { name: character.name, exact: true })).toHaveCount(1);
    await expectClean(page, "/chat/{id}");
  });
}
