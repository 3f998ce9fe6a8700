/**
 * `POST /api/conversations/new` with `{characterId}` (SPEC.md §4 "New
 * conversation from chat menu", §7): a fresh conversation with the same
 * character; the previous one is kept.
 */
import { useMutation } from "@tanstack/react-query";
import type { Conversation } from "../../../../schema/chat.ts";
import { apiRequest } from "../../../lib/api-client.ts";

/** Throws the SPEC.md §8 error. */
export async function startNewConversation(characterId: number): Promise<Conversation> {
  const res = await apiRequest("POST", "/api/conversations/new", { characterId });
  return (await res.json()) as Conversation;
}

export function useStartNewConversation() {
  return useMutation({ mutationFn: startNewConversation });
}
