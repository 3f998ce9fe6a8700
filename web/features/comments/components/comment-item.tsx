/**
 * One comment with its votes, author, time, text, Reply and Delete (SPEC.md
 * §2 "Comments section"), Report for anyone but its author (issue "Trust and
 * safety"), a menu with Block for a signed-in person who is not its author
 * (issue 35), and its replies: a top-level comment shows its
 * replies indented one level; a reply's own replies open in place, in that
 * same level, behind "Show N replies".
 */
import { formatDistanceToNow } from "date-fns";
import { ArrowBigDown, ArrowBigUp, Ban, CornerDownRight, Ellipsis, MessageSquareReply, Trash2 } from "lucide-react";
import { useState } from "react";
import type { Comment } from "../../../../schema/api.ts";
import { ReportButton } from "../../../components/report-dialog.tsx";
import { Avatar } from "../../../components/ui/avatar.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "../../../components/ui/dropdown-menu.tsx";
import { IconTooltip, TooltipProvider } from "../../../components/ui/tooltip.tsx";
import { cn } from "../../../lib/utils.ts";
import { useCommentVote } from "../api/get-comment-vote.ts";
import { type VoteValue, useVoteComment } from "../api/vote-comment.ts";
import { VOTE_TONE_CLASS, commentInitials, countComments, showRepliesLabel, voteTone } from "../lib/comment-display.ts";
import { CommentForm } from "./comment-form.tsx";

/** What every comment in a thread needs from the section. */
export interface ThreadContext {
  characterId: number;
  /** The signed-in person's id; null for visitors. */
  userId: string | null;
  /** The comment whose reply form is open (one at a time). */
  replyingTo: number | null;
  setReplyingTo: (commentId: number | null) => void;
  replyPending: boolean;
  /** Posts a reply; resolves true when posted. */
  onReply: (parentId: number, content: string) => Promise<boolean>;
  onDelete: (comment: Comment) => void;
  deletingId: number | null;
  /** Asks to block the comment's author (opens the confirmation). */
  onBlock: (username: string) => void;
  /** Called when a visitor tries to vote. */
  onVoteSignedOut: () => void;
  onVoteError: (error: unknown) => void;
}

/** A top-level comment and, indented one level, its replies. */
export function CommentThread({ comment, thread }: { comment: Comment; thread: ThreadContext }) {
  return (
    <li>
      <CommentBody comment={comment} thread={thread} />
      {comment.replies.length > 0 && (
        <ul aria-label={`Replies to ${comment.username}`} className="mt-4 ml-4 space-y-4 border-l-2 border-border pl-4 sm:ml-12">
          {comment.replies.map((reply) => (
            <ReplyItem key={reply.id} comment={reply} parent={comment} thread={thread} />
          ))}
        </ul>
      )}
    </li>
  );
}

/** A reply at any depth, shown in the indented level; its own replies open on request. */
function ReplyItem({ comment, parent, thread }: { comment: Comment; parent: Comment; thread: ThreadContext }) {
  const [expanded, setExpanded] = useState(false);
  const hidden = countComments(comment.replies);
  const repliesId = `replies-${comment.id}`;
  return (
    <li>
      <CommentBody comment={comment} thread={thread} replyTo={parent.parentId === null ? undefined : parent.username} onReplied={() => setExpanded(true)} />
      {comment.replies.length > 0 && (
        <div className="mt-2 pl-11">
          <button
            type="button"
            aria-expanded={expanded}
            aria-controls={repliesId}
            onClick={() => setExpanded((v) => !v)}
            className="inline-flex cursor-pointer items-center gap-1.5 rounded-md text-xs font-medium text-violet-300 hover:text-violet-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
          >
            <CornerDownRight aria-hidden="true" className="size-3.5" />
            {expanded ? "Hide replies" : showRepliesLabel(hidden)}
          </button>
        </div>
      )}
      {comment.replies.length > 0 && expanded && (
        <ul id={repliesId} aria-label={`Replies to ${comment.username}`} className="mt-4 space-y-4">
          {comment.replies.map((reply) => (
            <ReplyItem key={reply.id} comment={reply} parent={comment} thread={thread} />
          ))}
        </ul>
      )}
    </li>
  );
}

interface CommentBodyProps {
  comment: Comment;
  thread: ThreadContext;
  /** Author of the comment this one answers, when that is not clear from the layout (deeper replies). */
  replyTo?: string;
  onReplied?: () => void;
}

function CommentBody({ comment, thread, replyTo, onReplied }: CommentBodyProps) {
  const isAuthor = thread.userId !== null && thread.userId === comment.userId;
  const replying = thread.replyingTo === comment.id;
  const created = new Date(comment.createdAt);
  return (
    <article aria-label={`Comment by ${comment.username}`} className="flex gap-3" data-comment-id={comment.id}>
      <VoteControls comment={comment} thread={thread} />
      <div className="min-w-0 flex-1">
        <header className="flex flex-wrap items-center gap-x-2 gap-y-0.5">
          <Avatar
            src={comment.profileImageUrl}
            fallback={commentInitials(comment.username)}
            className="size-8"
            fallbackClassName="text-xs"
          />
          <span className="text-sm font-semibold break-all">{comment.username}</span>
          {replyTo && (
            <span className="text-xs text-muted-foreground">
              replying to <span className="font-medium text-foreground/80">{replyTo}</span>
            </span>
          )}
          <span aria-hidden="true" className="text-muted-foreground">
            ·
          </span>
          <time dateTime={comment.createdAt} title={created.toLocaleString()} className="text-xs text-muted-foreground">
            {formatDistanceToNow(created, { addSuffix: true })}
          </time>
        </header>
        <p className="mt-1.5 text-sm leading-relaxed whitespace-pre-wrap break-words text-foreground/90">{comment.content}</p>
        <div className="mt-1.5 -ml-2 flex items-center gap-1">
          <Button
            variant="ghost"
            size="sm"
            aria-expanded={replying}
            onClick={() => thread.setReplyingTo(replying ? null : comment.id)}
            className="text-muted-foreground hover:text-foreground"
          >
            <MessageSquareReply aria-hidden="true" /> Reply
          </Button>
          {isAuthor && (
            <Button
              variant="ghost"
              size="sm"
              disabled={thread.deletingId === comment.id}
              onClick={() => thread.onDelete(comment)}
              className="text-muted-foreground hover:bg-red-950/60 hover:text-red-300"
            >
              <Trash2 aria-hidden="true" /> Delete
            </Button>
          )}
          {!isAuthor && (
            <ReportButton
              target={{ targetType: "comment", targetId: comment.id }}
              subject={`this comment by ${comment.username}`}
              label={`Report comment by ${comment.username}`}
            />
          )}
          {!isAuthor && thread.userId !== null && (
            <DropdownMenu modal={false}>
              <DropdownMenuTrigger asChild>
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label={`More actions for comment by ${comment.username}`}
                  className="size-8 text-muted-foreground hover:text-foreground data-[state=open]:bg-surface"
                >
                  <Ellipsis aria-hidden="true" />
                </Button>
              </DropdownMenuTrigger>
              <DropdownMenuContent align="start" className="w-56">
                <DropdownMenuItem onSelect={() => thread.onBlock(comment.username)} className="text-red-300">
                  <Ban aria-hidden="true" /> Block {comment.username}
                </DropdownMenuItem>
              </DropdownMenuContent>
            </DropdownMenu>
          )}
        </div>
        {replying && (
          <div className="mt-2">
            <CommentForm
              kind="reply"
              label={`Reply to ${comment.username}`}
              pending={thread.replyPending}
              autoFocus
              onCancel={() => thread.setReplyingTo(null)}
              onSubmit={async (content) => {
                const posted = await thread.onReply(comment.id, content);
                if (posted) onReplied?.();
                return posted;
              }}
            />
          </div>
        )}
      </div>
    </article>
  );
}

/**
 * Upvote, net count, downvote (SPEC.md §4 "Vote"): both disabled while a vote
 * is sent; the active vote is highlighted, up orange and down blue.
 */
function VoteControls({ comment, thread }: { comment: Comment; thread: ThreadContext }) {
  const signedIn = thread.userId !== null;
  const current = useCommentVote(comment.id, signedIn).data?.vote ?? null;
  const vote = useVoteComment(thread.characterId, comment.id);

  const cast = (value: VoteValue) => {
    if (!signedIn) {
      thread.onVoteSignedOut();
      return;
    }
    vote.mutate(value, { onError: thread.onVoteError });
  };

  const tone = voteTone(comment.votes);
  return (
    <TooltipProvider>
      <div className="flex w-8 shrink-0 flex-col items-center">
        <IconTooltip grouped label="Upvote" side="left">
          <button
            type="button"
            aria-label={`Upvote comment by ${comment.username}`}
            aria-pressed={current === 1}
            disabled={vote.isPending}
            onClick={() => cast(1)}
            className={cn(
              "flex size-8 cursor-pointer items-center justify-center rounded-md text-muted-foreground transition-colors hover:bg-surface hover:text-orange-400 focus-visible:outline-2 focus-visible:outline-ring disabled:cursor-not-allowed disabled:opacity-50",
              current === 1 && "bg-orange-500/15 text-orange-400",
            )}
          >
            <ArrowBigUp aria-hidden="true" className={cn("size-5", current === 1 && "fill-current")} />
          </button>
        </IconTooltip>
        <span className="py-0.5 text-sm font-semibold tabular-nums">
          <span aria-hidden="true" className={VOTE_TONE_CLASS[tone]} data-testid="comment-votes">
            {comment.votes}
          </span>
          <span className="sr-only">
            {comment.votes} {Math.abs(comment.votes) === 1 ? "vote" : "votes"}
          </span>
        </span>
        <IconTooltip grouped label="Downvote" side="left">
          <button
            type="button"
            aria-label={`Downvote comment by ${comment.username}`}
            aria-pressed={current === -1}
            disabled={vote.isPending}
            onClick={() => cast(-1)}
            className={cn(
              "flex size-8 cursor-pointer items-center justify-center rounded-md text-muted-foreground transition-colors hover:bg-surface hover:text-blue-400 focus-visible:outline-2 focus-visible:outline-ring disabled:cursor-not-allowed disabled:opacity-50",
              current === -1 && "bg-blue-500/15 text-blue-400",
            )}
          >
            <ArrowBigDown aria-hidden="true" className={cn("size-5", current === -1 && "fill-current")} />
          </button>
        </IconTooltip>
      </div>
    </TooltipProvider>
  );
}
