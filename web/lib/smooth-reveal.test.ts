import { describe, expect, it } from "vitest";
import { REVEAL_CATCH_UP_MS, revealedText, revealStep } from "./smooth-reveal.ts";

/** Frames of `frameMs` until `shown` reaches `target`, and the lengths shown on the way. */
function framesToCatchUp(shown: number, target: number, frameMs: number): number[] {
  const seen: number[] = [];
  while (shown < target) {
    shown = revealStep(shown, target, frameMs);
    seen.push(shown);
  }
  return seen;
}

describe("revealStep", () => {
  it("shows a burst of 40 characters over several frames, a little more each frame, never past what arrived", () => {
    const seen = framesToCatchUp(0, 40, 16);
    expect(seen.length).toBeGreaterThan(5);
    expect(seen.at(-1)).toBe(40);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!).toBeGreaterThan(seen[i - 1]!);
  });

  it("closes the gap by the frame's share of the catch-up time", () => {
    expect(revealStep(0, 100, REVEAL_CATCH_UP_MS / 4)).toBe(25);
    expect(revealStep(50, 100, REVEAL_CATCH_UP_MS)).toBe(100);
    expect(revealStep(0, 100, REVEAL_CATCH_UP_MS * 3)).toBe(100);
  });

  it("moves at least one character a frame, and never back", () => {
    expect(revealStep(10, 11, 0)).toBe(11);
    expect(revealStep(10, 500, -5)).toBe(11);
    expect(revealStep(30, 20, 16)).toBe(20);
    expect(revealStep(20, 20, 16)).toBe(20);
  });
});

describe("revealedText", () => {
  it("cuts the text, keeping an emoji's two halves together", () => {
    expect(revealedText("Hello there", 5)).toBe("Hello");
    expect(revealedText("Hi 🌙 moon", 4)).toBe("Hi 🌙");
    expect(revealedText("Hi 🌙 moon", 5)).toBe("Hi 🌙");
    expect(revealedText("short", 50)).toBe("short");
  });
});
