/**
 * `PATCH /api/conversations/{id}` with `{title}` (1–200 characters,
 * DESIGN.md "Small contracts of the first hour") → 200 with the
 * conversation. Success refreshes My Chats and puts the answer in the
 * conversation's query.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiSend } from "../../../lib/api-client.ts";
import { conversationQueryOptions } from "./get-conversation.ts";
import { CONVERSATIONS_KEY } from "./get-conversations.ts";

/** Throws the SPEC.md §8 error: `400` for an empty or too long title, `404` for a conversation not the person's, `422` refused. */
export function renameConversation(conversationId: string, title: string) {
  return apiSend("patch", "/api/conversations/:id", { params: { id: conversationId }, body: { title } });
}

export function useRenameConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, title }: { id: string; title: string }) => renameConversation(id, title),
    onSuccess: (conversation) => {
      queryClient.setQueryData(conversationQueryOptions(conversation.id).queryKey, conversation);
      return queryClient.invalidateQueries({ queryKey: CONVERSATIONS_KEY });
    },
  });
}
