/**
 * "Your own model" in Chromium (DESIGN.md "Your own model (turn 3)"): on
 * /settings/models, reached from the user menu, add a connection to an
 * OpenAI-compatible server (a real one, started by this spec on loopback,
 * which development allows), test it, pick one of its models, set a
 * temperature and a reply length; chat and see the reply come from it, with
 * those settings in what it was sent; then switch the chat back to the
 * site's (offline) model from the chat menu → Model. The key is never shown
 * again, only its last four characters, and is not sent to another origin
 * without being typed again (issue 42). A reply of the person's model shows
 * the tokens the endpoint reported for it; the offline model's shows none.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, type Page, test } from "@playwright/test";
import type { Character } from "../schema/api.ts";
import { KEY_STAYS_WITH_ITS_ADDRESS } from "../schema/model-connections.ts";
import { expectAccessibleAtRest, expectChatJoined, followChatSockets, letters, signInWithApi as signIn, toast } from "./helpers.ts";

const KEY = "sk-e2e-own-model-key-4321";

/** What the loopback server was sent, newest last. */
const requests: Record<string, unknown>[] = [];
let server: Server;
let baseUrl: string;

async function body(req: IncomingMessage): Promise<Record<string, unknown>> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return JSON.parse(Buffer.concat(parts).toString("utf8")) as Record<string, unknown>;
}

/** How the loopback server counts tokens: the words of a text. */
const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

/**
 * A small OpenAI-compatible server: `GET /v1/models` lists two models;
 * `POST /v1/chat/completions` streams "From story-writer: {last user message}"
 * word by word as chat.completion.chunks and, asked with
 * `stream_options.include_usage`, a last chunk with the usage (prompt: the
 * words of every message; completion: the words streamed). Another key gets 401.
 */
test.beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.headers.authorization !== `Bearer ${KEY}`) {
      res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "bad key" } }));
      return;
    }
    if (req.method === "GET" && req.url === "/v1/models") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ object: "list", data: [{ id: "story-writer" }, { id: "tiny-model" }] }));
      return;
    }
    if (req.method === "POST" && req.url === "/v1/chat/completions") {
      void body(req).then((request) => {
        requests.push(request);
        const messages = request.messages as { role: string; content: string }[];
        const last = messages.findLast((m) => m.role === "user")?.content ?? "";
        const reply = `From ${String(request.model)}: ${last}`.split(" ");
        res.writeHead(200, { "content-type": "text/event-stream" });
        for (const [i, word] of reply.entries()) {
          res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: i === 0 ? word : ` ${word}` } }] })}\n\n`);
        }
        if ((request.stream_options as { include_usage?: boolean } | undefined)?.include_usage) {
          const prompt = messages.reduce((sum, m) => sum + words(m.content), 0);
          const usage = { prompt_tokens: prompt, completion_tokens: reply.length, total_tokens: prompt + reply.length };
          res.write(`data: ${JSON.stringify({ choices: [], usage })}\n\n`);
        }
        res.end("data: [DONE]\n\n");
      });
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

test.afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const characterMessages = (page: Page, name: string) => page.getByRole("log").getByRole("article", { name, exact: true });

/** Sends `text` and waits until the reply is complete; returns its text. */
async function sendAndAwaitReply(page: Page, name: string, text: string): Promise<string> {
  await expectChatJoined(page);
  const before = await characterMessages(page, name).count();
  await page.getByLabel(`Message ${name}`).fill(text);
  await page.getByLabel(`Message ${name}`).press("Enter");
  const reply = characterMessages(page, name).nth(before);
  await expect(reply).toHaveAttribute("aria-busy", "false");
  return ((await reply.locator("[data-message-text]").textContent()) ?? "").replace(/\s+/g, " ").trim();
}

test("add your own model, test it, pick a model, chat with it, and switch a chat back to the site's model", async ({ page }) => {
  // One person's whole story (two dialogs, two replies, four axe checks): longer than most tests on a shared 2-core machine.
  test.slow();
  followChatSockets(page);
  await signIn(page, "Rowan");
  const res = await page.request.post("/api/characters", {
    data: {
      name: `Sage ${letters()}`,
      description: "A librarian for the own-model browser test.",
      personality: "Quiet and exact.",
      greeting: '*The librarian looks up.* "Welcome, {{user}}."',
      tags: [],
      isNsfw: false,
    },
  });
  expect(res.status()).toBe(201);
  const character = (await res.json()) as Character;

  // The user menu leads to the page.
  await page.goto("/");
  await page.getByRole("button", { name: "Rowan" }).click();
  await page.getByRole("menuitem", { name: "Models" }).click();
  await expect(page).toHaveURL(/\/settings\/models$/);
  const section = page.getByRole("region", { name: "Models" });
  await expect(section.getByText("No connections yet")).toBeVisible();
  await expectAccessibleAtRest(page);

  await section.getByRole("button", { name: "Add Connection" }).click();
  const dialog = page.getByRole("dialog", { name: "Add Connection" });
  await dialog.getByLabel("Name", { exact: true }).fill("My local model");
  await expect(dialog.getByRole("radio", { name: /OpenAI-compatible endpoint/ })).toBeChecked();
  // A wrong key first: the test says what the endpoint answered.
  await dialog.getByLabel("Base URL").fill(baseUrl);
  await dialog.getByLabel("API key (Optional)").fill("sk-wrong-key-0000");
  await dialog.getByRole("button", { name: "Test connection" }).click();
  // By the key field, which is what to check (issue 41), and not sending the person to the page they are on.
  await expect(dialog.getByText("Your model endpoint answered 401 — check the key.", { exact: true })).toBeVisible();
  await expect(dialog.getByLabel("API key (Optional)")).toHaveAccessibleDescription(/Your model endpoint answered 401 — check the key\./);
  await expect(dialog.getByLabel("Base URL")).not.toHaveAccessibleDescription(/answered 401/);
  await dialog.getByLabel("API key (Optional)").fill(KEY);
  await dialog.getByRole("button", { name: "Test connection" }).click();
  await expect(dialog.getByText("Connected: 2 models found")).toBeVisible();
  await dialog.getByLabel("Model", { exact: true }).selectOption("story-writer");
  await dialog.getByLabel("Temperature").fill("0.4");
  await dialog.getByLabel("Max reply tokens").fill("200");
  // The optional models are each their own field: an image model typed in, no embedding model.
  await dialog.getByLabel("Image model (Optional)").fill("story-painter");
  await expect(dialog.getByRole("switch", { name: /Use by default/ })).toBeChecked();
  await expectAccessibleAtRest(page);
  await page.screenshot({ path: "test-results/model-connection-dialog-1280.png", fullPage: true });
  await dialog.getByRole("button", { name: "Add Connection" }).click();
  await expect(toast(page, "Connection added")).toBeVisible();
  await expect(dialog).toBeHidden();

  const item = section.getByRole("listitem").filter({ hasText: "My local model" });
  await expect(item).toContainText("story-writer");
  await expect(item).toContainText("key …4321");
  await expect(item).toContainText("Default");
  await expect(page.locator("body")).not.toContainText(KEY);
  await page.screenshot({ path: "test-results/models-page-1280.png", fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: "test-results/models-page-375.png", fullPage: true });
  await expectAccessibleAtRest(page);
  await page.setViewportSize({ width: 1280, height: 800 });

  // Editing shows the saved key only as its hint; the field stays empty.
  await item.getByRole("button", { name: "Edit My local model" }).click();
  const edit = page.getByRole("dialog", { name: "Edit Connection" });
  await expect(edit.getByLabel("API key (Optional)")).toHaveValue("");
  await expect(edit.getByLabel("Image model (Optional)")).toHaveValue("story-painter");
  await expect(edit.getByLabel("Embedding model (Optional)")).toHaveValue("");
  await expect(edit.getByText("A key ending in …4321 is saved.", { exact: false })).toBeVisible();
  // The saved key goes only to its own address: another origin (localhost for 127.0.0.1) needs it typed again.
  await edit.getByLabel("Base URL").fill(baseUrl.replace("127.0.0.1", "localhost"));
  await edit.getByRole("button", { name: "Test connection" }).click();
  await expect(edit.getByText(KEY_STAYS_WITH_ITS_ADDRESS)).toBeVisible();
  await expect(edit.getByLabel("API key (Optional)")).toHaveAttribute("aria-invalid", "true");
  await page.screenshot({ path: "test-results/model-connection-key-stays-1280.png", fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: "test-results/model-connection-key-stays-375.png", fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  // Back at the saved address, the saved key is fine again.
  await edit.getByLabel("Base URL").fill(baseUrl);
  await expect(edit.getByText(KEY_STAYS_WITH_ITS_ADDRESS)).toBeHidden();
  await edit.getByRole("button", { name: "Test connection" }).click();
  await expect(edit.getByText("Connected: 2 models found")).toBeVisible();
  await edit.getByRole("button", { name: "Cancel" }).click();

  // A site connection too, to switch a chat back to.
  const site = await page.request.post("/api/model-connections", { data: { name: "Site model", kind: "site", model: "offline" } });
  expect(site.status()).toBe(201);

  // The chat is written by the person's default: their own model, with their settings.
  await page.goto(`/character/${character.id}`);
  await page.getByRole("button", { name: "Start Chat" }).click();
  await expect(characterMessages(page, character.name)).toHaveCount(1);
  await expect(page.getByText("Model: My local model · story-writer")).toBeVisible();
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: "test-results/chat-own-model-375.png" });
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(page.getByText("Offline demo model", { exact: false })).toBeHidden();
  expect(await sendAndAwaitReply(page, character.name, "Which shelf holds the maps?")).toBe("From story-writer: Which shelf holds the maps?");
  expect(requests.at(-1)).toMatchObject({ model: "story-writer", temperature: 0.4, max_tokens: 200, stream: true, stream_options: { include_usage: true } });
  // Under the reply, the tokens the endpoint reported: the reply's, and the prompt's in the tooltip.
  const sentPrompt = (requests.at(-1)!.messages as { content: string }[]).reduce((sum, m) => sum + words(m.content), 0);
  const ownReply = characterMessages(page, character.name).last();
  const tokens = ownReply.locator("[data-reply-tokens]");
  await expect(tokens).toContainText("7 tokens");
  await expect(tokens).toHaveAttribute("title", `prompt ${sentPrompt.toLocaleString("en-US")} · reply 7`);
  await expect(characterMessages(page, character.name).first().locator("[data-reply-tokens]")).toHaveCount(0);
  await expectAccessibleAtRest(page);
  await page.screenshot({ path: "test-results/chat-reply-tokens-1280.png" });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: "test-results/chat-reply-tokens-375.png" });
  await page.setViewportSize({ width: 1280, height: 800 });

  // Chat menu → Model: this chat goes back to the site's (offline) model.
  await page.getByRole("button", { name: "Conversation options" }).click();
  await page.getByRole("menuitem", { name: /Model/ }).click();
  const picker = page.getByRole("dialog", { name: "Model" });
  await expect(picker.getByRole("radio", { name: /Default/ })).toBeChecked();
  await expectAccessibleAtRest(page);
  await page.screenshot({ path: "test-results/model-picker-1280.png" });
  await picker.getByRole("radio", { name: /Site model/ }).click();
  await expect(toast(page, "Model changed")).toBeVisible();
  await expect(picker).toBeHidden();
  await expect(page.getByText("Offline demo model", { exact: false })).toBeVisible();
  const offline = await sendAndAwaitReply(page, character.name, "And the atlas?");
  // The offline model's action (shown without its asterisks) and the message's key word taken up, not the person's words quoted back.
  expect(offline).toMatch(new RegExp(`^${character.name} .*\\batlas\\b`, "i"));
  expect(offline).not.toContain("And the atlas");
  // The offline model counts no tokens: nothing is shown under its reply.
  await expect(characterMessages(page, character.name).last().locator("[data-reply-tokens]")).toHaveCount(0);
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: "test-results/chat-model-375.png", fullPage: true });
});
