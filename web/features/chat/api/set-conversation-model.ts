/**
 * `PATCH /api/conversations/{id}` with `{modelConnectionId}` (null: the
 * person's default connection, else the site's model) → 200 with the
 * conversation. The room reads it at its next reply (DESIGN.md "Your own
 * model (turn 3)"). Success puts the answer in the conversation's query.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiSend } from "../../../lib/api-client.ts";
import { conversationQueryOptions } from "./get-conversation.ts";

/** Throws the SPEC.md §8 error: `401`, `404` for an unknown conversation, `400` for a connection that is not the person's. */
export function setConversationModel(conversationId: string, modelConnectionId: string | null) {
  return apiSend("patch", "/api/conversations/:id", { params: { id: conversationId }, body: { modelConnectionId } });
}

export function useSetConversationModel(conversationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (modelConnectionId: string | null) => setConversationModel(conversationId, modelConnectionId),
    onSuccess: (conversation) => queryClient.setQueryData(conversationQueryOptions(conversationId).queryKey, conversation),
  });
}
