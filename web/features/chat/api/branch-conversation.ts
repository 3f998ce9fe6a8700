/**
 * `POST /api/conversations/{id}/branch` with `{messageId}` → 201 with a new
 * conversation holding the messages up to and including that one (their
 * versions too) and the memory; its `branchedFrom` names the source
 * (docs/decisions/0007-steering-a-chat.md "Branch from here").
 */
import { useMutation } from "@tanstack/react-query";
import type { Conversation } from "../../../../schema/chat.ts";
import { apiRequest } from "../../../lib/api-client.ts";

/** Throws the SPEC.md §8 error: `401`, `404` "Message not found", `409` while a reply is being written. */
export async function branchConversation(conversationId: string, messageId: string): Promise<Conversation> {
  const res = await apiRequest("POST", `/api/conversations/${encodeURIComponent(conversationId)}/branch`, { messageId });
  return (await res.json()) as Conversation;
}

export function useBranchConversation(conversationId: string) {
  return useMutation({ mutationFn: (messageId: string) => branchConversation(conversationId, messageId) });
}
