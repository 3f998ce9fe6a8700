/**
 * Home's filters in its address (issue 26 "Browsing you can share"): what
 * is in the URL is what a person sees, so a link can be shared and
 * Back/Forward step through what they did. `/?tab=new&q=elf&tags=fantasy,magic&mode=any&nsfw=true`:
 *
 * - `tab`: a Home tab other than For You (the default, left out);
 * - `q`: the search text;
 * - `tags`: selected tag names, comma-joined (as `GET /api/characters` takes them);
 * - `mode=any`: selected tags combine with "any" (left out for "all");
 * - `nsfw=true`: NSFW shown. Left out when off; an address without it
 *   leaves the person's own NSFW choice as it is (web/lib/nsfw-preference.ts),
 *   and `nsfw=true` for someone who never confirmed being 18 or older asks first.
 */
import { CATALOG_SORTS } from "../../schema/api.ts";
// constants.ts, not inputs.ts: Home's first download must not carry zod.
import { MAX_SEARCH_LENGTH, MAX_TAGS, type TagMode } from "../../schema/constants.ts";
import type { CatalogFilters, HomeTab } from "./catalog-filters.ts";

const HOME_TABS: readonly HomeTab[] = [...CATALOG_SORTS, "following"];

/** The filters an address carries; `showNsfw` null when it does not say. */
export interface CatalogUrlFilters {
  tags: string[];
  tagMode: TagMode;
  search: string;
  tab: HomeTab;
  showNsfw: true | null;
}

/** `location.search` of Home showing `filters`: "" for the defaults, else "?…" in a fixed order. */
export function catalogSearch(filters: Pick<CatalogFilters, "tags" | "tagMode" | "search" | "tab" | "showNsfw">): string {
  const params = new URLSearchParams();
  if (filters.tab !== "for-you") params.set("tab", filters.tab);
  if (filters.search.trim()) params.set("q", filters.search);
  if (filters.tags.length > 0) params.set("tags", filters.tags.join(","));
  if (filters.tagMode === "any" && filters.tags.length > 0) params.set("mode", "any");
  if (filters.showNsfw) params.set("nsfw", "true");
  const text = params.toString();
  return text ? `?${text}` : "";
}

/**
 * The filters of a Home address (`location.search`). Anything unknown or
 * malformed falls back to the default: an unknown tab is For You, tags are
 * trimmed, lower-cased, without repeats and at most MAX_TAGS, the search is
 * cut to MAX_SEARCH_LENGTH.
 */
export function parseCatalogSearch(search: string): CatalogUrlFilters {
  const params = new URLSearchParams(search);
  const tab = params.get("tab");
  const tags = [
    ...new Set(
      (params.get("tags") ?? "")
        .split(",")
        .map((t) => t.trim().toLowerCase())
        .filter(Boolean),
    ),
  ].slice(0, MAX_TAGS);
  return {
    tags,
    tagMode: params.get("mode") === "any" ? "any" : "all",
    search: (params.get("q") ?? "").slice(0, MAX_SEARCH_LENGTH),
    tab: HOME_TABS.includes(tab as HomeTab) ? (tab as HomeTab) : "for-you",
    showNsfw: params.get("nsfw") === "true" ? true : null,
  };
}

/** Home's address with `tag` as the only filter: where a tag on a card or a character page leads. */
export function tagHref(tag: string): string {
  return `/?${new URLSearchParams({ tags: tag }).toString()}`;
}

/** True when two Home addresses differ in the search text only (typing replaces the history entry rather than adding one). */
export function differsInSearchOnly(a: string, b: string): boolean {
  const x = parseCatalogSearch(a);
  const y = parseCatalogSearch(b);
  return (
    x.search !== y.search &&
    x.tab === y.tab &&
    x.tagMode === y.tagMode &&
    x.showNsfw === y.showNsfw &&
    x.tags.join(",") === y.tags.join(",")
  );
}
