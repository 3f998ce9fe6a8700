/**
 * The scrolling list of messages (SPEC.md §2 "Chat"): the greeting first,
 * the person's messages right, the character's left, the typing indicator
 * while a reply is awaited (beside its speaker, in a group chat), and an
 * inline note when something failed. It
 * follows the newest message while the reader is at the bottom, and leaves
 * the scroll alone while they read further up.
 */
import { CircleAlert, RefreshCw, X } from "lucide-react";
import { type RefObject, useLayoutEffect, useRef } from "react";
import { Link } from "react-router";
import { SETTINGS_MODELS_WORDS } from "../../../../schema/model-connections.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Skeleton } from "../../../components/ui/skeleton.tsx";
import { IconTooltip, TooltipProvider } from "../../../components/ui/tooltip.tsx";
import type { Speaker } from "../lib/cast.ts";
import {
  type ChatItem,
  type ChatState,
  canSteer,
  continuableReplyId,
  isBusy,
  isRateable,
  messagesAfter,
  regeneratableReplyId,
  showTypingIndicator,
  swipeableReplyId,
  visibleMessages,
} from "../lib/chat-state.ts";
import type { MessageActionHandlers } from "./message-actions.tsx";
import { ImageMessage, ImagePlaceholder } from "./image-message.tsx";
import { CharacterMessage, type SteerProps, UserMessage } from "./message-item.tsx";
import { TypingIndicator } from "./typing-indicator.tsx";

/** Within this many px of the bottom, the list keeps following new text. */
const STICK_THRESHOLD_PX = 80;

interface MessageListProps {
  state: ChatState;
  /** The cast's names in a sentence ("Ana, Bo and Cy"; the character's name in a one-to-one chat). */
  names: string;
  /** Who spoke a reply (lib/cast.ts speakerOf); `undefined`: the chat's first member. */
  speakerOf: (characterId: number | undefined) => Speaker;
  /** A group chat: each reply names its speaker, and the typing indicator waits to know who replies. */
  group: boolean;
  /** Neither the HTTP list nor the socket's history has arrived yet. */
  loading: boolean;
  /** True while the list should follow the newest message; set by the page when the person sends. */
  stickToBottom: RefObject<boolean>;
  onRate: (item: ChatItem, value: 1 | -1) => void;
  onRegenerate: () => void;
  /** The person chose version `index` of the last reply to go on from. */
  onSwipe: (item: ChatItem, index: number) => void;
  onRetry: (item: ChatItem) => void;
  onDismissError: () => void;
  onContinue: () => void;
  /** The message being edited in place, if any. */
  editingId: string | null;
  actions: MessageActionHandlers;
  onSaveEdit: (item: ChatItem, content: string) => boolean;
  onCancelEdit: () => void;
  /** The signed-in person's user id (their own messages have it as `authorId`, or none yet). */
  viewerId: string | null;
  /** The viewer owns the conversation: every message's actions are theirs (DESIGN.md "Shared rooms"). */
  isOwner: boolean;
  /** The room has more than one person: others' messages carry their names. */
  shared: boolean;
  /** Where "Settings → Models" in an error leads: the chat's model connection (issue 41). */
  connectionHref?: string;
  /** The chat is gone for this person (removed, deleted, suspended): it can be read, nothing can be changed or asked for. */
  readOnly?: boolean;
  /** Ids of the messages pinned as memories (they show a pin). */
  pinnedIds: ReadonlySet<string>;
  /** Deletes a picture (DESIGN.md "Pictures"). */
  onDeleteImage: (item: ChatItem) => void;
  /** Stops a picture being made. */
  onCancelImage: (requestId: string) => void;
  /** Draws a picture again (`imagine` with its `imageId`): a new version of it. */
  onRedrawImage: (item: ChatItem) => void;
  /** Shows version `index` (written order) of a picture (`swipe`). */
  onChooseImageVersion: (item: ChatItem, index: number) => void;
}

export function MessageList({
  state,
  names,
  speakerOf,
  group,
  loading,
  stickToBottom,
  onRate,
  onRegenerate,
  onSwipe,
  onRetry,
  onDismissError,
  onContinue,
  editingId,
  actions,
  onSaveEdit,
  onCancelEdit,
  viewerId,
  isOwner,
  shared,
  readOnly = false,
  connectionHref = "/settings/models",
  pinnedIds,
  onDeleteImage,
  onCancelImage,
  onRedrawImage,
  onChooseImageVersion,
}: MessageListProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const messages = visibleMessages(state);
  const typing = showTypingIndicator(state);
  const regeneratable = readOnly ? null : regeneratableReplyId(state);
  const swipeable = readOnly ? null : swipeableReplyId(state);
  const continuable = readOnly ? null : continuableReplyId(state);
  const steerable = !readOnly && canSteer(state);
  // The reply on its way: its speaker once reply_started named one (a group chat), else the chat's character.
  const coming = state.messages.find((m) => m.status === "streaming");
  const typingSpeaker = coming?.characterId !== undefined || !group ? speakerOf(coming?.characterId) : null;
  // A message is someone else's when the server names another author; one not stored yet is the viewer's.
  const othersMessage = (item: ChatItem) => item.isUser && item.authorId !== undefined && item.authorId !== viewerId;
  const steerProps = (item: ChatItem): SteerProps => ({
    mayChange: !readOnly && (isOwner || (item.isUser && !othersMessage(item))),
    mayRewind: !readOnly && isOwner,
    pinned: pinnedIds.has(item.id),
    enabled: steerable,
    after: messagesAfter(state, item.id),
    editing: editingId === item.id,
    hiding: state.steering.some((s) => s.frame.type === "hide_message" && s.frame.messageId === item.id),
    handlers: actions,
    onSaveEdit,
    onCancelEdit,
  });

  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (el && stickToBottom.current) el.scrollTop = el.scrollHeight;
  }, [state.messages, state.imagining, typing, state.error, loading, stickToBottom]);

  const onScroll = () => {
    const el = scrollRef.current;
    if (el) stickToBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_THRESHOLD_PX;
  };

  return (
    <div
      ref={scrollRef}
      onScroll={onScroll}
      role="log"
      aria-label={`Conversation with ${names}`}
      // Scrollable by keyboard even before any button is inside it.
      tabIndex={0}
      className="min-h-0 flex-1 overflow-y-auto overscroll-contain px-3 py-5 focus-visible:outline-offset-[-2px] sm:px-5"
    >
      {loading ? (
        <div aria-hidden="true" className="mx-auto flex max-w-3xl flex-col gap-4">
          <Skeleton className="h-20 w-3/4 rounded-2xl" />
          <Skeleton className="ml-auto h-10 w-1/2 rounded-2xl" />
          <Skeleton className="h-14 w-2/3 rounded-2xl" />
        </div>
      ) : (
        <>
          {messages.length === 0 && !typing && (
            <p className="mx-auto max-w-sm py-10 text-center text-sm text-muted-foreground">
              Say hello to {names} to start the story.
            </p>
          )}
          <TooltipProvider>
            <ol className="mx-auto flex max-w-3xl flex-col gap-4">
              {messages.map((item) =>
                item.kind === "image" ? (
                  <ImageMessage
                    key={item.id}
                    item={item}
                    speaker={speakerOf(item.characterId)}
                    mayDelete={!readOnly && (isOwner || item.authorId === viewerId)}
                    enabled={state.synced}
                    onDelete={onDeleteImage}
                    onReport={actions.onReport}
                    redrawing={state.imagining.find((pending) => pending.imageId === item.id) ?? null}
                    mayRedraw={!readOnly}
                    mayCancel={(pending) => !readOnly && (isOwner || pending.userId === viewerId)}
                    onRedraw={onRedrawImage}
                    onChooseVersion={onChooseImageVersion}
                    onCancel={onCancelImage}
                  />
                ) : item.isUser ? (
                  <UserMessage
                    key={item.clientId ?? item.id}
                    item={item}
                    author={shared && othersMessage(item) ? (item.authorName ?? "Someone") : null}
                    onRetry={onRetry}
                    steer={steerProps(item)}
                  />
                ) : (
                  <CharacterMessage
                    key={item.id}
                    item={item}
                    speaker={speakerOf(item.characterId)}
                    showName={group || (item.characterId !== undefined && speakerOf(item.characterId).id !== speakerOf(undefined).id)}
                    rateable={isRateable(state, item)}
                    regeneratable={regeneratable === item.id}
                    continuable={continuable === item.id}
                    swipeable={swipeable === item.id}
                    onRate={onRate}
                    onRegenerate={onRegenerate}
                    onContinue={onContinue}
                    onSwipe={onSwipe}
                    steer={steerProps(item)}
                  />
                ),
              )}
              {state.imagining.filter((pending) => !pending.imageId).map((pending) => (
                <ImagePlaceholder
                  key={pending.requestId}
                  pending={pending}
                  speaker={speakerOf(undefined)}
                  mayCancel={!readOnly && (isOwner || pending.userId === viewerId)}
                  onCancel={onCancelImage}
                />
              ))}
              {typing && <TypingIndicator speaker={typingSpeaker} />}
            </ol>
          </TooltipProvider>
          {state.error && (
            <div
              role="alert"
              className="mx-auto mt-4 flex max-w-md items-start gap-2 rounded-xl border border-red-900/70 bg-red-950/50 px-3 py-2 text-sm text-red-100"
            >
              <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-red-300" />
              <span className="flex-1">
                <ErrorText message={state.error.message} connectionHref={connectionHref} />
              </span>
              {state.error.retryable && !isBusy(state) && !readOnly && (
                <Button variant="ghost" size="sm" onClick={onRegenerate} className="h-7 px-2 text-red-100 hover:bg-red-900/50 hover:text-white">
                  <RefreshCw aria-hidden="true" /> Try again
                </Button>
              )}
              <IconTooltip label="Dismiss">
                <button
                  type="button"
                  onClick={onDismissError}
                  aria-label="Dismiss"
                  className="cursor-pointer rounded p-1 text-red-200 hover:text-white focus-visible:outline-2 focus-visible:outline-ring"
                >
                  <X aria-hidden="true" className="size-3.5" />
                </button>
              </IconTooltip>
            </div>
          )}
        </>
      )}
    </div>
  );
}

/** An error's text; "Settings → Models" in it (ai/model-connection.ts) is a link to the chat's connection. */
function ErrorText({ message, connectionHref }: { message: string; connectionHref: string }) {
  const at = message.indexOf(SETTINGS_MODELS_WORDS);
  if (at < 0) return message;
  return (
    <>
      {message.slice(0, at)}
      <Link to={connectionHref} className="font-medium text-red-50 underline underline-offset-2 hover:text-white">
        {SETTINGS_MODELS_WORDS}
      </Link>
      {message.slice(at + SETTINGS_MODELS_WORDS.length)}
    </>
  );
}
