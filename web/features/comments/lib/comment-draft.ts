/**
 * A comment typed but not posted yet, kept in the tab's sessionStorage so it
 * survives the trip to sign in and back (issue 26 "Sign-in keeps your
 * place"). sessionStorage belongs to the tab and the origin: the draft is not
 * shared with other tabs and goes when the tab closes. Storage that is full
 * or blocked only means the draft is not kept.
 */

/** The key of the new-comment draft on character `characterId`'s page. */
export function commentDraftKey(characterId: number): string {
  return `fabled:comment-draft:${characterId}`;
}

/** The kept draft under `key`, or "" when there is none or storage cannot be read. */
export function readDraft(key: string, storage: Pick<Storage, "getItem"> | undefined = globalThis.sessionStorage): string {
  try {
    return storage?.getItem(key) ?? "";
  } catch {
    return "";
  }
}

/** Keeps `text` under `key`; an empty or blank text removes the draft. */
export function writeDraft(
  key: string,
  text: string,
  storage: Pick<Storage, "setItem" | "removeItem"> | undefined = globalThis.sessionStorage,
): void {
  try {
    if (text.trim()) storage?.setItem(key, text);
    else storage?.removeItem(key);
  } catch {
    // Full or blocked storage: the draft lives only in the box.
  }
}
