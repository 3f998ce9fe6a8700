/**
 * `/ws` — the chat socket (SPEC.md §7, DESIGN.md "Real-time chat protocol").
 * Mounted on the root app, outside `/api`.
 *
 * The upgrade is refused unless it comes from our own page (`Origin` must be
 * this origin: 403) with a valid session (401). Then:
 *
 * - `/ws?conversationId=…` (our web client): the upgrade goes straight to the
 *   conversation's Durable Object, which accepts it with the Hibernation API.
 *   Someone else's or an unknown conversation gets a socket that says so in an
 *   error frame and closes with 1008.
 * - bare `/ws` (exactly as SPEC.md §7 describes: `join` first): the
 *   conversation is only known from the first frame, after the upgrade has
 *   been answered, and a WebSocket cannot be handed from the Worker to an
 *   object. So the Worker accepts this socket itself, waits for `join`
 *   (JOIN_TIMEOUT_MS), checks ownership, opens a socket to the object and
 *   relays frames both ways, closes included. At most
 *   MAX_WAITING_SOCKETS_PER_PERSON such sockets of one person wait for
 *   `join` at once (counted by PersonSockets); one more is closed at once
 *   with 1008 and a reason. The object's end still
 *   hibernates; only this relay stays in the Worker, costing CPU only when a
 *   frame passes. (docs/decisions/0005-real-time-chat.md)
 */
import { Hono } from "hono";
import type { PersonSockets } from "../../durable-objects/person-sockets.ts";
import { closeCodeAnswering, readClientMessage, roomUpgradeHeaders } from "../../durable-objects/room-protocol.ts";
import { CLOSE_REASONS, JOIN_TIMEOUT_MS } from "../../durable-objects/socket-limits.ts";
import { CLOSE_CODES, GONE_CLOSE_REASONS } from "../../schema/chat.ts";
import { type ServerFrame } from "../../schema/chat-frames.ts";
import type { AppEnv } from "../env.ts";
import { type ConversationModeration, type ConversationPersona, findOwnConversationPersona, moderatedRoom, roomPerson } from "../lib/conversations.ts";
import { forbidden, suspended, unauthorized } from "../lib/errors.ts";
import { readSessionCookie, type SessionUser, validateSessionToken } from "../lib/sessions.ts";

/** A bare `/ws` must send `join` within this long, ms (durable-objects/socket-limits.ts). */
export { JOIN_TIMEOUT_MS };

/** A place among the sockets waiting for `join` is held at most this long (PersonSockets), ms: the wait a refused one is told. */
const WAITING_PLACE_MS = JOIN_TIMEOUT_MS + 1_000;
/** Frames a bare `/ws` may send while its conversation is being connected. */
const MAX_PENDING_FRAMES = 16;

function frameText(frame: ServerFrame): string {
  return JSON.stringify(frame);
}

function safeClose(ws: WebSocket, code: number, reason: string): void {
  try {
    ws.close(code, reason.slice(0, 120));
  } catch {
    // already closed
  }
}

function safeSend(ws: WebSocket, data: string | ArrayBuffer): void {
  try {
    ws.send(data);
  } catch {
    // closing
  }
}

/**
 * A socket that only says why it cannot be used, then closes with 1008.
 * `retryAfterMs`: how long until trying again can succeed (sent with `rate_limited`).
 */
function refusedSocket(reason: string, code: "forbidden" | "rate_limited" = "forbidden", retryAfterMs?: number): Response {
  const { 0: client, 1: server } = new WebSocketPair();
  server.accept();
  server.send(frameText({ type: "error", code, message: reason, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) }));
  server.close(CLOSE_CODES.policyViolation, reason);
  return new Response(null, { status: 101, webSocket: client });
}

/** Opens the object's end of a conversation socket for `user` (ownership already checked), its hidden messages hidden first. */
async function openRoomSocket(
  env: Env,
  user: SessionUser,
  sessionId: string | null,
  own: { id: string; persona: ConversationPersona | null; role: "owner" | "member" } & ConversationModeration,
): Promise<Response> {
  const room = await moderatedRoom(env, own.id, own);
  // A member of a shared room is vouched for by D1 (findOwnConversationPersona read the membership).
  return room.fetch("https://room/ws", {
    headers: roomUpgradeHeaders({ conversationId: own.id, userId: user.id, ...roomPerson(user, own.persona), role: own.role, sessionId }),
  });
}

/** The person's PersonSockets object (durable-objects/person-sockets.ts). */
function personSockets(env: Env, userId: string): DurableObjectStub<PersonSockets> {
  const namespace = env.PERSON_SOCKETS as unknown as DurableObjectNamespace<PersonSockets>;
  return namespace.get(namespace.idFromName(userId));
}

/**
 * Bare `/ws`: counts the socket as waiting for `join` with the person's
 * PersonSockets (at most MAX_WAITING_SOCKETS_PER_PERSON; one more is closed
 * with 1008 and CLOSE_REASONS.waitingCap), then the relay described above.
 * Counting is a safeguard: when PersonSockets cannot be reached, the
 * socket is kept and the failure logged.
 */
async function lobby(env: Env, user: SessionUser, sessionId: string | null, waitUntil: (promise: Promise<unknown>) => void): Promise<Response> {
  const socketId = crypto.randomUUID();
  const ledger = personSockets(env, user.id);
  try {
    if (!(await ledger.waiting(socketId))) return refusedSocket(CLOSE_REASONS.waitingCap, "rate_limited", WAITING_PLACE_MS);
  } catch (error) {
    console.warn("could not count a socket waiting for join", String(error));
  }
  let counted = true;
  const doneWaiting = () => {
    if (!counted) return;
    counted = false;
    // waitUntil: the request ends with its socket, and the call must outlive it.
    waitUntil(ledger.doneWaiting(socketId).catch((error: unknown) => console.warn("could not uncount a socket waiting for join", String(error))));
  };
  const { 0: client, 1: server } = new WebSocketPair();
  server.accept();
  let phase: "waiting" | "connecting" | "open" | "closed" = "waiting";
  let upstream: WebSocket | null = null;
  const pending: (string | ArrayBuffer)[] = [];
  // A function, not a comparison: the phase changes in other event handlers while `connect` awaits.
  const isClosed = () => phase === "closed";

  const close = (code: number, reason: string) => {
    phase = "closed";
    clearTimeout(timer);
    doneWaiting();
    safeClose(server, code, reason);
    if (upstream) safeClose(upstream, CLOSE_CODES.normal, "Client left");
  };
  const timer = setTimeout(() => {
    if (phase === "waiting") close(CLOSE_CODES.policyViolation, "Send join first");
  }, JOIN_TIMEOUT_MS);

  const connect = async (conversationId: string, joinText: string) => {
    try {
      const own = await findOwnConversationPersona(env.DB, conversationId, user.id);
      if (isClosed()) return;
      if (!own) {
        safeSend(server, frameText({ type: "error", code: "forbidden", message: GONE_CLOSE_REASONS.notFound }));
        close(CLOSE_CODES.policyViolation, GONE_CLOSE_REASONS.notFound);
        return;
      }
      const response = await openRoomSocket(env, user, sessionId, own);
      const ws = response.webSocket;
      if (!ws) throw new Error(`room answered ${response.status} without a socket`);
      ws.accept();
      if (isClosed()) {
        safeClose(ws, CLOSE_CODES.normal, "Client left");
        return;
      }
      upstream = ws;
      ws.addEventListener("message", (event) => safeSend(server, event.data));
      ws.addEventListener("close", (event) => {
        if (phase !== "closed") close(closeCodeAnswering(event.code), event.reason);
      });
      ws.addEventListener("error", () => {
        if (phase !== "closed") close(CLOSE_CODES.serverError, "Conversation connection failed");
      });
      phase = "open";
      ws.send(joinText);
      for (const frame of pending.splice(0)) ws.send(frame);
    } catch (error) {
      console.error("chat relay failed", String(error));
      close(CLOSE_CODES.serverError, "Could not connect to the conversation");
    }
  };

  server.addEventListener("message", (event) => {
    if (phase === "open") {
      safeSend(upstream!, event.data);
      return;
    }
    if (phase === "connecting") {
      if (pending.push(event.data) > MAX_PENDING_FRAMES) close(CLOSE_CODES.policyViolation, "Too many frames before join completed");
      return;
    }
    if (phase !== "waiting") return;
    const read = readClientMessage(event.data);
    if (read.kind === "close") {
      close(read.code, read.reason);
      return;
    }
    if (read.kind === "answer") {
      safeSend(server, frameText(read.frame));
      return;
    }
    if (read.frame.type !== "join") {
      safeSend(server, frameText({ type: "error", code: "not_joined", message: "Send join with your conversationId first" }));
      return;
    }
    phase = "connecting";
    clearTimeout(timer);
    // From here the room counts it (or it closes).
    doneWaiting();
    void connect(read.frame.conversationId, read.text);
  });
  server.addEventListener("close", (event) => {
    if (phase === "closed") return;
    phase = "closed";
    clearTimeout(timer);
    doneWaiting();
    if (upstream) safeClose(upstream, closeCodeAnswering(event.code), event.reason);
    safeClose(server, closeCodeAnswering(event.code), event.reason);
  });
  server.addEventListener("error", () => close(CLOSE_CODES.serverError, "WebSocket error"));

  return new Response(null, { status: 101, webSocket: client });
}

export const wsRoutes = new Hono<AppEnv>().get("/", async (c) => {
  if (c.req.header("upgrade")?.toLowerCase() !== "websocket") {
    return c.json({ error: "This address only accepts WebSocket connections", code: "validation_failed" }, 426);
  }
  // Cross-site WebSocket hijacking: browsers send the page's Origin and the cookie with any upgrade.
  if (c.req.header("origin") !== new URL(c.req.url).origin) throw forbidden("Cross-site WebSocket connections are not allowed");
  const token = readSessionCookie(c);
  const session = token ? await validateSessionToken(c.env.DB, token) : null;
  if (!session) throw unauthorized();
  if (session.suspendedAt !== null) throw suspended();
  const user = session.user;

  const conversationId = c.req.query("conversationId");
  if (conversationId === undefined || conversationId === "") return await lobby(c.env, user, session.sessionId, (promise) => c.executionCtx.waitUntil(promise));
  const own = await findOwnConversationPersona(c.env.DB, conversationId, user.id);
  if (!own) return refusedSocket(GONE_CLOSE_REASONS.notFound);
  const response = await openRoomSocket(c.env, user, session.sessionId, own);
  // A fresh response: the object's has immutable headers, and the app's middleware adds its own.
  return new Response(response.body, { status: response.status, headers: response.headers, webSocket: response.webSocket });
});
