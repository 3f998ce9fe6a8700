/**
 * `POST /api/conversations/new` with `{characterId}` (SPEC.md §4 "New
 * conversation from chat menu", §7): a fresh conversation with the same
 * character; the previous one is kept.
 */
import { useMutation } from "@tanstack/react-query";
import { apiSend } from "../../../lib/api-client.ts";

/** Throws the SPEC.md §8 error. */
export function startNewConversation(characterId: number) {
  return apiSend("post", "/api/conversations/new", { body: { characterId } });
}

export function useStartNewConversation() {
  return useMutation({ mutationFn: startNewConversation });
}
