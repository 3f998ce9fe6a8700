/**
 * `GET /api/conversations/{conversationId}/messages` (SPEC.md §7): the
 * stored messages, oldest first, the character's greeting first. Always
 * refetched when the chat page is entered (SPEC.md §7), never served from an
 * earlier visit's cache.
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiGet } from "../../../lib/api-client.ts";

/** Throws the SPEC.md §8 error. */
export function getConversationMessages(conversationId: string) {
  return apiGet("/api/conversations/:id/messages", { params: { id: conversationId } });
}

export const conversationMessagesQueryOptions = (conversationId: string) =>
  queryOptions({
    queryKey: ["/api/conversations", conversationId, "messages"],
    queryFn: () => getConversationMessages(conversationId),
    staleTime: 0,
    refetchOnMount: "always",
  });

export function useConversationMessages(conversationId: string) {
  return useQuery(conversationMessagesQueryOptions(conversationId));
}
