/**
 * Check-ins in Chromium (issue 39): the owner of a one-to-one chat turns
 * them on from the chat menu (a menu checkbox, said by a toast), and sets
 * quiet hours on /profile (kept in their own time zone, shown at once).
 * Keyboard where a person would use it; axe clean. Screenshots at 1280 and
 * 375 px go to test-results/check-ins (looked at by people, not compared).
 */
import { expect, test } from "@playwright/test";
import type { Conversation } from "../schema/chat.ts";
import type { NotificationSettings } from "../schema/notifications.ts";
import { createCharacter, expectAccessibleAtRest, letters, screenshots, signInWithApi } from "./helpers.ts";

const SHOTS = "test-results/check-ins";

test.describe.configure({ timeout: 300_000 });
const loaded = expect.configure({ timeout: 60_000 });

test("check-ins are turned on from the chat menu, and quiet hours set on the profile", async ({ page }) => {
  await signInWithApi(page, "Ines");
  const character = await createCharacter(page.request, {
    name: `Wren${letters()}`,
    description: "A lighthouse keeper for the check-ins browser test.",
    personality: "Warm, notices when people go quiet.",
  });
  const started = await page.request.post("/api/conversations", { data: { characterIds: [character.id] } });
  expect(started.status()).toBe(201);
  const chat = (await started.json()) as Conversation;
  expect(chat.checkIns).toBe(false);

  await page.goto(`/chat/${chat.id}`);
  const options = page.getByRole("button", { name: "Conversation options" });
  await loaded(options).toBeVisible();
  await options.click();
  const item = page.getByRole("menuitemcheckbox", { name: `Check-ins from ${character.name}` });
  await expect(item).toHaveAttribute("aria-checked", "false");
  await screenshots(page, `${SHOTS}/chat-menu`);
  await item.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByText(`${character.name} will check in`, { exact: true })).toBeVisible();
  await expect.poll(async () => ((await (await page.request.get(`/api/conversations/${chat.id}`)).json()) as Conversation).checkIns).toBe(true);
  await options.click();
  await expect(page.getByRole("menuitemcheckbox", { name: `Check-ins from ${character.name}` })).toHaveAttribute("aria-checked", "true");
  await page.keyboard.press("Escape");

  await page.goto("/profile#notification-settings");
  const quiet = page.getByRole("switch", { name: /Quiet hours/ });
  await loaded(quiet).toBeVisible();
  await expect(page.getByRole("switch", { name: "Characters checking in" })).toBeChecked();
  await quiet.focus();
  await page.keyboard.press("Space");
  await expect(page.getByLabel("From", { exact: true })).toHaveValue("22:00");
  await expect(page.getByLabel("to", { exact: true })).toHaveValue("08:00");
  await page.getByLabel("From", { exact: true }).fill("23:30");
  await expect
    .poll(async () => ((await (await page.request.get("/api/profile/notifications")).json()) as NotificationSettings).quietHours)
    .toMatchObject({ start: "23:30", end: "08:00", timeZone: expect.any(String) });
  await page.getByRole("region", { name: "Notifications" }).scrollIntoViewIfNeeded();
  await expectAccessibleAtRest(page);
  await screenshots(page, `${SHOTS}/quiet-hours`);
});
