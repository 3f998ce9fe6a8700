/**
 * A lorebook's display order as SillyTavern keeps it (`displayIndex`): an
 * imported file is listed in that order, an export gives the list's order
 * back, and the imported numbers are kept while they still follow it.
 */
import { describe, expect, it } from "vitest";
import { contentOfWorldInfo, worldInfoOf } from "./book.ts";

const file = {
  entries: {
    "0": { uid: 0, key: ["a"], content: "A", displayIndex: 20 },
    "1": { uid: 1, key: ["b"], content: "B", displayIndex: 5 },
    "2": { uid: 2, key: ["c"], content: "C", displayIndex: 10 },
  },
};

const shown = (exported: any) =>
  (Object.values(exported.entries) as { content: string; displayIndex: number }[]).sort((a, b) => a.displayIndex - b.displayIndex).map((e) => [e.content, e.displayIndex]);

describe("display order", () => {
  it("an import is listed by displayIndex; exported untouched, its numbers come back", () => {
    const book = contentOfWorldInfo(file);
    expect(book.entries.map((e) => e.content)).toEqual(["B", "C", "A"]);
    expect(shown(worldInfoOf({ ...book, entries: book.entries }))).toEqual([
      ["B", 5],
      ["C", 10],
      ["A", 20],
    ]);
  });

  it("a reordered list is exported in its own order", () => {
    const book = contentOfWorldInfo(file);
    const [b, c, a] = book.entries;
    expect(shown(worldInfoOf({ ...book, entries: [a!, b!, c!] }))).toEqual([
      ["A", 0],
      ["B", 1],
      ["C", 2],
    ]);
  });
});
