/**
 * Addresses and ids of the chat socket (SPEC.md §7, DESIGN.md "Real-time
 * chat protocol").
 */
import { type ServerFrame, serverFrameSchema } from "../../../../schema/chat-frames.ts";

/**
 * `/ws?conversationId=…` on the page's own host, `wss:` when the page is
 * https (SPEC.md §7); the query routes the upgrade straight to the
 * conversation's Durable Object.
 */
export function chatSocketUrl(location: Pick<Location, "protocol" | "host">, conversationId: string): string {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/ws?conversationId=${encodeURIComponent(conversationId)}`;
}

/**
 * A random UUID v4 for a message's `clientId`. `crypto.randomUUID` exists
 * only in secure contexts, so a page served over plain http on a LAN
 * address builds one from `getRandomValues` (RFC 9562 §5.4).
 */
export function newClientId(cryptoImpl: Pick<Crypto, "getRandomValues"> & Partial<Pick<Crypto, "randomUUID">> = crypto): string {
  if (typeof cryptoImpl.randomUUID === "function") return cryptoImpl.randomUUID();
  const bytes = cryptoImpl.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * A server frame from the socket's text, or null (logged) for anything that
 * is not one: SPEC.md §8 "Socket errors and bad messages are only logged".
 */
export function parseServerFrame(text: unknown): ServerFrame | null {
  if (typeof text !== "string") {
    console.warn("chat socket: ignoring a binary frame");
    return null;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    console.warn("chat socket: ignoring a frame that is not JSON", text.slice(0, 120));
    return null;
  }
  const parsed = serverFrameSchema.safeParse(json);
  if (!parsed.success) {
    console.warn("chat socket: ignoring an unknown frame", text.slice(0, 120));
    return null;
  }
  return parsed.data;
}
