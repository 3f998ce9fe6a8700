/**
 * A streaming reply's stop sequences (StopScanner): found where they start
 * in the whole text whichever pieces the model cut the text into, including
 * a stop split across pieces and a restart after the text was rewritten.
 */
import { describe, expect, it } from "vitest";
import { earliestStop, StopScanner } from "./reply-text.ts";

/** Feeds `pieces` one by one; the first cut reported, or -1 (as reply-writing.ts reads it). */
function firstCut(stops: string[], pieces: string[]): number {
  const scanner = new StopScanner(stops);
  for (const piece of pieces) {
    const cut = scanner.push(piece);
    if (cut >= 0) return cut;
  }
  return -1;
}

describe("StopScanner", () => {
  it("finds a stop split across pieces where it starts in the whole text", () => {
    const pieces = ["She smiles.", " \"Come in.\"", "\nA", "na", ": I", " follow."];
    expect(firstCut(["\nAna:"], pieces)).toBe("She smiles. \"Come in.\"".length);
  });

  it("reports the earliest of several stops, and nothing when none occurs", () => {
    const text = "The door creaks.\nBo: hello\nAna: hi";
    expect(firstCut(["\nAna:", "\nBo:"], text.split(/(?<= )/))).toBe(text.indexOf("\nBo:"));
    expect(firstCut(["\nCyd:"], text.split(/(?<= )/))).toBe(-1);
    expect(firstCut([], text.split(""))).toBe(-1);
  });

  it("agrees with a search of the whole text for every way of cutting it into pieces", () => {
    const text = "Mira laughs.\n\nMira: wait\nKai: no\nKai:";
    const stops = ["\nKai:", "\n\nMira:"];
    // Every split into pieces of 1–7 characters, from a fixed sequence of sizes.
    for (let seed = 1; seed <= 50; seed++) {
      const pieces: string[] = [];
      for (let at = 0, size = seed; at < text.length; at += (size % 7) + 1, size = (size * 31 + 7) % 97) pieces.push(text.slice(at, at + (size % 7) + 1));
      expect(pieces.join("")).toBe(text);
      expect(firstCut(stops, pieces)).toBe(earliestStop(text, stops));
    }
  });

  it("starts over on rewritten text, counting from its start", () => {
    const scanner = new StopScanner(["\nAna:"]);
    expect(scanner.push("Kai: hello")).toBe(-1);
    // The speaker's own name was stripped from the start: the text is now "hello".
    expect(scanner.restart("hello")).toBe(-1);
    expect(scanner.push(" there\nAna: hi")).toBe("hello there".length);
  });
});
