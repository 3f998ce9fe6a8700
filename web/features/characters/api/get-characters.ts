/**
 * `GET /api/characters`: one page of the catalog (SPEC.md §7, tabs as `sort=`
 * per DESIGN.md "Tabs").
 */
import { queryOptions, useQueries } from "@tanstack/react-query";
import type { CatalogSort } from "../../../../schema/api.ts";
import type { TagMode } from "../../../../schema/constants.ts";
import { apiJson, apiUrl } from "../../../lib/api-client.ts";
import { CATALOG_PAGE_SIZE } from "../../../lib/catalog-filters.ts";
import { seedFavoriteStatuses } from "./get-favorite-status.ts";

export interface CharacterPageParams {
  tags: string[];
  /** How `tags` combine; `all` when left out. */
  tagMode?: TagMode;
  /** The person's hidden tags: no listed character carries one. */
  excludeTags?: readonly string[];
  search: string;
  showNsfw: boolean;
  sort: CatalogSort;
  offset: number;
  limit?: number;
  /** Only this person's characters (a creator page): their username, any spelling. */
  creator?: string;
  /** Only the characters of the people the signed-in person follows (Home's Following tab). */
  following?: boolean;
}

/**
 * The query string of the request, without "?": `tags` comma-joined,
 * `tagMode=any` only when it changes something (two tags or more; `all` is the
 * server's default), `excludeTags` comma-joined in sorted order, `search`
 * trimmed, `showNsfw` "true"/"false", `nsfw=false` only while NSFW is off,
 * `limit`, `offset`, `sort`, then `creator` and `following=true` when set;
 * empty values are left out. Equal filters give equal strings, so they share
 * one cache entry at the edge.
 */
export function charactersQueryString(params: CharacterPageParams): string {
  const query = new URLSearchParams();
  const tags = params.tags.map((t) => t.trim()).filter(Boolean);
  if (tags.length > 0) query.set("tags", tags.join(","));
  if (params.tagMode === "any" && tags.length > 1) query.set("tagMode", "any");
  const excluded = [...new Set((params.excludeTags ?? []).map((t) => t.trim().toLowerCase()).filter(Boolean))].sort();
  if (excluded.length > 0) query.set("excludeTags", excluded.join(","));
  const search = params.search.trim();
  if (search) query.set("search", search);
  query.set("showNsfw", String(params.showNsfw));
  if (!params.showNsfw) query.set("nsfw", "false");
  query.set("limit", String(params.limit ?? CATALOG_PAGE_SIZE));
  query.set("offset", String(params.offset));
  query.set("sort", params.sort);
  if (params.creator) query.set("creator", params.creator);
  if (params.following) query.set("following", "true");
  return query.toString();
}

/** Fetches one page; throws `Error("Failed to fetch characters")` on any non-OK answer (SPEC.md §8). */
export async function getCharacters(params: CharacterPageParams, signal?: AbortSignal) {
  const res = await fetch(apiUrl("/api/characters", { query: charactersQueryString(params) }), { credentials: "include", signal });
  if (!res.ok) throw new Error("Failed to fetch characters");
  return apiJson(res, "get", "/api/characters");
}

/** One page's query; its characters' favorite statuses are seeded from the page (no status call per card). */
export const charactersQueryOptions = (params: CharacterPageParams) =>
  queryOptions({
    queryKey: ["/api/characters", { ...params, limit: params.limit ?? CATALOG_PAGE_SIZE }],
    queryFn: async ({ signal, client }) => {
      const page = await getCharacters(params, signal);
      seedFavoriteStatuses(client, page.characters);
      return page;
    },
  });

/** Every page at `offsets` for the same filters, in order (Home's grid with "Load More"). */
export function useCharacterPages(filters: Omit<CharacterPageParams, "offset">, offsets: number[]) {
  return useQueries({ queries: offsets.map((offset) => charactersQueryOptions({ ...filters, offset })) });
}

/** Paths whose list pages hold characters with their counts: the catalog (Home, creator pages, Following) and Favorites. */
const CHARACTER_LIST_PATHS = new Set(["/api/characters", "/api/favorites"]);

/**
 * True for the key of a list page (`["/api/characters", {…params}]`, and
 * Favorites' `["/api/favorites", {…params}]`), as opposed to one character
 * or its parts.
 */
export function isCharacterListKey(queryKey: readonly unknown[]): boolean {
  return (
    queryKey.length === 2 &&
    CHARACTER_LIST_PATHS.has(String(queryKey[0])) &&
    typeof queryKey[1] === "object" &&
    queryKey[1] !== null
  );
}
