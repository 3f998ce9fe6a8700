/**
 * Lorebooks in Chromium (DESIGN.md turn 4 "Lorebooks"): from the user menu
 * to /lorebooks, import a SillyTavern World Info file, open it, see an
 * entry fire in the "Test" box by its key and a constant one fire always,
 * edit an entry's content (its token count follows), add and duplicate an
 * entry, reorder entries (Move up, and dragging one's handle), set the
 * book's own settings, save (both kept after a reload), and export the book as World Info with the edit in it; at
 * 1280 and 375 px wide, axe clean.
 */
import { expect, test } from "@playwright/test";
import { expectAccessible, signInWithApi as signIn, toast } from "./helpers.ts";

const WORLD_INFO = {
  entries: {
    "0": { uid: 0, key: ["Saltmere"], keysecondary: [], comment: "Saltmere", content: "Saltmere is a fishing town built on stilts.", constant: false, selective: true, order: 100, position: 0, disable: false, probability: 100, useProbability: true, vectorized: false },
    "1": { uid: 1, key: [], keysecondary: [], comment: "The sea", content: "The sea is always cold.", constant: true, selective: true, order: 90, position: 1, disable: false, probability: 100, useProbability: true },
  },
};

for (const width of [1280, 375]) {
  test(`import, test, edit and export a lorebook at ${width} px`, async ({ page }) => {
    // One long flow with two axe passes: thrice the default time.
    test.slow();
    await page.setViewportSize({ width, height: 900 });
    await signIn(page, "Lore");
    await page.goto("/");
    await page.getByRole("button", { name: "Lore", exact: true }).click();
    await page.getByRole("menuitem", { name: "Lorebooks" }).click();
    await expect(page.getByRole("heading", { name: "Lorebooks", level: 1 })).toBeVisible();
    await expect(page.getByText("No lorebooks yet")).toBeVisible();

    await page.getByLabel("Lorebook file to import").setInputFiles({ name: "Drowned Coast.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(WORLD_INFO)) });
    await expect(toast(page, "Imported Drowned Coast")).toBeVisible();
    await expect(page.locator("#main").getByText("2 entries")).toBeVisible();
    await expectAccessible(page);
    await page.screenshot({ path: test.info().outputPath(`lorebooks-${width}.png`), fullPage: true });

    await page.getByRole("link", { name: "Drowned Coast", exact: true }).click();
    await expect(page.getByRole("heading", { name: "Drowned Coast", level: 1 })).toBeVisible();
    const fired = page.getByRole("list", { name: "Entries that fire" });
    await page.getByLabel("Type a message to see which entries fire and why.").fill("We sail to saltmere at dawn.");
    await expect(fired.getByRole("listitem")).toHaveText(["The sea — Constant: always on", "Saltmere — Key “Saltmere” matched"]);
    await page.getByLabel("Type a message to see which entries fire and why.").fill("Nothing here.");
    await expect(fired.getByRole("listitem")).toHaveText(["The sea — Constant: always on"]);

    const saltmere = page.getByRole("listitem", { name: "Saltmere" });
    await saltmere.getByLabel("Content").fill("Saltmere stands on stilts over the bay.");
    await expect(saltmere.getByText("10 tokens")).toBeVisible();
    await saltmere.getByRole("button", { name: "Duplicate Saltmere" }).click();
    await expect(page.getByRole("heading", { name: "Entries (3)" })).toBeVisible();
    await page.getByRole("button", { name: "Add entry" }).click();
    await expect(page.getByRole("heading", { name: "Entries (4)" })).toBeVisible();
    await page.getByLabel("Search entries").fill("sea");
    await expect(page.getByRole("listitem", { name: "The sea" })).toBeVisible();
    await expect(page.getByRole("listitem", { name: "Saltmere" })).toHaveCount(0);
    await page.getByLabel("Search entries").fill("");
    // Reordered with the keyboard's buttons, then by dragging the new entry's handle onto the first place.
    const entryList = page.getByRole("listitem").filter({ has: page.getByRole("heading", { level: 3 }) });
    await page.getByRole("button", { name: "Move The sea up" }).click();
    await page.getByRole("button", { name: "Move The sea up" }).click();
    await expect(page.getByRole("button", { name: "Move The sea up" })).toBeDisabled();
    await expect(entryList.getByRole("heading", { level: 3 })).toHaveText(["The sea", "Saltmere", "Saltmere", "Entry 4"]);
    // The drag as the browser sends it (dragstart on the handle, dragover and drop on the place), one DataTransfer throughout.
    const dataTransfer = await page.evaluateHandle(() => new DataTransfer());
    await page.locator('[data-entry-index="3"] [data-drag-handle]').dispatchEvent("dragstart", { dataTransfer });
    const place = page.getByRole("listitem", { name: "The sea" });
    await place.dispatchEvent("dragover", { dataTransfer });
    await place.dispatchEvent("drop", { dataTransfer });
    await expect(entryList.getByRole("heading", { level: 3 })).toHaveText(["Entry 1", "The sea", "Saltmere", "Saltmere"]);
    await expectAccessible(page);
    await page.screenshot({ path: test.info().outputPath(`lorebook-${width}.png`), fullPage: true });
    // The book's own settings.
    await page.getByText("Book settings").click();
    await page.getByLabel("Scan depth (messages; default 2)").fill("4");
    await page.getByRole("switch", { name: "Recursive scan" }).click();
    await page.getByRole("button", { name: "Save" }).click();
    await expect(toast(page, "Lorebook saved")).toBeVisible();
    // Kept: the order and the settings after a reload.
    await page.reload();
    await expect(entryList.getByRole("heading", { level: 3 })).toHaveText(["Entry 1", "The sea", "Saltmere", "Saltmere"]);
    await page.getByText("Book settings").click();
    await expect(page.getByLabel("Scan depth (messages; default 2)")).toHaveValue("4");
    await expect(page.getByRole("switch", { name: "Recursive scan" })).toBeChecked();

    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Export" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe("Drowned_Coast.json");
    const exported = JSON.parse(await (await import("node:fs/promises")).readFile((await file.path())!, "utf8"));
    // In the list's order, as SillyTavern's displayIndex says it.
    const byDisplay = (Object.values(exported.entries) as any[]).sort((a, b) => a.displayIndex - b.displayIndex);
    expect(byDisplay.map((entry) => entry.displayIndex)).toEqual([0, 1, 2, 3]);
    expect(byDisplay.map((entry) => entry.content)).toEqual([
      "",
      "The sea is always cold.",
      "Saltmere stands on stilts over the bay.",
      "Saltmere stands on stilts over the bay.",
    ]);
    // What SillyTavern wrote and this site does not read comes back.
    expect(exported.entries["0"].vectorized).toBe(false);
  });
}
