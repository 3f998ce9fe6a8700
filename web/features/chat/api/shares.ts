/**
 * A chat's share links, for its owner (DESIGN.md "Sharing and forks"; the
 * reading page is web/features/shares/):
 *
 * - `POST /api/conversations/{id}/shares` `{upToMessageId?}` → 201 `{token, url: "/s/{token}"}`;
 * - `GET /api/conversations/{id}/shares` → `{shares: [ShareLink]}`, newest first;
 * - `DELETE /api/conversations/{id}/shares/{token}` → 204.
 * A member of a shared room gets 403, anyone else 404.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiGet, apiSend, apiSendUnread } from "../../../lib/api-client.ts";

/** Throws the SPEC.md §8 error: `400` when there is nothing to share yet, `409` at 50 links. */
export function createShare(conversationId: string, upToMessageId?: string) {
  return apiSend("post", "/api/conversations/:id/shares", { params: { id: conversationId }, body: upToMessageId ? { upToMessageId } : {} });
}

export function getShares(conversationId: string) {
  return apiGet("/api/conversations/:id/shares", { params: { id: conversationId } });
}

/** Throws the SPEC.md §8 error (`404` for a link already gone). */
export function revokeShare(conversationId: string, token: string) {
  return apiSendUnread("delete", "/api/conversations/:id/shares/:token", { params: { id: conversationId, token } });
}

export const sharesQueryOptions = (conversationId: string) =>
  queryOptions({ queryKey: ["/api/conversations", conversationId, "shares"], queryFn: () => getShares(conversationId) });

export function useShares(conversationId: string) {
  return useQuery(sharesQueryOptions(conversationId));
}

/** Creating or revoking a link refreshes the chat's list. */
export function useCreateShare(conversationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (upToMessageId?: string) => createShare(conversationId, upToMessageId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sharesQueryOptions(conversationId).queryKey }),
  });
}

export function useRevokeShare(conversationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => revokeShare(conversationId, token),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sharesQueryOptions(conversationId).queryKey }),
  });
}
