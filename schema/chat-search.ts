/**
 * My Chats search of what was said (issue 41: "My Chats search also matches
 * message text"): the shape a matching message takes in `GET
 * /api/conversations?q=` and the excerpt it shows. Messages live only in
 * each chat's room (its Durable Object's SQLite), so the room finds the
 * match (ConversationRoom.searchMessages) and the Worker asks the person's
 * rooms (worker/lib/conversation-search.ts, docs/decisions/0041).
 */

/** The newest shown message of a chat whose words contain the search, as a My Chats row carries it. */
export interface ConversationSearchMatch {
  messageId: string;
  /** The words around the first occurrence, whitespace folded, "…" where cut: at most SNIPPET_BEFORE + the match + SNIPPET_AFTER characters. */
  snippet: string;
}

/** Characters kept before the match in a snippet. */
export const SNIPPET_BEFORE = 40;
/** Characters kept after the start of the match in a snippet. */
export const SNIPPET_AFTER = 100;

/** `text` as a pattern matching itself, case-insensitively in every script (the `iu` flags). */
export function searchPattern(q: string): RegExp {
  return new RegExp(q.trim().replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "iu");
}

/**
 * The excerpt of `text` around the first match of `pattern` (searchPattern),
 * or null when it does not occur. Cuts fall on spaces where one is near, so
 * words stay whole.
 */
export function searchSnippet(text: string, pattern: RegExp): string | null {
  const folded = text.replace(/\s+/g, " ").trim();
  const found = pattern.exec(folded);
  if (!found) return null;
  let start = Math.max(0, found.index - SNIPPET_BEFORE);
  let end = Math.min(folded.length, found.index + Math.max(SNIPPET_AFTER, found[0].length));
  if (start > 0) {
    const space = folded.indexOf(" ", start);
    if (space !== -1 && space < found.index) start = space + 1;
  }
  if (end < folded.length) {
    const space = folded.lastIndexOf(" ", end);
    if (space > found.index + found[0].length) end = space;
  }
  return `${start > 0 ? "…" : ""}${folded.slice(start, end)}${end < folded.length ? "…" : ""}`;
}
