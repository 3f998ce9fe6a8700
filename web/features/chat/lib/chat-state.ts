/**
 * The chat page's message list as a pure state machine (SPEC.md §4 "Chat
 * send", DESIGN.md "Real-time chat protocol"). Every frame of the socket and
 * every local action (send, retry, regenerate, rate) goes through
 * `chatReducer`, so what the page shows is a function of what happened.
 *
 * - Sending appends the person's message at once (status "pending", id
 *   `local:<clientId>`) and turns the waiting state on.
 * - `message_saved` swaps the pending bubble for the stored message, matched
 *   by `clientId` (messages from another tab are appended).
 * - `reply_started` / `character_response_delta` grow the reply being
 *   written; the final `character_response` replaces it with the stored
 *   text and ends the waiting state.
 * - `history_sync` (after every join, so after every reconnect) replaces the
 *   list with the server's; local messages the server has not stored yet
 *   (matched by `clientId`) stay at the end, so nothing is lost or doubled.
 * - An `error` frame ends the waiting state; a failed reply (`messageId`) is
 *   dropped, a refused message (`clientId`) is marked failed so it can be
 *   sent again, and the sentence is kept for the page to show.
 * - Swiping the last reply to another version (`swipe`) shows it at once;
 *   `message_updated` (to every tab) confirms it, and a refusal puts back
 *   what the server last said.
 * - Steering frames (docs/decisions/0007-steering-a-chat.md) carry a
 *   `clientId` and stay in `steering` until their answer names it: an edit
 *   shows at once and is put back if refused; a delete or rewind waits for
 *   `messages_deleted`; a continue streams into the reply it extends (a
 *   failure puts the text back with `message_updated`, then an `error` with
 *   the continue's clientId and no messageId). After a reconnect the page
 *   sends them again with the same clientId: the server applies each once.
 * - Group chats (DESIGN.md "Group chats"): every reply carries its speaker
 *   (`characterId`, from `reply_started` while it streams; a regenerate keeps
 *   the replaced reply's speaker). `generate` ("Let … speak") awaits a reply
 *   like `regenerate`. "Hide from context" (`hide_message`) and the author's
 *   note (`set_author_note`) are steering frames: answered by
 *   `message_updated` / `author_note_updated` naming their clientId.
 * - Shared rooms (DESIGN.md "Shared rooms"): `presence` says who is here
 *   (`people`); a `typing` frame marks that person as typing from the
 *   frame's local time (`at`, ms) until TYPING_SHOWN_MS pass without
 *   another one, or their message arrives (`typingNames` reads it at a time).
 */
import { type AuthorNote, type ChatMessage, type ChatModelName, DEFAULT_AUTHOR_NOTE, type ReplyUsage } from "../../../../schema/chat.ts";
import { type ChatErrorCode, chooseVersion, replyVersions, type ServerFrame } from "../../../../schema/chat-frames.ts";

/**
 * pending: sent, not yet stored; failed: refused or never answered, can be
 * sent again; saved: stored; streaming: a reply still being written.
 */
export type ChatItemStatus = "pending" | "failed" | "saved" | "streaming";

export interface ChatItem {
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
  /** ISO 8601: when the person last edited it (ChatMessage.editedAt). */
  editedAt?: string;
  /** A reply's speaker (ChatMessage.characterId); absent on the person's messages and on replies of unknown speaker. */
  characterId?: number;
  /** The person who wrote a user message (ChatMessage.authorId); absent on replies and on messages not stored yet (the viewer's). */
  authorId?: string;
  /** The name a person's message was written under (ChatMessage.authorName). */
  authorName?: string;
  /** Left out of every prompt, shown dimmed (ChatMessage.hidden). */
  hidden?: boolean;
  /** The tokens the version shown cost, when its endpoint said (ChatMessage.usage). */
  usage?: ReplyUsage;
  /** Each version's tokens in written order, null where unknown (ChatMessage.versionUsage); see lib/reply-usage.ts. */
  versionUsage?: (ReplyUsage | null)[];
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

/** How long a `typing` frame shows "… is typing", ms: clients send one at most every 3 s while typing. */
export const TYPING_SHOWN_MS = 5_000;

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
  return item;
}

const RETRYABLE_ERRORS: readonly ChatErrorCode[] = ["model_failed", "stopped_empty"];
/** Codes by which the server refuses a swipe (with no `messageId` or `clientId`). */
const SWIPE_REFUSALS: readonly ChatErrorCode[] = ["busy", "message_not_found", "not_last_reply", "no_such_version", "invalid_frame"];

function replaceAt(items: ChatItem[], index: number, item: ChatItem): ChatItem[] {
  return items.map((m, i) => (i === index ? item : m));
}

/** Puts `item` where the message with its id (or `clientId`) is, else at the end. */
function upsert(items: ChatItem[], item: ChatItem, clientId: string | null = null): ChatItem[] {
  let index = clientId ? items.findIndex((m) => m.clientId === clientId) : -1;
  if (index < 0) index = items.findIndex((m) => m.id === item.id);
  return index < 0 ? [...items, item] : replaceAt(items, index, item);
}

function emptyReply(id: string, characterId?: number): ChatItem {
  const item: ChatItem = { id, clientId: null, content: "", isUser: false, createdAt: "", rating: null, alternatives: [], status: "streaming", stopped: false };
  if (characterId !== undefined) item.characterId = characterId;
  return item;
}

/** `item` showing an edit not answered yet. */
function withEdit(item: ChatItem, content: string, at: string): ChatItem {
  return { ...item, content, editedAt: at };
}

/** The `editedAt` the message with this id shows now ("" if none). */
function shownEditedAt(state: ChatState, messageId: string): string {
  return state.messages.find((m) => m.id === messageId)?.editedAt ?? "";
}

/** The pending steering frame with this clientId, if it is ours. */
function findSteer(state: ChatState, clientId: string | undefined): PendingSteer | undefined {
  return clientId === undefined ? undefined : state.steering.find((s) => s.frame.clientId === clientId);
}

function withoutSteer(steering: PendingSteer[], clientId: string | undefined): PendingSteer[] {
  return clientId === undefined ? steering : steering.filter((s) => s.frame.clientId !== clientId);
}

/** An answered steering frame's error: ours, so nothing else is marked failed, and the reply being written (if any) goes on. */
function steeringRefused(state: ChatState, pending: PendingSteer, frame: Extract<ServerFrame, { type: "error" }>): ChatState {
  const error: ChatError = { message: frame.message, code: frame.code, retryable: false };
  const steering = withoutSteer(state.steering, pending.frame.clientId);
  const sent = pending.frame;
  if (sent.type === "edit_message" && pending.confirmed) {
    const confirmed = pending.confirmed;
    // A later edit of the same message, still unanswered, is what is shown; it keeps the server's version to fall back on.
    const isLater = (s: PendingSteer) => s.frame.type === "edit_message" && s.frame.messageId === sent.messageId;
    if (steering.some(isLater)) return { ...state, error, steering: steering.map((s) => (isLater(s) ? { ...s, confirmed } : s)) };
    return { ...state, error, steering, messages: state.messages.map((m) => (m.id === sent.messageId ? confirmed : m)) };
  }
  // A continue that failed or was refused: no reply is awaited for it any more.
  if (sent.type === "continue") return { ...state, error, steering, waiting: false };
  return { ...state, error, steering };
}

function reduceFrame(state: ChatState, frame: ServerFrame, at: number): ChatState {
  switch (frame.type) {
    case "history_sync": {
      const server = frame.messages.map((m) => fromWire(m));
      const stored = new Set(server.flatMap((m) => (m.clientId ? [m.clientId] : [])));
      const unsent = state.messages.filter(
        (m) => (m.status === "pending" || m.status === "failed") && m.clientId !== null && !stored.has(m.clientId),
      );
      const streaming = server.find((m) => m.status === "streaming") ?? null;
      // Steering frames not answered yet are sent again (unansweredSteering), and edits among them stay shown
      // over the server's text. While a reply is being written they would be refused: they are dropped
      // (the server's text shows), except a continue, which that reply may be.
      let messages = [...server, ...unsent];
      const kept = streaming ? state.steering.filter((s) => s.frame.type === "continue") : state.steering;
      const steering = kept.map((pending) => {
        const sent = pending.frame;
        if (sent.type !== "edit_message") return pending;
        const confirmed = server.find((m) => m.id === sent.messageId);
        if (!confirmed) return pending;
        messages = messages.map((m) => (m.id === sent.messageId ? withEdit(m, sent.content, shownEditedAt(state, sent.messageId)) : m));
        return { ...pending, confirmed };
      });
      return {
        ...state,
        messages,
        streamingId: streaming?.id ?? null,
        waiting:
          streaming !== null || unsent.some((m) => m.status === "pending") || steering.some((s) => s.frame.type === "continue"),
        synced: true,
        chatModel: frame.chatModel,
        swiping: null,
        memory: frame.memory ?? state.memory,
        authorNote: frame.authorNote ?? state.authorNote,
        summary: frame.summary ?? state.summary,
        steering,
      };
    }
    case "message_saved": {
      // Their message arrived: they stopped typing it.
      const authorId = frame.message.authorId;
      const typing = authorId === undefined ? state.typing : state.typing.filter((t) => t.userId !== authorId);
      return { ...state, typing, messages: upsert(state.messages, fromWire(frame.message), frame.clientId) };
    }
    case "reply_started": {
      const replaced = frame.replaces ? state.messages.findIndex((m) => m.id === frame.replaces) : -1;
      let messages: ChatItem[];
      if (replaced >= 0) {
        // Every version of the replaced reply, in written order (as the server keeps them); the new one is the newest.
        // A regenerated reply keeps its speaker (the frame names it too).
        const old = state.messages[replaced]!;
        messages = replaceAt(state.messages, replaced, {
          ...emptyReply(frame.messageId, frame.characterId ?? old.characterId),
          alternatives: replyVersions(old).versions,
        });
      } else if (state.messages.some((m) => m.id === frame.messageId)) {
        // A continue (or a repeat of this frame): the text so far stays and the deltas extend it.
        messages = state.messages.map((m) => (m.id === frame.messageId ? { ...m, status: "streaming", stopped: false } : m));
      } else {
        messages = [...state.messages, emptyReply(frame.messageId, frame.characterId)];
      }
      return { ...state, messages, waiting: true, streamingId: frame.messageId, error: null };
    }
    case "character_response_delta": {
      const index = state.messages.findIndex((m) => m.id === frame.messageId);
      const messages =
        index < 0
          ? [...state.messages, { ...emptyReply(frame.messageId), content: frame.delta }]
          : replaceAt(state.messages, index, {
              ...state.messages[index]!,
              content: state.messages[index]!.content + frame.delta,
              status: "streaming",
            });
      return { ...state, messages, waiting: true, streamingId: frame.messageId };
    }
    case "character_response": {
      const item = fromWire({ ...frame.message, content: frame.content, status: undefined }, frame.stopped);
      return {
        ...state,
        messages: upsert(state.messages, item),
        waiting: false,
        streamingId: state.streamingId === frame.messageId ? null : state.streamingId,
        // A continue's answer is the reply it extended (the server keeps it as the continue's receipt).
        steering: state.steering.filter((s) => s.frame.type !== "continue"),
      };
    }
    case "message_rated":
      return {
        ...state,
        messages: state.messages.map((m) => (m.id === frame.messageId ? { ...m, rating: frame.rating } : m)),
      };
    case "message_updated": {
      const server = fromWire(frame.message);
      // A continue that failed puts the reply's text back: it is no longer being written.
      const streamingId = state.streamingId === frame.messageId && server.status !== "streaming" ? null : state.streamingId;
      const mine = findSteer(state, frame.clientId);
      // Edits of ours still unanswered fall back on this version now, and the latest of them stays shown.
      const steering = withoutSteer(state.steering, mine?.frame.clientId).map((s) =>
        s.frame.type === "edit_message" && s.frame.messageId === frame.messageId ? { ...s, confirmed: server } : s,
      );
      const laterEdit = steering.findLast((s) => s.frame.type === "edit_message" && s.frame.messageId === frame.messageId);
      if (mine || laterEdit) {
        const shown =
          laterEdit?.frame.type === "edit_message" ? withEdit(server, laterEdit.frame.content, shownEditedAt(state, frame.messageId)) : server;
        return { ...state, streamingId, steering, messages: state.messages.map((m) => (m.id === frame.messageId ? shown : m)) };
      }
      const swiping = state.swiping?.messageId === frame.messageId ? state.swiping : null;
      if (swiping && swiping.outstanding > 1) {
        // More swipes of ours are on their way: keep showing the latest choice.
        return { ...state, streamingId, swiping: { ...swiping, confirmed: server, outstanding: swiping.outstanding - 1 } };
      }
      return {
        ...state,
        streamingId,
        messages: state.messages.map((m) => (m.id === frame.messageId ? server : m)),
        swiping: swiping ? null : state.swiping,
      };
    }
    case "messages_deleted": {
      const gone = new Set(frame.messageIds);
      const steering = withoutSteer(state.steering, frame.clientId).filter(
        (s) => !(s.frame.type === "edit_message" && gone.has(s.frame.messageId)),
      );
      const swiping = state.swiping && gone.has(state.swiping.messageId) ? null : state.swiping;
      return { ...state, messages: state.messages.filter((m) => !gone.has(m.id)), steering, swiping };
    }
    case "memory_updated":
      return { ...state, memory: frame.memory, steering: withoutSteer(state.steering, frame.clientId) };
    case "summary_updated":
      return { ...state, summary: frame.summary, steering: withoutSteer(state.steering, frame.clientId) };
    case "author_note_updated":
      return { ...state, authorNote: frame.authorNote, steering: withoutSteer(state.steering, frame.clientId) };
    case "cast_updated":
      // The page refetches the conversation for the cast's names and avatars; the list itself is unchanged.
      return state;
    case "presence": {
      const here = new Set(frame.people.map((p) => p.userId));
      return {
        ...state,
        people: frame.people.map(({ userId, name }) => ({ userId, name })),
        // Someone who left is not typing any more.
        typing: state.typing.filter((t) => here.has(t.userId)),
      };
    }
    case "typing":
      return {
        ...state,
        typing: [...state.typing.filter((t) => t.userId !== frame.userId), { userId: frame.userId, name: frame.name, at }],
      };
    case "error": {
      const mine = findSteer(state, frame.clientId);
      if (mine) return steeringRefused(state, mine, frame);
      const swiping = state.swiping;
      if (swiping && frame.messageId === undefined && frame.clientId === undefined && SWIPE_REFUSALS.includes(frame.code)) {
        // Our swipe was refused: nothing changed on the server.
        const error = { message: frame.message, code: frame.code, retryable: false };
        if (swiping.outstanding > 1) return { ...state, error, swiping: { ...swiping, outstanding: swiping.outstanding - 1 } };
        return {
          ...state,
          error,
          messages: state.messages.map((m) => (m.id === swiping.messageId ? swiping.confirmed : m)),
          swiping: null,
        };
      }
      let messages = state.messages;
      let streamingId = state.streamingId;
      if (frame.messageId !== undefined) {
        // The failed reply's partial text goes; the person's message stays.
        messages = messages.filter((m) => m.id !== frame.messageId);
        if (streamingId === frame.messageId) streamingId = null;
      }
      if (frame.clientId !== undefined) {
        messages = messages.map((m) => (m.clientId === frame.clientId && m.status === "pending" ? { ...m, status: "failed" } : m));
      } else if (frame.messageId === undefined) {
        // An error naming nothing (e.g. a frame the server could not read) answers whatever is pending.
        messages = messages.map((m) => (m.status === "pending" ? { ...m, status: "failed" } : m));
      }
      return {
        ...state,
        messages,
        streamingId,
        waiting: false,
        // A model failure naming no reply is a failed continue (its text was put back): asking for a new reply is not the cure.
        error: { message: frame.message, code: frame.code, retryable: RETRYABLE_ERRORS.includes(frame.code) && frame.messageId !== undefined },
      };
    }
  }
}

/** The next state after `action`. Pure. */
export function chatReducer(state: ChatState, action: ChatAction): ChatState {
  switch (action.type) {
    case "loaded": {
      if (state.synced) return state;
      const unsent = state.messages.filter((m) => m.status === "pending" || m.status === "failed");
      return { ...state, messages: [...action.messages.map((m) => fromWire(m)), ...unsent] };
    }
    case "send":
      return {
        ...state,
        messages: [
          ...state.messages,
          {
            id: localMessageId(action.clientId),
            clientId: action.clientId,
            content: action.content,
            isUser: true,
            createdAt: action.createdAt,
            rating: null,
            alternatives: [],
            status: "pending",
            stopped: false,
          },
        ],
        waiting: action.awaitReply ?? true,
        error: null,
      };
    case "retry":
      return {
        ...state,
        messages: state.messages.map((m) => (m.clientId === action.clientId && m.status === "failed" ? { ...m, status: "pending" } : m)),
        waiting: action.awaitReply ?? true,
        error: null,
      };
    case "regenerate":
    case "generate":
      return { ...state, waiting: true, error: null };
    case "rate":
      return {
        ...state,
        messages: state.messages.map((m) => (m.id === action.messageId ? { ...m, rating: action.rating } : m)),
      };
    case "swipe": {
      const index = state.messages.findIndex((m) => m.id === action.messageId);
      const item = state.messages[index];
      const chosen = item ? chooseVersion(item, action.index) : null;
      if (!item || !chosen) return state;
      const { swipeIndex: _, ...rest } = item;
      const shown: ChatItem = { ...rest, ...chosen, stopped: false };
      const earlier = state.swiping?.messageId === item.id ? state.swiping : null;
      return {
        ...state,
        messages: replaceAt(state.messages, index, shown),
        swiping: { messageId: item.id, confirmed: earlier?.confirmed ?? item, outstanding: (earlier?.outstanding ?? 0) + 1 },
      };
    }
    case "steer": {
      const sent = action.frame;
      if (sent.type === "continue") {
        return { ...state, steering: [...state.steering, { frame: sent }], waiting: true, error: null };
      }
      if (sent.type !== "edit_message") return { ...state, steering: [...state.steering, { frame: sent }] };
      const index = state.messages.findIndex((m) => m.id === sent.messageId);
      const item = state.messages[index];
      if (!item) return state;
      // The server's version to put back: the one an earlier unanswered edit of this message kept, else what is shown.
      const earlier = state.steering.find((s) => s.frame.type === "edit_message" && s.frame.messageId === sent.messageId);
      return {
        ...state,
        messages: replaceAt(state.messages, index, withEdit(item, sent.content, action.at)),
        steering: [...state.steering, { frame: sent, confirmed: earlier?.confirmed ?? item }],
      };
    }
    case "dismissError":
      return { ...state, error: null };
    case "frame":
      return reduceFrame(state, action.frame, action.at ?? 0);
  }
}

// ---------------------------------------------------------------------------
// What the page derives from the state.

/** A reply is awaited or being written: no new message, no regenerate. */
export function isBusy(state: ChatState): boolean {
  return state.waiting || state.streamingId !== null;
}

/** The three dots: waiting, and no reply text has arrived yet. */
export function showTypingIndicator(state: ChatState): boolean {
  return isBusy(state) && !state.messages.some((m) => m.status === "streaming" && m.content !== "");
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
  const [previous, last] = state.messages.slice(-2);
  if (!last || !previous) return null;
  return !last.isUser && last.status === "saved" && previous.isUser && previous.status === "saved" ? last.id : null;
}

/**
 * The reply a swipe may change: the last message when it is a stored
 * character reply with more than one version (the server's rule). Null
 * otherwise or while busy; earlier replies' versions can only be looked at.
 */
export function swipeableReplyId(state: ChatState): string | null {
  if (isBusy(state)) return null;
  const last = state.messages.at(-1);
  return last && !last.isUser && last.status === "saved" && last.alternatives.length > 0 ? last.id : null;
}

/**
 * Replies that may be rated: stored character messages, except the
 * greetings that open the conversation (they answer nothing): the first
 * message, and every reply before the person's first message.
 */
export function isRateable(state: ChatState, item: ChatItem): boolean {
  if (item.isUser || item.status !== "saved") return false;
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
  const last = state.messages.at(-1);
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
