/**
 * Notifications in Chromium (issue 39): a reply to a person's comment lights
 * the bell in their open tab without a reload; the notifications page
 * groups by day, opens what a notification is about and marks read (the
 * bell follows), and the profile's switches choose the kinds. Keyboard
 * only where a person would use it; axe clean. Screenshots at 1280 and
 * 375 px go to test-results/notifications (looked at by people, not compared).
 */
import { expect, test } from "@playwright/test";
import { createCharacter, expectAccessible, letters, postComment, screenshots, signInWithApi } from "./helpers.ts";

const SHOTS = "test-results/notifications";

test.describe.configure({ timeout: 300_000 });
const loaded = expect.configure({ timeout: 60_000 });

test("a comment reply lights the bell in the other person's open tab without a reload; the page marks it read and the bell clears", async ({ browser }) => {
  // Ana's tab, open on Home.
  const anaContext = await browser.newContext();
  const ana = await anaContext.newPage();
  await signInWithApi(ana, "Ana");
  const name = `Wren${letters()}`;
  const character = await createCharacter(ana.request, {
    name,
    description: "A cartographer for the notifications browser test.",
    personality: "Precise and stubborn, redraws every bay twice.",
  });
  const question = await postComment(ana.request, character.id, "Which coast is the oldest?");
  await ana.goto("/");
  const bell = ana.getByRole("link", { name: /^Notifications/ });
  await loaded(bell).toHaveAccessibleName("Notifications");
  let navigations = 0;
  ana.on("framenavigated", (frame) => {
    if (frame === ana.mainFrame()) navigations += 1;
  });

  // Bo replies from elsewhere.
  const boContext = await browser.newContext();
  const bo = await boContext.newPage();
  await signInWithApi(bo, "Bo");
  await postComment(bo.request, character.id, "The western one, surely.", question.id);

  await loaded(bell).toHaveAccessibleName("Notifications, 1 unread");
  await expect(ana.getByTestId("unread-badge")).toHaveText("1");
  expect(navigations).toBe(0);
  await screenshots(ana, `${SHOTS}/bell-lit`);

  // The page: by the keyboard from the bell.
  await bell.focus();
  await ana.keyboard.press("Enter");
  await loaded(ana.getByRole("heading", { name: "Notifications", level: 1 })).toBeVisible();
  await expect(ana.getByRole("heading", { name: "Today", level: 2 })).toBeVisible();
  const item = ana.getByRole("link", { name: `Unread: Bo replied to your comment on ${name}` });
  await expect(item).toBeVisible();
  await expect(ana.getByText("1 unread")).toBeVisible();
  await expectAccessible(ana);
  await screenshots(ana, `${SHOTS}/page-unread`);

  // A second tab of Ana's hears the read at once.
  const second = await anaContext.newPage();
  await second.goto("/favorites");
  const secondBell = second.getByRole("link", { name: /^Notifications/ });
  await loaded(secondBell).toHaveAccessibleName("Notifications, 1 unread");

  await ana.getByRole("button", { name: `Mark as read: Bo replied to your comment on ${name}` }).click();
  await expect(ana.getByText("You're all caught up.")).toBeVisible();
  await expect(bell).toHaveAccessibleName("Notifications");
  await loaded(secondBell).toHaveAccessibleName("Notifications");
  await expect(ana.getByRole("button", { name: "Mark all as read" })).toBeDisabled();

  // Opening it leads to the comment.
  await ana.getByRole("link", { name: `Bo replied to your comment on ${name}` }).click();
  await loaded(ana).toHaveURL(new RegExp(`/character/${character.id}#comment-`));
  await anaContext.close();
  await boContext.close();
});

test("mark all as read, and a kind switched off in the profile is not delivered", async ({ page, browser }) => {
  const { username } = await signInWithApi(page, "Cleo");
  const character = await createCharacter(page.request, {
    name: `Harbor${letters()}`,
    description: "A lighthouse keeper for the notifications test.",
    personality: "Wry, watchful and kind to sailors.",
  });
  const others = await browser.newContext();
  const other = await others.newPage();
  await signInWithApi(other, "Dan");
  await postComment(other.request, character.id, "Lovely light.");
  expect((await other.request.put(`/api/users/${encodeURIComponent(username)}/follow`)).status()).toBe(200);

  await page.goto("/notifications");
  await loaded(page.getByText("2 unread")).toBeVisible();
  await page.getByRole("button", { name: "Mark all as read" }).click();
  await expect(page.getByText("You're all caught up.")).toBeVisible();

  await page.goto("/profile#notification-settings");
  const region = page.getByRole("region", { name: "Notifications" });
  const comments = region.getByRole("switch", { name: "Comments on your characters" });
  await loaded(comments).toBeChecked();
  await comments.focus();
  await page.keyboard.press("Space");
  await expect(comments).not.toBeChecked();
  await expect.poll(async () => ((await (await page.request.get("/api/profile/notifications")).json()) as { kinds: Record<string, boolean> }).kinds.character_comment).toBe(false);
  await expectAccessible(page);
  await region.scrollIntoViewIfNeeded();
  await screenshots(page, `${SHOTS}/settings`);

  await postComment(other.request, character.id, "Still lovely.");
  // A later kind that is on proves the comment was processed and kept out.
  const room = await page.request.post("/api/conversations", { data: { characterId: character.id } });
  const { id: conversationId } = (await room.json()) as { id: string };
  const invite = await page.request.post(`/api/conversations/${conversationId}/invites`);
  const { token } = (await invite.json()) as { token: string };
  expect((await other.request.post(`/api/invites/${token}`, { data: {} })).status()).toBe(200);
  await page.goto("/notifications");
  await loaded(page.getByRole("link", { name: /^Unread: Dan joined / })).toBeVisible();
  await expect(page.getByText("1 unread")).toBeVisible();
  await others.close();
});

test("push on this device is off until asked for; a site without VAPID keys says so and nothing is subscribed", async ({ page }) => {
  await signInWithApi(page, "Pia");
  await page.goto("/profile");
  const settings = page.getByRole("region", { name: "Notifications", exact: true });
  const push = settings.getByRole("switch", { name: /Push notifications on this device/ });
  await expect(push).not.toBeChecked();
  // No permission prompt before the person asks: the browser still reads "default".
  expect(await page.evaluate(() => Notification.permission)).toBe("default");
  await push.click();
  await expect(settings.getByRole("status").filter({ hasText: "Push notifications are not set up on this site yet" })).toBeVisible();
  await expect(push).not.toBeChecked();
  expect(await page.evaluate(() => Notification.permission)).toBe("default");
  expect(((await (await page.request.get("/api/profile/notifications")).json()) as { push: boolean }).push).toBe(false);
  await expectAccessible(page);
});
