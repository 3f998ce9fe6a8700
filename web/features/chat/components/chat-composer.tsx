/**
 * The message input (SPEC.md §2 "Chat", §5, §9): an auto-growing textarea
 * (44–120 px); Enter sends, Shift+Enter adds a line; Send is disabled while
 * the text is empty after trimming or a reply is awaited. While a reply is
 * being written, Stop sits beside it. While the socket is not open the
 * input says "Connecting…" or "Reconnecting…" and Send is disabled (SPEC.md
 * §4 drops a message sent while disconnected, so none is let through); what
 * was typed stays. Where the site has speech to text, a microphone button
 * records a message and puts its words in the input (DESIGN.md "Voices").
 * In a shared room, typing tells the others
 * (`onTyping`, at most every TYPING_EVERY_MS).
 */
import { SendHorizontal, Square } from "lucide-react";
import { type FormEvent, type KeyboardEvent, type Ref, useEffect, useId, useImperativeHandle, useRef, useState } from "react";
import { MAX_CHAT_MESSAGE_LENGTH } from "../../../../schema/chat.ts";
import { Button } from "../../../components/ui/button.tsx";
import { IconTooltip } from "../../../components/ui/tooltip.tsx";
import { cn } from "../../../lib/utils.ts";
import { useVoices } from "../../../lib/voices-query.ts";
import { CHAT_INPUT_MIN_HEIGHT_PX, fitChatInput, resetChatInput } from "../lib/textarea-height.ts";
import { MicButton, MicUnavailableButton } from "./mic-button.tsx";

/** Shortest time between two `typing` frames while the person types, ms (DESIGN.md "Shared rooms"). */
export const TYPING_EVERY_MS = 3_000;

/** From this many characters on, the input shows how many are left. */
const COUNTER_FROM = MAX_CHAT_MESSAGE_LENGTH - 500;

/** Whether the chat socket can take a message: open, or on its way (first attempt or again). */
export type ComposerConnection = "open" | "connecting" | "reconnecting" | "closed" | "gone";

/** What the empty input says while it cannot send. */
const PLACEHOLDER: Record<ComposerConnection, string> = {
  open: "Type your message...",
  connecting: "Connecting…",
  reconnecting: "Reconnecting…",
  closed: "Disconnected",
  gone: "You are no longer in this chat",
};

interface ChatComposerProps {
  characterName: string;
  /** The socket's state: only "open" lets a message be sent. */
  connection: ComposerConnection;
  /** A reply is awaited or being written: nothing can be sent. */
  busy: boolean;
  /** A reply is being written: Stop is offered. */
  streaming: boolean;
  /** Sends the trimmed text; false when it could not be sent (the text stays). */
  onSend: (content: string) => boolean;
  onStop: () => void;
  /** The message box, so the chat can give it the focus back (after a dialog or an edit). */
  ref?: Ref<HTMLTextAreaElement | null>;
  /** The person is typing (a shared room): called at most every TYPING_EVERY_MS. */
  onTyping?: () => void;
}

export function ChatComposer({ characterName, connection, busy, streaming, onSend, onStop, ref, onTyping }: ChatComposerProps) {
  const [value, setValue] = useState("");
  const lastTyping = useRef(0);
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  useImperativeHandle(ref, () => textareaRef.current!, []);
  const id = useId();
  const counterId = `${id}-counter`;
  const stateId = `${id}-state`;
  const connected = connection === "open";
  const canSend = value.trim().length > 0 && !busy && connected;
  // The microphone only where the site turns speech into text (GET /api/voices says).
  // Unknown until /api/voices answers: neither button, so nothing flickers.
  const transcription = useVoices().data?.transcription;

  /** Spoken words land in the input, after what is there, to edit before sending. */
  const addSpoken = (text: string) => {
    const next = (value.trim() ? `${value.trimEnd()} ${text}` : text).slice(0, MAX_CHAT_MESSAGE_LENGTH);
    setValue(next);
    const textarea = textareaRef.current;
    if (textarea) {
      textarea.value = next;
      fitChatInput(textarea);
      textarea.focus();
    }
  };

  // Desktop: the cursor is in the input on arrival. Phones: no keyboard popping up unasked.
  useEffect(() => {
    if (window.matchMedia?.("(pointer: fine)").matches) textareaRef.current?.focus();
  }, []);

  const submit = () => {
    const content = value.trim();
    if (!content || busy || !connected) return;
    if (!onSend(content)) return;
    setValue("");
    if (textareaRef.current) resetChatInput(textareaRef.current);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter while composing (IME) picks a candidate; it must not send.
    if (event.key !== "Enter" || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    submit();
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit();
  };

  return (
    <form onSubmit={onSubmit} className="flex items-end gap-2">
      <div className="relative min-w-0 flex-1">
        <label htmlFor={id} className="sr-only">
          Message {characterName}
        </label>
        <textarea
          id={id}
          ref={textareaRef}
          rows={1}
          value={value}
          maxLength={MAX_CHAT_MESSAGE_LENGTH}
          placeholder={PLACEHOLDER[connection]}
          aria-describedby={[value.length >= COUNTER_FROM && counterId, !connected && stateId].filter(Boolean).join(" ") || undefined}
          enterKeyHint="send"
          onChange={(e) => {
            setValue(e.target.value);
            fitChatInput(e.target);
            const at = Date.now();
            if (onTyping && e.target.value.trim() && at - lastTyping.current >= TYPING_EVERY_MS) {
              lastTyping.current = at;
              onTyping();
            }
          }}
          onKeyDown={onKeyDown}
          style={{ height: CHAT_INPUT_MIN_HEIGHT_PX }}
          className="block max-h-[120px] min-h-[44px] w-full resize-none overflow-y-hidden rounded-xl border border-input bg-surface px-4 py-[11px] text-[15px] leading-[20px] text-foreground placeholder:text-muted-foreground focus-visible:border-ring focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-ring/60"
        />
        {!connected && (
          <p id={stateId} className="sr-only">
            {PLACEHOLDER[connection]}
          </p>
        )}
        {value.length >= COUNTER_FROM && (
          <p id={counterId} className="absolute -top-5 right-1 text-xs text-muted-foreground tabular-nums">
            {(MAX_CHAT_MESSAGE_LENGTH - value.length).toLocaleString("en-US")} characters left
          </p>
        )}
      </div>
      {transcription === true && <MicButton disabled={false} onText={addSpoken} />}
      {transcription === false && <MicUnavailableButton />}
      {streaming && (
        <IconTooltip label="Stop the reply">
          <Button
            type="button"
            variant="secondary"
            onClick={() => {
              onStop();
              // The button goes away with the reply; the input keeps the focus.
              textareaRef.current?.focus();
            }}
            aria-label="Stop the reply"
            className="size-11 shrink-0 rounded-xl px-0"
          >
            <Square aria-hidden="true" className="fill-current" />
          </Button>
        </IconTooltip>
      )}
      <IconTooltip label="Send message">
        <Button
          type="submit"
          variant="gradient"
          disabled={!canSend}
          aria-label="Send message"
          className={cn("size-11 shrink-0 rounded-xl px-0", !canSend && "shadow-none")}
        >
          <SendHorizontal aria-hidden="true" className="!size-5" />
        </Button>
      </IconTooltip>
    </form>
  );
}
