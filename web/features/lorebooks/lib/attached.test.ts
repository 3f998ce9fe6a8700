import { describe, expect, it } from "vitest";
import { LOREBOOK_LIMITS } from "../../../../schema/lorebook/book.ts";
import { attachedChanged, moveAttached, toggleAttached } from "./attached.ts";

describe("the books attached to a character or a chat", () => {
  it("a ticked book goes last, an unticked one leaves; ticking twice keeps one", () => {
    expect(toggleAttached(["a"], "b", true)).toEqual(["a", "b"]);
    expect(toggleAttached(["a", "b", "c"], "b", false)).toEqual(["a", "c"]);
    expect(toggleAttached(["a", "b"], "a", true)).toEqual(["a", "b"]);
  });

  it("stops at the server's limit of attached books", () => {
    const full = Array.from({ length: LOREBOOK_LIMITS.attached }, (_, i) => `b${i}`);
    expect(toggleAttached(full, "one more", true)).toEqual(full);
  });

  it("moves a book one place earlier or later, and not past either end", () => {
    expect(moveAttached(["a", "b", "c"], "c", -1)).toEqual(["a", "c", "b"]);
    expect(moveAttached(["a", "b", "c"], "a", 1)).toEqual(["b", "a", "c"]);
    expect(moveAttached(["a", "b"], "a", -1)).toEqual(["a", "b"]);
    expect(moveAttached(["a", "b"], "b", 1)).toEqual(["a", "b"]);
    expect(moveAttached(["a"], "x", 1)).toEqual(["a"]);
  });

  it("counts a new order as a change", () => {
    expect(attachedChanged(["a", "b"], ["a", "b"])).toBe(false);
    expect(attachedChanged(["a", "b"], ["b", "a"])).toBe(true);
    expect(attachedChanged(["a"], ["a", "b"])).toBe(true);
  });
});
