/**
 * `PUT` / `DELETE /api/users/{username}/follow`: follow or unfollow a creator
 * (issue 16). Optimistic like the favorite heart: the button and the
 * follower count change at once and roll back on failure; the server's
 * exact count replaces the guess, and Home's Following tab refetches.
 */
import { type QueryClient, useMutation, useQueryClient } from "@tanstack/react-query";
import type { CreatorProfile } from "../../../../schema/api.ts";
import { apiSend } from "../../../lib/api-client.ts";
import { creatorQueryOptions } from "./get-creator.ts";

/** Sends the follow (`follow: true`) or unfollow; returns the exact state. Throws the SPEC.md §8 error. */
export function setFollowing(username: string, follow: boolean) {
  const target = { params: { username } };
  return follow ? apiSend("put", "/api/users/:username/follow", target) : apiSend("delete", "/api/users/:username/follow", target);
}

/** True for the key of a Following tab page (`["/api/characters", {following: true, …}]`). */
function isFollowingListKey(queryKey: readonly unknown[]): boolean {
  const params = queryKey[1];
  return queryKey[0] === "/api/characters" && typeof params === "object" && params !== null && "following" in params && params.following === true;
}

function patchProfile(client: QueryClient, username: string, patch: (profile: CreatorProfile) => CreatorProfile) {
  client.setQueryData(creatorQueryOptions(username).queryKey, (profile) => (profile ? patch(profile) : profile));
}

/** The follow toggle of one creator's page. `onError` runs after the rollback. */
export function useFollowCreator(username: string, onError: (error: unknown) => void) {
  const queryClient = useQueryClient();
  const key = creatorQueryOptions(username).queryKey;
  return useMutation({
    mutationKey: ["follow", key[1]],
    mutationFn: (follow: boolean) => setFollowing(username, follow),
    onMutate: async (follow) => {
      await queryClient.cancelQueries({ queryKey: key, exact: true });
      const before = queryClient.getQueryData(key);
      patchProfile(queryClient, username, (p) => ({
        ...p,
        isFollowing: follow,
        followerCount: Math.max(0, p.followerCount + (follow === p.isFollowing ? 0 : follow ? 1 : -1)),
      }));
      return { before };
    },
    onError: (error, _follow, context) => {
      if (context) queryClient.setQueryData(key, context.before);
      onError(error);
    },
    onSuccess: (status) => patchProfile(queryClient, username, (p) => ({ ...p, ...status })),
    onSettled: () => queryClient.invalidateQueries({ predicate: ({ queryKey }) => isFollowingListKey(queryKey) }),
  });
}
