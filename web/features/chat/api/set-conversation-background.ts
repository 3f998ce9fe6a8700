/**
 * `PATCH /api/conversations/{id}` with `{background}` (DESIGN.md "Character
 * assets"): the name of one of the first character's backgrounds, or null
 * for none → 200 with the conversation, put in its query.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiSend } from "../../../lib/api-client.ts";
import { conversationQueryOptions } from "./get-conversation.ts";

/** Throws the SPEC.md §8 error: `400` for a name the character has no background of, `404`/`403` not the person's chat. */
export function setConversationBackground(conversationId: string, background: string | null) {
  return apiSend("patch", "/api/conversations/:id", { params: { id: conversationId }, body: { background } });
}

export function useSetConversationBackground(conversationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (background: string | null) => setConversationBackground(conversationId, background),
    onSuccess: (conversation) => queryClient.setQueryData(conversationQueryOptions(conversation.id).queryKey, conversation),
  });
}
