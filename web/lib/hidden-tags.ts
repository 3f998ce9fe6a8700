/**
 * Hidden tags in the browser (issue "Finding and following", Tag filters;
 * docs/decisions/0011-tag-filters.md): the tags whose characters a person
 * never wants to see. The list this browser applies is kept in localStorage
 * under HIDDEN_TAGS_STORAGE_KEY as `{ owner, tags }`:
 * - `owner: null` — a visitor's own list, the only copy;
 * - `owner: <user id>` — a copy of that signed-in person's account list
 *   (`/api/profile/hidden-tags`), so a reload filters at once, before the
 *   account answers.
 * Pure functions here; the hook that reads and writes them is
 * use-hidden-tags.ts.
 */

export const HIDDEN_TAGS_STORAGE_KEY = "fabled:hidden-tags";

export interface StoredHiddenTags {
  /** Whose list this is: null for a visitor, else the signed-in person's user id. */
  owner: string | null;
  /** Lower-case tag names, sorted, without repeats. */
  tags: string[];
}

export const NO_HIDDEN_TAGS: StoredHiddenTags = { owner: null, tags: [] };

/** Trimmed, lower-case, without repeats or blanks, sorted (the order the API stores and the cache keys on). */
export function normalizeTags(tags: readonly string[]): string[] {
  return [...new Set(tags.map((t) => t.trim().toLowerCase()).filter(Boolean))].sort();
}

/** The stored value, or NO_HIDDEN_TAGS for anything missing or malformed (never throws). */
export function parseStoredHiddenTags(raw: string | null): StoredHiddenTags {
  if (!raw) return NO_HIDDEN_TAGS;
  try {
    const value = JSON.parse(raw) as Partial<StoredHiddenTags> | null;
    if (!value || !Array.isArray(value.tags)) return NO_HIDDEN_TAGS;
    return {
      owner: typeof value.owner === "string" ? value.owner : null,
      tags: normalizeTags(value.tags.filter((t): t is string => typeof t === "string")),
    };
  } catch {
    return NO_HIDDEN_TAGS;
  }
}

/** `tags` with `tag` hidden when it was shown, shown when it was hidden. */
export function toggleHiddenTag(tags: readonly string[], tag: string): string[] {
  const name = tag.trim().toLowerCase();
  return normalizeTags(tags.includes(name) ? tags.filter((t) => t !== name) : [...tags, name]);
}

/**
 * What this browser's list becomes once it is known who is here, and what
 * (if anything) to save to the account:
 * - a visitor (`userId` null): their own list; a copy of an account's list
 *   left from before signing out is dropped (an account's choices stay with
 *   the account, not with a shared browser);
 * - a signed-in person whose account list (`accountTags`) has arrived: a
 *   visitor's list in this browser is merged into the account (the union is
 *   saved, once) and the browser keeps a copy of the account's list; a copy
 *   of someone else's account list is replaced.
 */
export function reconcileHiddenTags(
  local: StoredHiddenTags,
  userId: string | null,
  accountTags: readonly string[],
): { local: StoredHiddenTags; save: string[] | null } {
  if (userId === null) return { local: local.owner === null ? local : NO_HIDDEN_TAGS, save: null };
  const account = normalizeTags(accountTags);
  if (local.owner !== null || local.tags.length === 0) return { local: { owner: userId, tags: account }, save: null };
  const merged = normalizeTags([...account, ...local.tags]);
  return { local: { owner: userId, tags: merged }, save: sameTags(merged, account) ? null : merged };
}

/** True when two normalised lists hold the same tags. */
export function sameTags(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((t, i) => t === b[i]);
}
