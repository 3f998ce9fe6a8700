/**
 * Books in SillyTavern's World Info format and as a card's `character_book`
 * read into the engine's entries with SillyTavern's meaning.
 */
import { describe, expect, it } from "vitest";
import { activate } from "./activation.ts";
import { lorebookOfCharacterBook, lorebookOfWorldInfo } from "./world-info.ts";

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

describe("reading books for activation", () => {
  it("a SillyTavern World Info file: numeric position, role and logic, and its timers", () => {
    const book = lorebookOfWorldInfo("wi", {
      entries: {
        "3": { uid: 3, key: ["storm"], keysecondary: ["sea"], selective: true, selectiveLogic: 2, content: "Storm lore", position: 4, depth: 1, role: 2, order: 50, sticky: 2, disable: false },
        "4": { uid: 4, key: ["x"], content: "off", disable: true },
      },
    });
    expect(book.entries[0]).toMatchObject({ id: "3", keys: ["storm"], secondaryKeys: ["sea"], selectiveLogic: "NOT_ANY", position: "at_depth", depth: 1, role: "assistant", order: 50, sticky: 2 });
    const first = activate(book, { messages: [{ text: "a storm" }], countTokens: words, seed: "m1" });
    expect(first.entries).toEqual([{ lorebookId: "wi", entryId: "3", content: "Storm lore", position: "at_depth", depth: 1, role: "assistant", order: 50, reason: "secondary", lorebookName: "", title: "storm", key: "storm", secondaryKey: null, decorator: null }]);
    const next = activate(book, { messages: [{ text: "calm" }, { text: "a storm" }], countTokens: words, seed: "m2", timedState: first.timedState });
    expect(next.entries.map((e) => e.reason)).toEqual(["sticky"]);
  });

  it("a card's character_book: V2 fields, SillyTavern's extensions and the book's settings", () => {
    const book = lorebookOfCharacterBook("card", {
      scan_depth: 1,
      recursive_scanning: true,
      entries: [
        { id: 7, keys: ["gate"], content: "the castle", insertion_order: 10, enabled: true, position: "after_char", extensions: {} },
        { id: 8, keys: ["castle"], content: "Castle lore", insertion_order: 20, enabled: true, extensions: { position: 4, depth: 2, role: 1, exclude_recursion: false } },
        { id: 9, keys: ["gate"], content: "disabled", enabled: false, extensions: {} },
      ],
    });
    expect(book.settings).toMatchObject({ scanDepth: 1, recursive: true });
    const result = activate(book, { messages: [{ text: "the gate" }, { text: "castle long ago" }], countTokens: words, seed: "m1" });
    expect(result.entries.map((e) => [e.entryId, e.position, e.reason])).toEqual([
      ["7", "after_char", "key"],
      ["8", "at_depth", "recursion"],
    ]);
    expect(result.entries[1]).toMatchObject({ depth: 2, role: "user" });
  });
});
