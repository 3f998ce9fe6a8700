/**
 * The bench's chat client (scripts/bench-chat.ts): one person's WebSocket
 * in a room, recording when each frame of the room protocol arrives
 * (schema/chat-frames.ts), and one exchange — a `chat_message` sent and the
 * round answering it awaited. Times are `performance.now()` ms.
 */
import { randomUUID } from "node:crypto";

/** A bench person: their user id and the `cookie` header of their session. */
export interface Person {
  id: string;
  cookie: string;
}

/** How sockets connect and what counts as an error. */
export interface SocketOptions {
  /** The port the sockets connect to (wrangler dev's, or the inner workerd's with --direct). */
  port: number | string;
  /** Bare `/ws` + `join` instead of `/ws?conversationId=`. */
  bare: boolean;
  /** The probe's messages are refused on purpose: their refusals are not errors. */
  probe: boolean;
}

/** One `chat_message` of one person in one conversation, timed from the send (performance.now(), ms). */
export interface Sample {
  clientId: string;
  /** The sender: an index into the room's members (0 is the owner). */
  sender: number;
  sentAt: number;
  /** The sender's own socket got the `message_saved`. */
  savedAt: number | null;
  /** Shared rooms: when each other member's socket got the `message_saved`, by member index. */
  receipts: Map<number, number>;
  /**
   * The room was not idle when the message was saved (as the sender's socket
   * saw it): a round was under way, or another message waited for one.
   */
  queued: boolean;
  /** The round answering it began: the first round to start on the sender's socket after its `message_saved`. */
  roundStarted: boolean;
  firstDeltaAt: number | null;
  /** The last reply of its round ended (one reply in a one-to-one chat). */
  responseAt: number | null;
  refusedAt: number | null;
  /** The error code that refused it (`busy`, `rate_limited`, …), or null. */
  refusal: string | null;
  /** Replies of its round ended so far, and when the latest did. */
  repliesSeen: number;
  lastReplyAt: number | null;
  /** Group chats: ms from each reply's end to the next reply's first delta. */
  handoffs: number[];
}

/** One conversation: a person's own, or with --people P a shared room of P people. */
export interface Room {
  conversationId: string;
  /** Replies per round: 1, or the cast's size in a group chat (the list order). */
  repliesPerMessage: number;
  /** Messages the conversation started with (greetings). */
  initialReplies: number;
  /** The owner first, then the invited members. */
  people: Person[];
  /** One socket per person, in the order of `people`. */
  members: Member[];
  /** Every message sent in the room, by clientId, in the order sent. */
  samples: Map<string, Sample>;
}

/** One person's socket in a room. */
export interface Member {
  room: Room;
  index: number;
  ws: WebSocket;
  joined: Promise<void>;
  /** `message_saved` frames of the bench's own messages per clientId, and replies per message id, as this socket got them. */
  saved: Map<string, number>;
  responses: Map<string, number>;
  errors: string[];
  /** This person's message in flight, if any. */
  current: Sample | null;
  /** Resolves when `current` is answered or refused, or the socket closes. */
  answered: (() => void) | null;
  /** A reply round is under way as this socket sees it (from its first `reply_started` to its last reply), and its replies so far. */
  inRound: boolean;
  roundReplies: number;
  /** A message was saved since the last round started (it waits for the next). */
  awaitingRound: boolean;
  /** Called when a round starts or ends on this socket (or it closes). */
  roundChanged: (() => void)[];
  closed: boolean;
}

/** Opens `room`'s socket for its member `index` and starts recording its frames; resolves once open (`joined` on `history_sync`). */
/** Opens `room`'s socket for its member `index` and starts recording its frames; resolves once open (`joined` on `history_sync`). */
export function open(room: Room, index: number, options: SocketOptions): Promise<Member> {
  const { conversationId } = room;
  const person = room.people[index]!;
  const url = options.bare ? `ws://127.0.0.1:${options.port}/ws` : `ws://127.0.0.1:${options.port}/ws?conversationId=${conversationId}`;
  // Node's WebSocket (undici) takes headers — the browser's cookie and Origin —
  // though the DOM typings know only the protocols argument.
  const headers = { cookie: person.cookie, origin: `http://127.0.0.1:${options.port}` };
  const ws = new WebSocket(url, { headers } as unknown as string[]);
  return new Promise((resolve, reject) => {
    let joinedResolve!: () => void;
    const member: Member = {
      room,
      index,
      ws,
      joined: new Promise((r) => (joinedResolve = r)),
      saved: new Map(),
      responses: new Map(),
      errors: [],
      current: null,
      answered: null,
      inRound: false,
      roundReplies: 0,
      awaitingRound: false,
      roundChanged: [],
      closed: false,
    };
    room.members[index] = member;
    const settle = () => {
      const answered = member.answered;
      member.answered = null;
      answered?.();
    };
    /** The round under way ended (all its replies, or one failed): its message is answered, waiters go on. */
    const endRound = (now: number, failed: boolean) => {
      member.inRound = false;
      member.roundReplies = 0;
      const current = member.current;
      if (current?.roundStarted && current.responseAt === null) {
        if (!failed) current.responseAt = now;
        settle();
      }
      for (const waiter of member.roundChanged.splice(0)) waiter();
    };
    ws.addEventListener("open", () => {
      ws.send(JSON.stringify({ type: "join", conversationId }));
      resolve(member);
    });
    ws.addEventListener("error", () => reject(new Error(`WebSocket to ${conversationId} failed`)));
    ws.addEventListener("message", (event) => {
      const now = performance.now();
      const frame = JSON.parse(String(event.data)) as { type: string; clientId?: string | null; messageId?: string; message?: string; code?: string };
      const current = member.current;
      switch (frame.type) {
        case "history_sync":
          joinedResolve();
          break;
        case "message_saved": {
          const sample = frame.clientId ? room.samples.get(frame.clientId) : undefined;
          const awaiting = member.awaitingRound;
          member.awaitingRound = true;
          if (!sample) break;
          member.saved.set(sample.clientId, (member.saved.get(sample.clientId) ?? 0) + 1);
          if (sample.sender !== index) {
            if (!sample.receipts.has(index)) sample.receipts.set(index, now);
          } else if (sample.savedAt === null) {
            sample.savedAt = now;
            sample.queued = member.inRound || awaiting;
          }
          break;
        }
        case "reply_started":
          if (!member.inRound) {
            member.inRound = true;
            member.roundReplies = 0;
            member.awaitingRound = false;
            // The first round to start after the person's message was saved is the one answering it.
            if (current && current.savedAt !== null && current.refusedAt === null) current.roundStarted = true;
            for (const waiter of member.roundChanged.splice(0)) waiter();
          }
          break;
        case "character_response_delta":
          if (current?.roundStarted && current.responseAt === null) {
            if (current.firstDeltaAt === null) current.firstDeltaAt = now;
            else if (current.lastReplyAt !== null && current.handoffs.length < current.repliesSeen) current.handoffs.push(now - current.lastReplyAt);
          }
          break;
        case "character_response":
          member.responses.set(frame.messageId ?? "?", (member.responses.get(frame.messageId ?? "?") ?? 0) + 1);
          if (!member.inRound) break;
          member.roundReplies += 1;
          if (current?.roundStarted && current.responseAt === null) {
            current.repliesSeen += 1;
            current.lastReplyAt = now;
          }
          if (member.roundReplies >= room.repliesPerMessage) endRound(now, false);
          break;
        case "error":
          if (current && current.refusedAt === null && current.savedAt === null && (frame.clientId === current.clientId || !frame.clientId) && !frame.messageId) {
            // The person's own message refused: `busy` (another round under way), `rate_limited`, or the probe's invalid frame.
            current.refusedAt = now;
            current.refusal = frame.code ?? "?";
            if (!options.probe && frame.code !== "busy") member.errors.push(frame.message ?? "?");
            settle();
          } else if (frame.messageId) {
            // A reply failed (model_failed, stopped_empty): its round ends there.
            member.errors.push(frame.message ?? "?");
            endRound(now, true);
          } else if (!options.probe) member.errors.push(frame.message ?? "?");
          break;
      }
    });
    ws.addEventListener("close", (event) => {
      member.closed = true;
      if (member.answered) member.errors.push(`closed ${event.code} ${event.reason}`);
      settle();
      for (const waiter of member.roundChanged.splice(0)) waiter();
    });
  });
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Resolves with `promise`, or after `ms` (ms) if it has not settled by then. */
async function atMost(promise: Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/**
 * `member` sends one message and waits for the end of the round answering
 * it (or its refusal), at most 60 s. Refused as `busy` (another person's
 * round under way), the person waits for that round to end (at most 60 s
 * more) before going on, as someone reading the room would; when no round
 * is under way on their socket yet (the other message is still being
 * admitted, or the round has just ended), for one to start, at most 5 s.
 */
export async function exchange(member: Member, text: string): Promise<void> {
  if (member.closed) return;
  const sample: Sample = {
    clientId: randomUUID(),
    sender: member.index,
    sentAt: 0,
    savedAt: null,
    receipts: new Map(),
    queued: false,
    roundStarted: false,
    firstDeltaAt: null,
    responseAt: null,
    refusedAt: null,
    refusal: null,
    repliesSeen: 0,
    lastReplyAt: null,
    handoffs: [],
  };
  member.room.samples.set(sample.clientId, sample);
  member.current = sample;
  const answered = new Promise<void>((resolve) => (member.answered = resolve));
  sample.sentAt = performance.now();
  member.ws.send(JSON.stringify({ type: "chat_message", conversationId: member.room.conversationId, content: text, isUser: true, clientId: sample.clientId }));
  await atMost(answered, 60_000);
  member.answered = null;
  if (sample.refusal === "busy") {
    const roundChange = () => new Promise<void>((resolve) => member.roundChanged.push(resolve));
    if (!member.inRound && !member.closed) await atMost(roundChange(), 5_000);
    if (member.inRound && !member.closed) await atMost(roundChange(), 60_000);
  }
  member.current = null;
}

/** What the run is doing, for the watchdog's message. */
