/**
 * Home's catalog filters and paging (SPEC.md §4 "Home filters", §9): selected
 * tags and how they combine, search text, tab, NSFW setting and the list
 * offset. The offset goes back to 0 whenever a filter changes (hidden tags
 * included); "Load More Characters" adds one page. Hidden tags themselves
 * persist outside this state (lib/use-hidden-tags.ts).
 */
import type { CatalogSort } from "../../schema/api.ts";
import { CATALOG_PAGE_SIZE, type TagMode } from "../../schema/constants.ts";

export { CATALOG_PAGE_SIZE };

/**
 * Home's tabs: the catalog's sorts, and "following" — the newest characters
 * of the creators the signed-in person follows (issue 16).
 */
export type HomeTab = CatalogSort | "following";

/** What a tab asks `GET /api/characters` for: its sort, and `following` for the Following tab (newest first). */
export function tabQuery(tab: HomeTab): { sort: CatalogSort; following?: true } {
  return tab === "following" ? { sort: "new", following: true } : { sort: tab };
}

export interface CatalogFilters {
  /** Selected tag names, in the order they were selected. */
  tags: string[];
  /** How the selected tags combine: every one (`all`, the default) or at least one (`any`). */
  tagMode: TagMode;
  search: string;
  tab: HomeTab;
  showNsfw: boolean;
  /** Offset of the last loaded page; pages 0, 20, … up to it are shown. */
  offset: number;
}

export type CatalogFiltersAction =
  | { type: "toggleTag"; tag: string }
  | { type: "removeTag"; tag: string }
  | { type: "clearTags" }
  | { type: "setTagMode"; tagMode: TagMode }
  /** The person's hidden tags changed to `hidden`: none of them stays selected. */
  | { type: "hiddenTagsChanged"; hidden: readonly string[] }
  | { type: "setSearch"; search: string }
  | { type: "setTab"; tab: HomeTab }
  | { type: "setShowNsfw"; showNsfw: boolean }
  /** Home's address changed (a shared link, Back/Forward, a tag link): its tags, mode, search and tab (lib/catalog-url.ts). */
  | { type: "fromUrl"; url: Pick<CatalogFilters, "tags" | "tagMode" | "search" | "tab"> }
  | { type: "loadMore" };

export const INITIAL_CATALOG_FILTERS: CatalogFilters = {
  tags: [],
  tagMode: "all",
  search: "",
  tab: "for-you",
  showNsfw: false,
  offset: 0,
};

/**
 * Pure transition of the filters. A change of tags, tag mode, hidden tags,
 * search, tab or NSFW resets the offset to 0; an action that changes nothing returns the same state (so
 * React skips the re-render and the offset is kept).
 */
export function catalogFiltersReducer(state: CatalogFilters, action: CatalogFiltersAction): CatalogFilters {
  switch (action.type) {
    case "toggleTag": {
      const tags = state.tags.includes(action.tag)
        ? state.tags.filter((t) => t !== action.tag)
        : [...state.tags, action.tag];
      return { ...state, tags, offset: 0 };
    }
    case "removeTag":
      if (!state.tags.includes(action.tag)) return state;
      return { ...state, tags: state.tags.filter((t) => t !== action.tag), offset: 0 };
    case "clearTags":
      if (state.tags.length === 0) return state;
      return { ...state, tags: [], offset: 0 };
    case "setTagMode":
      if (action.tagMode === state.tagMode) return state;
      return { ...state, tagMode: action.tagMode, offset: 0 };
    case "hiddenTagsChanged":
      return { ...state, tags: state.tags.filter((t) => !action.hidden.includes(t)), offset: 0 };
    case "setSearch":
      if (action.search === state.search) return state;
      return { ...state, search: action.search, offset: 0 };
    case "setTab":
      if (action.tab === state.tab) return state;
      return { ...state, tab: action.tab, offset: 0 };
    case "setShowNsfw":
      if (action.showNsfw === state.showNsfw) return state;
      return { ...state, showNsfw: action.showNsfw, offset: 0 };
    case "fromUrl": {
      const { tags, tagMode, search, tab } = action.url;
      if (tags.join(",") === state.tags.join(",") && tagMode === state.tagMode && search === state.search && tab === state.tab) return state;
      return { ...state, tags, tagMode, search, tab, offset: 0 };
    }
    case "loadMore":
      return { ...state, offset: state.offset + CATALOG_PAGE_SIZE };
  }
}

/** Offsets of every page shown for `offset`: 0, 20, …, offset. */
export function pageOffsets(offset: number): number[] {
  const offsets: number[] = [];
  for (let o = 0; o <= offset; o += CATALOG_PAGE_SIZE) offsets.push(o);
  return offsets;
}

/** "Load More Characters" shows only when the last returned page was full (SPEC.md §9). */
export function canLoadMore(lastPage: { characters: readonly unknown[] } | undefined): boolean {
  return lastPage !== undefined && lastPage.characters.length >= CATALOG_PAGE_SIZE;
}
