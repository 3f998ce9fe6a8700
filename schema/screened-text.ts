/**
 * Which text of a write is screened (issue 21 "Safety on every path";
 * docs/decisions/0014-screening-every-write.md). Screening is opt-out: every
 * string of a write — at any depth, in arrays, in nested objects such as a
 * lorebook or a card's `extensions`, and the keys of nested objects — is
 * screened, except the top-level fields named in NOT_TEXT (ids, URLs, enum
 * words). A field added to an input schema is therefore screened unless
 * someone lists it here, and worker/test/screening-coverage.test.ts walks the
 * zod schemas to prove it.
 *
 * Shared by the Worker (HTTP writes) and the conversation room (frames).
 */

/**
 * Top-level fields of each write that are not text a person or a model
 * reads: ids, URLs checked by their own rules, machine words. Nothing else
 * may be left out.
 */
export const NOT_TEXT = {
  /** A character (create, update, card import): its picture is a URL checked by avatarUrlSchema; isNsfw is the context, not text. */
  character: ["avatarUrl", "isNsfw"],
  /** A persona: its picture. */
  persona: ["avatarUrl", "isDefault"],
  /** The profile: its picture. */
  profile: ["profileImageUrl"],
  /** A comment: the comment it answers. */
  comment: ["parentId"],
  /** A new conversation (or a change of it): the characters it is with, its reply order, the model connection that writes it. */
  conversation: ["characterId", "characterIds", "replyOrder", "modelConnectionId", "background", "lorebookIds"],
  /** A lorebook (create, replace, import): every string of it is text, entries' keys, comments and content alike. */
  lorebook: [],
  /** A room frame: its type and the ids it names. */
  frame: ["type", "conversationId", "messageId", "clientId", "isUser", "characterId", "requestId"],
} as const satisfies Record<string, readonly string[]>;

/**
 * Every string of `value` as one text, parts separated by a blank line (so
 * no sentence runs from one field into the next), in the order met: a
 * string itself; an array's items; an object's values, skipping the
 * top-level keys in `skip`. The keys of nested objects (a lorebook's, an
 * extension's) are text too and are added once each at the end. Numbers,
 * booleans and null are not text. Blank strings are left out.
 */
export function screenedText(value: unknown, skip: readonly string[] = []): string {
  const parts: string[] = [];
  const keys = new Set<string>();
  const seen = new Set<object>();
  const visit = (node: unknown, top: boolean) => {
    if (typeof node === "string") {
      if (node.trim() !== "") parts.push(node);
      return;
    }
    if (node === null || typeof node !== "object" || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const item of node) visit(item, false);
      return;
    }
    for (const [key, item] of Object.entries(node)) {
      if (top && skip.includes(key)) continue;
      if (!top && key.trim() !== "") keys.add(key);
      visit(item, false);
    }
  };
  visit(value, true);
  return [...parts, ...keys].join("\n\n");
}
