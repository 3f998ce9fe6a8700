/**
 * Helpers shared by the browser tests: unique names, the local sign-in,
 * setting up a character and comments through the API, screenshots, the
 * axe check and toast lookup.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import AxeBuilder from "@axe-core/playwright";
import { type APIRequestContext, expect, type Page } from "@playwright/test";
import type { Character, Comment, CurrentUser } from "../schema/api.ts";

/** A short unique string (time + randomness) for e-mails and names. */
export const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;

/** Eight random letters: a name that is one word for the catalog's prefix search. */
export const letters = () => Array.from({ length: 8 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join("");

/**
 * Signs in with the JSON local sign-in (`POST /api/login/dev`) as the person
 * with `email`, creating them the first time; the page or context that owns
 * `request` shares its cookies, so signing in again with the same e-mail
 * switches back to that person.
 */
export async function signInAs(request: APIRequestContext, email: string, firstName: string): Promise<CurrentUser> {
  const res = await request.post("/api/login/dev", { data: { email, firstName } });
  expect(res.ok()).toBe(true);
  return (await res.json()) as CurrentUser;
}

/** Signs in with the JSON local sign-in as a new person named `firstName`; the page shares the request context's cookies. */
export function signInWithApi(page: Page, firstName: string): Promise<CurrentUser> {
  return signInAs(page.request, `${firstName.toLowerCase()}-${unique()}@example.com`, firstName);
}

/** Creates a character as the signed-in person (`POST /api/characters`, no tags, not NSFW unless given); fails the test unless 201. */
export async function createCharacter(
  request: APIRequestContext,
  fields: { name: string; description: string; personality: string; greeting?: string; tags?: string[]; isNsfw?: boolean },
): Promise<Character> {
  const res = await request.post("/api/characters", { data: { tags: [], isNsfw: false, ...fields } });
  expect(res.status()).toBe(201);
  return (await res.json()) as Character;
}

/** Posts a comment (a reply when `parentId` is given) as the signed-in person; fails the test unless 201. */
export async function postComment(request: APIRequestContext, characterId: number, content: string, parentId?: number): Promise<Comment> {
  const res = await request.post(`/api/characters/${characterId}/comments`, { data: { content, parentId } });
  expect(res.status()).toBe(201);
  return (await res.json()) as Comment;
}

/**
 * Screenshots of the page at 1280 and 375 px wide, to `${path}-1280.png` and
 * `${path}-375.png` (looked at by people, not compared); the page is left
 * at 1280.
 */
export async function screenshots(page: Page, path: string): Promise<void> {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width > 500 ? 900 : 800 });
    await page.screenshot({ path: `${path}-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** Signs in through the local sign-in form at /api/login, as a person would; returns the person. */
export async function signInWithForm(page: Page, firstName: string): Promise<CurrentUser> {
  await page.goto("/api/login");
  await page.getByLabel("E-mail").fill(`${firstName.toLowerCase()}-${unique()}@example.com`);
  await page.getByLabel("First name").fill(firstName);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/$/);
  return (await (await page.request.get("/api/auth/user")).json()) as CurrentUser;
}

/** axe finds no serious or critical violation on the page as it is now. */
export async function expectAccessible(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`)).toEqual([]);
}

/** Waits until no finite animation runs (a dialog's or a toast's entrance), then checks as `expectAccessible` does: colours measured at rest. */
export async function expectAccessibleAtRest(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== "running" || a.effect?.getComputedTiming().endTime === Infinity),
  );
  await expectAccessible(page);
}

/** A toast with exactly this text in the notifications region. */
export function toast(page: Page, text: string) {
  return page.getByRole("region", { name: /Notifications/ }).getByText(text, { exact: true });
}

/** The sign-in path, with the page to come back to (returnTo) when the person was on one. */
const SIGN_IN_PATH = /\/api\/login(\?returnTo=[^&#]+)?$/;

/** sessionStorage key under which each page records the toasts it showed. */
const TOAST_LOG_KEY = "__fabledToasts";
const recording = new WeakSet<Page>();

/**
 * Starts recording, on `page` and every document it loads from now on, the
 * text of each toast put into the notifications region (title and
 * description run together), as it appears, in the tab's sessionStorage: it
 * is written synchronously in the page and survives the navigation that
 * follows a toast (same origin), so a toast shown for a moment before the
 * page goes away is never lost, however busy the machine.
 */
async function recordToasts(page: Page): Promise<void> {
  if (recording.has(page)) return;
  recording.add(page);
  const observe = (key: string) => {
    if ((window as unknown as { __fabledToastObserver?: boolean }).__fabledToastObserver) return;
    (window as unknown as { __fabledToastObserver?: boolean }).__fabledToastObserver = true;
    // Each toast is an <li> of the region. Scanning for them (rather than
    // reading the added nodes) also finds a toast that was waiting in the
    // store and arrives inside the newly mounted region itself.
    const seen = new WeakSet<Element>();
    new MutationObserver(() => {
      for (const item of Array.from(document.querySelectorAll('[role="region"][aria-label^="Notifications"] li'))) {
        const text = item.textContent?.trim();
        if (seen.has(item) || !text) continue;
        seen.add(item);
        const log = JSON.parse(sessionStorage.getItem(key) ?? "[]") as string[];
        sessionStorage.setItem(key, JSON.stringify([...log, text]));
      }
    }).observe(document, { childList: true, subtree: true, characterData: true });
  };
  await page.addInitScript(observe, TOAST_LOG_KEY);
  await page.evaluate(observe, TOAST_LOG_KEY);
}

/** The toasts the tab has recorded so far (recordToasts), oldest first. */
function recordedToasts(page: Page): Promise<string[]> {
  return page.evaluate((key) => {
    try {
      return JSON.parse(sessionStorage.getItem(key) ?? "[]") as string[];
    } catch {
      return []; // about:blank has no storage (and no toasts)
    }
  }, TOAST_LOG_KEY);
}

/**
 * The Unauthorized flow of SPEC.md §8 as a visitor sees it: `trigger` (a
 * click, a navigation) brings the "Unauthorized" toast with `description`,
 * then the page goes to the sign-in path. The app navigates 500 ms after
 * showing the toast, less than Playwright's later polling intervals, so the
 * toast is recorded as it appears (see recordToasts) rather than polled for,
 * and read from the tab's sessionStorage on the sign-in page.
 */
export async function expectSentToSignIn(page: Page, trigger: () => Promise<unknown>, description: string): Promise<void> {
  await recordToasts(page);
  const before = (await recordedToasts(page)).length;
  await trigger();
  await expect(page).toHaveURL(SIGN_IN_PATH);
  await page.waitForLoadState("domcontentloaded");
  // The toast may appear only on the sign-in page, once the lazily loaded
  // toaster arrives (toasts wait in the store until then).
  await expect.poll(async () => (await recordedToasts(page)).slice(before)).toContain(`Unauthorized${description}`);
}

/** Per page: for each chat socket it opened, in order, whether the server has answered its join. */
const chatSockets = new WeakMap<Page, { joined: boolean }[]>();

/**
 * Starts following the chat sockets `page` opens from now on (call it before
 * the page opens a chat): a socket has joined once the server's
 * `history_sync` arrived on it.
 */
export function followChatSockets(page: Page): void {
  if (chatSockets.has(page)) return;
  const sockets: { joined: boolean }[] = [];
  chatSockets.set(page, sockets);
  page.on("websocket", (ws) => {
    // Only chat sockets: the bell's /ws/notifications socket opens beside them and never joins a chat.
    if (new URL(ws.url()).pathname !== "/ws") return;
    const socket = { joined: false };
    sockets.push(socket);
    ws.on("framereceived", ({ payload }) => {
      if (typeof payload === "string" && payload.startsWith("{") && (JSON.parse(payload) as { type?: string }).type === "history_sync") {
        socket.joined = true;
      }
    });
  });
}

/**
 * Waits until the chat socket `page` opened last has joined its conversation
 * (followChatSockets): until then the chat page shows the messages it fetched,
 * but drops what is sent (SPEC.md §4: the text stays in the input).
 */
export async function expectChatJoined(page: Page): Promise<void> {
  if (!chatSockets.has(page)) throw new Error("expectChatJoined: call followChatSockets(page) before the page opens a chat");
  await expect
    // A room's first wake (its SQLite made, its card read from D1) can take a while on a busy 2-core machine.
    .poll(() => chatSockets.get(page)!.at(-1)?.joined ?? false, { message: "the chat socket has joined (history_sync)", timeout: 30_000 })
    .toBe(true);
}

/**
 * A loopback OpenAI-compatible endpoint (the outside world, DESIGN.md "Your
 * own model") whose `POST /v1/chat/completions` streams one word ("Once")
 * and then holds the reply open until the caller goes away: a reply that is
 * still being written for as long as a test needs, however fast or slow the
 * machine. `GET /v1/models` lists `held-model`. Close it with `close()`.
 */
export async function startHeldModel(): Promise<{ baseUrl: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    if (req.method === "GET" && req.url === "/v1/models") {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ object: "list", data: [{ id: "held-model" }] }));
      return;
    }
    if (req.method === "POST" && req.url === "/v1/chat/completions") {
      req.resume();
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: "Once" } }] })}\n\n`);
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
