/**
 * `GET /api/characters/{id}/comments`: the discussion of a character (SPEC.md
 * §7): top-level comments newest first, each with its replies (any depth)
 * oldest first. Visitors may read.
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { Comment } from "../../../../schema/api.ts";
import { apiGet } from "../../../lib/api-client.ts";

/**
 * Throws the SPEC.md §8 error. The route answers `Comment[]` (schema/api.ts);
 * Hono's JSON typing cannot follow the recursive `replies` (it widens them to
 * `JSONValue`), so the threads keep that type, the rest checked against the route.
 */
export async function getComments(characterId: number): Promise<Comment[]> {
  const comments = await apiGet("/api/characters/:id/comments", { params: { id: characterId } });
  return comments as unknown as Comment[];
}

export const commentsQueryOptions = (characterId: number) =>
  queryOptions({
    queryKey: ["/api/characters", String(characterId), "comments"],
    queryFn: () => getComments(characterId),
  });

export function useComments(characterId: number) {
  return useQuery(commentsQueryOptions(characterId));
}
