/**
 * Voices in Chromium (DESIGN.md "Voices"): a character reply read aloud by
 * the offline synthesizer (eSpeak NG in the Worker), its button going from
 * loading to playing to stopped; Voice mode reading a new reply as it
 * finishes; the voice picker with Preview in the character form. Local
 * runs have no speech to text: where the microphone would be, a muted one
 * says why (issue 41).
 */
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import type { Character } from "../schema/api.ts";
import type { Conversation } from "../schema/chat.ts";
import { expectAccessible, expectAccessibleAtRest, expectChatJoined, followChatSockets, letters, signInWithApi as signIn } from "./helpers.ts";

async function createCharacter(request: APIRequestContext, greeting: string, voice: string | null = null): Promise<Character> {
  const res = await request.post("/api/characters", {
    data: {
      name: `Wren ${letters()}`,
      description: "A lamplighter who reads every message aloud.",
      personality: "Gentle, patient and fond of short sentences.",
      greeting,
      voice,
      tags: [],
      isNsfw: false,
    },
  });
  expect(res.status()).toBe(201);
  return (await res.json()) as Character;
}

async function startChat(page: Page, character: Character): Promise<string> {
  const res = await page.request.post("/api/conversations/new", { data: { characterId: character.id } });
  expect(res.status()).toBe(201);
  const { id } = (await res.json()) as Conversation;
  followChatSockets(page);
  await page.goto(`/chat/${id}`);
  await expectChatJoined(page);
  return id;
}

/** Records every `data-playback` the read-aloud buttons of the log take, in order, from now on. */
async function recordButtonStates(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __states: string[] }).__states = seen;
    const root = document.querySelector('[role="log"]')!;
    new MutationObserver(() => {
      for (const button of Array.from(root.querySelectorAll("button[data-playback]"))) {
        const state = button.getAttribute("data-playback")!;
        if (seen.at(-1) !== state) seen.push(state);
      }
    }).observe(root, { subtree: true, attributes: true, attributeFilter: ["data-playback"], childList: true });
  });
}

const readAloud = (page: Page, name: string) => page.getByRole("log").getByRole("button", { name: `Read ${name}'s reply aloud` });

test("a reply is read aloud: the button goes from loading to playing to stopped", async ({ page }) => {
  await signIn(page, "Ilse");
  const character = await createCharacter(page.request, "*She trims the wick.* Good evening. The lamps are lit.", "offline-en-gb-f");
  await startChat(page, character);
  await expect(page.getByRole("button", { name: /record/i })).toHaveCount(0);
  const noMicrophone = page.getByRole("button", { name: "Speech input unavailable" });
  await expect(noMicrophone).toHaveAccessibleDescription("Speech input needs a speech-to-text provider — see the README");
  await noMicrophone.click();
  await expect(page.getByRole("region", { name: /Notifications/ }).getByText("Speech input needs a speech-to-text provider — see the README")).toBeVisible();

  await recordButtonStates(page);
  const audioAnswers: { status: number; type: string | null }[] = [];
  page.on("response", (res) => {
    if (res.url().endsWith("/speech")) audioAnswers.push({ status: res.status(), type: res.headers()["content-type"] ?? null });
  });
  await readAloud(page, character.name).click();
  // Playing: the button turns into Stop…
  await expect(page.getByRole("log").getByRole("button", { name: "Stop reading" })).toHaveAttribute("data-playback", "playing");
  // …and when the clip ends (about 2 s) it is the play button again.
  await expect(readAloud(page, character.name)).toHaveAttribute("data-playback", "stopped", { timeout: 20_000 });
  expect(await page.evaluate(() => (window as unknown as { __states: string[] }).__states)).toEqual(["loading", "playing", "stopped"]);
  expect(audioAnswers).toEqual([{ status: 200, type: "audio/wav" }]);
  // The speech-input toast may still be fading: its colours are measured once it is at rest.
  await expectAccessibleAtRest(page);
  await page.screenshot({ path: "test-results/voices-chat-1280.png" });
  await page.setViewportSize({ width: 375, height: 800 });
  await expect(readAloud(page, character.name)).toBeVisible();
  await page.screenshot({ path: "test-results/voices-chat-375.png" });
});

test("stop ends the reading; Voice mode reads a new reply as it finishes", async ({ page }) => {
  await signIn(page, "Tomas");
  const character = await createCharacter(page.request, "Welcome back. Sit by the window; the street lamps are about to come on, one by one, all the way down the hill.");
  await startChat(page, character);
  await readAloud(page, character.name).click();
  const stop = page.getByRole("log").getByRole("button", { name: "Stop reading" });
  await expect(stop).toHaveAttribute("data-playback", "playing");
  await stop.click();
  await expect(readAloud(page, character.name)).toHaveAttribute("data-playback", "stopped");

  await page.getByRole("switch", { name: "Voice mode" }).click();
  await expect(page.getByRole("switch", { name: "Voice mode" })).toHaveAttribute("aria-checked", "true");
  await page.getByLabel(`Message ${character.name}`).fill("Tell me about the lamps.");
  await page.getByRole("button", { name: "Send message" }).click();
  // The new reply (the second character message) starts playing on its own once it is written.
  const replies = page.getByRole("log").getByRole("article", { name: character.name, exact: true });
  await expect(replies).toHaveCount(2);
  await expect(replies.nth(1).getByRole("button", { name: "Stop reading" })).toHaveAttribute("data-playback", "playing", { timeout: 30_000 });
  await replies.nth(1).getByRole("button", { name: "Stop reading" }).click();
  // Remembered for the next visit.
  await page.reload();
  await expect(page.getByRole("switch", { name: "Voice mode" })).toHaveAttribute("aria-checked", "true");
});

for (const width of [1280, 375]) {
  test(`the character form picks a voice and previews it (${width} px)`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await signIn(page, "Odile");
    const character = await createCharacter(page.request, "Hello.");
    await page.goto(`/edit-character/${character.id}`);
    const picker = page.getByRole("combobox", { name: "Voice" });
    await expect(picker).toHaveValue("");
    await expect(picker.locator("option")).toContainText(["Default (Alder (US English, low))", "Juniper (US English, bright)"]);
    await picker.selectOption({ label: "Juniper (US English, bright)" });
    await page.getByRole("button", { name: "Preview the voice Juniper (US English, bright)" }).click();
    await expect(page.getByRole("button", { name: "Stop the preview" })).toHaveAttribute("data-playback", "playing");
    await expect(page.getByRole("button", { name: /Preview the voice/ })).toHaveAttribute("data-playback", "stopped", { timeout: 20_000 });
    await expectAccessible(page);
    await page.getByRole("combobox", { name: "Voice" }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/voices-form-${width}.png` });
    await page.getByRole("button", { name: "Update Character" }).click();
    await expect(page).toHaveURL(/\/my-characters$/);
    const saved = (await (await page.request.get(`/api/characters/${character.id}`)).json()) as Character;
    expect(saved.voice).toBe("offline-en-us-f");
  });
}
