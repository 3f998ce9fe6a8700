/**
 * `PUT /api/characters/{id}` with the character fields → the updated
 * character (SPEC.md §7). Fields left out keep their values (the lorebook,
 * which the form does not edit). Success refreshes the character lists (§4).
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CharacterUpdate } from "../../../../schema/inputs.ts";
import { apiSend } from "../../../lib/api-client.ts";
import { refreshCharacters } from "./refresh-characters.ts";

/** Throws the SPEC.md §8 error: `401`, `403` (not the creator), `404`, `400` with the §5 messages. */
export function updateCharacter(id: number, input: CharacterUpdate) {
  return apiSend("put", "/api/characters/:id", { params: { id }, body: input });
}

export function useUpdateCharacter(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CharacterUpdate) => updateCharacter(id, input),
    onSuccess: (character) => {
      void refreshCharacters(queryClient, { character });
    },
  });
}
