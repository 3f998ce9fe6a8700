/** `GET /api/characters/{id}/favorite`: whether the signed-in person favorited it (SPEC.md §7). */
import { type QueryClient, queryOptions, useQuery } from "@tanstack/react-query";
import { apiGet } from "../../../lib/api-client.ts";

/** Throws the SPEC.md §8 error (`401: …` for visitors, who should never ask). */
export function getFavoriteStatus(characterId: number | string) {
  return apiGet("/api/characters/:id/favorite", { params: { id: characterId } });
}

export const favoriteStatusQueryOptions = (characterId: number | string) =>
  queryOptions({
    queryKey: ["/api/characters", String(characterId), "favorite"],
    queryFn: () => getFavoriteStatus(characterId),
  });

/** Key of the favorite toggle mutations of one character (toggle-favorite.ts). */
export const toggleFavoriteMutationKey = (characterId: number) => ["toggle-favorite", characterId] as const;

/**
 * Puts each list character's `isFavorited` (sent by `GET /api/characters` to a
 * signed-in caller) into its status query, so Home's hearts, the character
 * page and the optimistic toggle read one value without a status call per
 * card. Characters without the field (a visitor's list) are left alone, and
 * so are those with a toggle in flight: the list may predate the toggle and
 * would undo its optimistic status.
 */
export function seedFavoriteStatuses(client: QueryClient, characters: readonly { id: number; isFavorited?: boolean }[]): void {
  for (const { id, isFavorited } of characters) {
    if (typeof isFavorited !== "boolean") continue;
    if (client.isMutating({ mutationKey: toggleFavoriteMutationKey(id) }) > 0) continue;
    client.setQueryData(favoriteStatusQueryOptions(id).queryKey, { isFavorited });
  }
}

/**
 * The status, asked only when `signedIn` (SPEC.md §6). `listed` is the
 * `isFavorited` of the list item the heart belongs to, if any: it answers
 * without a request when the cache has no status yet (the list's seeding
 * normally got there first).
 */
export function useFavoriteStatus(characterId: number | string, signedIn: boolean, listed?: boolean) {
  return useQuery({
    ...favoriteStatusQueryOptions(characterId),
    enabled: signedIn,
    initialData: listed === undefined ? undefined : { isFavorited: listed },
  });
}
