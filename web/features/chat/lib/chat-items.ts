/**
 * The chat page's list and state shapes (chat-state.ts reduces frames into
 * them, chat-selectors.ts reads them) and the list's item helpers.
 */
import { type AuthorNote, type ChatMessage, type ChatModelName, DEFAULT_AUTHOR_NOTE } from "../../../../schema/chat.ts";
import type { ChatErrorCode, ServerFrame } from "../../../../schema/chat-frames.ts";

/**
 * pending: sent, not yet stored; failed: refused or never answered, can be
 * sent again; saved: stored; streaming: a reply still being written.
 */
export type ChatItemStatus = "pending" | "failed" | "saved" | "streaming";

/**
 * A message as the list shows it. Besides its own fields it carries the
 * stored message's optional ones as the server sent them (ChatMessage):
 * `editedAt`, a reply's speaker `characterId` (absent too on a reply whose
 * speaker is not known yet), `authorId` (absent too on the viewer's own
 * message not stored yet), `authorName`, `hidden`, `usage` and
 * `versionUsage` (see lib/reply-usage.ts), and a reply's `expression`
 * (lib/expressions.ts).
 */
export interface ChatItem
  extends Pick<
    ChatMessage,
    "editedAt" | "characterId" | "authorId" | "authorName" | "hidden" | "usage" | "versionUsage" | "kind" | "imageUrl" | "prompt" | "width" | "height" | "expression"
  > {
  /** The server's id; `local:<clientId>` until a pending message is stored. */
  id: string;
  clientId: string | null;
  content: string;
  isUser: boolean;
  /** ISO 8601; "" for a reply whose time is not known yet. */
  createdAt: string;
  /** The person's thumbs: they belong to the message (its id), whichever version is shown. */
  rating: 1 | -1 | null;
  /** The reply's other versions in written order (ChatMessage.alternatives). */
  alternatives: string[];
  /** Place of `content` among the versions; absent when it is the newest (ChatMessage.swipeIndex). */
  swipeIndex?: number;
  status: ChatItemStatus;
  /** A reply cut short by `stop`. */
  stopped: boolean;
}

export interface ChatError {
  message: string;
  code: ChatErrorCode;
  /** A reply failed or was stopped empty: asking again (`regenerate`) may help. */
  retryable: boolean;
}

export interface ChatState {
  messages: ChatItem[];
  /** From a send (or regenerate) until a `character_response` or an `error` frame. */
  waiting: boolean;
  /** The reply being written, if any. */
  streamingId: string | null;
  /** A `history_sync` arrived: the socket's list is newer than any HTTP read. */
  synced: boolean;
  /** The model that answers, once the server said. */
  chatModel: ChatModelName | null;
  /** The last error frame, until dismissed or a new reply starts. */
  error: ChatError | null;
  /**
   * Swipes sent and not yet answered, on one reply: how many, and the reply
   * as the server last said (put back if the server refuses).
   */
  swiping: { messageId: string; confirmed: ChatItem; outstanding: number } | null;
  /** The conversation's memory note ("" for none), as the server last said. */
  memory: string;
  /** The running summary ("" for none), as the server last said. */
  summary: string;
  /** Steering frames sent and not answered yet, oldest first. */
  steering: PendingSteer[];
  /** The conversation's author's note, as the server last said. */
  authorNote: AuthorNote;
  /** Who is in the room now (the last `presence` frame), in the order they came. */
  people: PresentPerson[];
  /** Others typing: their last `typing` frame's local time (`at`, ms since the epoch). */
  typing: TypingPerson[];
  /** Pictures being made (`image_started`), oldest first, until `image_ready` or `image_stopped` names them. */
  imagining: PendingImage[];
}

/** A picture being made: its placeholder (DESIGN.md "Pictures"). */
export interface PendingImage {
  requestId: string;
  /** Who asked (they and the owner may cancel it). */
  userId: string;
  /** ISO 8601, the server's clock. */
  startedAt: string;
  /** The person's words; absent while the chat model writes them. */
  prompt?: string;
  /** A regenerate: the picture getting a new version (shown over it, not as a placeholder of its own). */
  imageId?: string;
}

/** A person with the room open (`presence`). */
export interface PresentPerson {
  userId: string;
  name: string;
}

/** Someone else typing, as of `at` (ms since the epoch, the page's clock). */
export interface TypingPerson {
  userId: string;
  name: string;
  at: number;
}

/** A steering frame as the page sends it: always with a `clientId`, so it is applied once. */
export type SteeringFrame =
  | { type: "edit_message"; messageId: string; content: string; clientId: string }
  | { type: "delete_message"; messageId: string; clientId: string }
  | { type: "rewind"; messageId: string; clientId: string }
  | { type: "continue"; clientId: string }
  | { type: "set_memory"; memory: string; clientId: string }
  | { type: "set_author_note"; text: string; depth: number; interval: number; clientId: string }
  | { type: "hide_message"; messageId: string; hidden: boolean; clientId: string }
  | { type: "set_summary"; summary: string; clientId: string };

export interface PendingSteer {
  frame: SteeringFrame;
  /** An edit: the message as the server last said, put back if the edit is refused. */
  confirmed?: ChatItem;
}

export type ChatAction =
  /** `GET /api/conversations/:id/messages` answered (ignored once the socket synced). */
  | { type: "loaded"; messages: ChatMessage[] }
  /**
   * The person sent `content` with `clientId`; `createdAt` is the local time (ISO).
   * `awaitReply: false` when nobody will answer on their own (a group chat in
   * the manual order, or every member muted): the page is not busy then.
   */
  | { type: "send"; clientId: string; content: string; createdAt: string; awaitReply?: boolean }
  /** A failed message is sent again (same clientId, so it is stored once). */
  | { type: "retry"; clientId: string; awaitReply?: boolean }
  /** `regenerate` was sent. */
  | { type: "regenerate" }
  /** `generate` was sent: member `characterId` is asked to reply now ("Let … speak"). */
  | { type: "generate"; characterId: number }
  /** The person's thumbs on a reply, before the server confirms (or to roll back). */
  | { type: "rate"; messageId: string; rating: 1 | -1 | null }
  /** `swipe` was sent: version `index` (0-based, written order) of the reply is shown at once. */
  | { type: "swipe"; messageId: string; index: number }
  /** A steering frame was sent; `at` is the local time (ISO), an edit's `editedAt` until the server's arrives. */
  | { type: "steer"; frame: SteeringFrame; at: string }
  | { type: "dismissError" }
  /** A server frame; `at` is when it arrived (ms since the epoch; `typing` frames need it, default 0). */
  | { type: "frame"; frame: ServerFrame; at?: number };

export const initialChatState: ChatState = {
  messages: [],
  waiting: false,
  streamingId: null,
  synced: false,
  chatModel: null,
  error: null,
  swiping: null,
  memory: "",
  summary: "",
  steering: [],
  authorNote: DEFAULT_AUTHOR_NOTE,
  people: [],
  typing: [],
  imagining: [],
};

/** Local id of a message not stored yet. */
export const localMessageId = (clientId: string) => `local:${clientId}`;

/** The list's item for a stored (or streaming) message; `stopped` when `stop` cut the reply short. */
export function fromWire(message: ChatMessage, stopped = false): ChatItem {
  const item: ChatItem = {
    id: message.id,
    clientId: message.clientId,
    content: message.content,
    isUser: message.isUser,
    createdAt: message.createdAt,
    rating: message.isUser ? null : message.rating,
    alternatives: message.alternatives,
    status: message.status === "streaming" ? "streaming" : "saved",
    stopped,
  };
  if (message.swipeIndex !== undefined) item.swipeIndex = message.swipeIndex;
  if (message.editedAt !== undefined) item.editedAt = message.editedAt;
  if (message.characterId !== undefined) item.characterId = message.characterId;
  if (message.authorId !== undefined) item.authorId = message.authorId;
  if (message.authorName !== undefined) item.authorName = message.authorName;
  if (message.hidden) item.hidden = true;
  if (message.usage) item.usage = message.usage;
  if (message.versionUsage) item.versionUsage = message.versionUsage;
  if (message.kind === "image") Object.assign(item, { kind: message.kind, imageUrl: message.imageUrl, prompt: message.prompt, width: message.width, height: message.height });
  if (message.expression) item.expression = message.expression;
  return item;
}

export function replaceAt(items: ChatItem[], index: number, item: ChatItem): ChatItem[] {
  return items.map((m, i) => (i === index ? item : m));
}

/** Puts `item` where the message with its id (or `clientId`) is, else at the end. */
export function upsert(items: ChatItem[], item: ChatItem, clientId: string | null = null): ChatItem[] {
  let index = clientId ? items.findIndex((m) => m.clientId === clientId) : -1;
  if (index < 0) index = items.findIndex((m) => m.id === item.id);
  return index < 0 ? [...items, item] : replaceAt(items, index, item);
}

export function emptyReply(id: string, characterId?: number): ChatItem {
  const item: ChatItem = { id, clientId: null, content: "", isUser: false, createdAt: "", rating: null, alternatives: [], status: "streaming", stopped: false };
  if (characterId !== undefined) item.characterId = characterId;
  return item;
}
