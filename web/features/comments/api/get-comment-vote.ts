/** `GET /api/comments/{id}/vote`: the signed-in person's vote on a comment (SPEC.md §7). */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiGet } from "../../../lib/api-client.ts";

/** `{vote: 1 | -1 | null}`. Throws the SPEC.md §8 error. */
export function getCommentVote(commentId: number) {
  return apiGet("/api/comments/:id/vote", { params: { id: commentId } });
}

export const commentVoteQueryOptions = (commentId: number) =>
  queryOptions({
    queryKey: ["/api/comments", String(commentId), "vote"],
    queryFn: () => getCommentVote(commentId),
  });

/** The vote, asked only when `signedIn` (SPEC.md §6). */
export function useCommentVote(commentId: number, signedIn: boolean) {
  return useQuery({ ...commentVoteQueryOptions(commentId), enabled: signedIn });
}
