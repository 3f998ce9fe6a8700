import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ServerFrame } from "../../../../schema/chat-frames.ts";
import { goneText } from "../../../../schema/chat.ts";
import { ChatConnection, type ConnectionStatus, KEEP_ALIVE_MS, type SocketLike } from "./chat-connection.ts";

// One listener type for every event shape the fake emits.
type Listener = (event: any) => void;

class FakeSocket implements SocketLike {
  readyState = 0;
  sent: string[] = [];
  closedWith: number | null = null;
  private listeners = new Map<string, Listener[]>();
  constructor(readonly url: string) {}
  addEventListener(type: string, listener: Listener): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  send(data: string): void {
    this.sent.push(data);
  }
  close(code?: number): void {
    this.closedWith = code ?? null;
    this.readyState = 3;
  }
  emit(type: string, event?: unknown): void {
    for (const l of this.listeners.get(type) ?? []) l(event);
  }
  open(): void {
    this.readyState = 1;
    this.emit("open");
  }
  drop(code = 1006, reason = ""): void {
    this.readyState = 3;
    this.emit("close", { code, reason });
  }
}

const CONVERSATION = "c0ffee00-0000-4000-8000-000000000001";

function setup() {
  const sockets: FakeSocket[] = [];
  const statuses: ConnectionStatus[] = [];
  const reasons: (string | undefined)[] = [];
  const frames: ServerFrame[] = [];
  const connection = new ChatConnection({
    url: `ws://h/ws?conversationId=${CONVERSATION}`,
    conversationId: CONVERSATION,
    onFrame: (f) => frames.push(f),
    onStatus: (s, reason) => {
      statuses.push(s);
      reasons.push(reason);
    },
    createSocket: (url) => {
      const s = new FakeSocket(url);
      sockets.push(s);
      return s;
    },
  });
  return { connection, sockets, statuses, reasons, frames, last: () => sockets.at(-1)! };
}

describe("ChatConnection", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.spyOn(console, "warn").mockImplementation(() => {});
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it("opens /ws?conversationId=… and sends join on open", () => {
    const { connection, last, statuses } = setup();
    connection.start();
    expect(last().url).toBe(`ws://h/ws?conversationId=${CONVERSATION}`);
    expect(statuses).toEqual(["connecting"]);
    last().open();
    expect(last().sent.map((s) => JSON.parse(s))).toEqual([{ type: "join", conversationId: CONVERSATION }]);
    expect(statuses).toEqual(["connecting", "open"]);
  });

  it("passes protocol frames on and ignores pongs and junk", () => {
    const { connection, last, frames } = setup();
    connection.start();
    last().open();
    last().emit("message", { data: '{"type":"pong"}' });
    last().emit("message", { data: "garbage" });
    last().emit("message", { data: '{"type":"character_response_delta","messageId":"m","delta":"Hi"}' });
    expect(frames).toEqual([{ type: "character_response_delta", messageId: "m", delta: "Hi" }]);
  });

  it("reconnects after unclean closes at 1, 2, 4, 8, 16 s, then gives up", () => {
    const { connection, sockets, statuses, last } = setup();
    connection.start();
    last().open();
    last().drop(1006);
    for (const delay of [1000, 2000, 4000, 8000, 16000]) {
      const count = sockets.length;
      vi.advanceTimersByTime(delay - 1);
      expect(sockets.length).toBe(count);
      vi.advanceTimersByTime(1);
      expect(sockets.length).toBe(count + 1);
      last().drop(1006); // the attempt fails
    }
    expect(sockets.length).toBe(6);
    vi.advanceTimersByTime(120_000);
    expect(sockets.length).toBe(6);
    expect(statuses.at(-1)).toBe("closed");
  });

  it("a successful open resets the count", () => {
    const { connection, sockets, last } = setup();
    connection.start();
    last().open();
    last().drop();
    vi.advanceTimersByTime(1000);
    last().drop();
    vi.advanceTimersByTime(2000);
    last().open(); // back
    expect(JSON.parse(last().sent[0]!)).toEqual({ type: "join", conversationId: CONVERSATION });
    last().drop();
    const count = sockets.length;
    vi.advanceTimersByTime(1000);
    expect(sockets.length).toBe(count + 1);
  });

  it("does not reconnect after a clean close", () => {
    const { connection, sockets, statuses, last } = setup();
    connection.start();
    last().open();
    last().drop(1000);
    vi.advanceTimersByTime(60_000);
    expect(sockets.length).toBe(1);
    expect(statuses.at(-1)).toBe("closed");
  });

  it("a member removed from a shared room (1008, \"You are no longer in this chat\") is not retried: the chat is gone", () => {
    const { connection, sockets, statuses, last } = setup();
    connection.start();
    last().open();
    last().drop(1008, "You are no longer in this chat");
    vi.advanceTimersByTime(60_000);
    expect(sockets.length).toBe(1);
    expect(statuses.at(-1)).toBe("gone");
  });

  it("a suspended person (1008, \"Account suspended\") is not retried either: the page is told why, to say it", () => {
    const { connection, sockets, statuses, reasons, last } = setup();
    connection.start();
    last().open();
    last().drop(1008, "Account suspended");
    vi.advanceTimersByTime(60_000);
    expect(sockets.length).toBe(1);
    expect(statuses.at(-1)).toBe("gone");
    expect(goneText(reasons.at(-1)!)).toBe("Your account is suspended, so this chat is read-only.");
    expect(goneText("Conversation deleted")).toBe("This chat was deleted.");
  });

  it("leaving closes with 1000 and cancels a pending retry", () => {
    const { connection, sockets, last } = setup();
    connection.start();
    last().open();
    connection.close();
    expect(last().closedWith).toBe(1000);

    const other = setup();
    other.connection.start();
    other.last().drop(1006);
    other.connection.close();
    vi.advanceTimersByTime(60_000);
    expect(other.sockets.length).toBe(1);
    expect(sockets.length).toBe(1);
  });

  it("drops a frame sent while disconnected, with a warning, and says so", () => {
    const { connection, last } = setup();
    connection.start();
    const frame = { type: "chat_message", conversationId: CONVERSATION, content: "Hi", isUser: true, clientId: "k" } as const;
    expect(connection.send(frame)).toBe(false);
    expect(console.warn).toHaveBeenCalled();
    last().open();
    expect(connection.send(frame)).toBe(true);
    expect(JSON.parse(last().sent.at(-1)!)).toEqual(frame);
    last().drop();
    expect(connection.send(frame)).toBe(false);
  });

  it("pings every 30 s while open", () => {
    const { connection, last } = setup();
    connection.start();
    const first = last();
    first.open();
    vi.advanceTimersByTime(KEEP_ALIVE_MS * 2);
    expect(first.sent.slice(1)).toEqual(['{"type":"ping"}', '{"type":"ping"}']);
    first.drop();
    vi.advanceTimersByTime(KEEP_ALIVE_MS);
    expect(first.sent.slice(1)).toEqual(['{"type":"ping"}', '{"type":"ping"}']);
  });
});
