/**
 * `POST /api/conversations/{id}/branch` with `{messageId}` → 201 with a new
 * conversation holding the messages up to and including that one (their
 * versions too) and the memory; its `branchedFrom` names the source
 * (docs/decisions/0007-steering-a-chat.md "Branch from here").
 */
import { useMutation } from "@tanstack/react-query";
import { apiSend } from "../../../lib/api-client.ts";

/** Throws the SPEC.md §8 error: `401`, `404` "Message not found", `409` while a reply is being written. */
export function branchConversation(conversationId: string, messageId: string) {
  return apiSend("post", "/api/conversations/:id/branch", { params: { id: conversationId }, body: { messageId } });
}

export function useBranchConversation(conversationId: string) {
  return useMutation({ mutationFn: (messageId: string) => branchConversation(conversationId, messageId) });
}
