/**
 * `PUT /api/conversations/{id}/persona` with `{personaId}` (null: the
 * person's default persona) → 200 with the conversation. An open chat plays
 * it from its next reply on (docs/decisions/0007-steering-a-chat.md
 * "Personas"). Success puts the answer in the conversation's query.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiSend } from "../../../lib/api-client.ts";
import { conversationQueryOptions } from "./get-conversation.ts";

/** Throws the SPEC.md §8 error: `401`, `404` for an unknown conversation or persona. */
export function setConversationPersona(conversationId: string, personaId: string | null) {
  return apiSend("put", "/api/conversations/:id/persona", { params: { id: conversationId }, body: { personaId } });
}

export function useSetConversationPersona(conversationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (personaId: string | null) => setConversationPersona(conversationId, personaId),
    onSuccess: (conversation) => queryClient.setQueryData(conversationQueryOptions(conversationId).queryKey, conversation),
  });
}
