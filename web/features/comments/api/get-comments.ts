/**
 * `GET /api/characters/{id}/comments`: the discussion of a character (SPEC.md
 * §7): top-level comments newest first, each with its replies (any depth)
 * oldest first. Visitors may read.
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { Comment } from "../../../../schema/api.ts";
import { apiGet } from "../../../lib/api-client.ts";

/** Throws the SPEC.md §8 error. */
export function getComments(characterId: number): Promise<Comment[]> {
  return apiGet<Comment[]>(`/api/characters/${characterId}/comments`);
}

export const commentsQueryOptions = (characterId: number) =>
  queryOptions({
    queryKey: ["/api/characters", String(characterId), "comments"],
    queryFn: () => getComments(characterId),
  });

export function useComments(characterId: number) {
  return useQuery(commentsQueryOptions(characterId));
}
