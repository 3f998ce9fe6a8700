/**
 * Screening a whole text (whole-text.ts, issue 21): the windows cover every
 * character with overlaps and no cap, a phrase at any cut lies whole in a
 * window, identical windows are judged once, the verdicts merge, and one
 * failed window fails the text.
 */
import { describe, expect, it } from "vitest";
import { ModerationError, type ModerationInput, type Moderator } from "./moderator.ts";
import { OfflineModerator } from "./offline-screen.ts";
import { SCREEN_WINDOW_CHARS, SCREEN_WINDOW_OVERLAP, screeningWindows, screenWholeText } from "./whole-text.ts";

/** A text of `n` distinct-looking characters (digits of the position), so windows can be located. */
const numbered = (n: number) => Array.from({ length: n }, (_, i) => String(i % 10)).join("");

describe("screeningWindows", () => {
  it("is empty for empty text and one window up to the window size", () => {
    expect(screeningWindows("")).toEqual([]);
    expect(screeningWindows("abc")).toEqual(["abc"]);
    expect(screeningWindows("a".repeat(SCREEN_WINDOW_CHARS))).toHaveLength(1);
  });

  it("covers a text of any length to its last character, each window overlapping the next", () => {
    const text = numbered(SCREEN_WINDOW_CHARS * 20 + 7);
    const windows = screeningWindows(text);
    expect(windows.length).toBeGreaterThan(20);
    let at = 0;
    for (const [i, window] of windows.entries()) {
      expect(window.length).toBeLessThanOrEqual(SCREEN_WINDOW_CHARS);
      const start = i === 0 ? 0 : at - SCREEN_WINDOW_OVERLAP;
      expect(text.slice(start, start + window.length)).toBe(window);
      at = start + window.length;
    }
    expect(at).toBe(text.length);
  });

  it("puts every phrase up to the overlap whole inside some window, wherever it falls", () => {
    const size = 100;
    const overlap = 20;
    const text = numbered(1000);
    const windows = screeningWindows(text, size, overlap);
    for (let start = 0; start + overlap <= text.length; start += 1) {
      const phrase = text.slice(start, start + overlap);
      expect(windows.some((window) => window.includes(phrase))).toBe(true);
    }
  });

  it("never splits a surrogate pair", () => {
    const text = `${"a".repeat(SCREEN_WINDOW_CHARS - 1)}😀${"b".repeat(SCREEN_WINDOW_CHARS)}`;
    for (const window of screeningWindows(text)) expect(window).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
  });
});

describe("screenWholeText", () => {
  const counting = (inner: Moderator) => {
    const seen: ModerationInput[] = [];
    const moderator: Moderator = { name: inner.name, screen: (input, options) => (seen.push(input), inner.screen(input, options)) };
    return { moderator, seen };
  };

  it("finds S4 at the very end of a long text and where a phrase straddles a cut", async () => {
    const filler = "The tide comes in. ".repeat(10_000);
    const { moderator } = counting(new OfflineModerator());
    const tail = await screenWholeText(moderator, { text: `${filler}She is 15 years old.`, role: "user", nsfw: true });
    expect(tail.categories).toContain("S4");
    const cut = SCREEN_WINDOW_CHARS - "She is 15 ye".length;
    const straddling = `${filler.slice(0, cut)}She is 15 years old. ${filler}`;
    expect((await screenWholeText(moderator, { text: straddling, role: "user", nsfw: true })).categories).toContain("S4");
  });

  it("judges identical windows once and merges the verdicts (safe only when every window is)", async () => {
    const { moderator, seen } = counting(new OfflineModerator());
    const verdict = await screenWholeText(moderator, { text: "a".repeat(SCREEN_WINDOW_CHARS * 5), role: "user", nsfw: false });
    expect(verdict).toEqual({ safe: true, categories: [], provider: "offline" });
    expect(seen.length).toBeLessThan(screeningWindows("a".repeat(SCREEN_WINDOW_CHARS * 5)).length);
    const mixed = `[[moderation:S10]] ${"x ".repeat(SCREEN_WINDOW_CHARS)} [[moderation:S1]]`;
    expect(await screenWholeText(moderator, { text: mixed, role: "user", nsfw: false })).toMatchObject({ safe: false, categories: ["S1", "S10"] });
  });

  it("is safe without a call for empty text, and fails as a whole when one window fails", async () => {
    const { moderator, seen } = counting(new OfflineModerator());
    expect((await screenWholeText(moderator, { text: "", role: "user", nsfw: false })).safe).toBe(true);
    expect(seen).toHaveLength(0);
    const flaky: Moderator = {
      name: "offline",
      screen: async (input) => {
        if (input.text.includes("MOD-FAIL")) throw new ModerationError("down");
        return { safe: true, categories: [], provider: "offline" };
      },
    };
    const text = `${"calm ".repeat(SCREEN_WINDOW_CHARS)}MOD-FAIL`;
    await expect(screenWholeText(flaky, { text, role: "user", nsfw: false })).rejects.toBeInstanceOf(ModerationError);
  });
});
