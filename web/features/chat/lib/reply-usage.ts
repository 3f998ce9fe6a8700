/**
 * The tokens a reply cost, as the chat shows them under it (DESIGN.md "Your
 * own model (turn 3)": "where the endpoint reports it, tokens used per
 * reply"): the reply's own tokens in words ("312 tokens") and, for its
 * tooltip, the prompt's and the reply's ("prompt 2,801 · reply 312").
 * Nothing is shown where the endpoint reported nothing.
 */
import { type ReplyUsage } from "../../../../schema/chat.ts";
import { replyVersions } from "../../../../schema/chat-frames.ts";
import type { ChatItem } from "./chat-state.ts";

const numbers = new Intl.NumberFormat("en-US");

/**
 * The tokens of version `index` (0-based, written order) of a reply: from
 * `versionUsage` when the reply has several versions, else `usage` for the
 * version shown. Null when unknown.
 */
export function versionTokens(item: Pick<ChatItem, "content" | "alternatives" | "swipeIndex" | "usage" | "versionUsage">, index: number): ReplyUsage | null {
  if (item.versionUsage) return item.versionUsage[index] ?? null;
  return index === replyVersions(item).current ? (item.usage ?? null) : null;
}

/** "312 tokens" (what the reply wrote; "1 token") and "prompt 2,801 · reply 312" (its tooltip). */
export function tokensText(usage: ReplyUsage): { short: string; detail: string } {
  const reply = numbers.format(usage.completionTokens);
  return {
    short: `${reply} ${usage.completionTokens === 1 ? "token" : "tokens"}`,
    detail: `prompt ${numbers.format(usage.promptTokens)} · reply ${reply}`,
  };
}
