/**
 * Who replies next (room/reply-order.ts): each reply order of DESIGN.md
 * "Group chats" with a seeded random source, so talkativeness rolls repeat.
 */
import { describe, expect, it } from "vitest";
import { mulberry32 } from "../../schema/seeded-random.ts";
import { chooseSpeakers, type ReplyContext, type Speaker, shuffled, wordsOf } from "./reply-order.ts";

const ana: Speaker = { characterId: 1, name: "Ana Reyes", talkativeness: 0.5 };
const bo: Speaker = { characterId: 2, name: "Bo", talkativeness: 0.5 };
const cy: Speaker = { characterId: 3, name: "Cy", talkativeness: 0.5 };
const cast = [ana, bo, cy];

const context = (over: Partial<ReplyContext> = {}): ReplyContext => ({ message: "", lastSpeakerId: null, spokeLastRound: new Set(), ...over });

describe("natural", () => {
  it("members named in the message reply first, in the order named, whole words in any case, each once", () => {
    const never = () => 0.99; // no talkativeness roll succeeds
    expect(chooseSpeakers("natural", cast, context({ message: "cy, then REYES — and Cy again?" }), never)).toEqual([3, 1]);
    // "Boat" is not "Bo".
    expect(chooseSpeakers("natural", cast, context({ message: "The boat leaves. Bo?" }), never)).toEqual([2]);
  });

  it("then every member whose roll succeeds, in shuffled order; the seeded source repeats the same choice", () => {
    const rolls = (seed: number) => chooseSpeakers("natural", cast, context({ message: "Hello there." }), mulberry32(seed));
    expect(rolls(7)).toEqual(rolls(7));
    // Talkativeness 1 always speaks, 0 never does (unless nobody else can).
    const sure = [{ ...ana, talkativeness: 1 }, { ...bo, talkativeness: 0 }, { ...cy, talkativeness: 1 }];
    for (let seed = 1; seed <= 20; seed++) {
      const chosen = chooseSpeakers("natural", sure, context(), mulberry32(seed));
      expect([...chosen].sort()).toEqual([1, 3]);
    }
  });

  it("when no roll succeeds, one chatty member at random; the last speaker is not picked again unless alone", () => {
    const quiet = cast.map((s) => ({ ...s, talkativeness: 0.1 }));
    for (let seed = 1; seed <= 30; seed++) {
      const chosen = chooseSpeakers("natural", quiet, context({ lastSpeakerId: 2 }), mulberry32(seed));
      expect(chosen.length).toBeGreaterThanOrEqual(1);
      expect(chosen).not.toContain(2);
    }
    expect(chooseSpeakers("natural", [bo], context({ lastSpeakerId: 2 }), () => 0.99)).toEqual([2]);
    // Named by the person, the last speaker answers all the same.
    expect(chooseSpeakers("natural", cast, context({ message: "Bo, again.", lastSpeakerId: 2 }), () => 0.99)).toEqual([2]);
  });
});

describe("list, pooled, manual", () => {
  it("list: every member in member order", () => {
    expect(chooseSpeakers("list", cast, context({ message: "Cy first?" }), Math.random)).toEqual([1, 2, 3]);
  });

  it("pooled: one member who did not speak last round, else anyone but the last speaker", () => {
    for (let seed = 1; seed <= 20; seed++) {
      expect(chooseSpeakers("pooled", cast, context({ spokeLastRound: new Set([1, 3]) }), mulberry32(seed))).toEqual([2]);
      const any = chooseSpeakers("pooled", cast, context({ spokeLastRound: new Set([1, 2, 3]), lastSpeakerId: 3 }), mulberry32(seed));
      expect(any).toHaveLength(1);
      expect(any).not.toContain(3);
    }
  });

  it("manual, or nobody who may speak: nobody", () => {
    expect(chooseSpeakers("manual", cast, context({ message: "Ana?" }), Math.random)).toEqual([]);
    expect(chooseSpeakers("natural", [], context({ message: "Ana?" }), Math.random)).toEqual([]);
  });
});

describe("helpers", () => {
  it("wordsOf splits on anything but letters and digits; shuffled keeps every item", () => {
    expect(wordsOf("Ana-Maria O'Neil, 2nd")).toEqual(["ana", "maria", "o", "neil", "2nd"]);
    expect([...shuffled([1, 2, 3, 4], mulberry32(3))].sort()).toEqual([1, 2, 3, 4]);
    const random = mulberry32(42);
    const values = Array.from({ length: 1000 }, random);
    expect(values.every((v) => v >= 0 && v < 1)).toBe(true);
    expect(new Set(values).size).toBeGreaterThan(990);
  });
});
