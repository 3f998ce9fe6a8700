/**
 * Reading a shared story and continuing it (DESIGN.md "Sharing and forks"):
 *
 * - `GET /api/shares/{token}?showNsfw=true|false` (anyone) → SharedChat; an
 *   NSFW share read without `showNsfw=true` comes back `withheld` (ask the
 *   18+ question first); 404 for a link that was revoked or never existed.
 * - `POST /api/shares/{token}/continue` (signed in) → 201 `{conversationId}`:
 *   a new chat of the reader's own holding the snapshot.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiGet, apiSend } from "../../../lib/api-client.ts";

export function getSharedStory(token: string, showNsfw: boolean) {
  return apiGet("/api/shares/:token", { params: { token }, query: `showNsfw=${showNsfw}` });
}

export const sharedStoryQueryOptions = (token: string, showNsfw: boolean) =>
  queryOptions({ queryKey: ["/api/shares", token, { showNsfw }], queryFn: () => getSharedStory(token, showNsfw), retry: false });

export function useSharedStory(token: string, showNsfw: boolean) {
  return useQuery(sharedStoryQueryOptions(token, showNsfw));
}

/** Throws the SPEC.md §8 error: `401` for a visitor, `404` for a link gone or characters no longer available. */
export function continueSharedStory(token: string) {
  return apiSend("post", "/api/shares/:token/continue", { params: { token } });
}

/** Continuing refreshes My Chats (the new chat is listed there). */
export function useContinueSharedStory(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => continueSharedStory(token),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["/api/conversations"] }),
  });
}
