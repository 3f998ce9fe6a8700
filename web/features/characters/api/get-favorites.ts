/**
 * `GET /api/favorites`: one page of the signed-in person's favorites, newest
 * favorite first, shaped like `GET /api/characters` (issue 16).
 */
import { queryOptions } from "@tanstack/react-query";
import { apiGet } from "../../../lib/api-client.ts";
import { CATALOG_PAGE_SIZE } from "../../../lib/catalog-filters.ts";
import { seedFavoriteStatuses } from "./get-favorite-status.ts";

export interface FavoritesPageParams {
  showNsfw: boolean;
  offset: number;
  limit?: number;
}

/** The query string: `showNsfw`, `nsfw=false` while NSFW is off (as Home sends), `limit`, `offset`. */
export function favoritesQueryString(params: FavoritesPageParams): string {
  const query = new URLSearchParams({ showNsfw: String(params.showNsfw) });
  if (!params.showNsfw) query.set("nsfw", "false");
  query.set("limit", String(params.limit ?? CATALOG_PAGE_SIZE));
  query.set("offset", String(params.offset));
  return query.toString();
}

/**
 * One page's query, keyed `["/api/favorites", {…}]` (a character list for the
 * favorite toggle, which rewrites counts and refetches it); the hearts'
 * statuses are seeded from it. Throws the SPEC.md §8 error (`401: …` for visitors).
 */
export const favoritesQueryOptions = (params: FavoritesPageParams) =>
  queryOptions({
    queryKey: ["/api/favorites", { ...params, limit: params.limit ?? CATALOG_PAGE_SIZE }],
    queryFn: async ({ client }) => {
      const page = await apiGet("/api/favorites", { query: favoritesQueryString(params) });
      seedFavoriteStatuses(client, page.characters);
      return page;
    },
  });
