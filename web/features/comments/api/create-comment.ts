/**
 * `POST /api/characters/{id}/comments` with `{content}` or, for a reply,
 * `{content, parentId}` (SPEC.md §7). Success refreshes the comments (§4
 * "Post comment").
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiSend } from "../../../lib/api-client.ts";
import { commentsQueryOptions } from "./get-comments.ts";

export interface CreateCommentInput {
  content: string;
  /** The comment replied to; omitted for a top-level comment. */
  parentId?: number;
}

/** Sends the comment, trimmed. Throws the SPEC.md §8 error (`401: …` for visitors). */
export function createComment(characterId: number, input: CreateCommentInput) {
  const body = input.parentId === undefined ? { content: input.content.trim() } : { content: input.content.trim(), parentId: input.parentId };
  return apiSend("post", "/api/characters/:id/comments", { params: { id: characterId }, body });
}

export function useCreateComment(characterId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateCommentInput) => createComment(characterId, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: commentsQueryOptions(characterId).queryKey }),
  });
}
