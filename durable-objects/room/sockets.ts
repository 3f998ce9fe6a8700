/**
 * The room's sockets (Hibernation API only): accepting a socket, the caps
 * and the idle timeout of socket-limits.ts, counting each socket with the
 * person's PersonSockets object, sending frames to one socket or all, and
 * answering a close with a close.
 *
 * - Per-socket facts live in `serializeAttachment` (`SocketState`) and are
 *   rebuilt from `ctx.getWebSockets()` after a wake.
 * - At most MAX_SOCKETS_PER_CONVERSATION open (the oldest beyond it closed
 *   with 1008, CLOSE_REASONS.conversationCap); MAX_SOCKETS_PER_PERSON across
 *   conversations through PersonSockets (CLOSE_REASONS.personCap).
 * - A socket silent (no frame, no ping) for IDLE_TIMEOUT_MS (ms) is closed
 *   with 1008 (CLOSE_REASONS.idle) by the object's alarm, set while there
 *   are sockets. "Last seen" is stored to within SEEN_RESOLUTION_MS.
 *
 * Nothing here throws: a socket already closing is skipped, a PersonSockets
 * that cannot be reached is logged (counting is a safeguard).
 */
import { CLOSE_CODES } from "../../schema/chat.ts";
import { type ChatErrorCode, type ServerFrame } from "../../schema/chat-frames.ts";
import type { PersonSockets } from "../person-sockets.ts";
import { closeCodeAnswering } from "../room-protocol.ts";
import {
  CLOSE_REASONS,
  IDLE_TIMEOUT_MS,
  idleSockets,
  MAX_SOCKETS_PER_CONVERSATION,
  oldestBeyond,
  SEEN_RESOLUTION_MS,
} from "../socket-limits.ts";

/** Per-socket facts that survive hibernation. */
export interface SocketState {
  conversationId: string;
  userId: string;
  /** A member of a shared room; absent or "owner" for the owner (DESIGN.md "Shared rooms"). */
  role?: "owner" | "member";
  /** The name they write under (presence, typing). */
  name?: string;
  /** Random id, also the socket's hibernation tag (PersonSockets names sockets by it). */
  socketId?: string;
  /** When it was accepted, ms since the epoch. */
  openedAt?: number;
  /** Its latest frame, ms since the epoch, to within SEEN_RESOLUTION_MS (pings are the runtime's own timestamp). */
  seenAt?: number;
}

/** `WebSocket.OPEN`: sockets closing or closed are no longer counted. */
const OPEN = 1;

/** Sends one frame to one socket; a socket closing is skipped. */
export function send(ws: WebSocket, frame: ServerFrame): void {
  try {
    ws.send(JSON.stringify(frame));
  } catch {
    // closing
  }
}

/** An error frame for the sender of a refused frame (with its clientId, when it had one). */
export function refusal(code: ChatErrorCode, message: string, clientId?: string): ServerFrame {
  return { type: "error", code, message, ...(clientId ? { clientId } : {}) };
}

/** The conversation's sockets. */
export class RoomSockets {
  /**
   * The conversation's sockets as last asked of the runtime; dropped whenever
   * one is accepted or closed (asking on every delta frame is a measurable
   * share of a busy object's time).
   */
  private sockets: WebSocket[] | null = null;
  private readonly ctx: DurableObjectState;
  private readonly env: Env;
  /** The clock of the limits (opened, last seen, idle check), ms since the epoch: the room's `now` seam. */
  private readonly now: () => number;

  constructor(ctx: DurableObjectState, env: Env, now: () => number) {
    this.ctx = ctx;
    this.env = env;
    this.now = now;
  }

  /** How many sockets the conversation has (one closing included): what a broadcast costs. */
  get count(): number {
    this.sockets ??= this.ctx.getWebSockets();
    return this.sockets.length;
  }

  /** Sends one frame to every socket of the conversation (several tabs). */
  broadcast(frame: ServerFrame): void {
    const text = JSON.stringify(frame);
    this.sockets ??= this.ctx.getWebSockets();
    for (const ws of this.sockets) {
      try {
        ws.send(text);
      } catch {
        // closing
      }
    }
  }

  /**
   * Sends every socket the frame `frameFor` builds for its person (a frame
   * that differs by who reads it: each person's own thumbs). Built and
   * serialised once per person.
   */
  broadcastEach(frameFor: (userId: string) => ServerFrame): void {
    const texts = new Map<string, string>();
    for (const { ws, state } of this.openSockets()) {
      let text = texts.get(state.userId);
      if (text === undefined) {
        text = JSON.stringify(frameFor(state.userId));
        texts.set(state.userId, text);
      }
      try {
        ws.send(text);
      } catch {
        // closing
      }
    }
  }

  /** Sends `frame` to every open socket of `userId` (their other tabs too). */
  sendToUser(userId: string, frame: ServerFrame): void {
    const text = JSON.stringify(frame);
    for (const { ws, state } of this.openSockets()) {
      if (state.userId !== userId) continue;
      try {
        ws.send(text);
      } catch {
        // closing
      }
    }
  }

  /**
   * Accepts `server` for hibernation as a socket of `conversationId` for
   * `userId`, closes the oldest beyond the conversation's cap, makes sure
   * the idle check is set, and counts it with the person (beyond their cap
   * PersonSockets asks the rooms to close their oldest).
   */
  async accept(
    server: WebSocket,
    conversationId: string,
    userId: string,
    { sessionId = null, ...who }: { role?: "owner" | "member"; name?: string; sessionId?: string | null } = {},
  ): Promise<void> {
    const socketId = crypto.randomUUID();
    const now = this.now();
    this.ctx.acceptWebSocket(server, [socketId]);
    this.sockets = null;
    server.serializeAttachment({ conversationId, userId, socketId, openedAt: now, seenAt: now, ...who } satisfies SocketState);
    // The newest socket is the tab in use: beyond the caps (per person, in a shared room too), the oldest ones go.
    for (const { ws } of oldestBeyond(
      this.openSockets().filter((socket) => socket.state.userId === userId),
      MAX_SOCKETS_PER_CONVERSATION,
    )) {
      this.closeForPolicy(ws, CLOSE_REASONS.conversationCap);
    }
    await this.scheduleIdleCheck();
    try {
      await this.personSockets(userId).opened({ socketId, conversationId, sessionId });
    } catch (error) {
      // Counting is a safeguard: its outage must not stop conversations.
      console.warn("could not count a socket with its person", String(error));
    }
  }

  /** A frame arrived on `ws`: its "last seen" moves when it is SEEN_RESOLUTION_MS old (no write per frame). */
  noteSeen(ws: WebSocket, state: SocketState): void {
    const now = this.now();
    if (now - (state.seenAt ?? 0) >= SEEN_RESOLUTION_MS) {
      state.seenAt = now;
      ws.serializeAttachment(state);
    }
  }

  /** The person's PersonSockets object. */
  private personSockets(userId: string): DurableObjectStub<PersonSockets> {
    const namespace = this.env.PERSON_SOCKETS as unknown as DurableObjectNamespace<PersonSockets>;
    return namespace.get(namespace.idFromName(userId));
  }

  /** This room's open sockets with their facts. */
  private openSockets(): { ws: WebSocket; state: SocketState; openedAt: number; lastActiveAt: number }[] {
    return this.ctx
      .getWebSockets()
      .filter((ws) => ws.readyState === OPEN)
      .map((ws) => {
        const state = (ws.deserializeAttachment() as SocketState | null) ?? { conversationId: "", userId: "" };
        const seen = state.seenAt ?? state.openedAt ?? 0;
        const pinged = this.ctx.getWebSocketAutoResponseTimestamp(ws)?.getTime() ?? 0;
        return { ws, state, openedAt: state.openedAt ?? 0, lastActiveAt: Math.max(seen, pinged) };
      });
  }

  /** Closes `ws` with 1008 and `reason`, and stops counting it for its person. */
  closeForPolicy(ws: WebSocket, reason: string): void {
    try {
      ws.close(CLOSE_CODES.policyViolation, reason);
    } catch {
      // already closed
    }
    this.sockets = null;
    this.forget(ws);
  }

  /** Closes every socket of `userId` here with 1008 and `reason` (they were suspended). */
  closeUser(userId: string, reason: string): void {
    for (const { ws, state } of this.openSockets()) if (state.userId === userId) this.closeForPolicy(ws, reason);
  }

  /** Closes every socket with 1008 and `reason` (the conversation was deleted). */
  closeAll(reason: string): void {
    for (const ws of this.ctx.getWebSockets()) this.closeForPolicy(ws, reason);
    this.sockets = null;
  }

  /** Tells the socket's PersonSockets it is gone (after the answer; failures are logged). */
  private forget(ws: WebSocket): void {
    const state = ws.deserializeAttachment() as SocketState | null;
    if (!state?.socketId || !state.userId) return;
    this.ctx.waitUntil(
      this.personSockets(state.userId)
        .closed(state.socketId)
        .catch((error: unknown) => console.warn("could not uncount a socket", String(error))),
    );
  }

  /**
   * Makes sure the alarm that closes idle sockets is set while there are
   * sockets: IDLE_TIMEOUT_MS from now on the runtime's clock (not `now`, so a
   * test that dates sockets back does not make it fire at once).
   */
  private async scheduleIdleCheck(): Promise<void> {
    // The alarm is shared with check-ins (check-ins.ts): one set for later than this is brought forward.
    const at = Date.now() + IDLE_TIMEOUT_MS;
    const current = await this.ctx.storage.getAlarm();
    if (current === null || current > at) await this.ctx.storage.setAlarm(at);
  }

  /** The idle check (the alarm): closes sockets silent for IDLE_TIMEOUT_MS, then sets the alarm for the next one due. */
  async closeIdle(): Promise<void> {
    const { idle, nextCheckAt } = idleSockets(this.openSockets(), this.now(), IDLE_TIMEOUT_MS);
    for (const { ws } of idle) this.closeForPolicy(ws, CLOSE_REASONS.idle);
    if (nextCheckAt === null) return;
    // The alarm is shared with check-ins (check-ins.ts): one set sooner stays (the room's alarm runs both checks).
    const current = await this.ctx.storage.getAlarm();
    if (current === null || current > nextCheckAt || current <= Date.now()) await this.ctx.storage.setAlarm(nextCheckAt);
  }

  /**
   * Who is here (presence): one entry per person with an open socket, in
   * the order they connected, with the name they write under.
   */
  people(): { userId: string; name: string }[] {
    const seen = new Map<string, string>();
    for (const { state } of this.openSockets().sort((a, b) => a.openedAt - b.openedAt)) {
      if (!seen.has(state.userId)) seen.set(state.userId, state.name ?? "");
    }
    return [...seen].map(([userId, name]) => ({ userId, name }));
  }

  /** Sends `frame` to every open socket but those of `userId`. */
  /** Person `userId` plays under `name` now (a member picked another persona): their sockets' messages carry it. */
  rename(userId: string, name: string): void {
    for (const { ws, state } of this.openSockets()) {
      if (state.userId !== userId) continue;
      state.name = name;
      ws.serializeAttachment(state);
    }
  }

  broadcastExcept(userId: string, frame: ServerFrame): void {
    const text = JSON.stringify(frame);
    for (const { ws, state } of this.openSockets()) {
      if (state.userId === userId) continue;
      try {
        ws.send(text);
      } catch {
        // closing
      }
    }
  }

  /** The ids of this room's open sockets (PersonSockets). */
  openSocketIds(): string[] {
    return this.openSockets().flatMap(({ state }) => (state.socketId ? [state.socketId] : []));
  }

  /** Closes socket `socketId` with 1008 and `reason`; false when it is not open here. */
  closeSocket(socketId: string, reason: string): boolean {
    const sockets = this.ctx.getWebSockets(socketId).filter((ws) => ws.readyState === OPEN);
    for (const ws of sockets) this.closeForPolicy(ws, reason);
    return sockets.length > 0;
  }

  /** The client closed `ws` with `code`: answered with a close (closeCodeAnswering), or the client sees 1006. */
  closed(ws: WebSocket, code: number, reason: string): void {
    this.sockets = null;
    this.forget(ws);
    try {
      ws.close(closeCodeAnswering(code), reason);
    } catch {
      // already closed
    }
  }

  /** `ws` failed: closed with 1011. */
  failed(ws: WebSocket, error: unknown): void {
    this.sockets = null;
    this.forget(ws);
    console.warn("conversation socket error", String(error));
    try {
      ws.close(CLOSE_CODES.serverError, "WebSocket error");
    } catch {
      // already closed
    }
  }
}
