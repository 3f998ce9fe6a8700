/** `GET /api/tags?popular=true`: popular tags, most used first (SPEC.md §7). */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiJson, apiUrl } from "../../../lib/api-client.ts";
import type { ApiResponse } from "../../../lib/api-types.ts";

type Tag = ApiResponse<"/api/tags">[number];

/** Throws `Error("Failed to fetch tags")` on any non-OK answer (SPEC.md §8). */
export async function getPopularTags(signal?: AbortSignal) {
  const res = await fetch(apiUrl("/api/tags", { query: "popular=true" }), { credentials: "include", signal });
  if (!res.ok) throw new Error("Failed to fetch tags");
  return apiJson(res, "get", "/api/tags");
}

export const popularTagsQueryOptions = () =>
  queryOptions({
    queryKey: ["/api/tags", { popular: true }],
    queryFn: ({ signal }) => getPopularTags(signal),
  });

/** Popular tags; an empty list while loading and when the call fails. */
export function usePopularTags(): { tags: Tag[]; isLoading: boolean } {
  const query = useQuery(popularTagsQueryOptions());
  return { tags: query.data ?? [], isLoading: query.isLoading };
}
