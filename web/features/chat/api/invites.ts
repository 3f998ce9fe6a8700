/**
 * Invitation links of a shared room (DESIGN.md "Shared rooms"):
 *
 * - `POST /api/conversations/{id}/invites` (owner) → 201 `{token, url:
 *   "/join/{token}", expiresAt}`; a member gets 403, anyone else 404.
 * - `DELETE /api/conversations/{id}/invites/{token}` (owner) → 204.
 * - `GET /api/invites/{token}` (anyone with the link) → InvitePreview; 404
 *   for an unknown, revoked or expired link.
 * - `POST /api/invites/{token}` (signed in) → 200 `{conversationId}`; again
 *   is harmless; 404 as above; 409 when the room has 10 people.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiGet, apiSend, apiSendUnread } from "../../../lib/api-client.ts";

/** Throws the SPEC.md §8 error: `401`, `403` for a member, `404` for a conversation not theirs. */
export function createInvite(conversationId: string) {
  return apiSend("post", "/api/conversations/:id/invites", { params: { id: conversationId } });
}

/** Throws the SPEC.md §8 error (`403` for a member). */
export function revokeInvite(conversationId: string, token: string) {
  return apiSendUnread("delete", "/api/conversations/:id/invites/:token", { params: { id: conversationId, token } });
}

export function useCreateInvite(conversationId: string) {
  return useMutation({ mutationFn: () => createInvite(conversationId) });
}

export function useRevokeInvite(conversationId: string) {
  return useMutation({ mutationFn: (token: string) => revokeInvite(conversationId, token) });
}

/** Throws the SPEC.md §8 error: `404` for a link that no longer works. */
export function getInvite(token: string) {
  return apiGet("/api/invites/:token", { params: { token } });
}

export const inviteQueryOptions = (token: string) =>
  queryOptions({ queryKey: ["/api/invites", token], queryFn: () => getInvite(token), retry: false });

export function useInvite(token: string) {
  return useQuery(inviteQueryOptions(token));
}

/**
 * Joins playing `personaId` (null: no persona, the room's model is told the
 * name only). Throws the SPEC.md §8 error: `401`, `404` (link gone, or not
 * your persona), `403` (the owner removed you while this link was open),
 * `409` (the room is full).
 */
export function joinByInvite(token: string, personaId: string | null) {
  return apiSend("post", "/api/invites/:token", { params: { token }, body: { personaId } });
}

/** Joining refreshes My Chats (the room is listed there now). */
export function useJoinByInvite(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (personaId: string | null) => joinByInvite(token, personaId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["/api/conversations"] }),
  });
}
