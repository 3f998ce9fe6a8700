/**
 * What the comment list looks like once its reader blocked someone, before
 * the server's list arrives: the same rule as worker/lib/community.ts
 * `listComments` (their comments go, with every reply beneath them).
 */
import type { Comment } from "../../../../schema/api.ts";
import { usernameKey } from "../../../../schema/usernames.ts";

/** `comments` without those by `username` (any spelling) and the replies under them; the same array when none is by them. */
export function withoutCommentsBy(comments: Comment[], username: string): Comment[] {
  const key = usernameKey(username);
  let changed = false;
  const prune = (list: Comment[]): Comment[] =>
    list.flatMap((comment) => {
      if (usernameKey(comment.username) === key) {
        changed = true;
        return [];
      }
      const replies = prune(comment.replies);
      return [replies === comment.replies ? comment : { ...comment, replies }];
    });
  const pruned = prune(comments);
  return changed ? pruned : comments;
}
