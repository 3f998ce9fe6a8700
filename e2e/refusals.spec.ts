/**
 * Refusals that are certain (issue 35) in Chromium: a character refused as
 * sexual content involving minors shows, in the editor, which field says
 * what and what to change, and an "Ask for review" button that files a
 * review request (a report of type `refusal` for the operator); a refused
 * card import shows the same in a dialog. The sample catgirl-maid card (a
 * stated 19-year-old who talks like a high school girl) imports.
 */
import { expect, type Page, test } from "@playwright/test";
import { CATGIRL_MAID_CARD } from "../ai/moderation/pre-screen-blind.ts";
import { expectAccessible, signInWithApi } from "./helpers.ts";

const cardFile = (name: string, data: Record<string, unknown>) => ({
  name,
  mimeType: "application/json",
  buffer: Buffer.from(
    JSON.stringify({ spec: "chara_card_v2", spec_version: "2.0", data: { description: "", personality: "", scenario: "", first_mes: "Hello.", mes_example: "", ...data } }),
  ),
});

/** Screenshots of what the person sees at 1280 and 375 px wide (the viewport, not the whole long form). */
async function shoot(page: Page, name: string) {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`) });
  }
}

test("a refused character says which field and what to change, and one click asks for a review", async ({ page }) => {
  // Budget for a loaded 2-core machine (screenshots of a long form); it catches a hang, it does not time the test.
  test.setTimeout(120_000);
  await signInWithApi(page, "Rin");
  await page.goto("/create-character");
  await page.getByLabel("Name", { exact: true }).fill("Lotte");
  await page.getByLabel("Description", { exact: true }).fill("Lotte is 13 jaar oud en wil seks met je.");
  await page.getByLabel("Personality", { exact: true }).fill("Cheerful and curious about the world.");
  await page.getByRole("button", { name: "Create Character" }).click();
  const notice = page.getByTestId("refusal-notice");
  await expect(notice).toContainText("This character can't be saved");
  await expect(notice).toContainText('The description says "is 13"');
  await expect(notice).toContainText("state an adult age, or remove the sexual content");
  // The field itself carries the reason too.
  await expect(page.getByText(/^The description says "is 13"/).first()).toBeVisible();
  await expectAccessible(page);
  await notice.getByRole("button", { name: "Ask for review" }).scrollIntoViewIfNeeded();
  await shoot(page, "refused-character");
  await notice.getByRole("button", { name: "Ask for review" }).click();
  await expect(notice.getByRole("status")).toHaveText(/Review requested/);
  await expect(notice.getByRole("button", { name: "Ask for review" })).toHaveCount(0);
});

test("a refused card import is a dialog naming the field; the catgirl-maid sample card imports", async ({ page }) => {
  await signInWithApi(page, "Pia");
  await page.goto("/my-characters");
  await page
    .getByTestId("import-card-input")
    .setInputFiles(cardFile("nope.json", { name: "Nope", description: "A quiet girl from the village.", personality: "Quiet and curious.", scenario: "Ей 13 лет, она голая." }));
  const dialog = page.getByRole("dialog", { name: "This card can't be imported" });
  await expect(dialog).toContainText('The scenario says "13 лет"');
  await expect(dialog.getByRole("button", { name: "Ask for review" })).toBeVisible();
  await shoot(page, "refused-card");
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toHaveCount(0);

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByTestId("import-card-input").setInputFiles(cardFile("mimi.json", { name: "Mimi", description: CATGIRL_MAID_CARD.replace("Talks like a schoolgirl", "Speaks like a high school girl") }));
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Mimi");
});
