/**
 * A message being edited in place: its bubble becomes a textarea with Save
 * and Cancel. Ctrl+Enter (⌘+Enter) saves, Escape cancels; near the limit a
 * counter says how many characters are left. Saving the same text only
 * closes the editor.
 */
import { type KeyboardEvent, useId, useLayoutEffect, useRef, useState } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { cn } from "../../../lib/utils.ts";

/** The editor grows with its text up to this height, px; then it scrolls. */
const MAX_EDITOR_HEIGHT_PX = 320;
/** From this many characters before the limit on, the counter shows. */
const COUNTER_WITHIN = 500;

interface MessageEditorProps {
  /** The message's text as it is. */
  initial: string;
  /** Longest text allowed, in characters (after trimming). */
  max: number;
  /** The textarea's accessible name. */
  label: string;
  /** Saving is not possible now (a reply is being written). */
  busy: boolean;
  /** Sends the trimmed text; false when it could not be sent (the editor stays open). */
  onSave: (content: string) => boolean;
  onCancel: () => void;
  /** The bubble's own look (the person's gradient or the character's surface). */
  tone: "user" | "character";
}

export function MessageEditor({ initial, max, label, busy, onSave, onCancel, tone }: MessageEditorProps) {
  const [value, setValue] = useState(initial);
  const ref = useRef<HTMLTextAreaElement>(null);
  const id = useId();
  const trimmed = value.trim();
  const left = max - value.length;
  const showCounter = left <= COUNTER_WITHIN;

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = "auto";
    el.style.height = `${Math.min(el.scrollHeight + 2, MAX_EDITOR_HEIGHT_PX)}px`;
    el.style.overflowY = el.scrollHeight + 2 > MAX_EDITOR_HEIGHT_PX ? "auto" : "hidden";
  }, [value]);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
  }, []);

  const save = () => {
    if (!trimmed || busy) return;
    if (trimmed === initial.trim()) onCancel();
    else if (onSave(trimmed)) onCancel();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Escape") {
      event.preventDefault();
      onCancel();
    } else if (event.key === "Enter" && (event.ctrlKey || event.metaKey) && !event.nativeEvent.isComposing) {
      event.preventDefault();
      save();
    }
  };

  return (
    <div className="flex w-full flex-col gap-2">
      <textarea
        id={id}
        ref={ref}
        value={value}
        maxLength={max}
        aria-label={label}
        aria-describedby={`${id}-hint`}
        onChange={(e) => setValue(e.target.value)}
        onKeyDown={onKeyDown}
        className={cn(
          "block w-full resize-none rounded-2xl border bg-surface px-4 py-2.5 text-[15px] leading-relaxed text-foreground focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-ring/60",
          tone === "user" ? "rounded-br-sm border-primary/60" : "rounded-tl-sm border-border",
        )}
      />
      <div className="flex flex-wrap items-center justify-end gap-2">
        <p id={`${id}-hint`} className="mr-auto text-xs text-muted-foreground">
          {showCounter && (
            <span className={cn("mr-2 tabular-nums", left <= 0 && "text-red-300")}>{left.toLocaleString("en-US")} characters left</span>
          )}
          {/* Phones have no Ctrl key; the buttons say it all there. */}
          <span className="max-sm:sr-only">Ctrl+Enter to save · Esc to cancel</span>
        </p>
        <Button variant="ghost" size="sm" onClick={onCancel}>
          Cancel
        </Button>
        <Button variant="gradient" size="sm" onClick={save} disabled={!trimmed || busy}>
          Save
        </Button>
      </div>
    </div>
  );
}
