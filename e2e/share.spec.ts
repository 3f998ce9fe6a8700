/**
 * Shareable pages and the small things people notice, in Chromium against
 * `wrangler dev` with the demo catalog (so through the real static-assets
 * routing of wrangler.toml `run_worker_first` and the built index.html):
 * - link previews in the raw HTML of a character page and a creator page,
 *   read without JavaScript (parsed by the browser's DOMParser), NSFW and
 *   unknown ones neutral; robots.txt and the sitemaps;
 * - the character page still boots, and shows its greeting and example
 *   conversation with the chat's action styling;
 * - My Characters shows views, favorites and chats, with tooltips on its icon buttons;
 * - the local sign-in page in the app's look, with a way back to Home.
 */
import { type APIResponse, expect, type Page, request as playwrightRequest, test } from "@playwright/test";
import type { Character, CharacterListResponse } from "../schema/api.ts";
import { expectAccessible, letters, signInWithApi, unique } from "./helpers.ts";

const baseURL = () => test.info().project.use.baseURL!;

/** The first character whose name matches `search` (NSFW included). */
async function findCharacter(page: Page, search: string) {
  const res = await page.request.get(`/api/characters?search=${encodeURIComponent(search)}&showNsfw=true`);
  expect(res.ok()).toBe(true);
  const { characters } = (await res.json()) as CharacterListResponse;
  const found = characters.find((c) => c.name.includes(search));
  expect(found, search).toBeDefined();
  return found!;
}

interface Preview {
  title: string;
  meta: Record<string, string[]>;
  canonical: string[];
  hasRoot: boolean;
}

/** The head of a raw HTML answer as a link preview reads it: parsed, no script run. */
async function readPreview(page: Page, res: APIResponse): Promise<Preview> {
  const html = await res.text();
  return page.evaluate((source) => {
    const doc = new DOMParser().parseFromString(source, "text/html");
    const meta: Record<string, string[]> = {};
    for (const el of Array.from(doc.querySelectorAll("meta"))) {
      const key = el.getAttribute("property") ?? el.getAttribute("name");
      if (key) (meta[key] ??= []).push(el.getAttribute("content") ?? "");
    }
    return {
      title: doc.title,
      meta,
      canonical: Array.from(doc.querySelectorAll('link[rel="canonical"]')).map((el) => el.getAttribute("href") ?? ""),
      hasRoot: doc.getElementById("root") !== null,
    };
  }, html);
}

test("a character link carries its preview in the HTML; NSFW and unknown ones are neutral", async ({ page, request }) => {
  const seraphine = await findCharacter(page, "Seraphine Vale");
  const res = await request.get(`/character/${seraphine.id}`);
  expect(res.status()).toBe(200);
  expect(res.headers()["content-security-policy"]).toContain("script-src 'self'");
  const preview = await readPreview(page, res);
  const url = `${baseURL()}/character/${seraphine.id}`;
  expect(preview.title).toBe("Seraphine Vale — Fabled");
  expect(preview.meta["og:title"]).toEqual(["Seraphine Vale by @inkwell"]);
  expect(preview.meta.description![0]!.slice(0, 60)).toBe(seraphine.description.slice(0, 60));
  expect(preview.meta["og:description"]).toEqual(preview.meta.description);
  expect(preview.meta["og:url"]).toEqual([url]);
  expect(preview.canonical).toEqual([url]);
  // Link previews get the PNG beside a demo SVG avatar (issue 26).
  expect(preview.meta["og:image"]).toEqual([new URL(seraphine.avatarUrl!.replace(/\.svg$/, ".png"), baseURL()).href]);
  expect(preview.meta["twitter:card"]).toEqual(["summary_large_image"]);
  expect(preview.meta["twitter:image"]).toEqual(preview.meta["og:image"]);
  expect(preview.hasRoot).toBe(true);
  // The picture the preview names is served.
  expect((await request.get(preview.meta["og:image"]![0]!)).ok()).toBe(true);

  const caelum = await findCharacter(page, "Caelum");
  expect(caelum.isNsfw).toBe(true);
  const adult = await readPreview(page, await request.get(`/character/${caelum.id}`));
  expect(adult.meta["og:image"]).toBeUndefined();
  expect(adult.meta["twitter:image"]).toBeUndefined();
  expect(adult.meta["og:title"]).toEqual(["Adult character (18+)"]);
  expect(adult.title).not.toContain("Caelum");

  const missing = await request.get("/character/99999999");
  expect(missing.status()).toBe(404);
  const notFound = await readPreview(page, missing);
  expect(notFound.title).toBe("Character not found — Fabled");
  expect(notFound.canonical).toEqual([]);

  // With JavaScript the same URLs are the app: the character, and the SPA's own 404.
  await page.goto(`/character/${seraphine.id}`);
  await expect(page.getByRole("heading", { name: "Seraphine Vale", level: 1 })).toBeVisible();
  await expect(page).toHaveTitle("Seraphine Vale — Fabled");
  await page.goto("/character/99999999");
  await expect(page.getByRole("heading", { name: "Character not found" })).toBeVisible();
});

test("a creator link carries its preview, with or without the @", async ({ page, request }) => {
  for (const path of ["/u/nightowl", "/u/@nightowl", "/u/NightOwl"]) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(200);
    const preview = await readPreview(page, res);
    expect(preview.title, path).toBe("Noor Alvi (@nightowl) — Fabled");
    expect(preview.meta["og:title"]).toEqual(["Noor Alvi (@nightowl)"]);
    expect(preview.meta["og:description"]![0]).toMatch(/^\d+ characters by @nightowl on Fabled\./);
    expect(preview.meta["og:type"]).toEqual(["profile"]);
    expect(preview.canonical).toEqual([`${baseURL()}/u/nightowl`]);
  }
  expect((await request.get("/u/nobody_by_this_name")).status()).toBe(404);
});

test("robots.txt points to the sitemap, which lists listed characters", async ({ page, request }) => {
  const robots = await request.get("/robots.txt");
  expect(robots.status()).toBe(200);
  expect(robots.headers()["cache-control"]).toBe("public, max-age=3600");
  const rules = await robots.text();
  expect(rules).toContain("Disallow: /api/");
  expect(rules).toContain(`Sitemap: ${baseURL()}/sitemap.xml`);

  const index = await (await request.get("/sitemap.xml")).text();
  expect(index).toContain(`<loc>${baseURL()}/sitemaps/characters-1.xml</loc>`);
  const first = await (await request.get("/sitemaps/characters-1.xml")).text();
  const seraphine = await findCharacter(page, "Seraphine Vale");
  const caelum = await findCharacter(page, "Caelum");
  expect(first).toMatch(new RegExp(`<loc>${baseURL()}/character/${seraphine.id}</loc><lastmod>\\d{4}-\\d\\d-\\d\\dT`));
  expect(first).not.toContain(`/character/${caelum.id}<`);
});

test("the character page shows the greeting and example conversation with action styling", async ({ page }) => {
  const seraphine = await findCharacter(page, "Seraphine Vale");
  await page.goto(`/character/${seraphine.id}`);
  for (const title of ["First Message", "Example Conversation"]) {
    const card = page.locator("div.rounded-2xl", { has: page.getByRole("heading", { name: title, exact: true }) });
    await expect(card).toBeVisible();
    // Actions and emotes are emphasised, as in the chat, and no asterisk is left.
    await expect(card.locator("em").first()).toBeVisible();
    expect(await card.locator("em").count()).toBeGreaterThan(1);
    await expect(card).not.toContainText("*");
  }
  const greeting = page.locator("div.rounded-2xl", { has: page.getByRole("heading", { name: "First Message", exact: true }) });
  await expect(greeting.locator("em").first()).toContainText("The bell above the door gives a tired jingle");
  // {{user}}/{{char}} read as names in the example.
  const example = page.locator("div.rounded-2xl", { has: page.getByRole("heading", { name: "Example Conversation", exact: true }) });
  await expect(example).toContainText("Seraphine Vale: She doesn't even look up from her mortar.");
});

test("My Characters shows each character's views, favorites and chats, and names its icon buttons", async ({ page, browser }) => {
  await signInWithApi(page, "Stats");
  const name = `Tally ${letters()}`;
  const created = await page.request.post("/api/characters", {
    data: { name, description: "A character whose numbers the test watches.", personality: "Counts everything twice, out loud." },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as Character;

  // Someone else views it, favorites it and starts two chats with it.
  const fan = await playwrightRequest.newContext({ baseURL: baseURL() });
  expect((await fan.post("/api/login/dev", { data: { email: `fan-${unique()}@example.com`, firstName: "Fan" } })).ok()).toBe(true);
  expect((await fan.get(`/api/characters/${id}`)).ok()).toBe(true);
  expect((await fan.post(`/api/characters/${id}/favorite`)).ok()).toBe(true);
  for (let i = 0; i < 2; i++) {
    expect((await fan.post("/api/conversations", { data: { characterId: id, title: `Chat with ${name}` } })).status()).toBe(201);
  }
  await fan.dispose();
  // Views are counted through the views queue (a batch every 10 s at most): wait until it is in.
  await expect
    .poll(async () => ((await (await page.request.get("/api/my-characters")).json()) as Character[]).find((c) => c.id === id)?.viewCount, {
      timeout: 30_000,
    })
    .toBe(1);

  await page.goto("/my-characters");
  const card = page.getByRole("article", { name, exact: true });
  const stats = card.getByRole("list", { name: "Statistics" });
  // Written out ("1.2k views" style) and read out (the exact numbers).
  await expect(stats).toMatchAriaSnapshot(`
    - list "Statistics":
      - listitem: 1 view
      - listitem: 1 favorite
      - listitem: 2 chats
  `);
  await expect(stats.locator('[aria-hidden="true"]:not(svg)')).toHaveText(["1 view", "1 favorite", "2 chats"]);

  // Icon-only buttons: named for screen readers, and a tooltip on hover and keyboard focus.
  const remove = card.getByRole("button", { name: `Delete ${name}` });
  await remove.hover();
  await expect(page.getByRole("tooltip")).toHaveText("Delete");
  await card.getByRole("button", { name: `Download card of ${name}` }).focus();
  await expect(page.getByRole("tooltip")).toHaveText("Download card");
  await expectAccessible(page);

  // A visitor's browser gets no numbers: the page asks them to sign in.
  const visitor = await browser.newContext({ baseURL: baseURL() });
  const visitorPage = await visitor.newPage();
  await visitorPage.goto("/my-characters");
  await expect(visitorPage.getByText("Please sign in to view your characters")).toBeVisible();
  await expect(visitorPage.getByText(name)).toHaveCount(0);
  await visitor.close();
});

for (const width of [1280, 375]) {
  test(`the local sign-in page at ${width} px: the app's look, accessible, and a way back Home`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    await page.goto("/api/login");
    await expect(page.getByRole("heading", { name: "Sign in to Fabled" })).toBeVisible();
    await expect(page.getByLabel("E-mail")).toBeVisible();
    await expect(page.getByLabel("First name")).toBeVisible();
    await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
    // The app's dark background, and nothing wider than the screen.
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe("rgb(11, 10, 16)");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await expectAccessible(page);

    await page.getByRole("link", { name: "Back to Home" }).click();
    await expect(page).toHaveURL(`${baseURL()}/`);
    await expect(page.getByRole("link", { name: "Sign In" })).toBeVisible();

    // The wordmark leads Home too.
    await page.goto("/api/login");
    await page.getByRole("link", { name: "Fabled", exact: true }).click();
    await expect(page).toHaveURL(`${baseURL()}/`);
  });
}
