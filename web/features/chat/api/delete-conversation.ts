/**
 * `DELETE /api/conversations/{id}` → 204 (DESIGN.md "Small contracts of
 * the first hour"): the conversation and every message in it are gone for
 * good. Success drops it from My Chats at once, then refreshes the lists.
 */
import { type InfiniteData, useMutation, useQueryClient } from "@tanstack/react-query";
import type { ConversationSummary } from "../../../../schema/chat.ts";
import { apiSendUnread } from "../../../lib/api-client.ts";
import { conversationQueryOptions } from "./get-conversation.ts";
import { CONVERSATIONS_KEY } from "./get-conversations.ts";

/** Throws the SPEC.md §8 error: `404` for a conversation that is not the person's (or already gone). */
export async function deleteConversation(conversationId: string): Promise<void> {
  await apiSendUnread("delete", "/api/conversations/:id", { params: { id: conversationId } });
}

export function useDeleteConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (conversationId: string) => deleteConversation(conversationId),
    onSuccess: (_, conversationId) => {
      queryClient.setQueriesData<InfiniteData<ConversationSummary[]>>({ queryKey: CONVERSATIONS_KEY }, (data) =>
        data && "pages" in data ? { ...data, pages: data.pages.map((page) => page.filter((c) => c.id !== conversationId)) } : data,
      );
      queryClient.removeQueries({ queryKey: conversationQueryOptions(conversationId).queryKey });
      return queryClient.invalidateQueries({ queryKey: CONVERSATIONS_KEY });
    },
  });
}
