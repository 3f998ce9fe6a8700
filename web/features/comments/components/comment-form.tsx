/**
 * The new-comment box and the reply form (SPEC.md §2 "Comments section"):
 * the submit button stays disabled until there is text after trimming
 * (SPEC.md §5) and reads "Posting..." while the comment is sent.
 */
import { type FormEvent, useState } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { Textarea } from "../../../components/ui/textarea.tsx";
import { cn } from "../../../lib/utils.ts";
import { canSubmitComment } from "../lib/comment-display.ts";

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
}

export function CommentForm({ kind, label, pending, onSubmit, onCancel, autoFocus }: CommentFormProps) {
  const [content, setContent] = useState("");
  const isReply = kind === "reply";

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
