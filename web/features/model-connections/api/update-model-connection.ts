/**
 * `PUT /api/model-connections/{id}` (partial) → 200 with the connection.
 * `apiKey` left out keeps the saved key; "" removes it. Success refreshes the list.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ModelConnectionUpdate } from "../../../../schema/model-connections.ts";
import { apiSend } from "../../../lib/api-client.ts";
import { modelConnectionsQueryOptions } from "../../../lib/model-connections-query.ts";

/** Throws the SPEC.md §8 error: `401`, `400` with the field messages, `404` "Model connection not found". */
export function updateModelConnection({ id, input }: { id: string; input: ModelConnectionUpdate }) {
  return apiSend("put", "/api/model-connections/:id", { params: { id }, body: input });
}

export function useUpdateModelConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateModelConnection,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: modelConnectionsQueryOptions().queryKey }),
  });
}
