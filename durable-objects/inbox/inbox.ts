/**
 * Inbox — one Durable Object per person (binding INBOX, `idFromName(userId)`):
 * their notifications in its own SQLite (store.ts) and their open
 * `/ws/notifications` sockets (hibernatable). DESIGN.md turn 4
 * "Notifications"; docs/decisions/0037-notifications.md.
 *
 * A thin shell: storage and folding are InboxStore's; this class takes the
 * calls and tells every open tab at once.
 *
 * - `fetch` accepts a socket the Worker already checked (signed in, same
 *   Origin: worker/routes/notifications.ts), tagged with the session it
 *   was opened under, and sends `{type:"unread", count}` at once. At most
 *   MAX_INBOX_SOCKETS per person; the oldest beyond it closes (1008).
 *   Keep-alive pings are answered by the runtime without waking it.
 * - RPC from the Worker and the rooms: `deliver(event)` stores (or folds)
 *   and sends `{type:"notification", notification, unread}` to every tab;
 *   `markRead` sends the new `{type:"unread", count}` to every tab, so
 *   reading on one device clears the badge on the others; `forgetActor`,
 *   `forgetScopes`, `forget` take away what the person may no longer see
 *   (and send the count when it changed); `closeSockets` ends sockets
 *   (suspension, deletion, sessions ended: called by PersonSockets, the one
 *   place that closes a person's sockets); `erase` deletes everything
 *   (account deletion).
 */
import { DurableObject } from "cloudflare:workers";
import { type NotificationFrame, type NotificationSettings, quietHoursEndAt } from "../../schema/notifications.ts";
import { CLOSE_CODES } from "../../schema/chat.ts";
import { PING_FRAME, PONG_FRAME } from "../../schema/chat-frames.ts";
import { sendPushes } from "./push.ts";
import { type InboxEvent, InboxStore, type NotificationSettingsChange, type StoredNotification } from "./store.ts";

/** Open notification sockets one person keeps (tabs and devices); the oldest beyond it is closed. */
export const MAX_INBOX_SOCKETS = 10;

/** Headers the Worker sets on the upgrade it forwards (the object is reachable only through the Worker). */
export const INBOX_UPGRADE_HEADERS = { userId: "x-fabled-user-id", sessionId: "x-fabled-session-id" } as const;

export const INBOX_CLOSE_REASONS = {
  cap: `Too many notification connections open (at most ${MAX_INBOX_SOCKETS}): closed the oldest`,
} as const;

interface SocketInfo {
  sessionId: string | null;
  openedAt: number;
}

export class Inbox extends DurableObject<Env> {
  private store: InboxStore;
  /** How pushes reach push services (`fetch`); a seam for tests, which reach their local stub over http. */
  pushFetch: typeof fetch = (input, init) => fetch(input, init);

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.store = new InboxStore(ctx.storage.sql);
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(PING_FRAME, PONG_FRAME));
  }

  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket") return new Response("Expected a WebSocket", { status: 426 });
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server);
    server.serializeAttachment({ sessionId: request.headers.get(INBOX_UPGRADE_HEADERS.sessionId) || null, openedAt: Date.now() } satisfies SocketInfo);
    server.send(JSON.stringify({ type: "unread", count: this.store.unread() } satisfies NotificationFrame));
    const sockets = this.ctx.getWebSockets();
    if (sockets.length > MAX_INBOX_SOCKETS) {
      const oldest = sockets
        .map((ws) => ({ ws, openedAt: (ws.deserializeAttachment() as SocketInfo | null)?.openedAt ?? 0 }))
        .sort((a, b) => a.openedAt - b.openedAt)
        .slice(0, sockets.length - MAX_INBOX_SOCKETS);
      for (const { ws } of oldest) safeClose(ws, CLOSE_CODES.policyViolation, INBOX_CLOSE_REASONS.cap);
    }
    return new Response(null, { status: 101, webSocket: client });
  }

  /** Clients only listen (reading goes through `POST /api/notifications/read`); anything but a ping is ignored. */
  override async webSocketMessage(): Promise<void> {}

  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    // Answer a close with a close, or the client sees 1006.
    safeClose(ws, code === 1005 || code === 1006 ? CLOSE_CODES.normal : code, reason);
  }

  override async webSocketError(ws: WebSocket): Promise<void> {
    safeClose(ws, CLOSE_CODES.serverError, "WebSocket error");
  }

  /**
   * Stores `event` (folded when it may be) and tells every tab. With no tab
   * open, push on and outside the quiet hours, it is pushed to the devices
   * of `recipientId` (this inbox's person, which the object cannot read from
   * its own id; push.ts), after the answer. Returns the notification, or
   * null when its kind is off.
   */
  async deliver(event: InboxEvent, recipientId?: string): Promise<StoredNotification | null> {
    const notification = this.store.deliver(event);
    if (notification) {
      const { scope: _scope, ...shown } = notification;
      this.broadcast({ type: "notification", notification: shown, unread: this.store.unread() });
      if (recipientId && this.ctx.getWebSockets().length === 0) {
        const settings = this.store.settings();
        if (settings.push && quietHoursEndAt(Date.now(), settings.quietHours) === null) {
          this.ctx.waitUntil(sendPushes(this.env, recipientId, shown, this.pushFetch));
        }
      }
    }
    return notification;
  }

  /** A page, newest first, with the exact unread count. */
  async list(limit: number, before?: string): Promise<{ notifications: StoredNotification[]; unread: number }> {
    return { notifications: this.store.list(limit, before), unread: this.store.unread() };
  }

  async unread(): Promise<number> {
    return this.store.unread();
  }

  /** Marks read and tells every tab the new count. Returns it. */
  async markRead(which: string[] | "all"): Promise<number> {
    if (this.store.markRead(which) > 0) this.broadcastUnread();
    return this.store.unread();
  }

  /** Marks read what folds under `foldKey` (the person opened that room) and tells every tab when it changed. */
  async markFoldRead(foldKey: string): Promise<void> {
    if (this.store.markFoldRead(foldKey) > 0) this.broadcastUnread();
  }

  async settings(): Promise<NotificationSettings> {
    return this.store.settings();
  }

  async updateSettings(change: NotificationSettingsChange): Promise<NotificationSettings> {
    return this.store.updateSettings(change);
  }

  /** A block: `actorId`'s part leaves every notification. */
  async forgetActor(actorId: string): Promise<void> {
    this.changed(() => this.store.forgetActor(actorId));
  }

  /** Characters or rooms the person can no longer see. */
  async forgetScopes(scopes: { type: "character" | "conversation"; id: string }[]): Promise<void> {
    this.changed(() => this.store.forgetScopes(scopes));
  }

  /** Notifications whose target is gone. */
  async forget(ids: string[]): Promise<void> {
    this.changed(() => this.store.forget(ids));
  }

  /** Open sockets (tests and diagnosis). */
  async socketCount(): Promise<number> {
    return this.ctx.getWebSockets().length;
  }

  /**
   * Closes the sockets opened under `sessionIds` (every one when null) with
   * 1008 and `reason`. Returns how many.
   */
  async closeSockets(sessionIds: string[] | null, reason: string): Promise<number> {
    const wanted = sessionIds === null ? null : new Set(sessionIds);
    let closed = 0;
    for (const ws of this.ctx.getWebSockets()) {
      const info = ws.deserializeAttachment() as SocketInfo | null;
      if (wanted !== null && (info?.sessionId == null || !wanted.has(info.sessionId))) continue;
      safeClose(ws, CLOSE_CODES.policyViolation, reason);
      closed += 1;
    }
    return closed;
  }

  /** Account deletion: every socket closes and the object's storage is deleted. */
  async erase(reason: string): Promise<void> {
    await this.closeSockets(null, reason);
    await this.ctx.storage.deleteAll();
    // The same instance may be called again (a new account never reuses the id, but a racing event may arrive).
    this.store = new InboxStore(this.ctx.storage.sql);
  }

  private changed(change: () => number): void {
    if (change() > 0) this.broadcastUnread();
  }

  private broadcastUnread(): void {
    this.broadcast({ type: "unread", count: this.store.unread() });
  }

  private broadcast(frame: NotificationFrame): void {
    const text = JSON.stringify(frame);
    for (const ws of this.ctx.getWebSockets()) {
      try {
        ws.send(text);
      } catch {
        // closing
      }
    }
  }
}

function safeClose(ws: WebSocket, code: number, reason: string): void {
  try {
    ws.close(code, reason.slice(0, 120));
  } catch {
    // already closed
  }
}
