/**
 * A conversation's cast (DESIGN.md "Group chats"):
 * - `POST /api/conversations/{id}/characters` `{characterId}` → 201 with the
 *   conversation (409 when already in it or the cast has MAX_CAST_SIZE);
 * - `DELETE /api/conversations/{id}/characters/{characterId}` → 204 (409 for
 *   the last member);
 * - `PATCH /api/conversations/{id}/characters/{characterId}` `{muted?,
 *   talkativeness? (0–1)}` → 200 with the conversation.
 * Each success puts the answer in (or, for a removal, refetches) the
 * conversation's query; the room tells the other tabs with `cast_updated`.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiSend, apiSendUnread } from "../../../lib/api-client.ts";
import { conversationQueryOptions } from "./get-conversation.ts";

/** How a member takes part: replies only when asked, and its chance of replying in the natural order (0–1). */
export interface CastMemberPatch {
  muted?: boolean;
  talkativeness?: number;
}

/** Throws the SPEC.md §8 error: `404` for a character the person may not chat with, `409` already in or cast full. */
export function addCastMember(conversationId: string, characterId: number) {
  return apiSend("post", "/api/conversations/:id/characters", { params: { id: conversationId }, body: { characterId } });
}

/** Throws the SPEC.md §8 error: `404` not a member, `409` for the last member. */
export function removeCastMember(conversationId: string, characterId: number) {
  return apiSendUnread("delete", "/api/conversations/:id/characters/:characterId", { params: { id: conversationId, characterId } });
}

/** Throws the SPEC.md §8 error: `404` not a member, `400` for a refused field. */
export function updateCastMember(conversationId: string, characterId: number, patch: CastMemberPatch) {
  return apiSend("patch", "/api/conversations/:id/characters/:characterId", {
    params: { id: conversationId, characterId },
    body: patch,
  });
}

export function useAddCastMember(conversationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (characterId: number) => addCastMember(conversationId, characterId),
    onSuccess: (conversation) => queryClient.setQueryData(conversationQueryOptions(conversationId).queryKey, conversation),
  });
}

export function useRemoveCastMember(conversationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (characterId: number) => removeCastMember(conversationId, characterId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: conversationQueryOptions(conversationId).queryKey, exact: true }),
  });
}

export function useUpdateCastMember(conversationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ characterId, patch }: { characterId: number; patch: CastMemberPatch }) =>
      updateCastMember(conversationId, characterId, patch),
    onSuccess: (conversation) => queryClient.setQueryData(conversationQueryOptions(conversationId).queryKey, conversation),
  });
}
