/**
 * The conversation's author's note (SillyTavern's; DESIGN.md "Group
 * chats"): a text put into the prompt `depth` messages before the end of
 * the history (0: after the last one), on every `interval`-th message of
 * the person (1: always; 0: never). Save sends `set_author_note`; the
 * dialog closes when the server's `author_note_updated` for it arrives, and
 * stays open with the reason when it is refused.
 */
import { type FormEvent, useId, useState } from "react";
import { type AuthorNote, MAX_AUTHOR_NOTE_LENGTH } from "../../../../schema/chat.ts";
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
import { Input } from "../../../components/ui/input.tsx";
import { Textarea } from "../../../components/ui/textarea.tsx";
import { cn } from "../../../lib/utils.ts";

/** Largest insertion depth and interval the server takes. */
const MAX_NUMBER = 100;

interface AuthorNoteDialogProps {
  /** The note as the server last said; the form starts from it. */
  note: AuthorNote;
  saving: boolean;
  /** Why the last save was refused, if it was. */
  error: string | null;
  /** Sends the note (text trimmed); false when it could not be sent. */
  onSave: (note: AuthorNote) => boolean;
  onClose: () => void;
}

/** A whole number from 0 to MAX_NUMBER, or null for anything else. */
function wholeNumber(text: string): number | null {
  if (!/^\d{1,3}$/.test(text.trim())) return null;
  const n = Number(text);
  return n <= MAX_NUMBER ? n : null;
}

/** Open while mounted. */
export function AuthorNoteDialog({ note, saving, error, onSave, onClose }: AuthorNoteDialogProps) {
  const id = useId();
  const [text, setText] = useState(note.text);
  const [depth, setDepth] = useState(String(note.depth));
  const [interval, setIntervalText] = useState(String(note.interval));
  // Opened before the chat's history arrived (or changed in another tab): each field follows the
  // server's until the person edits it (React's "adjusting state when a prop changes").
  const [shown, setShown] = useState(note);
  if (shown.text !== note.text || shown.depth !== note.depth || shown.interval !== note.interval) {
    if (text === shown.text) setText(note.text);
    if (depth === String(shown.depth)) setDepth(String(note.depth));
    if (interval === String(shown.interval)) setIntervalText(String(note.interval));
    setShown(note);
  }
  const depthValue = wholeNumber(depth);
  const intervalValue = wholeNumber(interval);
  const length = text.trim().length;
  const invalid = depthValue === null || intervalValue === null || length > MAX_AUTHOR_NOTE_LENGTH;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (saving || invalid) return;
    const next = { text: text.trim(), depth: depthValue, interval: intervalValue };
    if (next.text === note.text && next.depth === note.depth && next.interval === note.interval) onClose();
    else onSave(next);
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-lg">
        <DialogHeader>
          <DialogTitle>Author's note</DialogTitle>
          <DialogDescription>
            A direction for the story, put into the prompt near the latest messages: the tone, the weather, what should happen next.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="space-y-4" aria-busy={saving} noValidate>
          <div className="space-y-1.5">
            <div className="flex items-baseline justify-between gap-2">
              <label htmlFor={`${id}-text`} className="text-sm font-medium">
                Note
              </label>
              <span id={`${id}-counter`} className={cn("text-xs tabular-nums", length > MAX_AUTHOR_NOTE_LENGTH ? "text-red-300" : "text-muted-foreground")}>
                {length.toLocaleString("en-US")}/{MAX_AUTHOR_NOTE_LENGTH.toLocaleString("en-US")}
              </span>
            </div>
            <Textarea
              id={`${id}-text`}
              rows={5}
              maxLength={MAX_AUTHOR_NOTE_LENGTH}
              value={text}
              onChange={(e) => setText(e.target.value)}
              placeholder="e.g. [Style: terse, ominous. A storm is coming.]"
              aria-describedby={`${id}-counter`}
              className="resize-y text-[15px] leading-relaxed"
            />
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <NumberField
              id={`${id}-depth`}
              label="Insert at depth"
              hint="Messages from the end (0: after the last one)."
              value={depth}
              onChange={setDepth}
              invalid={depthValue === null}
            />
            <NumberField
              id={`${id}-interval`}
              label="Every N messages"
              hint="1: with every message of yours; 0: off."
              value={interval}
              onChange={setIntervalText}
              invalid={intervalValue === null}
            />
          </div>
          {error && (
            <p role="alert" className="text-sm text-red-300">
              {error}
            </p>
          )}
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button type="submit" variant="gradient" disabled={saving || invalid}>
              {saving ? "Saving..." : "Save"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

function NumberField(props: { id: string; label: string; hint: string; value: string; onChange: (v: string) => void; invalid: boolean }) {
  return (
    <div className="space-y-1.5">
      <label htmlFor={props.id} className="text-sm font-medium">
        {props.label}
      </label>
      <Input
        id={props.id}
        type="number"
        inputMode="numeric"
        min={0}
        max={MAX_NUMBER}
        step={1}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        aria-invalid={props.invalid || undefined}
        aria-describedby={`${props.id}-hint`}
      />
      <p id={`${props.id}-hint`} className={cn("text-xs", props.invalid ? "text-red-300" : "text-muted-foreground")}>
        {props.invalid ? `A whole number from 0 to ${MAX_NUMBER}.` : props.hint}
      </p>
    </div>
  );
}
