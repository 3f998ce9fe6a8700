/**
 * The creator studio in Chromium, as SPEC.md §2 ("Create Character", "Edit
 * Character", "My Characters"), §4, §5 and §8 describe: creating a character
 * with an avatar uploaded through the Uppy panel, finding it on Home, editing
 * and deactivating it, importing a character card, deleting through the
 * confirm dialog, the signed-out and not-found states. Every test signs in as
 * a new person (local sign-in).
 */
import { fileURLToPath } from "node:url";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import type { Character, CharacterSummary, CurrentUser } from "../schema/api.ts";
import { expectAccessible, letters, signInWithApi as signIn, toast, unique } from "./helpers.ts";

/** SillyTavern's default card (test-fixtures/cards/README.md). */
const SERAPHINA_CARD = fileURLToPath(new URL("../test-fixtures/cards/default_Seraphina.png", import.meta.url));

/** A 1×1 PNG (a single opaque violet pixel), generated here rather than read from disk. */
const PIXEL_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mOor/r/HwAFhQJ/wlseKgAAAABJRU5ErkJggg==",
  "base64",
);





/** The My Characters card of `name`. */
const myCard = (page: Page, name: string) => page.getByRole("article", { name, exact: true });

/** Creates a character through the API, as the signed-in person of `request`. */
async function createViaApi(request: APIRequestContext, fields: Record<string, unknown>): Promise<Character> {
  const res = await request.post("/api/characters", {
    data: {
      description: "A character made by the creator browser test.",
      personality: "Patient, curious and a little theatrical.",
      ...fields,
    },
  });
  expect(res.status()).toBe(201);
  return (await res.json()) as Character;
}

async function searchHome(page: Page, text: string) {
  await page.goto("/");
  await page.getByPlaceholder("Search characters...").fill(text);
}

test("create with an uploaded avatar, find it on Home, edit it, deactivate it", async ({ page }) => {
  // A whole creator journey (upload, Home, edit, deactivate): on a loaded machine it ran past the
  // default 60 s once. The budget catches a hang; each step still waits on what is shown.
  test.setTimeout(180_000);
  await signIn(page, "Cleo");
  const name = `Zephyrine ${letters()}`;

  await page.goto("/create-character");
  await expect(page.getByRole("heading", { name: "Create Character", level: 1 })).toBeVisible();
  const dashboard = page.locator(".uppy-Dashboard");
  await expect(dashboard).toBeVisible();
  await expectAccessible(page);

  // The shared schema's messages, shown under the fields after a submit.
  const submit = page.getByRole("button", { name: "Create Character" });
  await submit.click();
  await expect(page.getByText("Character name is required")).toBeVisible();
  await expect(page.getByText("Description must be at least 10 characters")).toBeVisible();
  await expect(page.getByText("Personality must be at least 10 characters")).toBeVisible();
  await expect(page.getByLabel("Name", { exact: true })).toBeFocused();

  await page.getByLabel("Name", { exact: true }).fill(name);
  await expect(page.getByText("Character name is required")).toHaveCount(0);
  await page.getByLabel("Description", { exact: true }).fill("A lighthouse keeper who collects other people's secrets.");
  await page.getByLabel("Personality", { exact: true }).fill("Soft-spoken, observant, and fond of riddles.");
  await page.getByLabel("Example conversation (Optional)").fill("{{user}}: Hello?\n{{char}}: *lifts the lamp* You found me.");
  await expect(page.getByText(/Use \{\{char\}\}: for the character's lines and \{\{user\}\}: for yours/)).toBeVisible();

  // Tags: a popular chip and a new one, normalised to lower case.
  await page.getByRole("button", { name: "fantasy", exact: true }).click();
  await expect(page.getByRole("button", { name: "fantasy", exact: true })).toHaveAttribute("aria-pressed", "true");
  await page.getByLabel("Tags", { exact: true }).fill("x");
  await page.getByLabel("Tags", { exact: true }).press("Enter");
  await expect(page.getByText("Tags must be at least 2 characters")).toBeVisible();
  await page.getByLabel("Tags", { exact: true }).fill("  Lighthouse Keeper ");
  await page.getByLabel("Tags", { exact: true }).press("Enter");
  const chosen = page.getByRole("list", { name: "Chosen tags" });
  await expect(chosen.getByRole("listitem")).toHaveText(["fantasy", "lighthouse keeper"]);

  // The panel's own restriction message for a file that is not an image.
  const fileInput = dashboard.locator("input.uppy-Dashboard-input").first();
  await fileInput.setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not an image") });
  await expect(dashboard.getByText("You can only upload: image/*").first()).toBeVisible();

  // The avatar goes through the Uppy panel: PUT to the upload URL, then registered.
  await fileInput.setInputFiles({
    name: "lamp.png",
    mimeType: "image/png",
    buffer: PIXEL_PNG,
  });
  await expect(toast(page, "Avatar uploaded successfully")).toBeVisible();
  await expect(page.getByLabel("Avatar URL (Optional)")).toHaveValue(/^\/objects\/avatars\/[\w-]+\/[\w-]+$/);
  await expect(dashboard.getByText("Complete", { exact: false }).first()).toBeVisible();
  const avatarUrl = await page.getByLabel("Avatar URL (Optional)").inputValue();

  // The greeting is in the main part of the form; the other card fields are in the advanced section.
  await page.getByLabel("Greeting (first message)").fill("*The lamp swings toward you.* Another ship lost in the fog?");
  const advanced = page.getByRole("button", { name: /Advanced \(character card\)/ });
  await expect(advanced).toHaveAttribute("aria-expanded", "false");
  await advanced.click();
  await page.getByRole("button", { name: "Add alternate greeting" }).click();
  await page.getByLabel("Alternate greeting 1", { exact: true }).fill("Ah, a visitor. Tea is on the stove.");

  await submit.click();
  await expect(toast(page, "Character created successfully")).toBeVisible();
  await expect(page).toHaveURL(/\/my-characters$/);
  const card = myCard(page, name);
  await expect(card).toBeVisible();
  await expect(card.getByText("Inactive")).toHaveCount(0);
  const picture = card.getByRole("img", { name: `Avatar of ${name}` });
  await expect(picture).toHaveAttribute("src", avatarUrl);
  await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);

  const mine = (await (await page.request.get("/api/my-characters")).json()) as CharacterSummary[];
  const created = mine.find((c) => c.name === name)!;
  const stored = (await (await page.request.get(`/api/characters/${created.id}`)).json()) as Character;
  expect(stored).toMatchObject({
    tags: ["fantasy", "lighthouse keeper"],
    avatarUrl,
    greeting: "*The lamp swings toward you.* Another ship lost in the fog?",
    alternateGreetings: ["Ah, a visitor. Tea is on the stove."],
    isActive: true,
  });

  // Home finds it.
  await searchHome(page, name);
  await expect(page.getByRole("link", { name, exact: true })).toBeVisible();

  // Edit: the form is filled in; a new description is saved.
  await page.goto("/my-characters");
  await myCard(page, name).getByRole("link", { name: `Edit ${name}` }).click();
  await expect(page).toHaveURL(new RegExp(`/edit-character/${created.id}$`));
  const description = page.getByLabel("Description", { exact: true });
  await expect(description).toHaveValue("A lighthouse keeper who collects other people's secrets.");
  await expect(page.getByLabel("Greeting (first message)")).toHaveValue(/Another ship lost in the fog/);
  await description.fill("A lighthouse keeper who trades secrets for stories.");
  await page.getByRole("button", { name: "Update Character" }).click();
  await expect(toast(page, "Character updated successfully")).toBeVisible();
  await expect(page).toHaveURL(/\/my-characters$/);
  await expect(myCard(page, name).getByText("A lighthouse keeper who trades secrets for stories.")).toBeVisible();

  // Deactivate: dimmed with the Inactive badge, and gone from Home.
  await myCard(page, name).getByRole("button", { name: `Deactivate ${name}` }).click();
  await expect(toast(page, "Character status has been updated successfully")).toBeVisible();
  await expect(myCard(page, name).getByText("Inactive")).toBeVisible();
  await expect(myCard(page, name).getByRole("button", { name: `Activate ${name}` })).toBeVisible();
  await searchHome(page, name);
  await expect(page.getByText("No characters found matching your criteria")).toBeVisible();
  await expect(page.getByRole("link", { name, exact: true })).toHaveCount(0);
});

test("import a character card, review it, delete a character through the confirm dialog", async ({ page }) => {
  await signIn(page, "Ivo");
  // An NSFW one next to it, for the badge.
  const nsfwName = `Velvet ${letters()}`;
  await createViaApi(page.request, { name: nsfwName, isNsfw: true, tags: ["romance", "drama", "dark", "mystery", "villain"] });

  await page.goto("/my-characters");
  await expect(page.getByRole("heading", { name: "My Characters", level: 1 })).toBeVisible();
  await expect(page.getByRole("link", { name: "Back", exact: true })).toHaveAttribute("href", "/");
  await expect(page.getByRole("link", { name: "Create Character" })).toHaveAttribute("href", "/create-character");
  const nsfwCard = myCard(page, nsfwName);
  await expect(nsfwCard.getByText("NSFW", { exact: true })).toBeVisible();
  // The first 3 tags, then "+2".
  await expect(nsfwCard.getByRole("list", { name: "Tags" }).getByRole("listitem")).toHaveText([
    "romance",
    "drama",
    "dark",
    /^\+2/,
  ]);

  // Import: the raw PNG goes to /api/characters/import; its edit page opens, filled in.
  await page.getByTestId("import-card-input").setInputFiles(SERAPHINA_CARD);
  await expect(page).toHaveURL(/\/edit-character\/\d+$/);
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Seraphina");
  const greeting = page.getByLabel("Greeting (first message)");
  await expect(greeting).toBeVisible();
  await expect(greeting).not.toHaveValue("");
  await expect(page.getByLabel("Avatar URL (Optional)")).toHaveValue(/^\/objects\/avatars\//);

  // Imported characters wait, inactive, for review.
  await page.goto("/my-characters");
  const seraphina = myCard(page, "Seraphina");
  await expect(seraphina.getByText("Inactive")).toBeVisible();
  await expectAccessible(page);

  // Delete: Cancel keeps it; Delete removes it.
  await seraphina.getByRole("button", { name: "Delete Seraphina" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Delete Character" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText("Are you sure you want to delete this character? This action cannot be undone.")).toBeVisible();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(seraphina).toBeVisible();

  await seraphina.getByRole("button", { name: "Delete Seraphina" }).click();
  await dialog.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(toast(page, "Your character has been deleted successfully")).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(myCard(page, "Seraphina")).toHaveCount(0);
  await expect(nsfwCard).toBeVisible();
});

test("a refused card file is explained in a toast and nothing is created", async ({ page }) => {
  await signIn(page, "Pia");
  await page.goto("/my-characters");
  await expect(page.getByText("You haven't created any characters yet")).toBeVisible();
  await page.getByTestId("import-card-input").setInputFiles({
    name: "broken.json",
    mimeType: "application/json",
    buffer: Buffer.from("{ not json"),
  });
  await expect(page.getByRole("region", { name: /Notifications/ }).getByText("Error", { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/my-characters$/);
  expect(await (await page.request.get("/api/my-characters")).json()).toEqual([]);
});

test("My Characters when empty, and the card download on the character page", async ({ page }) => {
  await signIn(page, "Noor");
  await page.goto("/my-characters");
  await expect(page.getByText("You haven't created any characters yet")).toBeVisible();
  await page.getByRole("link", { name: "Create Your First Character" }).click();
  await expect(page).toHaveURL(/\/create-character$/);

  const character = await createViaApi(page.request, { name: `Quill ${letters()}` });
  await page.goto(`/character/${character.id}`);
  await page.getByRole("button", { name: "Download card" }).click();
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("menuitem", { name: /JSON card/ }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/\.json$/);
  const card = JSON.parse(await (await page.request.get(`/api/characters/${character.id}/card.json`)).text()) as {
    spec: string;
    data: { name: string };
  };
  expect(card).toMatchObject({ spec: "chara_card_v3", data: { name: character.name } });
  await page.keyboard.press("Escape");
  await page.getByRole("button", { name: "Download card" }).click();
  await expect(page.getByRole("menuitem", { name: /PNG card/ })).toHaveAttribute("href", `/api/characters/${character.id}/card.png`);
});

test("signed out: the create, edit and list pages ask to sign in", async ({ page }) => {
  await page.goto("/create-character");
  await expect(page.getByRole("heading", { name: "Sign In Required" })).toBeVisible();
  await expect(page.getByText("Please sign in to create a character")).toBeVisible();
  await page.getByRole("link", { name: "Go Home" }).click();
  await expect(page).toHaveURL(/\/$/);

  await page.goto("/edit-character/1");
  await expect(page.getByRole("heading", { name: "Sign In Required" })).toBeVisible();
  await expect(page.getByText("Please sign in to edit a character")).toBeVisible();

  await page.goto("/my-characters");
  await expect(page.getByText("Please sign in to view your characters")).toBeVisible();
});

test("edit: someone else's or a missing character is not found; an expired session is told on submit", async ({ page }) => {
  await signIn(page, "Tess");
  const others = (await (await page.request.get("/api/characters?limit=1")).json()) as { characters: CharacterSummary[] };
  const someoneElses = others.characters[0]!;

  await page.goto(`/edit-character/${someoneElses.id}`);
  await expect(page.getByRole("heading", { name: "Character Not Found" })).toBeVisible();
  await page.getByRole("link", { name: "Go to My Characters" }).click();
  await expect(page).toHaveURL(/\/my-characters$/);

  await page.goto("/edit-character/999999999");
  await expect(page.getByRole("heading", { name: "Character Not Found" })).toBeVisible();

  // The session ends while the form is open: the submit says so.
  const own = await createViaApi(page.request, { name: `Wren ${letters()}` });
  await page.goto(`/edit-character/${own.id}`);
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue(own.name);
  await page.context().clearCookies();
  await page.getByRole("button", { name: "Update Character" }).click();
  await expect(toast(page, "Authentication required")).toBeVisible();
  await expect(toast(page, "Please sign in to edit a character")).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/edit-character/${own.id}$`));
});
