import { describe, expect, it } from "vitest";
import { formatCount, formatRating, ratingTone } from "./format.ts";

describe("formatCount", () => {
  it("shows counts below 1,000 as they are", () => {
    expect(formatCount(0)).toBe("0");
    expect(formatCount(7)).toBe("7");
    expect(formatCount(999)).toBe("999");
  });

  it("shows thousands with one decimal and a k", () => {
    expect(formatCount(1000)).toBe("1.0k");
    expect(formatCount(1200)).toBe("1.2k");
    expect(formatCount(1234)).toBe("1.2k");
    expect(formatCount(15_000)).toBe("15.0k");
    expect(formatCount(999_900)).toBe("999.9k");
  });

  it("rounds halves up, without binary float surprises", () => {
    expect(formatCount(1150)).toBe("1.2k");
    expect(formatCount(1250)).toBe("1.3k");
    expect(formatCount(1049)).toBe("1.0k");
  });

  it("switches to millions when thousands would round to 1000.0k", () => {
    expect(formatCount(999_949)).toBe("999.9k");
    expect(formatCount(999_950)).toBe("1.0m");
  });

  it("shows millions with one decimal and an m", () => {
    expect(formatCount(1_000_000)).toBe("1.0m");
    expect(formatCount(1_200_000)).toBe("1.2m");
    expect(formatCount(12_345_678)).toBe("12.3m");
  });
});

describe("ratingTone", () => {
  it("is green from 80", () => {
    expect(ratingTone(80)).toBe("green");
    expect(ratingTone(100)).toBe("green");
  });
  it("is yellow from 60 to below 80", () => {
    expect(ratingTone(79)).toBe("yellow");
    expect(ratingTone(79.9)).toBe("yellow");
    expect(ratingTone(60)).toBe("yellow");
  });
  it("is orange below 60", () => {
    expect(ratingTone(59)).toBe("orange");
    expect(ratingTone(0)).toBe("orange");
  });
});

describe("formatRating", () => {
  it("is a whole percentage", () => {
    expect(formatRating(87)).toBe("87%");
    expect(formatRating(86.6)).toBe("87%");
  });
});
