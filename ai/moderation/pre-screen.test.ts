/**
 * The pre-screen in front of every moderation provider (pre-screen.ts):
 * its targets over the labelled set (recall ≥ 95 %, false positives ≤ 5 %:
 * a correctness threshold, the same figures `npm run bench:screening`
 * prints), the views it reads (normalise.ts), and the wrapper: a refusal
 * never reaches the provider, anything else is the provider's verdict.
 */
import { describe, expect, it } from "vitest";
import { type AiRunner } from "../endpoints.ts";
import { moderatorFor } from "./choose.ts";
import { WorkersAIModerator } from "./llama-guard.ts";
import { type ModerationInput } from "./moderator.ts";
import { textViews } from "./normalise.ts";
import { OfflineModerator } from "./offline-screen.ts";
import { minorMarker, numberValue, preScreen, PreScreenedModerator } from "./pre-screen.ts";
import { preScreenCases } from "./pre-screen-cases.ts";

const YEAR = 2026;
const NOW = Date.UTC(YEAR, 5, 1);
const cases = preScreenCases(YEAR);

describe("the labelled set", () => {
  it("has at least 100 cases, about half minors", () => {
    const minors = cases.filter((c) => c.minor).length;
    expect(cases.length).toBeGreaterThanOrEqual(100);
    expect(minors).toBeGreaterThanOrEqual(50);
    expect(cases.length - minors).toBeGreaterThanOrEqual(50);
  });

  it("recall is at least 95 % and the false-positive rate at most 5 %", () => {
    const minors = cases.filter((c) => c.minor);
    const adults = cases.filter((c) => !c.minor);
    const missed = minors.filter((c) => !preScreen(c.text, c.nsfw, NOW).refused).map((c) => c.text);
    const falsePositives = adults.filter((c) => preScreen(c.text, c.nsfw, NOW).refused).map((c) => c.text);
    expect(missed.length / minors.length, missed.join("\n")).toBeLessThanOrEqual(0.05);
    expect(falsePositives.length / adults.length, falsePositives.join("\n")).toBeLessThanOrEqual(0.05);
  });
});

describe("normalising first", () => {
  it("folds fullwidth forms, homoglyphs, invisible characters, accents and spelled-out letters", () => {
    expect(textViews("ＳＥＸＹ １３").latin).toBe("sexy 13");
    expect(textViews("lоli").latin).toBe("loli"); // Cyrillic о
    expect(textViews("thir\u00ADteen fif\u200Bteen \u202Esixteen\u202C").latin).toBe("thirteen fifteen sixteen");
    expect(textViews("tiene trece años").latin).toBe("tiene trece anos");
    expect(textViews("a l.o.l.i").latin).toBe("a loli");
  });

  it("folds leetspeak inside words but keeps numbers and ages", () => {
    const views = textViews("l0li und3r4g3 13yo 2013 7th");
    expect(views.leet).toBe("loli underage 13yo 2013 7th");
    expect(textViews("1oli").leetL).toBe("loli");
  });

  it("reads numbers in words and CJK numerals", () => {
    expect(["thirteen", "twenty-one", "seventh", "trece", "treize", "dreizehn", "тринадцать", "十三", "十", "七"].map(numberValue)).toEqual([
      13, 21, 7, 13, 13, 13, 13, 13, 10, 7,
    ]);
  });
});

describe("age markers", () => {
  it("reads birth years against the current year", () => {
    expect(minorMarker(`born in ${YEAR - 13}`, YEAR)).toMatchObject({ rule: "birth year" });
    expect(minorMarker(`born in ${YEAR - 18}`, YEAR)).toBeNull();
    expect(minorMarker("born in 2013", 2040)).toBeNull();
  });

  it("needs sexual words or the NSFW flag", () => {
    expect(preScreen("A 12-year-old wizard apprentice on a quest.", false, NOW).refused).toBe(false);
    expect(preScreen("A 12-year-old wizard apprentice on a quest.", true, NOW).refused).toBe(true);
    expect(preScreen("A 12-year-old wizard apprentice, n4k3d.", false, NOW).refused).toBe(true);
  });

  it("lets adults' words through: nineteen, canteen, kid at heart, goat kids, a minor injury, since age 12", () => {
    for (const text of ["Nineteen and horny.", "The canteen lady is sexy.", "A kid at heart, naked.", "Goat kids; she is naked.", "A minor injury, then sex.", "Dancing since age 12, now a stripper."]) {
      expect(preScreen(text, true, NOW), text).toMatchObject({ refused: false });
    }
  });
});

describe("PreScreenedModerator", () => {
  const input = (text: string, nsfw = true): ModerationInput => ({ text, role: "user", nsfw });

  it("refuses as S4 without asking the provider, and asks it for everything else", async () => {
    const calls: string[] = [];
    const ai: AiRunner = {
      async run(_model, inputs) {
        calls.push(JSON.stringify(inputs));
        return { response: "safe" };
      },
    };
    const moderator = new PreScreenedModerator(new WorkersAIModerator(ai), () => NOW);
    expect(await moderator.screen(input("She is thir\u00ADteen."))).toEqual({ safe: false, categories: ["S4"], provider: "workers-ai" });
    expect(calls).toHaveLength(0);
    expect(await moderator.screen(input("She is thirty."))).toEqual({ safe: true, categories: [], provider: "workers-ai" });
    expect(calls).toHaveLength(1);
  });

  it("stands in front of every provider moderatorFor builds", async () => {
    const moderator = moderatorFor({ MODERATION_PROVIDER: "offline" });
    expect(moderator.inner).toBeInstanceOf(OfflineModerator);
    // The offline screen alone lets this through (number word without "years old", homoglyph "о").
    expect(await new OfflineModerator().screen(input("She is fоurteen and lewd."))).toMatchObject({ safe: true });
    expect(await moderator.screen(input("She is fоurteen and lewd."))).toMatchObject({ safe: false, categories: ["S4"] });
  });

  it("rejects when the signal has already aborted", async () => {
    await expect(moderatorFor({}).screen(input("Hello."), { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: "AbortError" });
  });
});
