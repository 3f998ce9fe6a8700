import { describe, expect, it } from "vitest";
import { MAX_TAGS, TOO_MANY_TAGS, addTag, normalizeTag, removeTag, toggleTag } from "./character-tags.ts";

const ten = Array.from({ length: MAX_TAGS }, (_, i) => `tag ${i}`);

describe("normalizeTag", () => {
  it("trims and lower-cases", () => {
    expect(normalizeTag("  Slice of Life ")).toEqual({ ok: true, name: "slice of life" });
    expect(normalizeTag("SCI-FI")).toEqual({ ok: true, name: "sci-fi" });
  });

  it("accepts 2 to 24 characters, counted after trimming", () => {
    expect(normalizeTag("ab")).toEqual({ ok: true, name: "ab" });
    expect(normalizeTag(" a ")).toEqual({ ok: false, error: "Tags must be at least 2 characters" });
    expect(normalizeTag("x".repeat(24))).toEqual({ ok: true, name: "x".repeat(24) });
    expect(normalizeTag("x".repeat(25))).toEqual({ ok: false, error: "Tags must be at most 24 characters" });
  });

  it("refuses punctuation the schema does not allow", () => {
    expect(normalizeTag("#fantasy")).toEqual({
      ok: false,
      error: "Tags may contain only letters, numbers, spaces and dashes",
    });
  });
});

describe("addTag", () => {
  it("appends the normalised name", () => {
    expect(addTag(["fantasy"], " Romance")).toEqual({ ok: true, tags: ["fantasy", "romance"] });
  });

  it("leaves the list as it is for a tag already there, in any case", () => {
    expect(addTag(["romance"], "ROMANCE")).toEqual({ ok: true, tags: ["romance"] });
  });

  it("refuses an 11th tag with the server's message, but a duplicate is still fine", () => {
    expect(addTag(ten, "one more")).toEqual({ ok: false, error: TOO_MANY_TAGS });
    expect(TOO_MANY_TAGS).toBe("At most 10 tags");
    expect(addTag(ten, "Tag 3")).toEqual({ ok: true, tags: ten });
  });

  it("refuses an invalid name before counting", () => {
    expect(addTag([], "x")).toEqual({ ok: false, error: "Tags must be at least 2 characters" });
  });

  it("does not change the list it was given", () => {
    const tags = ["fantasy"];
    addTag(tags, "romance");
    expect(tags).toEqual(["fantasy"]);
  });
});

describe("toggleTag", () => {
  it("selects a popular tag, and deselects it on the second click", () => {
    const on = toggleTag(["fantasy"], "romance");
    expect(on).toEqual({ ok: true, tags: ["fantasy", "romance"] });
    expect(toggleTag(["fantasy", "romance"], "romance")).toEqual({ ok: true, tags: ["fantasy"] });
  });

  it("refuses an 11th but always allows deselecting", () => {
    expect(toggleTag(ten, "romance")).toEqual({ ok: false, error: TOO_MANY_TAGS });
    expect(toggleTag(ten, "tag 9")).toEqual({ ok: true, tags: ten.slice(0, 9) });
  });
});

describe("removeTag", () => {
  it("drops the tag", () => {
    expect(removeTag(["a1", "b2", "c3"], "b2")).toEqual(["a1", "c3"]);
  });
});
