/**
 * The conversation room's protocol: everything the Worker and the
 * ConversationRoom must agree on, in one module both import (the frames
 * themselves are the zod unions of schema/chat.ts, shared with the web
 * client; docs/decisions/0005-real-time-chat.md).
 *
 * - Reading a client frame: text only (else close 1003), at most
 *   MAX_FRAME_BYTES of UTF-8 (else close 1009), JSON, one of the client
 *   frames (else an `invalid_frame` error frame; the socket stays open).
 *   The Worker reads the first frame of a bare `/ws` (`join`) with it; the
 *   room reads every frame with it.
 * - The headers by which the Worker tells the room who is connecting.
 * - The facts a new room is given (`RoomFacts`) and the greeting it stores as
 *   the first message.
 */
import { CLOSE_CODES, MAX_FRAME_BYTES, type ReplyUsage } from "../schema/chat.ts";
import { type ClientFrame, clientFrameSchema, type ServerFrame } from "../schema/chat-frames.ts";
import type { TimedState } from "../schema/lorebook/activation.ts";
import { replaceMacros } from "../schema/macros.ts";

/**
 * Headers by which the Worker tells the room who is connecting. Set by the
 * Worker only after it checked the session and the conversation's owner; a
 * Durable Object cannot be reached from outside.
 */
export const ROOM_HEADERS = {
  conversationId: "x-fabled-conversation-id",
  userId: "x-fabled-user-id",
  /** Percent-encoded: header values are bytes, names are any Unicode text. */
  userName: "x-fabled-user-name",
  /** The persona's description, percent-encoded; "" for none. */
  personaDescription: "x-fabled-persona-description",
  /** "member": a member of the shared room (the Worker checked D1); absent: the owner. */
  role: "x-fabled-role",
  /** The public id of the session the socket was opened under (worker/lib/sessions.ts): ending that session closes it. */
  sessionId: "x-fabled-session-id",
} as const;

/** Who is connecting to a room, as the Worker vouches for them. */
export interface RoomVisitor {
  conversationId: string;
  userId: string;
  /** The person's name for `{{user}}` (their persona's, else their first name); empty when the Worker sent none. */
  userName: string;
  /** Their persona's description for the prompt ("" for none); null when the Worker sent none. */
  personaDescription: string | null;
  /** A member of the shared room (DESIGN.md "Shared rooms"), as the Worker checked in D1; the owner otherwise. */
  role?: "owner" | "member";
  /** The public id of the session it was opened under; null or absent when unknown. */
  sessionId?: string | null;
}

/** The headers of the Worker's WebSocket upgrade request to a room. */
export function roomUpgradeHeaders(visitor: RoomVisitor): Record<string, string> {
  return {
    upgrade: "websocket",
    [ROOM_HEADERS.conversationId]: visitor.conversationId,
    [ROOM_HEADERS.userId]: visitor.userId,
    [ROOM_HEADERS.userName]: encodeURIComponent(visitor.userName),
    ...(visitor.personaDescription === null ? {} : { [ROOM_HEADERS.personaDescription]: encodeURIComponent(visitor.personaDescription) }),
    ...(visitor.role === "member" ? { [ROOM_HEADERS.role]: "member" } : {}),
    ...(visitor.sessionId ? { [ROOM_HEADERS.sessionId]: visitor.sessionId } : {}),
  };
}

function decodeHeader(headers: Headers, name: string): string | null {
  const value = headers.get(name);
  if (value === null) return null;
  try {
    return decodeURIComponent(value);
  } catch {
    // Not percent-encoded by us: nothing rather than a failed upgrade.
    return null;
  }
}

/** The visitor of an upgrade request built by `roomUpgradeHeaders` (missing headers read as ""). */
export function readRoomVisitor(headers: Headers): RoomVisitor {
  return {
    conversationId: headers.get(ROOM_HEADERS.conversationId) ?? "",
    userId: headers.get(ROOM_HEADERS.userId) ?? "",
    userName: decodeHeader(headers, ROOM_HEADERS.userName) ?? "",
    personaDescription: decodeHeader(headers, ROOM_HEADERS.personaDescription),
    role: headers.get(ROOM_HEADERS.role) === "member" ? "member" : "owner",
    sessionId: headers.get(ROOM_HEADERS.sessionId),
  };
}

/**
 * A message a new room starts with when it is a branch or an import: the
 * `ChatMessage` convention for a reply's versions (`content` shown,
 * `alternatives` the others in written order, `swipeIndex`).
 */
export interface SeedMessage {
  isUser: boolean;
  content: string;
  /** ms since the epoch. */
  createdAt: number;
  alternatives: string[];
  swipeIndex?: number;
  /** A reply's speaker (a member of the new room's cast); absent: the first member. */
  characterId?: number;
  /** A person's message: the name they wrote under; absent: the owner's name. */
  authorName?: string;
  /** Hidden from context. */
  hidden?: boolean;
  /** A reply's tokens per version, in written order (schema/chat.ts ChatMessage.versionUsage); absent: unknown. */
  versionUsage?: (ReplyUsage | null)[];
  /** A reply's expression per version, in written order (a label or null); absent: unknown (issue 37, message-rows.ts). */
  versionExpressions?: (string | null)[];
}

/**
 * A picture a branch starts with (DESIGN.md "Pictures"): where it stood
 * (`afterIndex`: the index among the branch's messages of the message it
 * followed; -1 before them all), the source chat's object it is copied
 * from, and its row's facts.
 */
export interface SeedPicture {
  afterIndex: number;
  /** The R2 key of the picture in the chat it is copied from (`pictures/{conversationId}/{id}`). */
  sourceKey: string;
  prompt: string;
  contentType: string;
  width: number;
  height: number;
  /** Who asked for it, and their name then. */
  authorId: string;
  authorName: string;
  characterId: number | null;
  /** ms since the epoch. */
  createdAt: number;
}

/** A member of a room's cast as the Worker tells it (DESIGN.md "Group chats"). */
export interface RoomCastMember {
  characterId: number;
  name: string;
  muted: boolean;
  /** 0–1. */
  talkativeness: number;
}

/** A greeting a new room starts with: one per member that has one, in member order. */
export interface RoomGreeting {
  characterId: number;
  /** The greeting with macros replaced (`greetingFor`). */
  content: string;
  /** The character's alternate greetings, macros replaced: the greeting's other versions (swipes). */
  alternatives: string[];
}

/** What the Worker tells a new room (from D1) through its `initialize` RPC. */
export interface RoomFacts {
  conversationId: string;
  /** The owner; only they may read or join. */
  userId: string;
  /** The first member of the cast. */
  characterId: number;
  /** The cast in member order (at least the first member). */
  cast: RoomCastMember[];
  /** schema/chat.ts REPLY_ORDERS; default "natural". */
  replyOrder?: "natural" | "list" | "pooled" | "manual";
  /** The owner's name for `{{user}}`. */
  userName: string;
  /** ms since the epoch. */
  createdAt: number;
  /** The members' greetings, stored as the first messages in this order (none: the room starts empty). */
  greetings: RoomGreeting[];
  /** A branch or an import: the messages it starts with, oldest first (instead of the greeting). */
  messages?: SeedMessage[];
  /** A branch: the memory note of the conversation it came from. */
  memory?: string;
  /** A branch: the pictures among its messages (their objects are copied into this chat's own). */
  pictures?: SeedPicture[];
  /** A branch: the lorebook timers as they were at its branch point (schema/lorebook/activation.ts TimedState). */
  lorebookState?: TimedState;
}

/** The greeting as stored: line ends normalised, trimmed, macros replaced; null when there is none (DESIGN.md "Conversation title"). */
export function greetingFor(greeting: string | null, characterName: string, userName: string): string | null {
  const text = greeting?.replace(/\r\n?/g, "\n").trim();
  return text ? replaceMacros(text, characterName, userName) : null;
}

/** The `type` of every client frame, from the union itself (a new frame needs no second list). */
const CLIENT_FRAME_TYPES: ReadonlySet<string> = new Set(clientFrameSchema.options.map((option) => option.shape.type.value));

/** A client frame, or the sentence saying why the text is not one. */
export function parseFrame(text: string): { ok: true; value: ClientFrame } | { ok: false; error: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, error: "Messages must be JSON" };
  }
  const parsed = clientFrameSchema.safeParse(json);
  if (parsed.success) return { ok: true, value: parsed.data };
  const type = (json as { type?: unknown } | null)?.type;
  if (typeof type !== "string" || !CLIENT_FRAME_TYPES.has(type)) {
    return { ok: false, error: `Unknown message type: ${JSON.stringify(type ?? null).slice(0, 40)}` };
  }
  return { ok: false, error: parsed.error.issues[0]?.message ?? "Invalid message" };
}

/**
 * What to do with one WebSocket message from a client:
 * - `frame`: a valid client frame (and the text it was read from);
 * - `close`: close the socket with `code` and `reason` (binary data: 1003;
 *   over MAX_FRAME_BYTES: 1009);
 * - `answer`: send this `invalid_frame` error frame and keep the socket.
 */
export type ClientMessage =
  | { kind: "frame"; frame: ClientFrame; text: string }
  | { kind: "close"; code: number; reason: string }
  | { kind: "answer"; frame: Extract<ServerFrame, { type: "error" }> };

const utf8 = new TextEncoder();

/** Reads one WebSocket message from a client (see ClientMessage). */
export function readClientMessage(message: string | ArrayBuffer): ClientMessage {
  if (typeof message !== "string") return { kind: "close", code: CLOSE_CODES.unsupportedData, reason: "Frames must be JSON text" };
  // A string longer than the limit in UTF-16 units is also longer in UTF-8: no need to encode it.
  if (message.length > MAX_FRAME_BYTES || utf8.encode(message).length > MAX_FRAME_BYTES) {
    return { kind: "close", code: CLOSE_CODES.tooBig, reason: `Frames can be at most ${MAX_FRAME_BYTES / 1024} KB` };
  }
  const parsed = parseFrame(message);
  if (!parsed.ok) return { kind: "answer", frame: { type: "error", code: "invalid_frame", message: parsed.error } };
  return { kind: "frame", frame: parsed.value, text: message };
}

/**
 * The code to send in the Close frame that answers — or, in the Worker's
 * relay of a bare `/ws`, passes on — a close the peer reported with `code`.
 * Both ends use it: the room's `webSocketClose` and worker/routes/ws.ts.
 *
 * RFC 6455 §7.4.1–7.4.2: 1005 (no status received), 1006 (abnormal closure:
 * the connection dropped without a Close frame) and 1015 (TLS failure) are
 * reserved to *report* a close and must never be sent in a Close frame;
 * codes below 1000 are unused and 5000 and up are invalid.
 *
 * - 1005: the peer closed cleanly, just without a code → 1000 Normal Closure.
 * - 1006, 1015 and invalid codes: the connection ended abnormally. The
 *   purpose it was opened for was not fulfilled, so 1000 ("fulfilled")
 *   would be untrue — and our web client takes 1000 as "do not reconnect"
 *   (web/features/chat/lib/reconnect.ts). The answer is 1011 (the server
 *   met an unexpected condition): a client that reads it reconnects.
 * - Any other code (1000, 1001, 1003, 1008, 4xxx …) is sent back as it came.
 */
export function closeCodeAnswering(code: number): number {
  if (code === 1005) return CLOSE_CODES.normal;
  if (code === 1006 || code === 1015 || code < 1000 || code >= 5000) return CLOSE_CODES.serverError;
  return code;
}
