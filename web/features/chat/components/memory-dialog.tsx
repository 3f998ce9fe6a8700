/**
 * The conversation's memory (docs/decisions/0007-steering-a-chat.md): a note
 * of at most 2,000 characters that every reply's prompt carries ("Remember:
 * …"), and the running summary the model writes of older messages ("The
 * story so far"), which the person may rewrite or reset (empty). Save sends
 * `set_memory` and/or `set_summary` for what changed; the dialog closes when
 * the server has answered them (the page then says so), and stays open with
 * the reason when one is refused.
 */
import { RotateCcw } from "lucide-react";
import { type FormEvent, useState } from "react";
import { MAX_MEMORY_LENGTH, MAX_SUMMARY_LENGTH } from "../../../../schema/chat.ts";
import { Button } from "../../../components/ui/button.tsx";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../../components/ui/dialog.tsx";
import { Textarea } from "../../../components/ui/textarea.tsx";
import { cn } from "../../../lib/utils.ts";

interface MemoryDialogProps {
  characterName: string;
  /** The memory as the server last said; the form starts from it. */
  memory: string;
  /** The running summary as the server last said ("" for none). */
  summary: string;
  /** The save was sent and is not answered yet. */
  saving: boolean;
  /** Why the last save was refused, if it was. */
  error: string | null;
  /** Sends what changed (trimmed; an empty summary resets it); false when it could not be sent. */
  onSave: (changes: { memory?: string; summary?: string }) => boolean;
  onClose: () => void;
  /** Called once the dialog has closed, to put the focus where the person goes on (the message box). */
  onClosed?: () => void;
}

/** Open while mounted. */
export function MemoryDialog({ characterName, memory, summary, saving, error, onSave, onClose, onClosed }: MemoryDialogProps) {
  const [value, setValue] = useState(memory);
  const [summaryValue, setSummaryValue] = useState(summary);
  const length = value.trim().length;
  const summaryLength = summaryValue.trim().length;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (saving || length > MAX_MEMORY_LENGTH || summaryLength > MAX_SUMMARY_LENGTH) return;
    const changes = {
      ...(value.trim() !== memory.trim() ? { memory: value.trim() } : {}),
      ...(summaryValue.trim() !== summary.trim() ? { summary: summaryValue.trim() } : {}),
    };
    if (Object.keys(changes).length === 0) onClose();
    else onSave(changes);
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        className="max-w-lg"
        onCloseAutoFocus={(event) => {
          if (!onClosed) return;
          // The menu item that opened it is gone; the message box is where the person goes on.
          event.preventDefault();
          onClosed();
        }}
      >
        <DialogHeader>
          <DialogTitle>Memory</DialogTitle>
          <DialogDescription>
            What {characterName} should always keep in mind in this chat: names, promises, what has happened. It is part of every reply.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="space-y-4" aria-busy={saving}>
          <div className="space-y-1.5">
            <div className="flex items-baseline justify-between gap-2">
              <label htmlFor="chat-memory" className="text-sm font-medium">
                Memory note
              </label>
              <span
                id="chat-memory-counter"
                className={cn("text-xs tabular-nums", length > MAX_MEMORY_LENGTH ? "text-red-300" : "text-muted-foreground")}
              >
                {length.toLocaleString("en-US")}/{MAX_MEMORY_LENGTH.toLocaleString("en-US")}
              </span>
            </div>
            <Textarea
              id="chat-memory"
              rows={8}
              maxLength={MAX_MEMORY_LENGTH}
              value={value}
              onChange={(e) => setValue(e.target.value)}
              placeholder="e.g. We are travelling north to find my sister. You owe me a favour since the bridge."
              aria-describedby={error ? "chat-memory-counter chat-memory-error" : "chat-memory-counter"}
              aria-invalid={error ? true : undefined}
              className="resize-y text-[15px] leading-relaxed"
            />
          </div>
          <div className="space-y-1.5">
            <div className="flex items-baseline justify-between gap-2">
              <label htmlFor="chat-summary" className="text-sm font-medium">
                Story so far
              </label>
              <span
                id="chat-summary-counter"
                className={cn("text-xs tabular-nums", summaryLength > MAX_SUMMARY_LENGTH ? "text-red-300" : "text-muted-foreground")}
              >
                {summaryLength.toLocaleString("en-US")}/{MAX_SUMMARY_LENGTH.toLocaleString("en-US")}
              </span>
            </div>
            <p id="chat-summary-hint" className="text-xs leading-relaxed text-muted-foreground">
              Once the chat is longer than the AI can read at once, it sums up the older messages here. Correct it if it got something
              wrong, or reset it to have it written anew.
            </p>
            <Textarea
              id="chat-summary"
              rows={5}
              maxLength={MAX_SUMMARY_LENGTH}
              value={summaryValue}
              onChange={(e) => setSummaryValue(e.target.value)}
              placeholder="No summary yet: the chat still fits."
              aria-describedby="chat-summary-hint chat-summary-counter"
              className="resize-y text-[15px] leading-relaxed"
            />
            <Button variant="outline" size="sm" onClick={() => setSummaryValue("")} disabled={summaryValue === ""}>
              <RotateCcw aria-hidden="true" /> Reset summary
            </Button>
          </div>
          {error && (
            <p id="chat-memory-error" role="alert" className="text-sm text-red-300">
              {error}
            </p>
          )}
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button type="submit" variant="gradient" disabled={saving}>
              {saving ? "Saving..." : "Save"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
