/**
 * `POST /api/conversations/{id}/messages/{messageId}/rating` with
 * `{value: 1 | -1 | 0}`: the person's thumbs up or down on a character
 * reply, 0 to take it back (DESIGN.md "Rating"). The server also tells every
 * open tab with a `message_rated` frame.
 */
import { useMutation } from "@tanstack/react-query";
import { apiSend } from "../../../lib/api-client.ts";

export interface RateMessageInput {
  messageId: string;
  value: 1 | -1 | 0;
}

/** Throws the SPEC.md §8 error. */
export function rateMessage(conversationId: string, { messageId, value }: RateMessageInput) {
  return apiSend("post", "/api/conversations/:id/messages/:messageId/rating", {
    params: { id: conversationId, messageId },
    body: { value },
  });
}

export function useRateMessage(conversationId: string) {
  return useMutation({ mutationFn: (input: RateMessageInput) => rateMessage(conversationId, input) });
}
