/**
 * The new-comment box and the reply form (SPEC.md §2 "Comments section"):
 * the submit button stays disabled until there is text after trimming
 * (SPEC.md §5) and reads "Posting..." while the comment is sent. With a
 * `draftKey` the text is kept in the tab's sessionStorage until it is
 * posted, so a visitor sent to sign in finds it in the box on coming back.
 */
import { type FormEvent, useState } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { Textarea } from "../../../components/ui/textarea.tsx";
import { cn } from "../../../lib/utils.ts";
import { canSubmitComment } from "../lib/comment-display.ts";
import { readDraft, writeDraft } from "../lib/comment-draft.ts";

interface CommentFormProps {
  /** "comment": the box above the list; "reply": the form under a comment. */
  kind: "comment" | "reply";
  /** Accessible name of the text box. */
  label: string;
  pending: boolean;
  /** Sends the text; resolves true when it was posted (the box then clears). */
  onSubmit: (content: string) => Promise<boolean>;
  onCancel?: () => void;
  autoFocus?: boolean;
  /** sessionStorage key under which the unposted text is kept (see lib/comment-draft.ts). */
  draftKey?: string;
}

export function CommentForm({ kind, label, pending, onSubmit, onCancel, autoFocus, draftKey }: CommentFormProps) {
  const [content, setContentState] = useState(() => (draftKey ? readDraft(draftKey) : ""));
  const isReply = kind === "reply";
  const setContent = (next: string) => {
    setContentState(next);
    if (draftKey) writeDraft(draftKey, next);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!canSubmitComment(content) || pending) return;
    if (await onSubmit(content)) setContent("");
  };

  return (
    <form onSubmit={submit} className="space-y-2">
      <Textarea
        aria-label={label}
        placeholder={isReply ? "Write your reply..." : "Share your thoughts about this character..."}
        value={content}
        onChange={(e) => setContent(e.target.value)}
        autoFocus={autoFocus}
        onKeyDown={(e) => {
          if (e.key === "Escape" && onCancel) onCancel();
        }}
        className={cn("resize-y", isReply ? "min-h-[80px]" : "min-h-[100px]")}
      />
      <div className="flex justify-end gap-2">
        {onCancel && (
          <Button variant="ghost" size="sm" onClick={onCancel}>
            Cancel
          </Button>
        )}
        <Button
          type="submit"
          variant={isReply ? "default" : "gradient"}
          size={isReply ? "sm" : "default"}
          disabled={!canSubmitComment(content) || pending}
        >
          {pending ? "Posting..." : isReply ? "Reply" : "Post Comment"}
        </Button>
      </div>
    </form>
  );
}
