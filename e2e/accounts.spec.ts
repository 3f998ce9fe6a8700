/**
 * Accounts in Chromium, as SPEC.md §2 ("User menu", "Edit Profile"), §4
 * ("Username availability"), §5 and §8 describe: local sign-in, the user
 * menu, editing the profile, logging out (a logout link from another site
 * only asks); visitors kept off /profile.
 * Every test signs in as a new person.
 */
import { type APIRequestContext, expect, type Page, request as playwrightRequest, type Route, test } from "@playwright/test";
import type { CurrentUser } from "../schema/api.ts";
import { expectAccessible, signInWithForm as signIn, toast, unique } from "./helpers.ts";

const emailFor = (firstName: string) => `${firstName.toLowerCase()}-${unique()}@example.com`;

/** Another person, signed in through the JSON local sign-in, driving the API directly. */
async function otherPerson(baseURL: string, firstName: string): Promise<{ api: APIRequestContext; user: CurrentUser }> {
  const api = await playwrightRequest.newContext({ baseURL });
  const res = await api.post("/api/login/dev", { data: { email: emailFor(firstName), firstName } });
  expect(res.ok()).toBe(true);
  return { api, user: (await res.json()) as CurrentUser };
}

const usernameField = (page: Page) => page.getByLabel("Username", { exact: true });

test("signed in: the user menu shows the first letter and first name, and logs out", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("link", { name: "Sign In" })).toBeVisible();

  await signIn(page, "Zara");
  await expect(page.getByRole("link", { name: "Sign In" })).toHaveCount(0);
  const trigger = page.getByRole("button", { name: "Zara" });
  await expect(trigger).toBeVisible();
  await expect(trigger.getByText("Z", { exact: true })).toBeVisible();

  // Keyboard: Enter opens the menu on its first item, arrows move, Escape closes.
  await trigger.focus();
  await page.keyboard.press("Enter");
  const menu = page.getByRole("menu");
  await expect(menu).toBeVisible();
  await expect(menu.getByRole("menuitem")).toHaveText(["Profile", "My Characters", "Favorites", "My Chats", "Lorebooks", "Models", "Logout"]);
  await expect(menu.getByRole("menuitem", { name: "Profile" })).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(menu.getByRole("menuitem", { name: "My Characters" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();
  await expect(trigger).toBeFocused();

  // Profile opens the profile page.
  await trigger.click();
  await page.getByRole("menuitem", { name: "Profile" }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByRole("heading", { name: "Edit Profile" })).toBeVisible();

  // Logout is a full navigation to /api/logout, which returns to Home signed out.
  await page.getByRole("button", { name: "Zara" }).click();
  const [logout] = await Promise.all([
    page.waitForRequest((req) => new URL(req.url()).pathname === "/api/logout"),
    page.getByRole("menuitem", { name: "Logout" }).click(),
  ]);
  expect(logout.isNavigationRequest()).toBe(true);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("link", { name: "Sign In" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Zara" })).toHaveCount(0);
  expect((await page.request.get("/api/auth/user")).status()).toBe(401);
});

test("a logout link on another website only asks; the person confirms with a button", async ({ page, baseURL }) => {
  await signIn(page, "Yusuf");
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content[- ]Security[- ]Policy/i.test(message.text())) violations.push(message.text());
  });
  // A page on another site links to our logout (a top-level navigation carries the Lax session cookie).
  await page.route("https://elsewhere.example/**", (route) =>
    route.fulfill({ contentType: "text/html", body: `<a href="${baseURL}/api/logout">Claim your prize</a>` }),
  );
  await page.goto("https://elsewhere.example/");
  await page.getByRole("link", { name: "Claim your prize" }).click();

  await expect(page.getByRole("heading", { name: "Log out of Fabled?" })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe("/api/logout");
  expect((await page.request.get("/api/auth/user")).status()).toBe(200);
  await expectAccessible(page);

  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("link", { name: "Sign In" })).toBeVisible();
  expect((await page.request.get("/api/auth/user")).status()).toBe(401);
  expect(violations).toEqual([]);
});

test("on a phone the menu shows the avatar only and still names the person", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, "Ines");
  const trigger = page.getByRole("button", { name: "Ines" });
  await expect(trigger).toBeVisible();
  // The name is screen-reader text there (the accessible name), not drawn.
  const nameBox = await trigger.getByText("Ines", { exact: true }).boundingBox();
  expect(nameBox?.width ?? 0).toBeLessThanOrEqual(1);
  await trigger.click();
  await expect(page.getByRole("menuitem", { name: "My Characters" })).toBeVisible();
});

test("edit profile: validation, live username availability, a taken name blocks saving, save", async ({ page, baseURL }) => {
  const me = await signIn(page, "Quinn");
  const other = await otherPerson(baseURL!, "Rowan");
  await page.goto("/profile");

  await expect(page.getByRole("heading", { name: "Edit Profile" })).toBeVisible();
  await expect(page.getByText("Update your profile information")).toBeVisible();
  await expect(page.getByRole("link", { name: "Back", exact: true })).toHaveAttribute("href", "/");
  const name = page.getByLabel("Display Name");
  const image = page.getByLabel("Profile Image URL (Optional)");
  const save = page.getByRole("button", { name: "Save Changes" });
  await expect(name).toHaveAttribute("placeholder", "Enter your name");
  await expect(usernameField(page)).toHaveAttribute("placeholder", "@username");
  await expect(page.getByText("This is your public display name.")).toBeVisible();
  await expect(page.getByText(/Leave empty to use the default avatar/)).toBeVisible();
  await expect(usernameField(page)).toHaveValue(me.username);
  // The own, unchanged username is not checked: no indicator.
  await expect(page.getByTestId(/^username-/)).toHaveCount(0);
  await expectAccessible(page);

  // The shared schema's messages. The availability checks of "@q" and "@" are held unanswered
  // meanwhile: the server calls a malformed name unavailable, which blocks saving (SPEC.md §4) as
  // soon as its answer lands, and the click must not race it on a slow machine.
  const heldChecks: Route[] = [];
  await page.route("**/api/profile/check-username/**", (route) => void heldChecks.push(route));
  await name.fill("");
  await usernameField(page).fill("q");
  await expect(usernameField(page)).toHaveValue("@q");
  await usernameField(page).fill("@");
  await image.fill("not a url");
  await save.click();
  await expect(page.getByText("Name is required")).toBeVisible();
  await expect(page.getByText("Username must be at least 2 characters")).toBeVisible();
  await expect(page.getByText("Must be a valid URL")).toBeVisible();
  await page.unroute("**/api/profile/check-username/**");
  // A check the page gave up on meanwhile (its query was cancelled) is already handled.
  await Promise.all(heldChecks.map((route) => route.abort().catch(() => {})));
  await usernameField(page).fill("@bad-name");
  await expect(page.getByText("Username must start with @ and contain only letters, numbers, and underscores")).toBeVisible();
  await image.fill("");
  await expect(page.getByText("Must be a valid URL")).toHaveCount(0);

  // "@" is added as one types; a free name gets the green tick.
  const wanted = `quinn_${unique()}`.slice(0, 29);
  await name.fill("Quinn Harper");
  await expect(page.getByText("Name is required")).toHaveCount(0);
  await usernameField(page).fill(wanted);
  await expect(usernameField(page)).toHaveValue(`@${wanted}`);
  await expect(page.getByTestId("username-available")).toBeVisible();
  await expect(page.getByText("Username is available")).toBeAttached();

  // Someone else's name (in any case) gets the red cross and blocks saving.
  await usernameField(page).fill(other.user.username.toUpperCase());
  await expect(page.getByTestId("username-taken")).toBeVisible();
  await expect(save).toBeDisabled();

  // Back to the free name: save.
  await usernameField(page).fill(`@${wanted}`);
  await expect(page.getByTestId("username-available")).toBeVisible();
  await expect(save).toBeEnabled();
  await save.click();
  await expect(toast(page, "Profile updated")).toBeVisible();
  await expect(toast(page, "Your profile has been updated successfully.")).toBeVisible();
  const saved = (await (await page.request.get("/api/auth/user")).json()) as CurrentUser;
  expect(saved).toMatchObject({ name: "Quinn Harper", username: `@${wanted}`, profileImageUrl: null });
  // Now the own name again: no indicator.
  await expect(page.getByTestId(/^username-/)).toHaveCount(0);

  // A name taken between the check and the save: the server's 409 becomes "Username unavailable".
  const raced = `race_${unique()}`.slice(0, 29);
  await usernameField(page).fill(`@${raced}`);
  await expect(page.getByTestId("username-available")).toBeVisible();
  const claim = await other.api.put("/api/profile", {
    data: { name: "Rowan", username: `@${raced}`, profileImageUrl: null },
  });
  expect(claim.ok()).toBe(true);
  await save.click();
  await expect(toast(page, "Username unavailable")).toBeVisible();
  await expect(toast(page, "This username is already taken. Please choose another one.")).toBeVisible();
  await expect(page.getByTestId("username-taken")).toBeVisible();
  await expect(save).toBeDisabled();
  await other.api.dispose();

  // After a reload the saved values are there.
  await page.reload();
  await expect(name).toHaveValue("Quinn Harper");
  await expect(usernameField(page)).toHaveValue(`@${wanted}`);

  // The avatar preview follows the image field.
  await image.fill("https://example.invalid/me.png");
  await expect(page.getByRole("img", { name: "Profile picture preview" })).toBeVisible();
});

test("visitors on /profile are sent to Home", async ({ page }) => {
  await page.goto("/profile");
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("link", { name: "Sign In" })).toBeVisible();
});
