/** `GET /api/characters/{id}/favorite`: whether the signed-in person favorited it (SPEC.md §7). */
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { FavoriteStatus } from "../../../../schema/api.ts";
import { apiGet } from "../../../lib/api-client.ts";

/** Throws the SPEC.md §8 error (`401: …` for visitors, who should never ask). */
export function getFavoriteStatus(characterId: number | string): Promise<FavoriteStatus> {
  return apiGet<FavoriteStatus>(`/api/characters/${encodeURIComponent(String(characterId))}/favorite`);
}

export const favoriteStatusQueryOptions = (characterId: number | string) =>
  queryOptions({
    queryKey: ["/api/characters", String(characterId), "favorite"],
    queryFn: () => getFavoriteStatus(characterId),
  });

/** The status, asked only when `signedIn` (SPEC.md §6). */
export function useFavoriteStatus(characterId: number | string, signedIn: boolean) {
  return useQuery({ ...favoriteStatusQueryOptions(characterId), enabled: signedIn });
}
