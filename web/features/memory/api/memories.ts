/**
 * A chat's pinned memories (DESIGN.md "Memory"):
 *
 * - `GET /api/conversations/{id}/memories` (the owner and the room's
 *   members) → `{memories: PinnedMemory[]}`, oldest first.
 * - `POST …/memories` `{text?, messageId?, scope?}` (the owner) → 201 the
 *   memory; the text defaults to the message's. 409 past 50 a chat.
 * - `PATCH …/memories/{memoryId}` `{text}` → 200; `DELETE` → 204.
 *
 * Every write throws the SPEC.md §8 error (`403` for a member, `404`, `409`,
 * `422` screened) and refreshes the list.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { MemoryScope } from "../../../../schema/chat.ts";
import { apiGet, apiSend, apiSendUnread } from "../../../lib/api-client.ts";

export function getMemories(conversationId: string) {
  return apiGet("/api/conversations/:id/memories", { params: { id: conversationId } });
}

export const memoriesQueryOptions = (conversationId: string) =>
  queryOptions({ queryKey: ["/api/conversations", conversationId, "memories"], queryFn: () => getMemories(conversationId) });

export function useMemories(conversationId: string) {
  return useQuery(memoriesQueryOptions(conversationId));
}

export interface CreateMemoryInput {
  text?: string;
  messageId?: string;
  scope?: MemoryScope;
}

export function createMemory(conversationId: string, body: CreateMemoryInput) {
  return apiSend("post", "/api/conversations/:id/memories", { params: { id: conversationId }, body });
}

export function updateMemory(conversationId: string, memoryId: string, text: string) {
  return apiSend("patch", "/api/conversations/:id/memories/:memoryId", { params: { id: conversationId, memoryId }, body: { text } });
}

export function deleteMemory(conversationId: string, memoryId: string) {
  return apiSendUnread("delete", "/api/conversations/:id/memories/:memoryId", { params: { id: conversationId, memoryId } });
}

function useRefreshingMutation<Input, Output>(conversationId: string, mutationFn: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: memoriesQueryOptions(conversationId).queryKey }),
  });
}

export function useCreateMemory(conversationId: string) {
  return useRefreshingMutation(conversationId, (input: CreateMemoryInput) => createMemory(conversationId, input));
}

export function useUpdateMemory(conversationId: string) {
  return useRefreshingMutation(conversationId, ({ memoryId, text }: { memoryId: string; text: string }) => updateMemory(conversationId, memoryId, text));
}

export function useDeleteMemory(conversationId: string) {
  return useRefreshingMutation(conversationId, (memoryId: string) => deleteMemory(conversationId, memoryId));
}
