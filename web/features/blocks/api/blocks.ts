/**
 * Blocking (issue 35; docs/decisions/0030-blocking.md): `GET /api/blocks`
 * (the person's own list) and `PUT` / `DELETE /api/users/{username}/block`.
 *
 * A block changes what this person sees at once: every comment list and
 * character page is refetched (the blocked person's comments leave them and
 * the counts), as are the person's page and the lists of follows and rooms
 * the block ended.
 */
import { type QueryClient, queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Comment } from "../../../../schema/api.ts";
import { apiGet, apiSendUnread } from "../../../lib/api-client.ts";
import { withoutCommentsBy } from "../lib/hide-comments.ts";

export const blocksQueryOptions = () =>
  queryOptions({
    queryKey: ["/api/blocks"],
    queryFn: () => apiGet("/api/blocks"),
  });

/** The people the signed-in person blocked, newest first. */
export function useBlocks() {
  return useQuery(blocksQueryOptions());
}

/** Blocks (`block: true`) or unblocks the person holding `username`. Throws the SPEC.md §8 error. */
export async function setBlocked(username: string, block: boolean): Promise<void> {
  const target = { params: { username } };
  if (block) await apiSendUnread("put", "/api/users/:username/block", target);
  else await apiSendUnread("delete", "/api/users/:username/block", target);
}

/** What a block or an unblock changes: comments and counts, profiles and follows, the list itself, the person's chats. */
export function invalidateAfterBlock(client: QueryClient): Promise<void> {
  return client.invalidateQueries({
    predicate: ({ queryKey }) =>
      queryKey[0] === "/api/blocks" || queryKey[0] === "/api/characters" || queryKey[0] === "/api/users" || queryKey[0] === "/api/conversations",
  });
}

/** True for the key of a character's comment list (`["/api/characters", id, "comments"]`). */
const isCommentsKey = (queryKey: readonly unknown[]) => queryKey[0] === "/api/characters" && queryKey[2] === "comments";

/**
 * Block or unblock; `username` goes with each call, so one hook serves a
 * whole comment list. Once a block is made, the person's comments leave
 * every loaded list at once, then everything it changes is refetched.
 */
export function useSetBlocked() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ username, block }: { username: string; block: boolean }) => setBlocked(username, block),
    onSuccess: async (_, { username, block }) => {
      if (block) {
        queryClient.setQueriesData<Comment[]>({ predicate: ({ queryKey }) => isCommentsKey(queryKey) }, (comments) =>
          comments ? withoutCommentsBy(comments, username) : comments,
        );
      }
      await invalidateAfterBlock(queryClient);
    },
  });
}
