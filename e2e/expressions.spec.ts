/**
 * Expressions and backgrounds as a creator and a player meet them (issue
 * 37): several pictures uploaded at once in the studio, labelled from their
 * file names; the grid; a reply in the chat shows its speaker's picture for
 * the reply's label; another picture made the neutral one; the chat's
 * background is switched from the menu; the visual-novel layout shows the
 * speaker large with the face of their last reply, and is remembered.
 */
import { encode as encodePng } from "fast-png";
import { expect, type Page, test } from "@playwright/test";
import type { Character } from "../schema/api.ts";
import type { ChatMessage, Conversation } from "../schema/chat.ts";
import { letters, signInWithApi as signIn } from "./helpers.ts";

/** A real 8 × 8 PNG of one colour. */
const png = (rgb: [number, number, number]) => {
  const data = new Uint8Array(8 * 8 * 4);
  for (let i = 0; i < data.length; i += 4) data.set([...rgb, 255], i);
  return Buffer.from(encodePng({ width: 8, height: 8, data, channels: 4 }));
};

const LABELS: [string, [number, number, number]][] = [
  ["neutral", [128, 128, 128]],
  ["joy", [250, 210, 0]],
  ["amusement", [250, 150, 0]],
  ["sadness", [30, 60, 200]],
  ["anger", [200, 20, 20]],
  ["curiosity", [20, 160, 90]],
];

async function upload(page: Page, testId: string, files: { name: string; mimeType: string; buffer: Buffer }[], count: number) {
  const dashboard = page.getByTestId(testId);
  await dashboard.locator("input.uppy-Dashboard-input").first().setInputFiles(files);
  await dashboard.getByRole("button", { name: new RegExp(`^Upload ${count} files?$`) }).click();
}

test.setTimeout(240_000);

test("a creator uploads expressions and a background; the chat shows the reply's face and the background", async ({ page }) => {
  page.on("pageerror", (error) => console.log("pageerror:", error.message));
  page.on("console", (message) => {
    if (message.type() === "error") console.log("console error:", message.text());
  });
  await signIn(page, "Imogen");
  const name = `Wren ${letters()}`;
  const created = await page.request.post("/api/characters", {
    data: {
      name,
      description: "A lighthouse keeper with a face for every weather.",
      personality: "Warm, wry and curious about every ship that passes.",
      greeting: "*Wren waves from the gallery.* Ahoy there!",
      tags: [],
      isNsfw: false,
    },
  });
  expect(created.status()).toBe(201);
  const character = (await created.json()) as Character;

  await page.goto(`/edit-character/${character.id}`);
  // The first page of a run loads the studio's chunks (Uppy among them): slow on a busy machine.
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue(name, { timeout: 60_000 });
  const section = page.getByRole("region", { name: "Expressions and backgrounds" });
  await expect(section).toBeVisible();
  await expect(section.getByText("No expressions yet.")).toBeVisible();
  // Labels come from the file names (numbering and the character's name dropped).
  await upload(
    page,
    "emotion-uploader",
    LABELS.map(([label, rgb], i) => ({ name: `wren_${label}_0${i}.png`, mimeType: "image/png", buffer: png(rgb) })),
    LABELS.length,
  );
  const grid = section.getByRole("list", { name: "Expressions" });
  // Six uploads, each a Worker request and an R2 write: on a loaded machine they
  // took over 20 s once, so the wait allows a minute (it ends as soon as they show).
  await expect(grid.getByRole("img")).toHaveCount(LABELS.length, { timeout: 60_000 });
  for (const [label] of LABELS) await expect(grid.getByRole("img", { name: `Expression: ${label}` })).toBeVisible();
  await upload(page, "background-uploader", [{ name: "Harbor.png", mimeType: "image/png", buffer: png([10, 50, 90]) }], 1);
  await expect(section.getByRole("list", { name: "Backgrounds" }).getByRole("img", { name: "Background: harbor" })).toBeVisible();
  // Delete one: it leaves the grid.
  await grid.getByRole("button", { name: "Delete curiosity" }).click();
  await expect(grid.getByRole("img")).toHaveCount(LABELS.length - 1);
  // "Use as neutral": the neutral tile shows joy's picture, and joy keeps it too.
  const joySrc = await grid.getByRole("img", { name: "Expression: joy" }).getAttribute("src");
  await grid.getByRole("button", { name: "Use joy as neutral" }).click();
  await expect(grid.getByRole("img", { name: "Expression: neutral" })).toHaveAttribute("src", joySrc!);
  await expect(grid.getByRole("img", { name: "Expression: joy" })).toHaveAttribute("src", joySrc!);
  await expect(grid.getByRole("button", { name: "Use neutral as neutral" })).toHaveCount(0);
  await page.screenshot({ path: "test-results/expressions-studio-1280.png", fullPage: true });

  // The chat: the greeting shows the neutral face, each reply the face of its label.
  const started = await page.request.post("/api/conversations/new", { data: { characterId: character.id } });
  expect(started.status()).toBe(201);
  const conversation = (await started.json()) as Conversation;
  await page.goto(`/chat/${conversation.id}`);
  const log = page.getByRole("log");
  await expect(log.getByRole("img", { name: `${name}: neutral` })).toBeVisible();
  await page.getByLabel(`Message ${name}`).fill("*I laugh at the seagull stealing your hat.* Haha!");
  await page.getByRole("button", { name: "Send message" }).click();
  const replies = log.getByRole("article", { name, exact: true });
  await expect(replies).toHaveCount(2);
  // Whatever the model wrote, the face beside it is the one its stored label names.
  await expect
    .poll(async () => {
      const messages = (await (await page.request.get(`/api/conversations/${conversation.id}/messages`)).json()) as ChatMessage[];
      return messages.at(-1)?.isUser === false ? messages.at(-1)!.expression : undefined;
    })
    .toEqual(expect.any(String));
  const messages = (await (await page.request.get(`/api/conversations/${conversation.id}/messages`)).json()) as ChatMessage[];
  const label = messages.at(-1)!.expression!;
  expect(LABELS.map(([l]) => l)).toContain(label);
  const face = page.locator(`li[data-message-id="${messages.at(-1)!.id}"] img[data-expression]`);
  await expect(face).toHaveAttribute("data-expression", label);

  // The background, from the chat's menu.
  await page.getByRole("button", { name: "Conversation options" }).click();
  await page.getByRole("menuitem", { name: "Background: harbor" }).click();
  await expect(page.locator("section[data-background='harbor']")).toBeVisible();
  await page.screenshot({ path: "test-results/expressions-chat-1280.png" });

  // The visual-novel layout: the speaker stands large above the composer with the face of their last reply.
  const scene = page.getByRole("figure", { name: "Scene" });
  await expect(scene).toHaveCount(0);
  await page.getByRole("switch", { name: "Visual novel" }).click();
  await expect(scene.getByRole("img", { name: `${name}, ${label}` })).toBeVisible();
  await expect(scene).toContainText(name);
  // The next reply brings its own face to the stage.
  await page.getByLabel(`Message ${name}`).fill("*Tears fall.* I'm so sad and lonely tonight.");
  await page.getByRole("button", { name: "Send message" }).click();
  await expect(replies).toHaveCount(3);
  await expect
    .poll(async () => {
      const now = (await (await page.request.get(`/api/conversations/${conversation.id}/messages`)).json()) as ChatMessage[];
      return now.length === messages.length + 2 && now.at(-1)?.isUser === false ? now.at(-1)!.expression : undefined;
    })
    .toEqual(expect.any(String));
  const next = ((await (await page.request.get(`/api/conversations/${conversation.id}/messages`)).json()) as ChatMessage[]).at(-1)!;
  await expect(scene.getByRole("img", { name: `${name}, ${next.expression}` })).toBeVisible();
  await expect(scene.getByRole("img")).toHaveCount(1);
  await page.screenshot({ path: "test-results/expressions-visual-novel-1280.png" });
  // Remembered in this browser.
  await page.reload();
  await expect(scene.getByRole("img", { name: `${name}, ${next.expression}` })).toBeVisible();
  await page.setViewportSize({ width: 375, height: 800 });
  await expect(page.getByRole("button", { name: "Send message" })).toBeInViewport();
  await page.screenshot({ path: "test-results/expressions-chat-375.png" });
  await page.getByRole("switch", { name: "Visual novel" }).click();
  await expect(scene).toHaveCount(0);
});
