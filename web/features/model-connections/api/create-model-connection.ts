/**
 * `POST /api/model-connections` `{name, kind, baseUrl?, apiKey?, model,
 * settings?, isDefault?}` → 201 with the connection (the key comes back only
 * as `keyHint`). Success refreshes the list.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ModelConnectionInput } from "../../../../schema/model-connections.ts";
import { apiSend } from "../../../lib/api-client.ts";
import { modelConnectionsQueryOptions } from "../../../lib/model-connections-query.ts";

/** Throws the SPEC.md §8 error: `401`, `400` with the field messages (a refused base URL among them), `409` at the limit. */
export function createModelConnection(input: ModelConnectionInput) {
  return apiSend("post", "/api/model-connections", { body: input });
}

export function useCreateModelConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createModelConnection,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: modelConnectionsQueryOptions().queryKey }),
  });
}
