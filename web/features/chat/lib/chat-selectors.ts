/**
 * What the chat page derives from its state (chat-state.ts): busy or not,
 * what to draw, which reply each control acts on, who is typing.
 */
import type { ChatItem, ChatState, SteeringFrame } from "./chat-items.ts";

/** How long a `typing` frame shows "… is typing", ms: clients send one at most every 3 s while typing. */
export const TYPING_SHOWN_MS = 5_000;

/** A reply is awaited or being written: no new message, no regenerate. */
export function isBusy(state: ChatState): boolean {
  return state.waiting || state.streamingId !== null;
}

/** The three dots: waiting, and no reply text has arrived yet. */
export function showTypingIndicator(state: ChatState): boolean {
  return isBusy(state) && !state.messages.some((m) => m.status === "streaming" && m.content !== "");
}

/** The text messages, without pictures: the server's "last reply" rules (regenerate, swipe, continue) never count a picture. */
function textMessages(state: ChatState): ChatItem[] {
  return state.messages.filter((m) => m.kind !== "image");
}

/** The messages to draw: a reply without text yet is the typing indicator instead. */
export function visibleMessages(state: ChatState): ChatItem[] {
  return state.messages.filter((m) => !(m.status === "streaming" && m.content === ""));
}

/** The footer's "N messages": stored, sent and being written (failed ones not). */
export function conversationMessageCount(state: ChatState): number {
  return visibleMessages(state).filter((m) => m.status !== "failed").length;
}

/**
 * The chat footer, to the letter of SPEC.md §2: "All stories and characters
 * are fictional • N messages in this conversation" (the template has no singular).
 */
export function chatFooterText(count: number): string {
  return `All stories and characters are fictional • ${count} messages in this conversation`;
}

/** Messages to send again after a reconnect: sent, but not in the server's history. */
export function unsentMessages(state: ChatState): ChatItem[] {
  return state.messages.filter((m) => m.status === "pending");
}

/**
 * The reply `regenerate` would replace: the last message when it is a
 * stored character reply to a stored message of the person (the server's
 * rule; the greeting alone cannot be regenerated). Null otherwise or while busy.
 */
export function regeneratableReplyId(state: ChatState): string | null {
  if (isBusy(state)) return null;
  const [previous, last] = textMessages(state).slice(-2);
  if (!last || !previous) return null;
  return !last.isUser && last.status === "saved" && previous.isUser && previous.status === "saved" ? last.id : null;
}

/**
 * Whether "Generate reply" is offered (issue 41, SillyTavern's empty send):
 * the last message is the person's, stored, with no reply on its way — a
 * branch that ends on it, a manual-order group, a reply stopped and deleted.
 * The `regenerate` frame answers it (the reply order picks the speaker).
 */
export function canGenerateReply(state: ChatState): boolean {
  if (isBusy(state)) return false;
  const last = textMessages(state).at(-1);
  return last !== undefined && last.isUser && last.status === "saved";
}

/**
 * The reply a swipe may change: the last message when it is a stored
 * character reply with more than one version (the server's rule). Null
 * otherwise or while busy; earlier replies' versions can only be looked at.
 */
export function swipeableReplyId(state: ChatState): string | null {
  if (isBusy(state)) return null;
  const last = textMessages(state).at(-1);
  return last && !last.isUser && last.status === "saved" && last.alternatives.length > 0 ? last.id : null;
}

/**
 * Replies that may be rated: stored character messages, except the
 * greetings that open the conversation (they answer nothing): the first
 * message, and every reply before the person's first message.
 */
export function isRateable(state: ChatState, item: ChatItem): boolean {
  if (item.isUser || item.status !== "saved" || item.kind === "image") return false;
  if (state.messages[0]?.id === item.id) return false;
  // A group chat opens with every member's greeting: the replies before the person's first message answer nothing.
  const firstUser = state.messages.findIndex((m) => m.isUser);
  const index = state.messages.findIndex((m) => m.id === item.id);
  return firstUser >= 0 && index > firstUser;
}

/**
 * The reply `continue` would extend: the last message when it is a stored
 * character reply (the greeting too: the server's rule). Null otherwise or while busy.
 */
export function continuableReplyId(state: ChatState): string | null {
  if (isBusy(state)) return null;
  const last = textMessages(state).at(-1);
  return last && !last.isUser && last.status === "saved" ? last.id : null;
}

/**
 * Edit, delete, rewind, branch and continue are open: the socket's history
 * arrived and no reply is awaited or written (the server refuses them with
 * `busy` then anyway).
 */
export function canSteer(state: ChatState): boolean {
  return state.synced && !isBusy(state);
}

/** How many messages a rewind to `messageId` deletes besides it: every message after it. */
export function messagesAfter(state: ChatState, messageId: string): number {
  const index = state.messages.findIndex((m) => m.id === messageId);
  return index < 0 ? 0 : state.messages.length - index - 1;
}

/**
 * Steering frames to send again after a reconnect (after `history_sync`),
 * oldest first: the server answers each clientId once, so a frame it
 * already applied only gets its answer again. Nothing while a reply is
 * being written (it may be the continue itself; anything else is dropped
 * by `history_sync`, as the server would refuse it with `busy`).
 */
export function unansweredSteering(state: ChatState): SteeringFrame[] {
  return state.streamingId === null ? state.steering.map((s) => s.frame) : [];
}

/** The steering frame with this clientId is sent and not answered yet. */
export function isSteerPending(state: ChatState, clientId: string | null): boolean {
  return clientId !== null && state.steering.some((s) => s.frame.clientId === clientId);
}

/**
 * Names of the others typing at `now` (ms since the epoch): a `typing`
 * frame counts for TYPING_SHOWN_MS, so the list empties on its own once
 * the page renders again after that (the page re-renders on a timer while
 * anyone is typing).
 */
export function typingNames(state: ChatState, now: number): string[] {
  return state.typing.filter((t) => now - t.at < TYPING_SHOWN_MS).map((t) => t.name);
}

/** "Ana is typing…", "Ana and Bo are typing…", "Several people are typing…"; "" for nobody. */
export function typingText(names: string[]): string {
  if (names.length === 0) return "";
  if (names.length === 1) return `${names[0]} is typing…`;
  if (names.length === 2) return `${names[0]} and ${names[1]} are typing…`;
  return "Several people are typing…";
}
