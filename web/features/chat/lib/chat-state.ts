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
 * - Pictures (DESIGN.md "Pictures"): `image_started` adds a placeholder
 *   (`imagining`) that `image_ready` replaces with the picture's message and
 *   `image_stopped` drops; an error naming a `requestId` is only shown.
 * - Shared rooms (DESIGN.md "Shared rooms"): `presence` says who is here
 *   (`people`); a `typing` frame marks that person as typing from the
 *   frame's local time (`at`, ms) until TYPING_SHOWN_MS pass without
 *   another one, or their message arrives (`typingNames` reads it at a time).
 *
 * The shapes and item helpers are chat-items.ts, what the page derives from
 * the state chat-selectors.ts; both are exported from here too.
 */
import type { ChatMessage } from "../../../../schema/chat.ts";
import { type ChatErrorCode, chooseVersion, replyVersions, type ServerFrame } from "../../../../schema/chat-frames.ts";
import { type ChatAction, type ChatError, type ChatItem, type ChatState, emptyReply, fromWire, localMessageId, type PendingSteer, replaceAt, upsert } from "./chat-items.ts";

export * from "./chat-items.ts";
export * from "./chat-selectors.ts";

const RETRYABLE_ERRORS: readonly ChatErrorCode[] = ["model_failed", "stopped_empty"];
/** Codes by which the server refuses a swipe (with no `messageId` or `clientId`). */
const SWIPE_REFUSALS: readonly ChatErrorCode[] = ["busy", "message_not_found", "not_last_reply", "no_such_version", "invalid_frame"];

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
        // A picture still being made arrives as `image_ready` anyway; one lost with the room's restart must not spin forever.
        imagining: [],
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
    case "image_started":
      return {
        ...state,
        imagining: [
          ...state.imagining.filter((p) => p.requestId !== frame.requestId),
          {
            requestId: frame.requestId,
            userId: frame.userId,
            startedAt: frame.startedAt,
            ...(frame.prompt ? { prompt: frame.prompt } : {}),
            ...(frame.imageId ? { imageId: frame.imageId } : {}),
          },
        ],
      };
    case "image_ready":
      return {
        ...state,
        imagining: state.imagining.filter((p) => p.requestId !== frame.requestId),
        messages: upsert(state.messages, fromWire(frame.message)),
      };
    case "image_stopped":
      return { ...state, imagining: state.imagining.filter((p) => p.requestId !== frame.requestId) };
    case "error": {
      // A picture's error (`imagine`): its placeholder went with `image_stopped`; nothing else is pending on it.
      if (frame.requestId !== undefined) return { ...state, error: { message: frame.message, code: frame.code, retryable: false } };
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
