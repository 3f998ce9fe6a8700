/**
 * `PATCH /api/conversations/{id}` with `{checkIns}` (DESIGN.md turn 4
 * "Notifications"): the character checks in after a quiet spell (one-to-one
 * chats only) → 200 with the conversation, put in its query.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiSend } from "../../../lib/api-client.ts";
import { conversationQueryOptions } from "./get-conversation.ts";

/** Throws the SPEC.md §8 error: `400` in a chat with several characters or people, `404`/`403` not the person's chat. */
export function setConversationCheckIns(conversationId: string, checkIns: boolean) {
  return apiSend("patch", "/api/conversations/:id", { params: { id: conversationId }, body: { checkIns } });
}

export function useSetConversationCheckIns(conversationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (checkIns: boolean) => setConversationCheckIns(conversationId, checkIns),
    onSuccess: (conversation) => queryClient.setQueryData(conversationQueryOptions(conversation.id).queryKey, conversation),
  });
}
