/**
 * `PUT /api/characters/{id}` with the character fields → the updated
 * character (SPEC.md §7). Fields left out keep their values (the lorebook,
 * which the form does not edit). Success refreshes the character lists (§4).
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Character } from "../../../../schema/api.ts";
import type { CharacterUpdate } from "../../../../schema/inputs.ts";
import { apiRequest } from "../../../lib/api-client.ts";
import { refreshCharacters } from "./refresh-characters.ts";

/** Throws the SPEC.md §8 error: `401`, `403` (not the creator), `404`, `400` with the §5 messages. */
export async function updateCharacter(id: number, input: CharacterUpdate): Promise<Character> {
  const res = await apiRequest("PUT", `/api/characters/${id}`, input);
  return (await res.json()) as Character;
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
