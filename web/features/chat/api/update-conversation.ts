/**
 * `PATCH /api/conversations/{id}` with `{title?, replyOrder?}` → 200 with the
 * conversation (DESIGN.md "Group chats": the reply order; "Small contracts":
 * the title). Success puts the answer in the conversation's query.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ConversationPatch } from "../../../../schema/chat.ts";
import { apiSend } from "../../../lib/api-client.ts";
import { conversationQueryOptions } from "./get-conversation.ts";

/** Throws the SPEC.md §8 error: `401`, `404` for a conversation not the person's, `400` for a refused field. */
export function updateConversation(conversationId: string, patch: ConversationPatch) {
  return apiSend("patch", "/api/conversations/:id", { params: { id: conversationId }, body: patch });
}

export function useUpdateConversation(conversationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: ConversationPatch) => updateConversation(conversationId, patch),
    onSuccess: (conversation) => queryClient.setQueryData(conversationQueryOptions(conversationId).queryKey, conversation),
  });
}
