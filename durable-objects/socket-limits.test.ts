/**
 * The socket limits' two decisions, on plain data: which sockets are the
 * oldest beyond a cap, and which are idle and when to look again.
 */
import { describe, expect, it } from "vitest";
import { GONE_CLOSE_REASONS, isGoneClose } from "../schema/chat.ts";
import { CLOSE_REASONS, idleSockets, oldestBeyond } from "./socket-limits.ts";

describe("oldestBeyond", () => {
  it("picks the oldest beyond the cap, earlier in the list first on a tie, and nothing within it", () => {
    const sockets = [
      { id: "c", openedAt: 30 },
      { id: "a", openedAt: 10 },
      { id: "b1", openedAt: 20 },
      { id: "b2", openedAt: 20 },
    ];
    expect(oldestBeyond(sockets, 4)).toEqual([]);
    expect(oldestBeyond(sockets, 2).map((s) => s.id)).toEqual(["a", "b1"]);
    expect(oldestBeyond(sockets, 0).map((s) => s.id)).toEqual(["a", "b1", "b2", "c"]);
  });
});

describe("idleSockets", () => {
  it("is idle at exactly the timeout; the next check is when the next one gets there", () => {
    const sockets = [
      { id: "old", lastActiveAt: 1_000 },
      { id: "recent", lastActiveAt: 5_000 },
      { id: "newer", lastActiveAt: 7_000 },
    ];
    expect(idleSockets(sockets, 11_000, 10_000)).toEqual({ idle: [sockets[0]], nextCheckAt: 15_000 });
    expect(idleSockets(sockets, 10_999, 10_000)).toEqual({ idle: [], nextCheckAt: 11_000 });
    expect(idleSockets(sockets, 20_000, 10_000)).toEqual({ idle: sockets, nextCheckAt: null });
    expect(idleSockets([], 0, 10_000)).toEqual({ idle: [], nextCheckAt: null });
  });
});

describe("CLOSE_REASONS", () => {
  it("fit a WebSocket close frame (123 bytes)", () => {
    for (const reason of Object.values(CLOSE_REASONS)) expect(new TextEncoder().encode(reason).length).toBeLessThanOrEqual(123);
  });

  it("a suspension's close is one the web page treats as gone (read-only, no reconnecting)", () => {
    expect(GONE_CLOSE_REASONS.suspended).toBe(CLOSE_REASONS.suspended);
    expect(isGoneClose(1008, CLOSE_REASONS.suspended)).toBe(true);
    expect(isGoneClose(1008, CLOSE_REASONS.idle)).toBe(false);
  });
});
