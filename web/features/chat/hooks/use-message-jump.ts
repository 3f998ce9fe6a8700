/**
 * Jumping to a message in the chat log: scrolls its row to the middle,
 * focuses its bubble and rings it for 3 s (smooth scroll unless the person
 * prefers reduced motion). Used by "Why this reply?" (a recalled message
 * chosen) and by a My Chats search result, whose link carries the matched
 * message as `?message=<id>`: the page jumps to it once, when it is in the log.
 */
import { type RefObject, useEffect, useRef } from "react";
import { useSearchParams } from "react-router";
import type { ChatItem } from "../lib/chat-state.ts";

/**
 * Returns `jumpTo(messageId)`; a message not in the log is left alone.
 * `stickToBottom` is the log's "follow new messages" flag, turned off so
 * the log stays where the jump put it.
 */
export function useMessageJump(messages: readonly ChatItem[], stickToBottom: RefObject<boolean>): (messageId: string) => void {
  /** Scrolls the log to a message and marks it for a moment (a recalled message chosen in "Why this reply?"). */
  const jumpTo = (messageId: string) => {
    stickToBottom.current = false;
    requestAnimationFrame(() => {
      const row = document.querySelector<HTMLElement>(`[data-message-id="${CSS.escape(messageId)}"]`);
      const article = row?.querySelector<HTMLElement>("article");
      if (!row || !article) return;
      const reduced = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
      row.scrollIntoView({ block: "center", behavior: reduced ? "auto" : "smooth" });
      article.tabIndex = -1;
      article.focus({ preventScroll: true });
      const mark = ["ring-2", "ring-pink-400/80", "ring-offset-4", "ring-offset-card", "rounded-2xl"];
      article.classList.add(...mark);
      row.dataset.highlighted = "";
      window.setTimeout(() => {
        article.classList.remove(...mark);
        delete row.dataset.highlighted;
      }, 3000);
    });
  };

  // A My Chats search result links to the message that matched (`?message=`): shown once it is in the log.
  const [searchParams] = useSearchParams();
  const linkedMessageId = searchParams.get("message");
  const jumpedToLinked = useRef<string | null>(null);
  useEffect(() => {
    if (!linkedMessageId || jumpedToLinked.current === linkedMessageId) return;
    if (!messages.some((message) => message.id === linkedMessageId)) return;
    jumpedToLinked.current = linkedMessageId;
    jumpTo(linkedMessageId);
  });

  return jumpTo;
}
