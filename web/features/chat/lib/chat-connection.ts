/**
 * The chat page's real-time connection without React (SPEC.md §4
 * "Real-time connection", §9; DESIGN.md "Real-time chat protocol"):
 *
 * - `start()` opens the socket and sends `join` on every open; the server
 *   answers with `history_sync`.
 * - After an unclean close (code ≠ 1000) it reconnects after 1, 2, 4, 8,
 *   16 s, at most 5 times; a successful open resets the count
 *   (reconnect.ts). A 1008 close saying the chat is gone for this person
 *   (removed from a shared room, deleted, not found, suspended) is final at once
 *   (status "gone").
 * - `close()` (leaving the page) closes with 1000 and stops reconnecting.
 * - `send()` while not connected drops the frame with a console warning
 *   (SPEC.md §4) and returns false, so the caller can keep the text.
 * - Every 30 s it sends the keep-alive ping, which the runtime answers
 *   without waking the conversation, so idle proxies keep the socket open.
 */
import { type ClientFrameInput, PING_FRAME, PONG_FRAME, type ServerFrame } from "../../../../schema/chat-frames.ts";
import { parseServerFrame } from "./chat-socket.ts";
import { NORMAL_CLOSE_CODE, type ReconnectState, initialReconnectState, onSocketClose, onSocketOpen } from "./reconnect.ts";

/**
 * connecting: first attempt; open: joined; reconnecting: between attempts;
 * closed: given up or closed cleanly; gone: the chat is not there for this
 * person any more (removed from a shared room, deleted), never retried.
 */
export type ConnectionStatus = "connecting" | "open" | "reconnecting" | "closed" | "gone";

/** Keep-alive interval, ms. */
export const KEEP_ALIVE_MS = 30_000;

/** The part of the browser's WebSocket this uses (tests pass a fake). */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: "open" | "error", listener: () => void): void;
  addEventListener(type: "message", listener: (event: { data: unknown }) => void): void;
  addEventListener(type: "close", listener: (event: { code: number; reason: string }) => void): void;
}

/** `WebSocket.OPEN`. */
const OPEN = 1;

export interface ChatConnectionOptions {
  url: string;
  conversationId: string;
  /** Every valid server frame, in order. */
  onFrame: (frame: ServerFrame) => void;
  /** Each change of status; `reason` is the close's reason when the status is "gone" (schema/chat.ts GONE_CLOSE_REASONS). */
  onStatus: (status: ConnectionStatus, reason?: string) => void;
  createSocket?: (url: string) => SocketLike;
}

export class ChatConnection {
  private socket: SocketLike | null = null;
  private reconnect: ReconnectState = initialReconnectState;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private keepAlive: ReturnType<typeof setInterval> | undefined;
  private disposed = false;
  private readonly createSocket: (url: string) => SocketLike;

  constructor(private readonly options: ChatConnectionOptions) {
    this.createSocket = options.createSocket ?? ((url) => new WebSocket(url) as SocketLike);
  }

  start(): void {
    this.options.onStatus("connecting");
    this.connect();
  }

  /** Sends `frame` when the socket is open; otherwise drops it with a console warning and returns false. */
  send(frame: ClientFrameInput): boolean {
    const ws = this.socket;
    if (!ws || ws.readyState !== OPEN) {
      console.warn(`chat socket: not connected, "${frame.type}" was not sent`);
      return false;
    }
    ws.send(JSON.stringify(frame));
    return true;
  }

  /** Leaving: closes with 1000 and never reconnects. */
  close(): void {
    this.disposed = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.keepAlive);
    const ws = this.socket;
    this.socket = null;
    ws?.close(NORMAL_CLOSE_CODE, "Left the conversation");
  }

  private connect(): void {
    const ws = this.createSocket(this.options.url);
    this.socket = ws;
    ws.addEventListener("open", () => {
      if (this.disposed || this.socket !== ws) return;
      this.reconnect = onSocketOpen();
      ws.send(JSON.stringify({ type: "join", conversationId: this.options.conversationId } satisfies ClientFrameInput));
      this.options.onStatus("open");
      clearInterval(this.keepAlive);
      this.keepAlive = setInterval(() => {
        if (ws.readyState === OPEN) ws.send(PING_FRAME);
      }, KEEP_ALIVE_MS);
    });
    ws.addEventListener("message", (event) => {
      if (this.disposed || this.socket !== ws || event.data === PONG_FRAME) return;
      const frame = parseServerFrame(event.data);
      if (frame) this.options.onFrame(frame);
    });
    ws.addEventListener("error", () => console.warn("chat socket: connection error"));
    ws.addEventListener("close", (event) => {
      if (this.disposed || this.socket !== ws) return;
      clearInterval(this.keepAlive);
      this.socket = null;
      const next = onSocketClose(this.reconnect, event.code, event.reason);
      this.reconnect = next.state;
      if (next.gone) {
        this.options.onStatus("gone", event.reason);
        return;
      }
      if (next.delayMs === null) {
        if (event.code !== NORMAL_CLOSE_CODE) console.warn(`chat socket: closed (${event.code}), giving up`);
        this.options.onStatus("closed");
        return;
      }
      console.warn(`chat socket: closed (${event.code}${event.reason ? ` ${event.reason}` : ""}), retrying in ${next.delayMs} ms`);
      this.options.onStatus("reconnecting");
      this.retryTimer = setTimeout(() => this.connect(), next.delayMs);
    });
  }
}
