/**
 * `POST /api/characters` with the character fields → 201 with the new
 * character (SPEC.md §7). Success refreshes the character lists (§4).
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CharacterInput } from "../../../../schema/inputs.ts";
import { apiSend } from "../../../lib/api-client.ts";
import { refreshCharacters } from "./refresh-characters.ts";

/** Throws the SPEC.md §8 error: `401: …` signed out, `400: …` with the §5 messages. */
export function createCharacter(input: CharacterInput) {
  return apiSend("post", "/api/characters", { body: input });
}

export function useCreateCharacter() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCharacter,
    onSuccess: (character) => {
      void refreshCharacters(queryClient, { character });
    },
  });
}
