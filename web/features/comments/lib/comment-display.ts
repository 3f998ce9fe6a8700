/**
 * Pure rules of the comments section (SPEC.md §2 "Comments section", §4
 * "Vote", §5, §9).
 */
import type { Comment } from "../../../../schema/api.ts";

/** Characters in a comment avatar's initials (SPEC.md §9). */
export const INITIALS_LENGTH = 2;

/**
 * The avatar text: the first two letters or digits of the username, upper
 * case, ignoring its leading "@" ("@mira_42" → "MI"); "?" when there are none.
 */
export function commentInitials(username: string): string {
  const letters = [...username.replace(/^@+/, "")].filter((ch) => /[\p{L}\p{N}]/u.test(ch));
  return letters.slice(0, INITIALS_LENGTH).join("").toLocaleUpperCase() || "?";
}

/** Every comment in the tree, replies at any depth included. */
export function countComments(comments: readonly Comment[]): number {
  return comments.reduce((total, c) => total + 1 + countComments(c.replies), 0);
}

/** A comment or reply may be sent only when it is non-empty after trimming (SPEC.md §5). */
export function canSubmitComment(content: string): boolean {
  return content.trim().length > 0;
}

export type VoteTone = "positive" | "negative" | "neutral";

/** Colour band of a vote count: orange when positive, blue when negative, muted at zero. */
export function voteTone(votes: number): VoteTone {
  if (votes > 0) return "positive";
  if (votes < 0) return "negative";
  return "neutral";
}

export const VOTE_TONE_CLASS: Record<VoteTone, string> = {
  positive: "text-orange-400",
  negative: "text-blue-400",
  neutral: "text-muted-foreground",
};

/** "Show 1 reply", "Show 3 replies". */
export function showRepliesLabel(count: number): string {
  return `Show ${count} ${count === 1 ? "reply" : "replies"}`;
}
