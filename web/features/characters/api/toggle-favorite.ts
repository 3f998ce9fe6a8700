/**
 * `POST /api/characters/{id}/favorite`: toggles the signed-in person's
 * favorite (SPEC.md §4 "Favorite", §7). Optimistic: the status flips and the
 * count moves in every cached list page and the character at once; on failure
 * both roll back; afterwards the status, the character and the lists refetch.
 */
import { type QueryClient, type QueryKey, useMutation, useQueryClient } from "@tanstack/react-query";
import type { FavoriteStatus } from "../../../../schema/api.ts";
import { apiSendUnread } from "../../../lib/api-client.ts";
import { withToggledFavoriteCount } from "../lib/favorite-count.ts";
import { isCharacterListKey } from "./get-characters.ts";
import { favoriteStatusQueryOptions, toggleFavoriteMutationKey } from "./get-favorite-status.ts";

/** Sends the toggle; the answer is not read (SPEC.md §7). Throws the SPEC.md §8 error. */
export async function toggleFavorite(characterId: number): Promise<void> {
  await apiSendUnread("post", "/api/characters/:id/favorite", { params: { id: characterId } });
}

/** Queries whose data holds the character's count: list pages (`["/api/characters", {…}]`) and the character. */
function holdsCount(queryKey: QueryKey, characterId: number): boolean {
  if (isCharacterListKey(queryKey)) return true;
  return queryKey.length === 2 && queryKey[0] === "/api/characters" && String(queryKey[1]) === String(characterId);
}

interface Snapshot {
  status: FavoriteStatus | undefined;
  counts: [QueryKey, unknown][];
}

async function applyOptimistic(queryClient: QueryClient, characterId: number): Promise<Snapshot> {
  const statusKey = favoriteStatusQueryOptions(characterId).queryKey;
  const predicate = ({ queryKey }: { queryKey: QueryKey }) => holdsCount(queryKey, characterId);
  // A refetch landing after this would overwrite the optimistic values.
  await Promise.all([
    queryClient.cancelQueries({ queryKey: statusKey, exact: true }),
    queryClient.cancelQueries({ predicate }),
  ]);
  const status = queryClient.getQueryData(statusKey);
  const counts = queryClient.getQueriesData({ predicate });
  const wasFavorited = status?.isFavorited ?? false;
  queryClient.setQueryData(statusKey, { isFavorited: !wasFavorited });
  queryClient.setQueriesData({ predicate }, (data: unknown) => withToggledFavoriteCount(data, characterId, wasFavorited));
  return { status, counts };
}

function rollback(queryClient: QueryClient, characterId: number, snapshot: Snapshot | undefined) {
  if (!snapshot) return;
  queryClient.setQueryData(favoriteStatusQueryOptions(characterId).queryKey, snapshot.status);
  for (const [key, data] of snapshot.counts) queryClient.setQueryData(key, data);
}

/**
 * The toggle for one character. `onError` runs after the rollback (the caller
 * decides what to tell: nothing on Home, a toast elsewhere).
 */
export function useToggleFavorite(characterId: number, onError: (error: unknown) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: toggleFavoriteMutationKey(characterId),
    mutationFn: () => toggleFavorite(characterId),
    onMutate: () => applyOptimistic(queryClient, characterId),
    onError: (error, _vars, snapshot) => {
      rollback(queryClient, characterId, snapshot);
      onError(error);
    },
    onSettled: () => {
      // After a burst of clicks, refetch once, when the last toggle is done.
      if (queryClient.isMutating({ mutationKey: toggleFavoriteMutationKey(characterId) }) > 1) return;
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: favoriteStatusQueryOptions(characterId).queryKey, exact: true }),
        queryClient.invalidateQueries({ predicate: ({ queryKey }) => holdsCount(queryKey, characterId) }),
      ]);
    },
  });
}
