/**
 * `GET /api/conversations/{id}/messages/{messageId}/prompt` (the owner) →
 * PromptRecord: what was sent for the version shown of a character reply
 * (DESIGN.md "Memory", the prompt inspector). Throws the SPEC.md §8 error:
 * `404` when no prompt is kept for it (older replies, or not the owner).
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiGet } from "../../../lib/api-client.ts";

export function getPromptRecord(conversationId: string, messageId: string) {
  return apiGet("/api/conversations/:id/messages/:messageId/prompt", { params: { id: conversationId, messageId } });
}

/** Not cached between openings: a swipe or edit changes what the version shown was sent. */
export const promptRecordQueryOptions = (conversationId: string, messageId: string) =>
  queryOptions({
    queryKey: ["/api/conversations", conversationId, "messages", messageId, "prompt"],
    queryFn: () => getPromptRecord(conversationId, messageId),
    retry: false,
    gcTime: 0,
  });

export function usePromptRecord(conversationId: string, messageId: string) {
  return useQuery(promptRecordQueryOptions(conversationId, messageId));
}
