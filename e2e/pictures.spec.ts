/**
 * Pictures in Chromium (DESIGN.md "Pictures"): "Imagine" in a one-to-one
 * chat shows a placeholder, then the picture (the offline painter answers),
 * which opens large and can be deleted; "Draw an avatar" in the studio gives
 * a picture that becomes the character's avatar with the usual save.
 * Screenshots at 1280 and 375 px; axe finds nothing.
 */
import { expect, test } from "@playwright/test";
import type { Character } from "../schema/api.ts";
import { expectAccessible, expectChatJoined, followChatSockets, letters, signInWithApi as signIn } from "./helpers.ts";

test.beforeEach(({ page }) => followChatSockets(page));

test("imagine the scene in a one-to-one chat, open it large, draw it again and delete it", async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  await signIn(page, "Mira");
  const created = await page.request.post("/api/characters", {
    data: {
      name: `Keeper ${letters()}`,
      description: "A lighthouse keeper with silver hair and a grey coat.",
      personality: "Quiet and kind.",
      greeting: "The lamp is lit. Come up out of the rain.",
      tags: [],
      isNsfw: false,
    },
  });
  expect(created.status()).toBe(201);
  const character = (await created.json()) as Character;
  await page.goto(`/character/${character.id}`);
  await page.getByRole("button", { name: "Start Chat" }).click();
  await expectChatJoined(page);

  await page.getByRole("button", { name: "Imagine", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Imagine the scene" });
  await expect(dialog.getByText(/0 of 100 pictures today\. Pictures here come from the offline painter/)).toBeVisible();
  await dialog.getByLabel("Describe the picture (optional)").fill("A night sea under the moon, seen from the lighthouse");
  await dialog.getByRole("button", { name: "Imagine" }).click();
  await expect(dialog).toBeHidden();

  const log = page.getByRole("log");
  const picture = log.getByRole("img", { name: "Picture: A night sea under the moon, seen from the lighthouse" });
  await expect(picture).toBeVisible({ timeout: 20_000 });
  await expect(picture).toHaveJSProperty("complete", true);
  expect(await picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(768);
  await expect(log.locator("[data-image-placeholder]")).toHaveCount(0);
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath("imagine-1280.png") });
  await page.setViewportSize({ width: 375, height: 800 });
  await picture.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath("imagine-375.png") });
  await page.setViewportSize({ width: 1280, height: 800 });

  await log.getByRole("button", { name: "Open", exact: true }).click();
  const large = page.getByRole("dialog", { name: "Picture" });
  await expect(large.getByRole("img")).toBeVisible();
  await expectAccessible(page);
  await page.keyboard.press("Escape");
  await expect(large).toBeHidden();

  // Drawn again: a second version of the same prompt, shown, with ‹ 2/2 ›; the first comes back with Previous.
  const firstSrc = await picture.getAttribute("src");
  await log.getByRole("button", { name: "Draw again" }).click();
  const versions = log.getByRole("group", { name: "Versions of the picture" });
  await expect(versions).toContainText("2/2", { timeout: 20_000 });
  await expect(picture).not.toHaveAttribute("src", firstSrc!);
  await expect(picture).toHaveJSProperty("complete", true);
  await page.screenshot({ path: testInfo.outputPath("draw-again-1280.png") });
  await versions.getByRole("button", { name: "Previous version" }).click();
  await expect(versions).toContainText("1/2");
  await expect(picture).toHaveAttribute("src", firstSrc!);
  await expect(versions.getByRole("button", { name: "Previous version" })).toBeDisabled();

  await expect(log.getByRole("link", { name: "Download" })).toHaveAttribute("download", /^a-night-sea-under-the-moon.*\.png$/);
  // Reported like a reply: the server keeps it as a message report.
  await log.getByRole("button", { name: "Report", exact: true }).click();
  const report = page.getByRole("dialog", { name: "Report picture" });
  await expect(report.getByText("Tell us what is wrong with this picture.")).toBeVisible();
  await report.getByRole("radio", { name: "Spam or scam" }).check();
  const filed = page.waitForResponse((res) => new URL(res.url()).pathname === "/api/reports" && res.request().method() === "POST");
  await report.getByRole("button", { name: "Send Report" }).click();
  expect((await filed).status()).toBe(201);
  await expect(report).toBeHidden();
  await log.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(picture).toHaveCount(0);
  // Gone for a reload too.
  await page.reload();
  await expectChatJoined(page);
  await expect(page.getByRole("log").getByText("The lamp is lit.")).toBeVisible();
  await expect(page.getByRole("log").locator("[data-image-message]")).toHaveCount(0);
});

test("draw an avatar in the studio and save it as the character's picture", async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  await signIn(page, "Mira");
  await page.goto("/create-character");
  const name = `Captain ${letters()}`;
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Description", { exact: true }).fill("An old sea captain with a white beard and a blue coat.");
  await page.getByLabel("Personality", { exact: true }).fill("Gruff, generous and fond of sea shanties.");
  // The drawing starts from the appearance for pictures when there is one, not the description.
  await page.getByLabel("Appearance for pictures (Optional)").fill("An old sea captain, white beard, blue coat with brass buttons, portrait");

  await page.getByRole("button", { name: "Draw an avatar" }).click();
  const panel = page.getByRole("group", { name: "Draw an avatar" });
  await expect(panel.getByLabel("Describe how they look")).toHaveValue("An old sea captain, white beard, blue coat with brass buttons, portrait");
  await panel.getByRole("button", { name: "Draw", exact: true }).click();
  const drawn = panel.getByRole("img", { name: /^Drawn avatar: An old sea captain/ });
  await expect(drawn).toBeVisible({ timeout: 20_000 });
  await expect(panel.getByText("Drawn by the offline painter")).toBeVisible();
  await expectAccessible(page);
  await panel.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath("draw-avatar-1280.png") });
  await page.setViewportSize({ width: 375, height: 800 });
  await panel.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath("draw-avatar-375.png") });
  await page.setViewportSize({ width: 1280, height: 800 });

  const src = await drawn.getAttribute("src");
  expect(src).toMatch(/^\/objects\/avatars\//);
  await panel.getByRole("button", { name: "Use this picture" }).click();
  await expect(page.getByLabel("Avatar URL (Optional)")).toHaveValue(src!);
  await page.getByRole("button", { name: "Create Character" }).click();
  await expect(page).toHaveURL(/\/my-characters$/);
  const picture = page.getByRole("img", { name: `Avatar of ${name}` });
  await expect(picture).toHaveAttribute("src", src!);
  await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(768);
  const mine = (await (await page.request.get("/api/my-characters")).json()) as { id: number; name: string; avatarUrl: string | null }[];
  const saved = mine.find((c) => c.name === name)!;
  expect(saved.avatarUrl).toBe(src);
  const stored = (await (await page.request.get(`/api/characters/${saved.id}`)).json()) as Character;
  expect(stored.appearance).toBe("An old sea captain, white beard, blue coat with brass buttons, portrait");
});
