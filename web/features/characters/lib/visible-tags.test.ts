import { describe, expect, it } from "vitest";
import { visibleTags } from "./visible-tags.ts";

describe("visibleTags", () => {
  const tags = ["fantasy", "romance", "adventure", "mystery", "horror"];

  it("shows the first 3 on My Characters and counts the rest for +N", () => {
    expect(visibleTags(tags, 3)).toEqual({ shown: ["fantasy", "romance", "adventure"], hidden: 2 });
  });

  it("shows the first 4 on Home", () => {
    expect(visibleTags(tags, 4)).toEqual({ shown: ["fantasy", "romance", "adventure", "mystery"], hidden: 1 });
  });

  it("has no +N when every tag fits", () => {
    expect(visibleTags(["a", "b", "c"], 3)).toEqual({ shown: ["a", "b", "c"], hidden: 0 });
    expect(visibleTags([], 3)).toEqual({ shown: [], hidden: 0 });
  });
});
