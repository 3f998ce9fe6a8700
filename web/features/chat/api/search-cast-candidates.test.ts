import { describe, expect, it } from "vitest";
import { type CastCandidate, mergeCandidates } from "./search-cast-candidates.ts";

const c = (id: number, name: string): CastCandidate => ({ id, name, avatarUrl: null, creator: "mira", description: "" });

describe("mergeCandidates", () => {
  it("lists the favorites that match first, then the catalog's matches, each character once", () => {
    const favorites = [c(5, "Bram the Bard"), c(6, "Ilse")];
    const matches = [c(1, "Brakka"), c(5, "Bram the Bard"), c(2, "Bryn")];
    expect(mergeCandidates(favorites, matches, "br").map((x) => x.id)).toEqual([5, 1, 2]);
    expect(mergeCandidates(favorites, matches, "").map((x) => x.id)).toEqual([5, 6, 1, 2]);
  });

  it("stops at the limit", () => {
    expect(mergeCandidates([c(1, "A")], [c(2, "B"), c(3, "C")], "", 2).map((x) => x.id)).toEqual([1, 2]);
  });
});
