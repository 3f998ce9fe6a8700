/**
 * The shared seeded generator and seed hash (schema/seeded-random.ts). The
 * expected numbers were taken from the copies that stood in the painter,
 * the reply order and the benchmarks before they were folded into this
 * module, so a picture, a reply order or a benchmark's data drawn before is
 * drawn the same after.
 */
import { describe, expect, it } from "vitest";
import { fnv1a, mulberry32 } from "./seeded-random.ts";

describe("mulberry32", () => {
  it.each([
    [42, [0.6011037519201636, 0.44829055899754167, 0.8524657934904099, 0.6697340414393693]],
    [0, [0.26642920868471265, 0.0003297457005828619, 0.2232720274478197, 0.1462021479383111]],
  ])("seed %i gives its known first numbers", (seed, expected) => {
    const random = mulberry32(seed);
    expect([random(), random(), random(), random()]).toEqual(expected);
  });

  it("repeats for one seed, differs between seeds, stays in [0, 1), and reads a seed as unsigned 32-bit", () => {
    const draw = (seed: number) => Array.from({ length: 1000 }, mulberry32(seed));
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7)).not.toEqual(draw(8));
    expect(draw(7).every((x) => x >= 0 && x < 1)).toBe(true);
    expect(draw(-1)).toEqual(draw(2 ** 32 - 1));
  });
});

describe("fnv1a", () => {
  it("gives the published 32-bit FNV-1a values", () => {
    // The offset basis for "", 0xe40c292c for "a" (the FNV test vectors).
    expect([fnv1a(""), fnv1a("a"), fnv1a("fabled")]).toEqual([0x811c9dc5, 0xe40c292c, 3771607319]);
  });
});
