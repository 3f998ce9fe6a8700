/**
 * `POST /api/comments/{id}/vote` with `{value: 1 | -1}` (SPEC.md §7). The
 * server decides what repeating a vote means (DESIGN.md "Votes": it removes
 * it). Afterwards the comment list and this comment's vote refresh (§4 "Vote").
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiSendUnread } from "../../../lib/api-client.ts";
import { commentVoteQueryOptions } from "./get-comment-vote.ts";
import { commentsQueryOptions } from "./get-comments.ts";

export type VoteValue = 1 | -1;

/** Throws the SPEC.md §8 error (`401: …` for visitors). */
export async function voteComment(commentId: number, value: VoteValue): Promise<void> {
  await apiSendUnread("post", "/api/comments/:id/vote", { params: { id: commentId }, body: { value } });
}

export function useVoteComment(characterId: number, commentId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (value: VoteValue) => voteComment(commentId, value),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: commentsQueryOptions(characterId).queryKey }),
        queryClient.invalidateQueries({ queryKey: commentVoteQueryOptions(commentId).queryKey }),
      ]),
  });
}
