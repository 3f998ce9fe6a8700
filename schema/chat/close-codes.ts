/**
 * How the chat's WebSocket closes and what a person is told: close codes,
 * the reasons a conversation is gone and their texts, and the suspended
 * account's message (schema/chat.ts re-exports them).
 */

/**
 * Close codes the server uses (RFC 6455 §7.4.1): 1000 normal, 1003 binary
 * frames, 1008 policy violation (not your conversation, join first, wrong
 * conversation), 1009 frame over MAX_FRAME_BYTES, 1011 server error.
 */
export const CLOSE_CODES = {
  normal: 1000,
  unsupportedData: 1003,
  policyViolation: 1008,
  tooBig: 1009,
  serverError: 1011,
} as const;

/**
 * Reasons of a 1008 close after which the chat is not there for this person
 * any more (DESIGN.md "Shared rooms": a member removed or leaving, the
 * conversation deleted, an upgrade refused as not found — the Worker's 404
 * for a WebSocket): the web client stops reconnecting and says so.
 */
export const GONE_CLOSE_REASONS = {
  removed: "You are no longer in this chat",
  notFound: "Conversation not found",
  deleted: "Conversation deleted",
  /** The room's owner deleted their account (worker/lib/account/deletion.ts): the room is gone for every member. */
  ownerLeft: "The owner deleted their account, so this chat is gone",
  /**
   * The person was suspended (durable-objects/socket-limits.ts CLOSE_REASONS.suspended):
   * they may not chat any more, so the page turns read-only instead of reconnecting.
   */
  suspended: "Account suspended",
} as const;

/**
 * The line a read-only chat page shows for each GONE_CLOSE_REASONS reason
 * (issue 41: one clear line and a way back to My Chats).
 */
export const GONE_TEXTS: Record<keyof typeof GONE_CLOSE_REASONS, string> = {
  removed: "You are no longer in this chat.",
  notFound: "This chat no longer exists.",
  deleted: "This chat was deleted.",
  ownerLeft: "The owner deleted their account, so this chat is gone.",
  suspended: "Your account is suspended, so this chat is read-only.",
};

/** The GONE_TEXTS line for a gone close's `reason` (an unknown one reads as removed). */
export function goneText(reason: string): string {
  const key = (Object.keys(GONE_CLOSE_REASONS) as (keyof typeof GONE_CLOSE_REASONS)[]).find((k) => GONE_CLOSE_REASONS[k] === reason);
  return GONE_TEXTS[key ?? "removed"];
}

/** Whether a close with `code` and `reason` means the chat is gone for this person (GONE_CLOSE_REASONS). */
export function isGoneClose(code: number, reason: string): boolean {
  return code === CLOSE_CODES.policyViolation && (Object.values(GONE_CLOSE_REASONS) as string[]).includes(reason);
}

/**
 * What a suspended person is told: every write and signed-in read (403), and
 * the error frame before their chat sockets close (docs/decisions/0008).
 */
export const SUSPENDED_MESSAGE =
  "Your account has been suspended for breaking Fabled's rules. You can no longer post, chat or create characters.";
