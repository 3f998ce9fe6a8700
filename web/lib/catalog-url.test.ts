import { describe, expect, it } from "vitest";
import { INITIAL_CATALOG_FILTERS, catalogFiltersReducer } from "./catalog-filters.ts";
import { catalogSearch, differsInSearchOnly, parseCatalogSearch, tagHref } from "./catalog-url.ts";

describe("Home's address", () => {
  it("is empty for the defaults and carries every filter otherwise, read back the same", () => {
    expect(catalogSearch(INITIAL_CATALOG_FILTERS)).toBe("");
    const filters = { ...INITIAL_CATALOG_FILTERS, tab: "new" as const, search: "elf mage", tags: ["fantasy", "sci-fi"], tagMode: "any" as const, showNsfw: true };
    const search = catalogSearch(filters);
    expect(search).toBe("?tab=new&q=elf+mage&tags=fantasy%2Csci-fi&mode=any&nsfw=true");
    expect(parseCatalogSearch(search)).toEqual({ tab: "new", search: "elf mage", tags: ["fantasy", "sci-fi"], tagMode: "any", showNsfw: true });
  });

  it("falls back to the defaults for what it does not know", () => {
    expect(parseCatalogSearch("?tab=nope&tags=,%20Fantasy%20,fantasy,,&mode=maybe&nsfw=1")).toEqual({
      tab: "for-you",
      search: "",
      tags: ["fantasy"],
      tagMode: "all",
      showNsfw: null,
    });
  });

  it("links a tag to Home filtered by it", () => {
    expect(tagHref("slice of life")).toBe("/?tags=slice+of+life");
    expect(parseCatalogSearch(tagHref("slice of life").slice(1)).tags).toEqual(["slice of life"]);
  });

  it("tells typing apart from other changes", () => {
    expect(differsInSearchOnly("?q=el", "?q=elf")).toBe(true);
    expect(differsInSearchOnly("?q=elf", "?q=elf&tags=magic")).toBe(false);
    expect(differsInSearchOnly("?q=elf", "?q=elf")).toBe(false);
  });
});

describe("applying an address to the filters", () => {
  it("sets tags, mode, search and tab, keeps NSFW, and starts paging over", () => {
    const loaded = { ...catalogFiltersReducer(INITIAL_CATALOG_FILTERS, { type: "loadMore" }), showNsfw: true };
    const next = catalogFiltersReducer(loaded, { type: "fromUrl", url: parseCatalogSearch("?tags=magic&tab=popular") });
    expect(next).toEqual({ ...INITIAL_CATALOG_FILTERS, tags: ["magic"], tab: "popular", showNsfw: true, offset: 0 });
  });

  it("changes nothing (same state, pages kept) when the address says what is shown", () => {
    const state = { ...catalogFiltersReducer(INITIAL_CATALOG_FILTERS, { type: "toggleTag", tag: "magic" }), offset: 40 };
    expect(catalogFiltersReducer(state, { type: "fromUrl", url: parseCatalogSearch("?tags=magic") })).toBe(state);
  });
});
