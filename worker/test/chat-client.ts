/**
 * A chat client for tests: real WebSocket upgrades through the Worker's own
 * `fetch` (exactly what a browser's `new WebSocket("/ws…")` sends), frames
 * parsed with the server union of schema/chat.ts, and waits on what arrives.
 */
import { exports } from "cloudflare:workers";
import { expect } from "vitest";
import { type ClientFrameInput, PING_FRAME, PONG_FRAME, type ServerFrame, serverFrameSchema } from "../../schema/chat-frames.ts";
import type { TestUser } from "./fixtures.ts";

export const ORIGIN = "http://localhost";

type FrameOf<T extends ServerFrame["type"]> = Extract<ServerFrame, { type: T }>;

export class ChatSocket {
  /** Every frame received, in order. */
  readonly frames: ServerFrame[] = [];
  /** Set once the server closed the socket. */
  closeEvent: { code: number; reason: string } | null = null;
  /** Keep-alive answers (PONG_FRAME) received; they are not frames of the union. */
  pongs = 0;
  private taken = new Set<number>();
  private waiters = new Set<() => void>();

  constructor(readonly ws: WebSocket) {
    ws.accept();
    ws.addEventListener("message", (event) => {
      if (event.data === PONG_FRAME) {
        this.pongs += 1;
        this.wake();
        return;
      }
      // Every frame the server sends must be one of the union's.
      const frame = serverFrameSchema.parse(JSON.parse(String(event.data)));
      this.frames.push(frame);
      this.wake();
    });
    ws.addEventListener("close", (event) => {
      this.closeEvent = { code: event.code, reason: event.reason };
      this.wake();
    });
  }

  private wake() {
    for (const waiter of this.waiters) waiter();
  }

  send(frame: ClientFrameInput | Record<string, unknown> | string): void {
    this.ws.send(typeof frame === "string" ? frame : JSON.stringify(frame));
  }

  /**
   * The first frame not yet taken by `next`/`nextWhere` of `type` that
   * matches (and it is taken); other frames stay available.
   */
  async next<T extends ServerFrame["type"]>(
    type: T,
    match: (frame: FrameOf<T>) => boolean = () => true,
    timeoutMs = 5000,
  ): Promise<FrameOf<T>> {
    const found = () => {
      for (let i = 0; i < this.frames.length; i++) {
        const frame = this.frames[i]!;
        if (!this.taken.has(i) && frame.type === type && match(frame as FrameOf<T>)) {
          this.taken.add(i);
          return frame as FrameOf<T>;
        }
      }
      return null;
    };
    return this.until(found, () => `no ${type} frame within ${timeoutMs} ms; got ${JSON.stringify(this.frames.slice(-8))}`, timeoutMs);
  }

  /** The first frame not yet taken for which `match` holds, of any type. */
  async nextWhere(match: (frame: ServerFrame) => boolean, timeoutMs = 5000): Promise<ServerFrame> {
    const found = () => {
      for (let i = 0; i < this.frames.length; i++) {
        if (!this.taken.has(i) && match(this.frames[i]!)) {
          this.taken.add(i);
          return this.frames[i]!;
        }
      }
      return null;
    };
    return this.until(found, () => `no matching frame within ${timeoutMs} ms; got ${JSON.stringify(this.frames.slice(-8))}`, timeoutMs);
  }

  /** Sends the keep-alive ping and waits for its pong. */
  async ping(timeoutMs = 5000): Promise<void> {
    const expected = this.pongs + 1;
    this.send(PING_FRAME);
    await this.until(() => (this.pongs >= expected ? true : null), () => `no pong within ${timeoutMs} ms`, timeoutMs);
  }

  /** Waits for the server to close the socket. */
  async closed(timeoutMs = 5000): Promise<{ code: number; reason: string }> {
    return this.until(() => this.closeEvent, () => `socket not closed within ${timeoutMs} ms`, timeoutMs);
  }

  /** Sends a chat message and waits for the reply; returns the frames of that exchange. */
  async chat(conversationId: string, content: string, clientId: string = crypto.randomUUID()) {
    this.send({ type: "chat_message", conversationId, content, isUser: true, clientId });
    const saved = await this.next("message_saved", (f) => f.clientId === clientId);
    const response = await this.next("character_response");
    return { saved, response };
  }

  private until<R>(probe: () => R | null, message: () => string, timeoutMs: number): Promise<R> {
    const now = probe();
    if (now !== null) return Promise.resolve(now);
    return new Promise<R>((resolve, reject) => {
      const waiter = () => {
        const value = probe();
        if (value === null) return;
        clearTimeout(timer);
        this.waiters.delete(waiter);
        resolve(value);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(message()));
      }, timeoutMs);
      this.waiters.add(waiter);
    });
  }

  close(code = 1000, reason = "bye"): void {
    try {
      this.ws.close(code, reason);
    } catch {
      // already closed
    }
  }
}

export interface UpgradeOptions {
  user?: TestUser | null;
  conversationId?: string;
  origin?: string | null;
  upgrade?: boolean;
}

/** The raw answer of `/ws` to an upgrade (status, body or socket). */
export function upgrade({ user = null, conversationId, origin = ORIGIN, upgrade = true }: UpgradeOptions): Promise<Response> {
  const headers: Record<string, string> = {};
  if (upgrade) headers.upgrade = "websocket";
  if (user) headers.cookie = user.cookie;
  if (origin !== null) headers.origin = origin;
  const query = conversationId === undefined ? "" : `?conversationId=${encodeURIComponent(conversationId)}`;
  return exports.default.fetch(`http://localhost/ws${query}`, { headers });
}

/** Opens a chat socket; fails the test unless the upgrade succeeded. */
export async function connect(user: TestUser, conversationId?: string): Promise<ChatSocket> {
  const res = await upgrade({ user, conversationId });
  if (res.status !== 101) expect(res.status, await res.text()).toBe(101);
  expect(res.webSocket).toBeTruthy();
  return new ChatSocket(res.webSocket!);
}

/** Opens `/ws?conversationId=…` and joins; returns the socket and its history. */
export async function join(user: TestUser, conversationId: string) {
  const socket = await connect(user, conversationId);
  socket.send({ type: "join", conversationId });
  const history = await socket.next("history_sync");
  return { socket, history };
}

/** Retries `probe` until it returns a value that is not null/undefined/false (for D1 writes that follow a frame). */
export async function eventually<T>(probe: () => Promise<T | null | undefined | false>, timeoutMs = 3000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null && value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
