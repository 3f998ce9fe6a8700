/**
 * `DELETE /api/characters/{id}` (SPEC.md §7): the creator removes a character
 * with its favorites, comments and conversations. Success refreshes the lists.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiSendUnread } from "../../../lib/api-client.ts";
import { refreshCharacters } from "./refresh-characters.ts";

/** Throws the SPEC.md §8 error (`403: …` for anyone but the creator). */
export async function deleteCharacter(id: number): Promise<void> {
  await apiSendUnread("delete", "/api/characters/:id", { params: { id } });
}

export function useDeleteCharacter() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteCharacter,
    onSuccess: (_result, id) => refreshCharacters(queryClient, { deletedId: id }),
  });
}
