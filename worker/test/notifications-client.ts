/**
 * The notifications API and socket as a browser uses them, for tests:
 * real upgrades of `/ws/notifications` through the Worker's own `fetch`,
 * frames parsed with schema/notifications.ts, waits on what arrives.
 */
import { exports } from "cloudflare:workers";
import { expect } from "vitest";
import { type NotificationFrame, type NotificationList, notificationFrameSchema } from "../../schema/notifications.ts";
import { ORIGIN } from "./chat-client.ts";
import { call, json } from "./creator-api.ts";
import type { TestUser } from "./fixtures.ts";

export class NotificationSocket {
  readonly frames: NotificationFrame[] = [];
  closeEvent: { code: number; reason: string } | null = null;
  private waiters = new Set<() => void>();

  constructor(readonly ws: WebSocket) {
    ws.accept();
    ws.addEventListener("message", (event) => {
      this.frames.push(notificationFrameSchema.parse(JSON.parse(String(event.data))) as NotificationFrame);
      for (const waiter of this.waiters) waiter();
    });
    ws.addEventListener("close", (event) => {
      this.closeEvent = { code: event.code, reason: event.reason };
      for (const waiter of this.waiters) waiter();
    });
  }

  /** The newest unread count the socket was told (either frame carries it); null before any. */
  get unread(): number | null {
    const last = this.frames.at(-1);
    if (!last) return null;
    return last.type === "unread" ? last.count : last.unread;
  }

  /** Waits until `probe` holds over the frames so far. */
  until<T>(probe: (socket: NotificationSocket) => T | null | undefined | false, timeoutMs = 5000): Promise<T> {
    const now = probe(this);
    if (now !== null && now !== undefined && now !== false) return Promise.resolve(now);
    return new Promise<T>((resolve, reject) => {
      const waiter = () => {
        const value = probe(this);
        if (value === null || value === undefined || value === false) return;
        clearTimeout(timer);
        this.waiters.delete(waiter);
        resolve(value);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(`condition not met within ${timeoutMs} ms; frames: ${JSON.stringify(this.frames.slice(-6))}`));
      }, timeoutMs);
      this.waiters.add(waiter);
    });
  }

  /** Waits until the newest count told is `count`. */
  unreadIs(count: number, timeoutMs = 5000): Promise<true> {
    return this.until((socket) => socket.unread === count, timeoutMs);
  }

  close(): void {
    try {
      this.ws.close(1000, "bye");
    } catch {
      // already closed
    }
  }
}

/** The raw answer of `/ws/notifications` to an upgrade. */
export function upgradeNotifications(user: TestUser | null, origin: string | null = ORIGIN, upgrade = true): Promise<Response> {
  const headers: Record<string, string> = {};
  if (upgrade) headers.upgrade = "websocket";
  if (user) headers.cookie = user.cookie;
  if (origin !== null) headers.origin = origin;
  return exports.default.fetch("http://localhost/ws/notifications", { headers });
}

/** Opens the person's notification socket and waits for its first count. */
export async function openNotifications(user: TestUser): Promise<NotificationSocket> {
  const res = await upgradeNotifications(user);
  if (res.status !== 101) expect(res.status, await res.text()).toBe(101);
  const socket = new NotificationSocket(res.webSocket!);
  await socket.until((s) => s.frames.length > 0);
  return socket;
}

export async function listNotifications(user: TestUser, query = ""): Promise<NotificationList> {
  return json<NotificationList>(await call(`/api/notifications${query}`, { user }), 200);
}

export async function markRead(user: TestUser, body: unknown): Promise<Response> {
  return call("/api/notifications/read", { method: "POST", user, body, headers: { origin: ORIGIN } });
}
