import { describe, expect, it } from "vitest";
import {
  type CatalogFilters,
  INITIAL_CATALOG_FILTERS,
  canLoadMore,
  catalogFiltersReducer as reduce,
  pageOffsets,
} from "./catalog-filters.ts";

const page = (n: number) => ({ characters: Array.from({ length: n }, (_, i) => ({ id: i })) });

/** State after two "Load More" clicks: offset 40. */
const scrolled: CatalogFilters = reduce(reduce(INITIAL_CATALOG_FILTERS, { type: "loadMore" }), { type: "loadMore" });

describe("catalog filters", () => {
  it("starts on For You, NSFW off, no tags, no search, offset 0", () => {
    expect(INITIAL_CATALOG_FILTERS).toEqual({ tags: [], tagMode: "all", search: "", tab: "for-you", showNsfw: false, offset: 0 });
  });

  it("Load More adds 20 to the offset each time", () => {
    expect(scrolled.offset).toBe(40);
    expect(reduce(scrolled, { type: "loadMore" }).offset).toBe(60);
  });

  it("toggling a tag adds or removes it and resets the offset", () => {
    const withTag = reduce(scrolled, { type: "toggleTag", tag: "fantasy" });
    expect(withTag.tags).toEqual(["fantasy"]);
    expect(withTag.offset).toBe(0);
    const more = reduce({ ...withTag, offset: 20 }, { type: "toggleTag", tag: "romance" });
    expect(more.tags).toEqual(["fantasy", "romance"]);
    expect(more.offset).toBe(0);
    const less = reduce({ ...more, offset: 20 }, { type: "toggleTag", tag: "fantasy" });
    expect(less.tags).toEqual(["romance"]);
    expect(less.offset).toBe(0);
  });

  it("removing a selected tag resets the offset; removing an unselected one changes nothing", () => {
    const state = { ...scrolled, tags: ["a", "b"] };
    expect(reduce(state, { type: "removeTag", tag: "a" })).toMatchObject({ tags: ["b"], offset: 0 });
    expect(reduce(state, { type: "removeTag", tag: "zzz" })).toBe(state);
  });

  it("a new search text resets the offset; the same text keeps it", () => {
    expect(reduce(scrolled, { type: "setSearch", search: "elf" })).toMatchObject({ search: "elf", offset: 0 });
    const searching = { ...scrolled, search: "elf" };
    expect(reduce(searching, { type: "setSearch", search: "elf" }).offset).toBe(40);
  });

  it("a new tab resets the offset; the same tab keeps it", () => {
    expect(reduce(scrolled, { type: "setTab", tab: "new" })).toMatchObject({ tab: "new", offset: 0 });
    expect(reduce(scrolled, { type: "setTab", tab: "for-you" }).offset).toBe(40);
  });

  it("switching NSFW resets the offset", () => {
    const on = reduce(scrolled, { type: "setShowNsfw", showNsfw: true });
    expect(on).toMatchObject({ showNsfw: true, offset: 0 });
    expect(reduce({ ...on, offset: 20 }, { type: "setShowNsfw", showNsfw: false })).toMatchObject({
      showNsfw: false,
      offset: 0,
    });
  });

  it("clearing tags resets the offset", () => {
    expect(reduce({ ...scrolled, tags: ["x"] }, { type: "clearTags" })).toMatchObject({ tags: [], offset: 0 });
  });
});

describe("pageOffsets", () => {
  it("switching between all of and any of resets the offset; the same mode keeps it", () => {
    const any = reduce(scrolled, { type: "setTagMode", tagMode: "any" });
    expect(any).toMatchObject({ tagMode: "any", offset: 0 });
    const scrolledAny = { ...any, offset: 40 };
    expect(reduce(scrolledAny, { type: "setTagMode", tagMode: "any" })).toBe(scrolledAny);
    expect(reduce(scrolledAny, { type: "setTagMode", tagMode: "all" })).toMatchObject({ tagMode: "all", offset: 0 });
  });

  it("a change of hidden tags deselects the hidden ones and resets the offset", () => {
    const selected = { ...scrolled, tags: ["fantasy", "gore", "horror"] };
    expect(reduce(selected, { type: "hiddenTagsChanged", hidden: ["gore", "vore"] })).toMatchObject({
      tags: ["fantasy", "horror"],
      offset: 0,
    });
    // Showing a tag again changes the list too: back to the first page.
    expect(reduce(selected, { type: "hiddenTagsChanged", hidden: [] })).toMatchObject({ tags: selected.tags, offset: 0 });
  });

  it("lists every page up to the current offset", () => {
    expect(pageOffsets(0)).toEqual([0]);
    expect(pageOffsets(40)).toEqual([0, 20, 40]);
  });
});

describe("canLoadMore", () => {
  it("shows Load More only after a full page of 20", () => {
    expect(canLoadMore(page(20))).toBe(true);
    expect(canLoadMore(page(19))).toBe(false);
    expect(canLoadMore(page(0))).toBe(false);
    expect(canLoadMore(undefined)).toBe(false);
  });
});
