/**
 * How many chat sockets a person may hold, and for how long a silent one is
 * kept. Shared by the ConversationRoom (which holds the sockets) and
 * PersonSockets (which counts a person's sockets across conversations; why
 * that is a Durable Object: person-sockets.ts).
 *
 * - At most MAX_SOCKETS_PER_CONVERSATION open sockets per conversation (a
 *   conversation has one owner, so this is per person per conversation) and
 *   MAX_SOCKETS_PER_PERSON across all of a person's conversations. A new
 *   socket over either cap is accepted and the oldest one is closed with
 *   1008 and a reason: the tab opened last is the one the person is using.
 * - At most MAX_WAITING_SOCKETS_PER_PERSON bare `/ws` sockets waiting for
 *   `join` (JOIN_TIMEOUT_MS) per person, counted by PersonSockets too; the
 *   one beyond it is closed with 1008 and a reason.
 * - A socket with no traffic for IDLE_TIMEOUT_MS — no frame and no
 *   keep-alive ping (our web client pings every 30 s, also from a background
 *   tab) — is closed with 1008 and a reason.
 */

/** Open sockets one person keeps in one conversation (several tabs of one chat; in a shared room, each person); the oldest beyond it is closed. */
export const MAX_SOCKETS_PER_CONVERSATION = 8;
/** Open chat sockets one person keeps across all their conversations; the oldest beyond it is closed. */
export const MAX_SOCKETS_PER_PERSON = 16;
/** A bare `/ws` (SPEC.md's join-first socket, relayed by the Worker) must send `join` within this long, ms. */
export const JOIN_TIMEOUT_MS = 10_000;
/**
 * Bare `/ws` sockets one person may have waiting for `join` at once; one
 * more is closed at once with 1008 and CLOSE_REASONS.waitingCap. (The
 * waiting socket lives in a Worker that no object can reach, so the newest
 * is refused rather than the oldest closed.) A client joins within one
 * round trip, so a few tabs opening together stay well within it.
 */
export const MAX_WAITING_SOCKETS_PER_PERSON = 4;
/** A socket with no frame and no ping for this long is closed, ms (10 minutes). */
export const IDLE_TIMEOUT_MS = 10 * 60_000;
/**
 * How stale a socket's stored "last seen" time may get, ms: a frame rewrites
 * it only when it is older than this, so the idle timeout is exact to within
 * a minute without a storage write per frame.
 */
export const SEEN_RESOLUTION_MS = 60_000;

/** Close reasons (at most 123 bytes each, the WebSocket limit). */
export const CLOSE_REASONS = {
  conversationCap: `Too many connections to this conversation (at most ${MAX_SOCKETS_PER_CONVERSATION}): closed the oldest`,
  personCap: `Too many chat connections open (at most ${MAX_SOCKETS_PER_PERSON}): closed the oldest`,
  idle: `Closed after ${IDLE_TIMEOUT_MS / 60_000} minutes without activity`,
  waitingCap: `Too many connections waiting for join (at most ${MAX_WAITING_SOCKETS_PER_PERSON}): send join first`,
  /** The person was suspended (room/suspension.ts): every socket of theirs, in every conversation. */
  suspended: "Account suspended",
  /** The session the socket was opened under was ended from the list of signed-in devices (worker/lib/account/sessions.ts). */
  signedOut: "Signed out on this device",
  /** The person deleted their account (worker/lib/account/deletion.ts): every socket of theirs. */
  accountDeleted: "Account deleted",
} as const;

/** A socket as the limits see it. */
export interface SocketAge {
  /** When it was opened, ms since the epoch. */
  openedAt: number;
  /** Its latest traffic (frame or ping), ms since the epoch. */
  lastActiveAt: number;
}

/** The sockets to close so that at most `cap` remain: the oldest ones (by openedAt; input order breaks ties). */
export function oldestBeyond<T extends Pick<SocketAge, "openedAt">>(sockets: readonly T[], cap: number): T[] {
  if (sockets.length <= cap) return [];
  const byAge = sockets.map((socket, index) => ({ socket, index })).sort((a, b) => a.socket.openedAt - b.socket.openedAt || a.index - b.index);
  return byAge.slice(0, sockets.length - cap).map((entry) => entry.socket);
}

/**
 * Which of `sockets` have been silent for `timeoutMs` or more at `now` (ms),
 * and when the next of the others will have been (`nextCheckAt`, ms since
 * the epoch; null when none remain).
 */
export function idleSockets<T extends Pick<SocketAge, "lastActiveAt">>(
  sockets: readonly T[],
  now: number,
  timeoutMs: number,
): { idle: T[]; nextCheckAt: number | null } {
  const idle: T[] = [];
  let nextCheckAt: number | null = null;
  for (const socket of sockets) {
    const due = socket.lastActiveAt + timeoutMs;
    if (due <= now) idle.push(socket);
    else nextCheckAt = nextCheckAt === null ? due : Math.min(nextCheckAt, due);
  }
  return { idle, nextCheckAt };
}

/**
 * What PersonSockets asks of a conversation's room (RPC): the ids of the
 * room's open sockets, and to close one of them (1008, `reason`); false
 * when the room has no such open socket.
 */
export interface SocketHolder {
  openSocketIds(): Promise<string[]>;
  closeSocket(socketId: string, reason: string): Promise<boolean>;
}
