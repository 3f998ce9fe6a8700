/**
 * `POST /api/characters/{id}/fork` → 201 with the new, inactive character of
 * the caller, credited to the original (issue 40). Success refreshes the
 * character lists and the original, whose `forkCount` went up.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiSend } from "../../../lib/api-client.ts";
import { characterQueryOptions } from "./get-character.ts";
import { forksQueryKeyOf } from "./get-forks.ts";
import { refreshCharacters } from "./refresh-characters.ts";

/**
 * Throws the SPEC.md §8 error: `401: …` signed out, `403: …` when the creator
 * does not allow forks, `404: …` for a character the caller cannot see.
 */
export function forkCharacter(id: number) {
  return apiSend("post", "/api/characters/:id/fork", { params: { id } });
}

export function useForkCharacter() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: forkCharacter,
    onSuccess: (fork) => {
      void refreshCharacters(queryClient, { character: fork });
      if (fork.forkedFrom) {
        void queryClient.invalidateQueries({ queryKey: characterQueryOptions(String(fork.forkedFrom.id)).queryKey, exact: true });
        void queryClient.invalidateQueries({ queryKey: forksQueryKeyOf(fork.forkedFrom.id) });
      }
    },
  });
}
