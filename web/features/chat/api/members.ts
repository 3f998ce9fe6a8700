/**
 * `DELETE /api/conversations/{id}/members/{userId}` (DESIGN.md "Shared
 * rooms") → 204: the owner removes anyone but themselves, a member removes
 * only themselves (leaves); otherwise 403. Their sockets close (1008).
 * Success refetches the conversation (its `members`) and My Chats.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiSendUnread } from "../../../lib/api-client.ts";

/** Throws the SPEC.md §8 error: `401`, `403` (not allowed), `404` (not in the conversation). */
export function removeMember(conversationId: string, userId: string) {
  return apiSendUnread("delete", "/api/conversations/:id/members/:userId", { params: { id: conversationId, userId } });
}

export function useRemoveMember(conversationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => removeMember(conversationId, userId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["/api/conversations"] }),
  });
}
