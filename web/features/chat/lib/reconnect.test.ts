import { describe, expect, it } from "vitest";
import {
  MAX_RECONNECT_ATTEMPTS,
  type ReconnectState,
  initialReconnectState,
  onSocketClose,
  onSocketOpen,
  reconnectDelayMs,
} from "./reconnect.ts";

/** Closes the socket uncleanly until the schedule gives up; the delays it asked for, ms. */
function delaysUntilGivingUp(start: ReconnectState, code = 1006): number[] {
  const delays: number[] = [];
  let state = start;
  for (let i = 0; i < 20; i++) {
    const next = onSocketClose(state, code);
    if (next.delayMs === null) return delays;
    delays.push(next.delayMs);
    state = next.state;
  }
  throw new Error("never gave up");
}

describe("reconnect schedule", () => {
  it("waits 2^attempt seconds, attempt from 0", () => {
    expect([0, 1, 2, 3, 4].map(reconnectDelayMs)).toEqual([1000, 2000, 4000, 8000, 16000]);
  });

  it("tries at most 5 times after unclean closes: 1, 2, 4, 8, 16 s", () => {
    expect(MAX_RECONNECT_ATTEMPTS).toBe(5);
    expect(delaysUntilGivingUp(initialReconnectState)).toEqual([1000, 2000, 4000, 8000, 16000]);
  });

  it("does not reconnect after a clean close (1000)", () => {
    expect(onSocketClose(initialReconnectState, 1000)).toEqual({ state: initialReconnectState, delayMs: null });
    expect(onSocketClose({ attempt: 2 }, 1000).delayMs).toBeNull();
  });

  it("reconnects after any other code, policy and server errors included", () => {
    for (const code of [1001, 1006, 1008, 1011, 4000]) expect(onSocketClose(initialReconnectState, code).delayMs).toBe(1000);
  });

  it("starts the count again after a successful open", () => {
    let state = initialReconnectState;
    for (let i = 0; i < 3; i++) state = onSocketClose(state, 1006).state;
    expect(onSocketClose(state, 1006).delayMs).toBe(8000);
    state = onSocketOpen();
    expect(delaysUntilGivingUp(state)).toEqual([1000, 2000, 4000, 8000, 16000]);
  });

  it("stays closed once all attempts failed", () => {
    expect(onSocketClose({ attempt: 5 }, 1006)).toEqual({ state: { attempt: 5 }, delayMs: null });
  });
});

describe("a chat that is gone for this person", () => {
  it("a 1008 close saying they were removed, the chat deleted or not found is final at once; other 1008 closes are retried", () => {
    for (const reason of ["You are no longer in this chat", "Conversation deleted", "Conversation not found"]) {
      expect(onSocketClose(initialReconnectState, 1008, reason)).toEqual({ state: initialReconnectState, delayMs: null, gone: true });
    }
    expect(onSocketClose(initialReconnectState, 1008, "Closed after 10 minutes without activity").delayMs).toBe(1000);
    // The same words with another code are not a removal.
    expect(onSocketClose(initialReconnectState, 1011, "You are no longer in this chat").gone).toBeUndefined();
  });
});
