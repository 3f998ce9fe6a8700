/**
 * One message of the conversation (SPEC.md §2 "Chat"): the person's on the
 * right, the character's on the left with its avatar. Under a stored
 * character reply: thumbs up/down, Regenerate and Continue on the last one,
 * and arrows through its versions when it was regenerated (the swipes). On
 * the last reply the arrows choose the version the conversation goes on
 * from (as SillyTavern's swipes do); on earlier replies they only show the
 * others. Beside every stored message, its actions (message-actions.tsx);
 * Edit turns the bubble into an editor. An edited message says so. In a
 * group chat each reply shows its speaker's avatar and name (DESIGN.md
 * "Group chats"); a speaker with expressions shows, instead of its avatar,
 * the picture of the reply's `expression` (DESIGN.md "Character assets"); a message hidden from context is dimmed, says so and
 * offers Unhide. In a shared room (DESIGN.md "Shared rooms") another
 * person's message shows their name above a bubble of its own colour, and
 * the actions are those the viewer's powers allow. Under a reply whose
 * endpoint reported its tokens: "312 tokens", with the prompt's and the
 * reply's in its tooltip (lib/reply-usage.ts), for the version shown.
 */
import { ChevronLeft, ChevronRight, EyeOff, Pin, RefreshCw, RotateCcw, StepForward, ThumbsDown, ThumbsUp } from "lucide-react";
import { type ComponentProps, type ReactNode, useState } from "react";
import { MAX_CHAT_MESSAGE_LENGTH, MAX_EDITED_REPLY_LENGTH, type ReplyUsage } from "../../../../schema/chat.ts";
import { replyVersions } from "../../../../schema/chat-frames.ts";
import { Avatar } from "../../../components/ui/avatar.tsx";
import { expressionPicture } from "../lib/expressions.ts";
import { Button } from "../../../components/ui/button.tsx";
import { TooltipContent, TooltipGroupItem, TooltipTrigger } from "../../../components/ui/tooltip.tsx";
import { cn } from "../../../lib/utils.ts";
import type { Speaker } from "../lib/cast.ts";
import { characterInitial } from "../lib/chat-character.ts";
import type { ChatItem } from "../lib/chat-state.ts";
import { tokensText, versionTokens } from "../lib/reply-usage.ts";
import { type MessageActionHandlers, MessageActions } from "./message-actions.tsx";
import { ReadAloudButton } from "./read-aloud-button.tsx";
import { MessageContent } from "../../../components/message-content.tsx";
import { MessageEditor } from "./message-editor.tsx";

const BUBBLE = "rounded-2xl px-4 py-2.5 text-[15px] leading-relaxed whitespace-pre-wrap break-words";
const ACTION_BUTTON = "size-8 rounded-md text-muted-foreground hover:text-foreground [&_svg]:!size-4";

/** What a stored message may do: its actions, and editing in place once Edit is chosen. */
export interface SteerProps {
  /** Edit, Branch, Rewind and Delete are open now (nothing awaited or being written). */
  enabled: boolean;
  /** How many messages come after this one (a rewind deletes them too). */
  after: number;
  /** This message is being edited. */
  editing: boolean;
  /** A hide or unhide of this message is sent and not answered yet. */
  hiding: boolean;
  handlers: MessageActionHandlers;
  /** Edit and Delete are the viewer's to use on this message (theirs, or they own the room). */
  mayChange: boolean;
  /** Rewind and Hide from context are the viewer's to use (they own the room). */
  mayRewind: boolean;
  /** The message is pinned as a memory (DESIGN.md "Memory"): it shows a pin. */
  pinned: boolean;
  /** Sends the edit; false when it could not be sent (the editor stays open). */
  onSaveEdit: (item: ChatItem, content: string) => boolean;
  onCancelEdit: () => void;
}

/** The mark of a message pinned as a memory. */
function PinnedMark() {
  return (
    <span data-pinned className="flex items-center gap-1 text-xs text-pink-300">
      <Pin aria-hidden="true" className="size-3" /> Pinned
    </span>
  );
}

/** An icon button named by `label`, with `tooltip` (else the label) as its tooltip (inside the message list's TooltipProvider). */
function IconButton({
  label,
  tooltip = label,
  className,
  children,
  ...props
}: { label: string; tooltip?: string; className?: string; children: ReactNode } & Omit<ComponentProps<typeof Button>, "aria-label">) {
  return (
    <TooltipGroupItem>
      <TooltipTrigger asChild>
        <Button variant="ghost" size="icon" aria-label={label} className={cn(ACTION_BUTTON, className)} {...props}>
          {children}
        </Button>
      </TooltipTrigger>
      <TooltipContent>{tooltip}</TooltipContent>
    </TooltipGroupItem>
  );
}

/** "Hidden from context" under a hidden message, with Unhide (open when steering is). */
function HiddenNote({ item, steer }: { item: ChatItem; steer: SteerProps }) {
  return (
    <p className="flex items-center gap-1.5 px-1 text-xs text-muted-foreground">
      <EyeOff aria-hidden="true" className="size-3.5" /> Hidden from context
      <Button
        variant="ghost"
        size="sm"
        disabled={!steer.enabled || steer.hiding || !steer.mayRewind}
        onClick={() => steer.handlers.onHide(item, false)}
        className="h-7 px-2 text-xs text-muted-foreground hover:text-foreground"
      >
        Unhide
      </Button>
    </p>
  );
}

/** "(edited)", with the time of the edit as its title. */
function EditedMark({ at }: { at: string }) {
  const date = at ? new Date(at) : null;
  return (
    <span className="px-1 text-xs text-muted-foreground" title={date && !Number.isNaN(date.getTime()) ? `Edited ${date.toLocaleString()}` : undefined}>
      (edited)
    </span>
  );
}

/** "312 tokens", with "prompt 2,801 · reply 312" as its tooltip (and read out to screen readers). */
function TokenCount({ usage }: { usage: ReplyUsage }) {
  const { short, detail } = tokensText(usage);
  return (
    <span data-reply-tokens title={detail} className="tabular-nums">
      <span aria-hidden="true">{short}</span>
      <span className="sr-only">
        {short} ({detail})
      </span>
    </span>
  );
}

/**
 * A person's message. `author` names someone else's message in a shared
 * room (null for the viewer's own, which look as in a one-person chat).
 */
export function UserMessage({
  item,
  author = null,
  onRetry,
  steer,
}: {
  item: ChatItem;
  author?: string | null;
  onRetry: (item: ChatItem) => void;
  steer: SteerProps;
}) {
  const failed = item.status === "failed";
  const stored = item.status === "saved";
  return (
    <li className="group/message flex justify-end" data-message-id={item.id}>
      <article
        aria-label={author ?? "You"}
        aria-busy={item.status === "pending"}
        className={cn("relative flex max-w-[85%] flex-col items-end gap-1 sm:max-w-[75%]", steer.editing && "w-full max-w-full sm:max-w-[85%]")}
      >
        {author && (
          <p data-author className="-mb-0.5 px-1 text-xs font-semibold text-pink-200">
            {author}
          </p>
        )}
        {steer.editing ? (
          <MessageEditor
            initial={item.content}
            max={MAX_CHAT_MESSAGE_LENGTH}
            label="Edit your message"
            busy={!steer.enabled}
            tone="user"
            onSave={(content) => steer.onSaveEdit(item, content)}
            onCancel={steer.onCancelEdit}
          />
        ) : (
          <>
            <div
              data-message-text
              className={cn(
                BUBBLE,
                // Hidden from context: an outline instead of the filled bubble (dimming would fail contrast).
                item.hidden
                  ? "rounded-br-sm border border-dashed border-violet-400/60 text-foreground"
                  : author
                    ? "rounded-tr-sm border border-violet-700/70 bg-violet-950 text-white"
                    : "rounded-br-sm bg-gradient-to-br from-primary-strong to-[#a21caf] text-white",
                item.status === "pending" && "opacity-80",
                failed && "ring-2 ring-red-500/70",
              )}
            >
              <MessageContent content={item.content} tone="user" />
            </div>
            {stored && (
              <MessageActions
                item={item}
                side="left"
                disabled={!steer.enabled}
                after={steer.after}
                handlers={steer.handlers}
                mayChange={steer.mayChange}
                mayRewind={steer.mayRewind}
                pinned={steer.pinned}
              />
            )}
            {(item.editedAt || steer.pinned) && (
              <p className="flex gap-2 px-1 text-xs text-muted-foreground">
                {steer.pinned && <PinnedMark />}
                {item.editedAt && <EditedMark at={item.editedAt} />}
              </p>
            )}
            {item.hidden && stored && <HiddenNote item={item} steer={steer} />}
          </>
        )}
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
  /** Who spoke it (lib/cast.ts speakerOf). */
  speaker: Speaker;
  /** The speaker's name is written above the bubble (a group chat, or a speaker other than the chat's character). */
  showName: boolean;
  /** Thumbs are shown (stored replies; not the opening greeting). */
  rateable: boolean;
  /** Regenerate is offered (the last reply, nothing in progress). */
  regeneratable: boolean;
  /** Continue is offered (the last message, a stored reply, nothing in progress). */
  continuable: boolean;
  /** The arrows choose the version the conversation goes on from (the last reply, nothing in progress). */
  swipeable: boolean;
  onRate: (item: ChatItem, value: 1 | -1) => void;
  onRegenerate: () => void;
  onContinue: () => void;
  /** Make version `index` (0-based, in the order written) the reply's content. */
  onSwipe: (item: ChatItem, index: number) => void;
  steer: SteerProps;
}

export function CharacterMessage({
  item,
  speaker,
  showName,
  rateable,
  regeneratable,
  continuable,
  swipeable,
  onRate,
  onRegenerate,
  onContinue,
  onSwipe,
  steer,
}: CharacterMessageProps) {
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
  const stored = item.status === "saved";
  // What the version on screen cost, when its endpoint said.
  const tokens = stored && !steer.editing ? versionTokens(item, index) : null;
  // The speaker's face for this reply (lib/expressions.ts); none: the avatar, as always.
  const face = expressionPicture(speaker.expressions, item.expression);
  return (
    <li className="group/message flex items-start gap-2.5" data-message-id={item.id}>
      {face ? (
        <img
          src={face.url}
          alt={`${speaker.name}: ${face.name}`}
          data-expression={face.name}
          className={cn("mt-0.5 size-16 shrink-0 rounded-lg bg-surface object-contain sm:size-24", item.hidden && "grayscale")}
        />
      ) : (
        <Avatar src={speaker.avatarUrl} fallback={characterInitial(speaker.name)} className={cn("mt-0.5 size-8", item.hidden && "grayscale")} />
      )}
      <article
        aria-label={speaker.name}
        aria-busy={streaming}
        className={cn(
          "relative flex min-w-0 max-w-[calc(100%-5.25rem)] flex-col items-start gap-1 sm:max-w-[75%]",
          // A face is wider than the avatar: the bubble and its actions still fit beside it.
          face && "max-w-[calc(100%-7.25rem)]",
          steer.editing && "w-full max-w-full sm:max-w-[85%]",
        )}
      >
        {showName && (
          <p data-speaker className="-mb-0.5 px-1 text-xs font-semibold text-violet-200">
            {speaker.name}
          </p>
        )}
        {steer.editing ? (
          <MessageEditor
            initial={item.content}
            max={MAX_EDITED_REPLY_LENGTH}
            label={`Edit ${speaker.name}'s reply`}
            busy={!steer.enabled}
            tone="character"
            onSave={(content) => steer.onSaveEdit(item, content)}
            onCancel={steer.onCancelEdit}
          />
        ) : (
          <div
            data-message-text
            className={cn(
              BUBBLE,
              "rounded-tl-sm border border-transparent bg-surface text-foreground",
              other && "border-dashed border-muted-foreground/60",
              item.hidden && "border-dashed border-muted-foreground/60 bg-transparent",
            )}
          >
            <MessageContent content={versions[index]!} tone="character" streaming={streaming} />
            {streaming && <span aria-hidden="true" className="ml-0.5 inline-block h-4 w-1.5 translate-y-0.5 animate-pulse rounded-sm bg-pink-400" />}
          </div>
        )}
        {stored && !steer.editing && (
          <MessageActions
            item={item}
            side="right"
            disabled={!steer.enabled || other}
            after={steer.after}
            handlers={steer.handlers}
            mayChange={steer.mayChange}
            mayRewind={steer.mayRewind}
            pinned={steer.pinned}
          />
        )}
        {!steer.editing && (((item.stopped || item.editedAt) && !other) || tokens || steer.pinned) && (
          <p className="flex gap-2 px-1 text-xs text-muted-foreground">
            {steer.pinned && <PinnedMark />}
            {item.stopped && !other && <span>Stopped</span>}
            {item.editedAt && !other && <EditedMark at={item.editedAt} />}
            {tokens && <TokenCount usage={tokens} />}
          </p>
        )}
        {item.hidden && stored && !steer.editing && <HiddenNote item={item} steer={steer} />}
        {other && (
          <p className="px-1 text-xs text-muted-foreground">
            Not the version the chat went on from ({current + 1}/{versions.length})
          </p>
        )}
        {stored && !steer.editing && (
          <div className="-ml-1 flex flex-wrap items-center gap-0.5">
            {!other && <ReadAloudButton messageId={item.id} characterName={speaker.name} />}
            {versions.length > 1 && (
              <div role="group" aria-label="Versions of this reply" className="mr-1 flex items-center">
                <IconButton
                  label="Previous version"
                  tooltip={swipeable ? "Go on from the previous version" : "Show the previous version"}
                  disabled={index === 0}
                  onClick={() => show(index - 1)}
                >
                  <ChevronLeft aria-hidden="true" />
                </IconButton>
                <span className="min-w-8 text-center text-xs text-muted-foreground tabular-nums" aria-live="polite">
                  <span aria-hidden="true">
                    {index + 1}/{versions.length}
                  </span>
                  <span className="sr-only">
                    Version {index + 1} of {versions.length}
                  </span>
                </span>
                <IconButton
                  label="Next version"
                  tooltip={swipeable ? "Go on from the next version" : "Show the next version"}
                  disabled={index === versions.length - 1}
                  onClick={() => show(index + 1)}
                >
                  <ChevronRight aria-hidden="true" />
                </IconButton>
              </div>
            )}
            {rateable && !other && (
              <>
                <IconButton
                  label="Good reply"
                  aria-pressed={item.rating === 1}
                  onClick={() => onRate(item, 1)}
                  className={cn(item.rating === 1 && "text-emerald-400 hover:text-emerald-300")}
                >
                  <ThumbsUp aria-hidden="true" className={cn(item.rating === 1 && "fill-current")} />
                </IconButton>
                <IconButton
                  label="Bad reply"
                  aria-pressed={item.rating === -1}
                  onClick={() => onRate(item, -1)}
                  className={cn(item.rating === -1 && "text-orange-400 hover:text-orange-300")}
                >
                  <ThumbsDown aria-hidden="true" className={cn(item.rating === -1 && "fill-current")} />
                </IconButton>
              </>
            )}
            {regeneratable && !other && (
              <Button variant="ghost" size="sm" onClick={onRegenerate} className="h-8 px-2 text-xs text-muted-foreground hover:text-foreground">
                <RefreshCw aria-hidden="true" className="!size-3.5" /> Regenerate
              </Button>
            )}
            {continuable && !other && (
              <Button variant="ghost" size="sm" onClick={onContinue} className="h-8 px-2 text-xs text-muted-foreground hover:text-foreground">
                <StepForward aria-hidden="true" className="!size-3.5" /> Continue
              </Button>
            )}
          </div>
        )}
      </article>
    </li>
  );
}
