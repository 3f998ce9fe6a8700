/**
 * The signed-in person's notification socket (`/ws/notifications`, DESIGN.md
 * turn 4 "Notifications"): one per tab, opened by the bell. Every frame
 * carries the exact unread count, written into the query cache
 * (api/notifications.ts UNREAD_KEY) so the bell changes without a reload;
 * a new notification also refetches the list if a page shows it. Keeps
 * alive with the chat socket's ping (the runtime answers it without waking
 * the inbox) and reconnects with a growing delay, 1 s up to 30 s; a 1008
 * close (signed out, suspended) is final.
 */
import type { QueryClient } from "@tanstack/react-query";
import { PING_FRAME, PONG_FRAME } from "../../../../schema/chat-frames.ts";
import { type NotificationFrame, notificationFrameSchema } from "../../../../schema/notifications.ts";
import { LIST_KEY, UNREAD_KEY } from "../api/notifications.ts";

const KEEP_ALIVE_MS = 30_000;
const MAX_RETRY_MS = 30_000;

/** Reads one frame; null for anything that is not one. */
export function parseNotificationFrame(data: unknown): NotificationFrame | null {
  if (typeof data !== "string" || data === PONG_FRAME) return null;
  try {
    const parsed = notificationFrameSchema.safeParse(JSON.parse(data));
    return parsed.success ? (parsed.data as NotificationFrame) : null;
  } catch {
    return null;
  }
}

/** What a frame changes in the cache. */
export function applyNotificationFrame(client: QueryClient, frame: NotificationFrame): void {
  if (frame.type === "unread") {
    client.setQueryData(UNREAD_KEY, frame.count);
    // Read elsewhere: a page open here shows it read too.
    void client.invalidateQueries({ queryKey: LIST_KEY, exact: true });
    return;
  }
  client.setQueryData(UNREAD_KEY, frame.unread);
  void client.invalidateQueries({ queryKey: LIST_KEY, exact: true });
}

/** Opens the socket and keeps it open until the returned function is called. */
export function connectNotifications(client: QueryClient, url = socketUrl()): () => void {
  let ws: WebSocket | null = null;
  let stopped = false;
  let retryMs = 1_000;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let keepAlive: ReturnType<typeof setInterval> | undefined;

  const open = () => {
    const socket = new WebSocket(url);
    ws = socket;
    socket.addEventListener("open", () => {
      retryMs = 1_000;
      keepAlive = setInterval(() => {
        if (socket.readyState === WebSocket.OPEN) socket.send(PING_FRAME);
      }, KEEP_ALIVE_MS);
    });
    socket.addEventListener("message", (event) => {
      const frame = parseNotificationFrame(event.data);
      if (frame) applyNotificationFrame(client, frame);
    });
    socket.addEventListener("close", (event) => {
      clearInterval(keepAlive);
      if (stopped || ws !== socket || event.code === 1008) return;
      retryTimer = setTimeout(open, retryMs);
      retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
    });
  };
  open();
  return () => {
    stopped = true;
    clearTimeout(retryTimer);
    clearInterval(keepAlive);
    ws?.close(1000, "Left");
  };
}

function socketUrl(): string {
  const { protocol, host } = window.location;
  return `${protocol === "https:" ? "wss:" : "ws:"}//${host}/ws/notifications`;
}
