import { describe, expect, it } from "vitest";
import {
  NO_HIDDEN_TAGS,
  normalizeTags,
  parseStoredHiddenTags,
  reconcileHiddenTags,
  toggleHiddenTag,
} from "./hidden-tags.ts";

describe("normalizeTags", () => {
  it("trims, lower-cases, drops blanks and repeats, and sorts", () => {
    expect(normalizeTags([" Gore", "horror", "gore", "", "  "])).toEqual(["gore", "horror"]);
  });
});

describe("parseStoredHiddenTags", () => {
  it("reads a stored list and its owner", () => {
    expect(parseStoredHiddenTags('{"owner":"u1","tags":["vore","Gore"]}')).toEqual({ owner: "u1", tags: ["gore", "vore"] });
    expect(parseStoredHiddenTags('{"owner":null,"tags":["gore"]}')).toEqual({ owner: null, tags: ["gore"] });
  });

  it("falls back to nothing hidden for missing or malformed values", () => {
    for (const raw of [null, "", "not json", "null", "[]", '{"tags":"gore"}', "42"]) {
      expect(parseStoredHiddenTags(raw), String(raw)).toEqual(NO_HIDDEN_TAGS);
    }
    expect(parseStoredHiddenTags('{"owner":7,"tags":["gore",3]}')).toEqual({ owner: null, tags: ["gore"] });
  });
});

describe("toggleHiddenTag", () => {
  it("hides a shown tag and shows a hidden one, keeping the list sorted", () => {
    expect(toggleHiddenTag(["horror"], "gore")).toEqual(["gore", "horror"]);
    expect(toggleHiddenTag(["gore", "horror"], "Gore")).toEqual(["horror"]);
  });
});

describe("reconcileHiddenTags", () => {
  it("keeps a visitor's own list", () => {
    const local = { owner: null, tags: ["gore"] };
    expect(reconcileHiddenTags(local, null, [])).toEqual({ local, save: null });
  });

  it("drops an account's copy once the browser has signed out", () => {
    expect(reconcileHiddenTags({ owner: "u1", tags: ["gore"] }, null, [])).toEqual({ local: NO_HIDDEN_TAGS, save: null });
  });

  it("merges a visitor's list into the account on sign-in and saves the union once", () => {
    const first = reconcileHiddenTags({ owner: null, tags: ["gore", "vore"] }, "u1", ["horror", "gore"]);
    expect(first).toEqual({ local: { owner: "u1", tags: ["gore", "horror", "vore"] }, save: ["gore", "horror", "vore"] });
    // Once saved the account answers the union: nothing more to save.
    expect(reconcileHiddenTags(first.local, "u1", ["gore", "horror", "vore"])).toEqual({ local: first.local, save: null });
  });

  it("saves nothing when the account already hides every local tag", () => {
    expect(reconcileHiddenTags({ owner: null, tags: ["gore"] }, "u1", ["gore"])).toEqual({
      local: { owner: "u1", tags: ["gore"] },
      save: null,
    });
  });

  it("follows the account: its copy is refreshed, another person's copy replaced, not merged", () => {
    expect(reconcileHiddenTags({ owner: "u1", tags: ["gore"] }, "u1", [])).toEqual({ local: { owner: "u1", tags: [] }, save: null });
    expect(reconcileHiddenTags({ owner: "u2", tags: ["gore"] }, "u1", ["horror"])).toEqual({
      local: { owner: "u1", tags: ["horror"] },
      save: null,
    });
  });
});
