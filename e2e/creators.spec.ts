/**
 * Finding and following (issue 16) in Chromium: the Favorites page round
 * trip, creator pages reached from "@creator", following a creator and
 * seeing their new character under Home's Following tab, and what visitors
 * see. The demo catalog's creator "nightowl" (Noor Alvi) is seeded.
 */
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import type { Character, CharacterListResponse, CreatorProfile } from "../schema/api.ts";
import { expectAccessible, expectSentToSignIn, letters, signInWithApi, signInWithForm } from "./helpers.ts";

const cardFor = (page: Page, name: string) =>
  page.getByRole("article").filter({ has: page.getByRole("link", { name, exact: true }) });

/** An active character of the signed-in person of `request`, with a one-word name. */
async function createCharacter(request: APIRequestContext): Promise<Character> {
  const res = await request.post("/api/characters", {
    data: {
      name: `Warden ${letters()}`,
      description: "A lighthouse keeper for the following browser test.",
      personality: "Patient, dry-humoured and watchful.",
      tags: [],
      isNsfw: false,
    },
  });
  expect(res.status()).toBe(201);
  return (await res.json()) as Character;
}

test("favorite on Home, find it under Favorites from the user menu, unfavorite there and it is gone", async ({ page }) => {
  const me = await signInWithForm(page, "Fern");
  const list = (await (await page.request.get("/api/characters?showNsfw=false&limit=50&sort=new")).json()) as CharacterListResponse;
  const character = list.characters.find((c) => /^[A-Za-z]+( [A-Za-z]+)*$/.test(c.name))!;

  // Home: favorite it from its card.
  await page.getByPlaceholder("Search characters...").fill(character.name);
  const homeCard = cardFor(page, character.name);
  await homeCard.getByRole("button", { name: `Add ${character.name} to favorites` }).click();
  await expect(homeCard.getByRole("button", { name: `Remove ${character.name} from favorites` })).toHaveAttribute("aria-pressed", "true");

  // The user menu leads to Favorites, which lists it.
  await page.getByRole("button", { name: me.firstName! }).click();
  await page.getByRole("menuitem", { name: "Favorites" }).click();
  await expect(page).toHaveURL(/\/favorites$/);
  await expect(page.getByRole("heading", { level: 1, name: "Favorites" })).toBeVisible();
  const card = cardFor(page, character.name);
  await expect(card).toHaveCount(1);
  await expect(page.getByText("1 results found")).toBeVisible();
  await expectAccessible(page);

  // Unfavorite there: the card leaves, and stays gone after a reload.
  await card.getByRole("button", { name: `Remove ${character.name} from favorites` }).click();
  await expect(card).toHaveCount(0);
  await expect(page.getByText("No favorites yet")).toBeVisible();
  await page.reload();
  await expect(page.getByText("No favorites yet")).toBeVisible();
  await expect(cardFor(page, character.name)).toHaveCount(0);
  await expectAccessible(page);
});

test("a failed unfavorite on Favorites brings the card back, as on Home", async ({ page }) => {
  await signInWithApi(page, "Gale");
  const list = (await (await page.request.get("/api/characters?showNsfw=false&limit=1&sort=new")).json()) as CharacterListResponse;
  const character = list.characters[0]!;
  expect((await page.request.post(`/api/characters/${character.id}/favorite`)).ok()).toBe(true);

  await page.goto("/favorites");
  const card = cardFor(page, character.name);
  await expect(card).toHaveCount(1);
  await page.route(`**/api/characters/${character.id}/favorite`, (route) =>
    route.request().method() === "POST"
      ? route.fulfill({ status: 503, contentType: "application/json", body: '{"error":"Down","code":"unavailable"}' })
      : route.continue(),
  );
  await card.getByRole("button", { name: `Remove ${character.name} from favorites` }).click();
  await expect(card.getByRole("button", { name: `Remove ${character.name} from favorites` })).toHaveAttribute("aria-pressed", "true");
  await expect(card).toHaveCount(1);
});

test("a visitor opens a creator page from @creator, in any spelling of the URL; unknown names are 404", async ({ page }) => {
  const profile = (await (await page.request.get("/api/users/nightowl")).json()) as CreatorProfile;
  const theirs = (await (
    await page.request.get("/api/characters?creator=nightowl&showNsfw=false&sort=new&limit=100")
  ).json()) as CharacterListResponse;
  const character = theirs.characters[0]!;

  await page.goto(`/character/${character.id}`);
  await page.getByRole("link", { name: "@nightowl", exact: true }).click();
  await expect(page).toHaveURL(/\/u\/nightowl$/);
  await expect(page.getByRole("heading", { level: 1, name: "Noor Alvi" })).toBeVisible();
  await expect(page.locator("header p").filter({ hasText: /^@nightowl$/ })).toBeVisible();
  await expect(page.getByText(/Joined \w+ \d{4}/)).toBeVisible();
  const counts = page.getByRole("list", { name: "Counts" });
  await expect(counts).toContainText(`${profile.characterCount} characters`);
  await expect(counts).toContainText(`${profile.followerCount} followers`);
  await expect(page.getByText(`${theirs.total} results found`)).toBeVisible();
  await expect(page.getByRole("tab", { name: "New" })).toHaveAttribute("aria-selected", "true");
  await expect(cardFor(page, character.name)).toHaveCount(1);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", /\/u\/nightowl$/);
  await expectAccessible(page);

  // Every card of the page names its creator, linking back here.
  await expect(page.getByRole("article").first().getByRole("link", { name: "@nightowl" })).toHaveAttribute("href", "/u/nightowl");

  // A visitor pressing Follow is asked to sign in.
  await expectSentToSignIn(
    page,
    () => page.getByRole("button", { name: "Follow" }).click(),
    "You need to log in to follow creators. Redirecting...",
  );

  for (const spelling of ["/u/@nightowl", "/u/%40NightOwl", "/u/NIGHTOWL"]) {
    await page.goto(spelling);
    await expect(page.getByRole("heading", { level: 1, name: "Noor Alvi" })).toBeVisible();
  }
  await page.goto(`/u/${letters()}`);
  await expect(page.getByRole("heading", { level: 1, name: "Page Not Found" })).toBeVisible();
});

test("follow a creator from their page and see their new character under Home's Following tab", async ({ page, browser, baseURL }) => {
  // The creator, in a browser of their own.
  const makerContext = await browser.newContext({ baseURL });
  const maker = await makerContext.newPage();
  const creator = await signInWithApi(maker, "Wren");
  const handle = creator.username.slice(1);

  const me = await signInWithForm(page, "Ivo");
  // Following nobody yet: the tab says how it works.
  await page.getByRole("tab", { name: "Following" }).click();
  await expect(page.getByText("No characters from creators you follow")).toBeVisible();

  await page.goto(`/u/${handle}`);
  await expect(page.getByRole("heading", { level: 1, name: "Wren" })).toBeVisible();
  const counts = page.getByRole("list", { name: "Counts" });
  await expect(counts).toContainText("0 followers");
  await page.getByRole("button", { name: "Follow" }).click();
  await expect(page.getByRole("button", { name: "Following" })).toHaveAttribute("aria-pressed", "true");
  await expect(counts).toContainText("1 follower");
  await expect.poll(async () => ((await (await page.request.get(`/api/users/${handle}`)).json()) as CreatorProfile).isFollowing).toBe(true);
  await expectAccessible(page);

  // The creator publishes a character; it shows under Following, linking back to them.
  const character = await createCharacter(maker.request);
  await makerContext.close();
  await page.getByRole("banner").getByRole("link", { name: "Fabled", exact: true }).click();
  await page.getByRole("tab", { name: "Following" }).click();
  const card = cardFor(page, character.name);
  await expect(card).toHaveCount(1);
  await expect(page.getByText("1 results found")).toBeVisible();
  await card.getByRole("link", { name: `@${handle}` }).click();
  await expect(page).toHaveURL(new RegExp(`/u/${handle}$`));

  // Unfollow: the creator's characters leave the tab.
  await page.getByRole("button", { name: "Following" }).click();
  await expect(page.getByRole("button", { name: "Follow" })).toHaveAttribute("aria-pressed", "false");
  await expect(page.getByRole("list", { name: "Counts" })).toContainText("0 followers");
  await page.goBack();
  await page.getByRole("tab", { name: "Following" }).click();
  await expect(page.getByText("No characters from creators you follow")).toBeVisible();
  expect(me.username).not.toBe(creator.username);
});

test("a visitor's Following tab asks to sign in; /favorites asks too", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("tab", { name: "Following" }).click();
  await expect(page.getByText("Sign in to follow creators")).toBeVisible();
  await expect(page.getByRole("tabpanel").getByRole("link", { name: "Sign In" })).toHaveAttribute("href", "/api/login");
  await expectAccessible(page);
  await page.goto("/favorites");
  await expect(page.getByRole("heading", { level: 1, name: "Sign In Required" })).toBeVisible();
  await expect(page.getByText("Please sign in to see your favorite characters")).toBeVisible();
});
