/**
 * The conversation's memory (docs/decisions/0007-steering-a-chat.md): a note
 * of at most 2,000 characters that every reply's prompt carries ("Remember:
 * …"). Save sends `set_memory`; the dialog closes when the server's
 * `memory_updated` for it arrives (the page then says so), and stays open
 * with the reason when it is refused.
 */
import { type FormEvent, useState } from "react";
import { MAX_MEMORY_LENGTH } from "../../../../schema/chat.ts";
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
  /** The save was sent and is not answered yet. */
  saving: boolean;
  /** Why the last save was refused, if it was. */
  error: string | null;
  /** Sends the trimmed memory; false when it could not be sent. */
  onSave: (memory: string) => boolean;
  onClose: () => void;
  /** Called once the dialog has closed, to put the focus where the person goes on (the message box). */
  onClosed?: () => void;
}

/** Open while mounted. */
export function MemoryDialog({ characterName, memory, saving, error, onSave, onClose, onClosed }: MemoryDialogProps) {
  const [value, setValue] = useState(memory);
  const length = value.trim().length;
  const unchanged = value.trim() === memory.trim();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (saving || length > MAX_MEMORY_LENGTH) return;
    if (unchanged) onClose();
    else onSave(value.trim());
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
            {error && (
              <p id="chat-memory-error" role="alert" className="text-sm text-red-300">
                {error}
              </p>
            )}
          </div>
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
