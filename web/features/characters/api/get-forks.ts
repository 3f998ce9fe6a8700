/**
 * `GET /api/characters/{id}/forks`: one page of a character's public forks,
 * most favorited first, shaped like `GET /api/characters` (issue 40).
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiGet } from "../../../lib/api-client.ts";

/** Forks shown in the list at once (the API's most). */
export const FORKS_PAGE_SIZE = 100;

/** The key prefix of character `id`'s forks, every NSFW setting included. */
export const forksQueryKeyOf = (id: number) => ["/api/characters", String(id), "forks"] as const;

/** Throws the SPEC.md §8 error (`404: …` for a character the caller cannot see). */
export function getForks(id: number, showNsfw: boolean) {
  return apiGet("/api/characters/:id/forks", {
    params: { id },
    query: new URLSearchParams({ showNsfw: String(showNsfw), limit: String(FORKS_PAGE_SIZE) }).toString(),
  });
}

export const forksQueryOptions = (id: number, showNsfw: boolean) =>
  queryOptions({
    queryKey: [...forksQueryKeyOf(id), { showNsfw }],
    queryFn: () => getForks(id, showNsfw),
  });

/** The forks, fetched only while `enabled` (the list is open). */
export function useForks(id: number, showNsfw: boolean, enabled: boolean) {
  return useQuery({ ...forksQueryOptions(id, showNsfw), enabled });
}
