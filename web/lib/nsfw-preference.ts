/**
 * A visitor's NSFW choice in this browser (issue 26 "Adult content,
 * deliberately"): whether NSFW is shown, and when they confirmed being 18 or
 * older — both in localStorage, so the choice outlives the tab. Off is the
 * default; a stored "on" without a confirmation counts as off. Signed-in
 * people keep theirs in their profile (`/api/profile/content`) instead.
 * Storage that cannot be read or written (private modes, a full quota)
 * only means the choice lasts for the page.
 */

export const SHOW_NSFW_STORAGE_KEY = "fabled:show-nsfw";
export const ADULT_CONFIRMED_STORAGE_KEY = "fabled:adult-confirmed-at";

type Storage_ = Pick<Storage, "getItem" | "setItem">;

/** This browser's storage, or undefined where there is none (tests, blocked storage). */
function browserStorage(): Storage_ | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

function read(storage: Storage_ | undefined, key: string): string | null {
  try {
    return storage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

function write(storage: Storage_ | undefined, key: string, value: string): void {
  try {
    storage?.setItem(key, value);
  } catch {
    // The choice lasts for the page.
  }
}

/** When this browser's visitor confirmed being 18 or older (ms since the epoch), or null. */
export function storedAdultConfirmation(storage = browserStorage()): number | null {
  const at = Number(read(storage, ADULT_CONFIRMED_STORAGE_KEY));
  return Number.isFinite(at) && at > 0 ? at : null;
}

/** Whether this browser's visitor chose to see NSFW (and confirmed their age); false by default. */
export function storedShowNsfw(storage = browserStorage()): boolean {
  return read(storage, SHOW_NSFW_STORAGE_KEY) === "true" && storedAdultConfirmation(storage) !== null;
}

/** Keeps the visitor's choice; `confirmedAt` (ms) records the 18+ confirmation the first time. */
export function storeNsfwChoice(showNsfw: boolean, confirmedAt: number | null = null, storage = browserStorage()): void {
  if (confirmedAt !== null && storedAdultConfirmation(storage) === null) write(storage, ADULT_CONFIRMED_STORAGE_KEY, String(confirmedAt));
  write(storage, SHOW_NSFW_STORAGE_KEY, String(showNsfw));
}
