/**
 * The comments section of a character page (SPEC.md §2 "Comments section",
 * §4 "Post comment" and "Vote", §8 toasts): heading with the count, the
 * new-comment box, the threads, and the loading and empty states. Visitors
 * read; anything else sends them to sign in (SPEC.md §8 Unauthorized).
 */
import { MessageCircle } from "lucide-react";
import { useState } from "react";
import type { Comment } from "../../../../schema/api.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Skeleton } from "../../../components/ui/skeleton.tsx";
import { toast } from "../../../components/ui/use-toast.ts";
import { isUnauthorizedError, serverErrorText } from "../../../lib/api-client.ts";
import { useUser } from "../../../lib/auth.ts";
import { BlockDialog } from "../../blocks/components/block-dialog.tsx";
import { notifyUnauthorized } from "../../../lib/unauthorized.ts";
import { useCreateComment } from "../api/create-comment.ts";
import { useDeleteComment } from "../api/delete-comment.ts";
import { useComments } from "../api/get-comments.ts";
import { countComments } from "../lib/comment-display.ts";
import { commentDraftKey } from "../lib/comment-draft.ts";
import { CommentForm } from "./comment-form.tsx";
import { CommentThread, type ThreadContext } from "./comment-item.tsx";

/** Skeleton rows while the comments load (SPEC.md §9). */
const SKELETON_ROWS = 3;

const DELETE_CONFIRMATION = "Are you sure you want to delete this comment?";

interface CommentsSectionProps {
  /** The section's element id: the character page's comment count links here. */
  id: string;
  characterId: number;
  /** The character's `commentCount`, shown until the comments have loaded. */
  commentCount: number;
  /** After a comment was posted or deleted: the page refreshes the character's counts. */
  onChanged: () => void;
}

function showError(description: string) {
  toast({ title: "Error", description, variant: "destructive" });
}

export function CommentsSection({ id, characterId, commentCount, onChanged }: CommentsSectionProps) {
  const { user, isLoading: userLoading } = useUser();
  const comments = useComments(characterId);
  // Two instances, so "Posting..." shows on the form that is sending.
  const createComment = useCreateComment(characterId);
  const createReply = useCreateComment(characterId);
  const remove = useDeleteComment(characterId);
  const [replyingTo, setReplyingTo] = useState<number | null>(null);
  const [blocking, setBlocking] = useState<string | null>(null);

  // Counted from what is shown, so the heading always matches the list.
  const count = comments.data ? countComments(comments.data) : commentCount;

  const post = async (mutation: typeof createComment, content: string, parentId?: number): Promise<boolean> => {
    if (!user && !userLoading) {
      notifyUnauthorized("comment");
      return false;
    }
    try {
      await mutation.mutateAsync({ content, parentId });
    } catch (error) {
      if (isUnauthorizedError(error)) notifyUnauthorized("comment");
      // A refusal says why (e.g. "You can't reply to this comment.").
      else showError(serverErrorText(error) ?? "Failed to post comment");
      return false;
    }
    toast({ title: "Comment posted successfully" });
    setReplyingTo(null);
    onChanged();
    return true;
  };

  const thread: ThreadContext = {
    characterId,
    userId: user?.id ?? null,
    replyingTo,
    setReplyingTo,
    replyPending: createReply.isPending,
    onReply: (parentId, content) => post(createReply, content, parentId),
    onDelete: (comment: Comment) => {
      if (!window.confirm(DELETE_CONFIRMATION)) return;
      remove.mutate(comment.id, {
        onSuccess: () => {
          toast({ title: "Comment deleted successfully" });
          onChanged();
        },
        onError: (error) => {
          if (isUnauthorizedError(error)) notifyUnauthorized("comment");
          else showError("Failed to delete comment");
        },
      });
    },
    deletingId: remove.isPending ? (remove.variables ?? null) : null,
    onBlock: setBlocking,
    onVoteSignedOut: () => notifyUnauthorized("vote"),
    onVoteError: (error) => {
      if (isUnauthorizedError(error)) notifyUnauthorized("vote");
      else showError(serverErrorText(error) ?? "Failed to vote on comment");
    },
  };

  return (
    <section
      id={id}
      tabIndex={-1}
      aria-labelledby={`${id}-title`}
      className="mt-10 scroll-mt-24 rounded-2xl border border-border bg-card p-5 outline-none md:p-6"
    >
      <h2 id={`${id}-title`} className="flex items-center gap-2 text-xl font-semibold">
        <MessageCircle aria-hidden="true" className="size-5 text-pink-400" />
        Comments ({count})
      </h2>

      <div className="mt-4">
        <CommentForm
          kind="comment"
          label="Write a comment"
          pending={createComment.isPending}
          onSubmit={(content) => post(createComment, content)}
          draftKey={commentDraftKey(characterId)}
        />
      </div>

      <div className="mt-6">
        {comments.isPending ? (
          <ul aria-busy="true" aria-label="Loading comments" className="space-y-5">
            {Array.from({ length: SKELETON_ROWS }, (_, i) => (
              <li key={i} className="flex gap-3">
                <Skeleton className="size-8 shrink-0 rounded-full" />
                <div className="flex-1 space-y-2">
                  <Skeleton className="h-4 w-40" />
                  <Skeleton className="h-4 w-full" />
                  <Skeleton className="h-4 w-2/3" />
                </div>
              </li>
            ))}
          </ul>
        ) : comments.isError ? (
          <div role="alert" className="flex flex-col items-center gap-3 py-8 text-center">
            <p className="text-sm text-orange-300">Failed to load comments</p>
            <Button variant="secondary" size="sm" onClick={() => void comments.refetch()}>
              Try Again
            </Button>
          </div>
        ) : comments.data.length === 0 ? (
          <p className="py-8 text-center text-muted-foreground">No comments yet. Be the first to share your thoughts!</p>
        ) : (
          <ul aria-label="Comments" className="space-y-6">
            {comments.data.map((comment) => (
              <CommentThread key={comment.id} comment={comment} thread={thread} />
            ))}
          </ul>
        )}
      </div>
      <BlockDialog username={blocking} onClose={() => setBlocking(null)} />
    </section>
  );
}
