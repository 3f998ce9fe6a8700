/**
 * One message of the conversation (SPEC.md §2 "Chat"): the person's on the
 * right, the character's on the left with its avatar. Under a stored
 * character reply: thumbs up/down, Regenerate on the last one, and arrows
 * through its versions when it was regenerated (the swipes). On the last
 * reply the arrows choose the version the conversation goes on from (as
 * SillyTavern's swipes do); on earlier replies they only show the others.
 */
import { ChevronLeft, ChevronRight, RefreshCw, RotateCcw, ThumbsDown, ThumbsUp } from "lucide-react";
import { useState } from "react";
import { replyVersions } from "../../../../schema/chat.ts";
import { Avatar } from "../../../components/ui/avatar.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { cn } from "../../../lib/utils.ts";
import { type ChatCharacter, characterInitial } from "../lib/chat-character.ts";
import type { ChatItem } from "../lib/chat-state.ts";
import { MessageContent } from "./message-content.tsx";

const BUBBLE = "rounded-2xl px-4 py-2.5 text-[15px] leading-relaxed whitespace-pre-wrap break-words";
const ACTION_BUTTON = "size-8 rounded-md text-muted-foreground hover:text-foreground [&_svg]:!size-4";

export function UserMessage({ item, onRetry }: { item: ChatItem; onRetry: (item: ChatItem) => void }) {
  const failed = item.status === "failed";
  return (
    <li className="flex justify-end" data-message-id={item.id}>
      <article aria-label="You" aria-busy={item.status === "pending"} className="flex max-w-[85%] flex-col items-end gap-1 sm:max-w-[75%]">
        <div
          data-message-text
          className={cn(
            BUBBLE,
            "rounded-br-sm bg-gradient-to-br from-primary-strong to-[#a21caf] text-white",
            item.status === "pending" && "opacity-80",
            failed && "ring-2 ring-red-500/70",
          )}
        >
          <MessageContent content={item.content} tone="user" />
        </div>
        {failed && (
          <p className="flex items-center gap-1 text-xs text-red-300">
            Not sent.
            <Button variant="ghost" size="sm" onClick={() => onRetry(item)} className="h-7 px-2 text-red-200 hover:text-white">
              <RotateCcw aria-hidden="true" /> Retry
            </Button>
          </p>
        )}
      </article>
    </li>
  );
}

interface CharacterMessageProps {
  item: ChatItem;
  character: ChatCharacter;
  /** Thumbs are shown (stored replies; not the opening greeting). */
  rateable: boolean;
  /** Regenerate is offered (the last reply, nothing in progress). */
  regeneratable: boolean;
  /** The arrows choose the version the conversation goes on from (the last reply, nothing in progress). */
  swipeable: boolean;
  onRate: (item: ChatItem, value: 1 | -1) => void;
  onRegenerate: () => void;
  /** Make version `index` (0-based, in the order written) the reply's content. */
  onSwipe: (item: ChatItem, index: number) => void;
}

export function CharacterMessage({ item, character, rateable, regeneratable, swipeable, onRate, onRegenerate, onSwipe }: CharacterMessageProps) {
  const streaming = item.status === "streaming";
  // The swipes in the order they were written; `current` is the one the conversation goes on from.
  const { versions, current } = replyVersions(item);
  // Another version looked at without choosing it (replies before the last one).
  const [viewed, setViewed] = useState<number | null>(null);
  const index = swipeable || viewed === null || viewed >= versions.length ? current : viewed;
  const other = index !== current;
  const show = (next: number) => {
    if (swipeable) onSwipe(item, next);
    else setViewed(next === current ? null : next);
  };
  return (
    <li className="flex items-start gap-2.5" data-message-id={item.id}>
      <Avatar src={character.avatarUrl} fallback={characterInitial(character.name)} className="mt-0.5 size-8" />
      <article aria-label={character.name} aria-busy={streaming} className="flex min-w-0 max-w-[85%] flex-col items-start gap-1 sm:max-w-[75%]">
        <div data-message-text className={cn(BUBBLE, "rounded-tl-sm border border-transparent bg-surface text-foreground", other && "border-dashed border-muted-foreground/60")}>
          <MessageContent content={versions[index]!} tone="character" streaming={streaming} />
          {streaming && <span aria-hidden="true" className="ml-0.5 inline-block h-4 w-1.5 translate-y-0.5 animate-pulse rounded-sm bg-pink-400" />}
        </div>
        {item.stopped && !other && <p className="px-1 text-xs text-muted-foreground">Stopped</p>}
        {other && (
          <p className="px-1 text-xs text-muted-foreground">
            Not the version the chat went on from ({current + 1}/{versions.length})
          </p>
        )}
        {item.status === "saved" && (versions.length > 1 || rateable || regeneratable) && (
          <div className="-ml-1 flex flex-wrap items-center gap-0.5">
            {versions.length > 1 && (
              <div role="group" aria-label="Versions of this reply" className="mr-1 flex items-center">
                <Button
                  variant="ghost"
                  size="icon"
                  className={ACTION_BUTTON}
                  aria-label="Previous version"
                  title={swipeable ? "Go on from the previous version" : "Show the previous version"}
                  disabled={index === 0}
                  onClick={() => show(index - 1)}
                >
                  <ChevronLeft aria-hidden="true" />
                </Button>
                <span className="min-w-8 text-center text-xs text-muted-foreground tabular-nums" aria-live="polite">
                  <span aria-hidden="true">
                    {index + 1}/{versions.length}
                  </span>
                  <span className="sr-only">
                    Version {index + 1} of {versions.length}
                  </span>
                </span>
                <Button
                  variant="ghost"
                  size="icon"
                  className={ACTION_BUTTON}
                  aria-label="Next version"
                  title={swipeable ? "Go on from the next version" : "Show the next version"}
                  disabled={index === versions.length - 1}
                  onClick={() => show(index + 1)}
                >
                  <ChevronRight aria-hidden="true" />
                </Button>
              </div>
            )}
            {rateable && !other && (
              <>
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label="Good reply"
                  title="Good reply"
                  aria-pressed={item.rating === 1}
                  onClick={() => onRate(item, 1)}
                  className={cn(ACTION_BUTTON, item.rating === 1 && "text-emerald-400 hover:text-emerald-300")}
                >
                  <ThumbsUp aria-hidden="true" className={cn(item.rating === 1 && "fill-current")} />
                </Button>
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label="Bad reply"
                  title="Bad reply"
                  aria-pressed={item.rating === -1}
                  onClick={() => onRate(item, -1)}
                  className={cn(ACTION_BUTTON, item.rating === -1 && "text-orange-400 hover:text-orange-300")}
                >
                  <ThumbsDown aria-hidden="true" className={cn(item.rating === -1 && "fill-current")} />
                </Button>
              </>
            )}
            {regeneratable && !other && (
              <Button variant="ghost" size="sm" onClick={onRegenerate} className="h-8 px-2 text-xs text-muted-foreground hover:text-foreground">
                <RefreshCw aria-hidden="true" className="!size-3.5" /> Regenerate
              </Button>
            )}
          </div>
        )}
      </article>
    </li>
  );
}
