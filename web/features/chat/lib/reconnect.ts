/**
 * Reconnection schedule of the chat socket (SPEC.md §4 "Real-time
 * connection", §9): after an unclean close (any code but 1000) the client
 * tries again after 2^attempt seconds, attempt counted from 0 — 1 s, 2 s,
 * 4 s, 8 s, 16 s — at most 5 times; a successful open resets the count.
 * A close that says the chat is gone for this person (schema/chat.ts
 * isGoneClose: removed from a shared room, deleted, not found) is final at
 * once: trying again cannot succeed.
 */
import { isGoneClose } from "../../../../schema/chat.ts";


/** Reconnection attempts after an unclean close before giving up (SPEC.md §9). */
export const MAX_RECONNECT_ATTEMPTS = 5;

/** The close code of a deliberate, clean close (RFC 6455 §7.4.1); no reconnect follows it. */
export const NORMAL_CLOSE_CODE = 1000;

/** Delay before reconnection attempt `attempt` (0-based), ms: 2^attempt × 1000. */
export function reconnectDelayMs(attempt: number): number {
  return 2 ** attempt * 1000;
}

/** How many reconnection attempts have been made since the last successful open. */
export interface ReconnectState {
  attempt: number;
}

export const initialReconnectState: ReconnectState = { attempt: 0 };

/** A successful open: the count starts again from 0. */
export function onSocketOpen(): ReconnectState {
  return { attempt: 0 };
}

/**
 * What to do after the socket closed with `code` and `reason`: `delayMs`
 * until the next attempt and the state after scheduling it, or `delayMs:
 * null` (a clean close, all MAX_RECONNECT_ATTEMPTS used, or `gone`: the
 * chat is not there for this person any more) meaning stay closed.
 */
export function onSocketClose(
  state: ReconnectState,
  code: number,
  reason = "",
): { state: ReconnectState; delayMs: number | null; gone?: true } {
  if (isGoneClose(code, reason)) return { state, delayMs: null, gone: true };
  if (code === NORMAL_CLOSE_CODE || state.attempt >= MAX_RECONNECT_ATTEMPTS) return { state, delayMs: null };
  return { state: { attempt: state.attempt + 1 }, delayMs: reconnectDelayMs(state.attempt) };
}
