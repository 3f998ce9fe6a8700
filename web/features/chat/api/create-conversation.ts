/**
 * `POST /api/conversations` with `{characterId, title}` (SPEC.md §4 "Start
 * chat", §7): the page then goes to `/chat/{id}`. The title is "Chat with
 * {character name}" (SPEC.md §3).
 */
import { useMutation } from "@tanstack/react-query";
import { conversationTitle } from "../../../../schema/chat.ts";
import { apiSend } from "../../../lib/api-client.ts";

/** Creates the conversation; throws the SPEC.md §8 error (`401: …` for visitors, `404: …` for a hidden character). */
export function createConversation(character: { id: number; name: string }) {
  return apiSend("post", "/api/conversations", {
    body: { characterId: character.id, title: conversationTitle(character.name) },
  });
}

export function useCreateConversation() {
  return useMutation({ mutationFn: createConversation });
}
