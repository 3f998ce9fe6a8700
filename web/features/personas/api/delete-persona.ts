/**
 * `DELETE /api/personas/{id}` → `{deleted: true}`. Deleting the default
 * leaves none (chats then use the first name). Success refreshes the list.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiSendUnread } from "../../../lib/api-client.ts";
import { personasQueryOptions } from "../../../lib/personas-query.ts";

/** Throws the SPEC.md §8 error: `401`, `404` "Persona not found". */
export async function deletePersona(id: string): Promise<void> {
  await apiSendUnread("delete", "/api/personas/:id", { params: { id } });
}

export function useDeletePersona() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePersona,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: personasQueryOptions().queryKey }),
  });
}
