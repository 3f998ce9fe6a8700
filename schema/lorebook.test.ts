/**
 * The lorebook as the character form edits it (schema/lorebook.ts): an
 * imported book's entries become rows and come back with every field the
 * form does not show; new entries get the spec's required fields.
 */
import { describe, expect, it } from "vitest";
import { loreEntriesOf, newLoreEntry, parseKeys, withLoreEntries } from "./lorebook.ts";

/** A SillyTavern-exported V2 book: fields the form shows and many it does not. */
const imported = {
  name: "Eldoria",
  scan_depth: 4,
  token_budget: 512,
  recursive_scanning: false,
  extensions: { world: "Eldoria" },
  entries: [
    {
      id: 7,
      keys: ["eldoria", "forest"],
      secondary_keys: [],
      comment: "The forest",
      content: "Eldoria is an ancient forest.",
      constant: false,
      selective: false,
      insertion_order: 10,
      enabled: true,
      position: "before_char",
      use_regex: true,
      extensions: { depth: 4, probability: 100 },
    },
    { id: 8, keys: ["shadow"], content: "Shadows stalk the woods.", enabled: false, insertion_order: 50, extensions: {}, case_sensitive: true },
  ],
};

describe("lorebook entries", () => {
  it("reads an imported book's entries as rows", () => {
    expect(loreEntriesOf(imported).map(({ rest: _, ...shown }) => shown)).toEqual([
      { keys: ["eldoria", "forest"], secondaryKeys: [], content: "Eldoria is an ancient forest.", constant: false, enabled: true, insertionOrder: 10 },
      { keys: ["shadow"], secondaryKeys: [], content: "Shadows stalk the woods.", constant: false, enabled: false, insertionOrder: 50 },
    ]);
    expect(loreEntriesOf(null)).toEqual([]);
    expect(loreEntriesOf({ entries: ["not an entry", null] })).toEqual([]);
  });

  it("unchanged rows give the same book back, every field kept", () => {
    const again = withLoreEntries(imported, loreEntriesOf(imported));
    expect(again).toEqual({
      ...imported,
      entries: imported.entries.map((entry) => ({ secondary_keys: [], constant: false, ...entry })),
    });
  });

  it("an edit changes only what the form shows; a new entry gets the spec's required fields and the next id", () => {
    const [forest, shadow] = loreEntriesOf(imported);
    const added = { ...newLoreEntry(), keys: [" moon ", ""], secondaryKeys: ["queen"], content: "The Moon Queen rules the night.", constant: true };
    const book = withLoreEntries(imported, [{ ...forest!, content: "Eldoria burns.", insertionOrder: 5 }, shadow!, added])!;
    const entries = book.entries as Record<string, unknown>[];
    expect(book).toMatchObject({ name: "Eldoria", scan_depth: 4, token_budget: 512, extensions: { world: "Eldoria" } });
    expect(entries[0]).toMatchObject({ id: 7, content: "Eldoria burns.", insertion_order: 5, position: "before_char", use_regex: true, comment: "The forest" });
    expect(entries[1]).toMatchObject({ id: 8, enabled: false, case_sensitive: true });
    expect(entries[2]).toEqual({
      id: 9,
      keys: ["moon"],
      secondary_keys: ["queen"],
      selective: true,
      content: "The Moon Queen rules the night.",
      constant: true,
      enabled: true,
      insertion_order: 100,
      extensions: {},
    });
  });

  it("blank rows are dropped; no book and no entries is null; a book whose entries were all removed stays, empty", () => {
    expect(withLoreEntries(null, [newLoreEntry()])).toBeNull();
    expect(withLoreEntries(null, [])).toBeNull();
    expect(withLoreEntries(imported, [])).toMatchObject({ name: "Eldoria", entries: [] });
    expect(withLoreEntries(null, [{ ...newLoreEntry(), content: "Always true." }])).toEqual({
      extensions: {},
      entries: [{ id: 0, keys: [], secondary_keys: [], content: "Always true.", constant: false, enabled: true, insertion_order: 100, extensions: {} }],
    });
  });

  it("keys are typed separated by commas", () => {
    expect(parseKeys("moon,  Moon Queen ,, castle")).toEqual(["moon", "Moon Queen", "castle"]);
    expect(parseKeys("  ")).toEqual([]);
  });
});
