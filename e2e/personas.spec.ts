/**
 * Personas on /profile in Chromium: the empty state, creating two (the first
 * with an avatar uploaded through the shared Uppy panel, inside the dialog),
 * making the second the default, editing one, deleting the default through
 * the confirm dialog, and the state kept after a reload. Keyboard only where
 * it matters: the dialog opens from the keyboard and Escape leaves it.
 */
import { expect, type Page, test } from "@playwright/test";
import { expectAccessible, signInWithApi as signIn, toast } from "./helpers.ts";

/** A 1×1 PNG (a single opaque violet pixel). */
const PIXEL_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mOor/r/HwAFhQJ/wlseKgAAAABJRU5ErkJggg==",
  "base64",
);

/**
 * Waits until no finite animation runs (a toast or dialog fading in or out),
 * so axe measures colours at rest rather than halfway through a fade.
 */
async function expectAccessibleAtRest(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== "running" || a.effect?.getComputedTiming().endTime === Infinity),
  );
  await expectAccessible(page);
}

const personasList = (page: Page) => page.getByRole("list", { name: "Your personas" });

/** The personas' names in the order the list shows them. */
const shownNames = (page: Page) => personasList(page).getByRole("heading", { level: 3 });

/** The list item of the persona called `name`. */
const item = (page: Page, name: string) =>
  personasList(page)
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { name, exact: true, level: 3 }) });

test("create two personas, make the second the default, edit one, delete one, and keep it all", async ({ page }) => {
  // A long journey (several replies or saves, reloads, axe checks): it ran past 60 s once on a
  // loaded machine. The budget catches a hang; each step still waits on what is shown.
  test.setTimeout(120_000);
  await signIn(page, "Piper");
  await page.goto("/profile");
  const section = page.getByRole("region", { name: "Personas" });
  await expect(section.getByRole("heading", { name: "Personas", level: 2 })).toBeVisible();
  await expect(section.getByText("Who you are in chats:")).toBeVisible();
  await expect(section.getByText("No personas yet")).toBeVisible();
  await expect(section.getByText("Until you make one, characters call you Piper.", { exact: false })).toBeVisible();
  await expectAccessibleAtRest(page);

  // The dialog opens from the keyboard; Escape leaves it without creating anything.
  await section.getByRole("button", { name: "New Persona" }).focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "New Persona" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel("Name", { exact: true })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(section.getByText("No personas yet")).toBeVisible();

  // The first persona: the shared schema's message, the counter, an uploaded avatar; it becomes the default.
  await section.getByRole("button", { name: "New Persona" }).click();
  await expect(dialog.getByRole("switch", { name: "Default persona" })).toBeChecked();
  await dialog.getByRole("button", { name: "Create Persona" }).click();
  await expect(dialog.getByText("Persona name is required")).toBeVisible();
  await expect(dialog.getByLabel("Name", { exact: true })).toBeFocused();
  await dialog.getByLabel("Name", { exact: true }).fill("Wren Ashdown");
  await expect(dialog.getByText("Persona name is required")).toBeHidden();
  await dialog.getByLabel("Description (Optional)").fill("A travelling cartographer with ink-stained fingers.");
  await expect(dialog.getByText("51/2,000")).toBeVisible();
  const panel = dialog.locator(".uppy-Dashboard");
  await expect(panel).toBeVisible();
  // Checked before the upload: Uppy's own file list (a role="list" with rows
  // between it and its items) is what axe would flag afterwards.
  await expectAccessibleAtRest(page);
  await panel.locator("input.uppy-Dashboard-input").first().setInputFiles({ name: "wren.png", mimeType: "image/png", buffer: PIXEL_PNG });
  // A modal dialog hides the rest of the page, the toasts' region included, from
  // the accessibility tree (Radix announces each toast through its own live region).
  await expect(
    page.getByRole("region", { name: /Notifications/, includeHidden: true }).getByText("Avatar uploaded successfully", { exact: true }),
  ).toBeVisible();
  await expect(dialog.getByLabel("Avatar URL (Optional)")).toHaveValue(/^\/objects\/avatars\/[\w-]+\/[\w-]+$/);
  const avatarUrl = await dialog.getByLabel("Avatar URL (Optional)").inputValue();
  await expect(dialog.getByRole("img", { name: "Persona picture preview" })).toHaveAttribute("src", avatarUrl);
  await dialog.getByRole("button", { name: "Create Persona" }).click();
  await expect(toast(page, "Persona created")).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(item(page, "Wren Ashdown").getByText("Default", { exact: true })).toBeVisible();
  await expect(item(page, "Wren Ashdown").locator(`img[src="${avatarUrl}"]`)).toBeVisible();

  // The second persona is not the default until asked.
  await section.getByRole("button", { name: "New Persona" }).click();
  await expect(dialog.getByRole("switch", { name: "Default persona" })).not.toBeChecked();
  await dialog.getByLabel("Name", { exact: true }).fill("Kit Marlowe");
  await dialog.getByLabel("Description (Optional)").fill("A smuggler who owes everyone money.");
  await dialog.getByRole("button", { name: "Create Persona" }).click();
  await expect(toast(page, "Persona created")).toBeVisible();
  await expect(shownNames(page)).toHaveText(["Wren Ashdown", "Kit Marlowe"]);
  await expect(item(page, "Kit Marlowe").getByText("Default", { exact: true })).toHaveCount(0);
  await expectAccessibleAtRest(page);

  // Make the second the default: it moves to the top and takes the badge.
  await item(page, "Kit Marlowe").getByRole("button", { name: "Make Default: Kit Marlowe" }).click();
  await expect(toast(page, "Kit Marlowe is now your default persona.")).toBeVisible();
  await expect(shownNames(page)).toHaveText(["Kit Marlowe", "Wren Ashdown"]);
  await expect(item(page, "Kit Marlowe").getByText("Default", { exact: true })).toBeVisible();
  await expect(item(page, "Wren Ashdown").getByText("Default", { exact: true })).toHaveCount(0);
  await expect(item(page, "Wren Ashdown").getByRole("button", { name: "Make Default: Wren Ashdown" })).toBeVisible();

  // Edit the first one.
  await page.getByRole("button", { name: "Edit Wren Ashdown" }).click();
  const edit = page.getByRole("dialog", { name: "Edit Persona" });
  await expect(edit.getByLabel("Name", { exact: true })).toHaveValue("Wren Ashdown");
  await expect(edit.getByLabel("Avatar URL (Optional)")).toHaveValue(avatarUrl);
  await edit.getByLabel("Name", { exact: true }).fill("Wren Ash");
  await edit.getByLabel("Description (Optional)").fill("A retired cartographer who still draws maps of places she dreams.");
  await edit.getByRole("button", { name: "Save Changes" }).click();
  await expect(toast(page, "Persona updated")).toBeVisible();
  await expect(edit).toBeHidden();
  await expect(shownNames(page)).toHaveText(["Kit Marlowe", "Wren Ash"]);
  await expect(item(page, "Wren Ash").getByText("A retired cartographer who still draws maps", { exact: false })).toBeVisible();

  // Delete the default through the confirmation: nothing else becomes the default.
  await page.getByRole("button", { name: "Delete Kit Marlowe" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete Persona" });
  await expect(confirm.getByText("Are you sure you want to delete Kit Marlowe?")).toBeVisible();
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toBeHidden();
  await expect(shownNames(page)).toHaveText(["Kit Marlowe", "Wren Ash"]);
  await page.getByRole("button", { name: "Delete Kit Marlowe" }).click();
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(toast(page, "Persona deleted")).toBeVisible();
  await expect(shownNames(page)).toHaveText(["Wren Ash"]);
  await expect(item(page, "Wren Ash").getByText("Default", { exact: true })).toHaveCount(0);

  // A reload shows what was saved.
  await page.reload();
  await expect(shownNames(page)).toHaveText(["Wren Ash"]);
  await expect(item(page, "Wren Ash").getByText("A retired cartographer who still draws maps", { exact: false })).toBeVisible();
  await expect(item(page, "Wren Ash").getByText("Default", { exact: true })).toHaveCount(0);
  await expect(item(page, "Wren Ash").locator(`img[src="${avatarUrl}"]`)).toBeVisible();
  await expectAccessibleAtRest(page);
});
