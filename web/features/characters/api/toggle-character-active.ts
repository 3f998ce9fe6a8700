/**
 * `PATCH /api/characters/{id}/toggle-active`, no body → the character with
 * `isActive` flipped (SPEC.md §4 "Character isActive", §7). An inactive
 * character leaves the catalog and search; success refreshes the lists.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiSend } from "../../../lib/api-client.ts";
import { refreshCharacters } from "./refresh-characters.ts";

/** Throws the SPEC.md §8 error (`403: …` for anyone but the creator). */
export function toggleCharacterActive(id: number) {
  return apiSend("patch", "/api/characters/:id/toggle-active", { params: { id } });
}

export function useToggleCharacterActive() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: toggleCharacterActive,
    onSuccess: (character) => refreshCharacters(queryClient, { character }),
  });
}
