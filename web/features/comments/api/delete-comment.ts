/**
 * `DELETE /api/comments/{id}` (SPEC.md §7): the author removes a comment with
 * every reply beneath it. Success refreshes the comments.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiSendUnread } from "../../../lib/api-client.ts";
import { commentsQueryOptions } from "./get-comments.ts";

/** Throws the SPEC.md §8 error (`403: …` for anyone but the author). */
export async function deleteComment(commentId: number): Promise<void> {
  await apiSendUnread("delete", "/api/comments/:id", { params: { id: commentId } });
}

export function useDeleteComment(characterId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (commentId: number) => deleteComment(commentId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: commentsQueryOptions(characterId).queryKey }),
  });
}
