/**
 * `DELETE /api/model-connections/{id}` → 204; its key goes with it, and chats
 * that used it go back to the default. Success refreshes the list.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiSendUnread } from "../../../lib/api-client.ts";
import { modelConnectionsQueryOptions } from "../../../lib/model-connections-query.ts";

/** Throws the SPEC.md §8 error: `401`, `404` "Model connection not found". */
export async function deleteModelConnection(id: string): Promise<void> {
  await apiSendUnread("delete", "/api/model-connections/:id", { params: { id } });
}

export function useDeleteModelConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteModelConnection,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: modelConnectionsQueryOptions().queryKey }),
  });
}
