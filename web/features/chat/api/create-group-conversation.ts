/**
 * `POST /api/conversations` with `{characterIds}` (DESIGN.md "Group chats":
 * 1–8 distinct characters, member order kept; the server titles it "Chat
 * with Ana, Bo and Cy") → 201 with the conversation; the page then goes to
 * `/chat/{id}`.
 */
import { useMutation } from "@tanstack/react-query";
import { apiSend } from "../../../lib/api-client.ts";

/** Throws the SPEC.md §8 error: `401` visitors, `404` a character the person may not chat with, `400` 0, 9+ or a repeat. */
export function createGroupConversation(characterIds: number[]) {
  return apiSend("post", "/api/conversations", { body: { characterIds } });
}

export function useCreateGroupConversation() {
  return useMutation({ mutationFn: createGroupConversation });
}
