/**
 * `GET /api/conversations/{conversationId}` (SPEC.md §7): the conversation
 * with its `characterId` and its embedded `character` (name, avatar,
 * creator; also when inactive), for its owner only — anyone else, and any
 * unknown id, gets 404 (DESIGN.md "Ownership").
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiGet } from "../../../lib/api-client.ts";

/** Throws the SPEC.md §8 error (`401: …` signed out, `404: …` not found or not yours). */
export function getConversation(conversationId: string) {
  return apiGet("/api/conversations/:id", { params: { id: conversationId } });
}

export const conversationQueryOptions = (conversationId: string) =>
  queryOptions({
    queryKey: ["/api/conversations", conversationId],
    queryFn: () => getConversation(conversationId),
  });

export function useConversation(conversationId: string) {
  return useQuery(conversationQueryOptions(conversationId));
}
