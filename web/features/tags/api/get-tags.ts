/**
 * `GET /api/tags?popular=true`: popular tags, most used first (SPEC.md §7);
 * with NSFW off, `&showNsfw=false` counts non-NSFW characters only (issue 26).
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiJson, apiUrl } from "../../../lib/api-client.ts";
import type { ApiResponse } from "../../../lib/api-types.ts";

type Tag = ApiResponse<"/api/tags">[number];

/** Throws `Error("Failed to fetch tags")` on any non-OK answer (SPEC.md §8). */
export async function getPopularTags(showNsfw = true, signal?: AbortSignal) {
  const query = showNsfw ? "popular=true" : "popular=true&showNsfw=false";
  const res = await fetch(apiUrl("/api/tags", { query }), { credentials: "include", signal });
  if (!res.ok) throw new Error("Failed to fetch tags");
  return apiJson(res, "get", "/api/tags");
}

export const popularTagsQueryOptions = (showNsfw = true) =>
  queryOptions({
    queryKey: ["/api/tags", showNsfw ? { popular: true } : { popular: true, showNsfw: false }],
    queryFn: ({ signal }) => getPopularTags(showNsfw, signal),
  });

/** Popular tags, counted under `showNsfw` (default: every listed character); an empty list while loading and when the call fails. */
export function usePopularTags(showNsfw = true): { tags: Tag[]; isLoading: boolean } {
  const query = useQuery(popularTagsQueryOptions(showNsfw));
  return { tags: query.data ?? [], isLoading: query.isLoading };
}
