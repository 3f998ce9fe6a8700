/**
 * `DELETE /api/conversations/{id}/members/{userId}` (DESIGN.md "Shared
 * rooms") → 204: the owner removes anyone but themselves, a member removes
 * only themselves (leaves); otherwise 403. Their sockets close (1008).
 * Success refetches the conversation (its `members`) and My Chats.
 * `useLeaveConversation` is a member leaving from My Chats: the row goes at
 * once.
 */
import { type InfiniteData, useMutation, useQueryClient } from "@tanstack/react-query";
import type { ConversationSummary } from "../../../../schema/chat.ts";
import { apiSendUnread } from "../../../lib/api-client.ts";
import { conversationQueryOptions } from "./get-conversation.ts";
import { CONVERSATIONS_KEY } from "./get-conversations.ts";

/** Throws the SPEC.md §8 error: `401`, `403` (not allowed), `404` (not in the conversation). */
export function removeMember(conversationId: string, userId: string) {
  return apiSendUnread("delete", "/api/conversations/:id/members/:userId", { params: { id: conversationId, userId } });
}

export function useRemoveMember(conversationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => removeMember(conversationId, userId),
    // Not awaited: a person who left reads 404 for the conversation now, and the caller's own
    // onSuccess (going to My Chats) must not wait for that refetch to unmount the chat first.
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ["/api/conversations"] }),
  });
}

/** A member leaves a shared room they joined (`DELETE …/members/{their id}`); it leaves My Chats at once, then the lists refresh. */
export function useLeaveConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ conversationId, userId }: { conversationId: string; userId: string }) => removeMember(conversationId, userId),
    onSuccess: (_, { conversationId }) => {
      queryClient.setQueriesData<InfiniteData<ConversationSummary[]>>({ queryKey: CONVERSATIONS_KEY }, (data) =>
        data && "pages" in data ? { ...data, pages: data.pages.map((page) => page.filter((c) => c.id !== conversationId)) } : data,
      );
      queryClient.removeQueries({ queryKey: conversationQueryOptions(conversationId).queryKey });
      return queryClient.invalidateQueries({ queryKey: CONVERSATIONS_KEY });
    },
  });
}
