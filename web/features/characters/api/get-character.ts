/** `GET /api/characters/{id}`: one character with every card field (SPEC.md §7). */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiGet } from "../../../lib/api-client.ts";

/** Throws the SPEC.md §8 error (`404: …` when there is no such character). */
export function getCharacter(id: string) {
  return apiGet("/api/characters/:id", { params: { id } });
}

export const characterQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ["/api/characters", id],
    queryFn: () => getCharacter(id),
  });

export function useCharacter(id: string) {
  return useQuery(characterQueryOptions(id));
}
