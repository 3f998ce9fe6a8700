/**
 * Screening a whole text, however long (issue 21 "Safety on every path";
 * docs/decisions/0014-screening-every-write.md): the text is cut into
 * overlapping windows that together cover every character, each window is
 * screened by the moderator, and the verdicts are merged. There is no cap on
 * the number of windows: nothing is left unscreened at the end of a text, and
 * a phrase of at most SCREEN_WINDOW_OVERLAP characters lies whole inside at
 * least one window wherever the cuts fall.
 *
 * What matches inside a window is the moderator's business (moderator.ts and
 * its providers); this file decides only which text each call sees.
 */
import type { ModerationInput, ModerationVerdict, Moderator, ModerationOptions } from "./moderator.ts";
import { inOrder } from "./moderator.ts";

/** Characters of text per moderation request (Llama Guard 3 reads 8,192 tokens; ≈ 4 characters a token, leaving room). */
export const SCREEN_WINDOW_CHARS = 12_000;
/**
 * Characters each window shares with the next. A phrase (or a sentence, for
 * the offline screen's same-sentence rule) up to this long is never split
 * between two windows only.
 */
export const SCREEN_WINDOW_OVERLAP = 2_000;
/** Moderation requests in flight at once for one text (Workers allow 6 open connections per request). */
export const SCREEN_CONCURRENCY = 6;

/**
 * The windows of `text`: `[0, W)`, `[W − O, 2W − O)`, … (W =
 * SCREEN_WINDOW_CHARS, O = SCREEN_WINDOW_OVERLAP, in UTF-16 code units), the
 * last ending at the text's end; a cut never splits a surrogate pair. Empty
 * text has no window; text of at most W characters is one window.
 */
export function screeningWindows(text: string, size = SCREEN_WINDOW_CHARS, overlap = SCREEN_WINDOW_OVERLAP): string[] {
  if (!(size > overlap && overlap >= 0)) throw new RangeError("window size must exceed the overlap");
  const windows: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(start + size, text.length);
    // Keep a surrogate pair in one piece (the window then ends one unit early).
    if (end < text.length && isLowSurrogate(text.charCodeAt(end))) end -= 1;
    windows.push(text.slice(start, end));
    if (end >= text.length) break;
    let next = end - overlap;
    if (isLowSurrogate(text.charCodeAt(next))) next -= 1;
    start = Math.max(next, start + 1);
  }
  return windows;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * Screens every window of `input.text` (screeningWindows), at most
 * SCREEN_CONCURRENCY at a time (identical windows once), and merges the verdicts: safe only when
 * every window is; categories are the union, in S1 … S14 order; `review`
 * when a window is held for review and none is S4. Empty text
 * is safe without a call. Rejects as the moderator does (ModerationError,
 * or the abort error): one failed window fails the whole text, since a
 * verdict on part of a text says nothing about the rest.
 */
export async function screenWholeText(
  moderator: Moderator,
  input: ModerationInput,
  options: ModerationOptions = {},
): Promise<ModerationVerdict> {
  // A window met twice (a greeting pasted fifty times) is judged once.
  const windows = [...new Set(screeningWindows(input.text))];
  const verdicts: ModerationVerdict[] = new Array(windows.length);
  let next = 0;
  const worker = async () => {
    while (next < windows.length) {
      const at = next++;
      verdicts[at] = await moderator.screen({ ...input, text: windows[at]! }, options);
    }
  };
  await Promise.all(Array.from({ length: Math.min(SCREEN_CONCURRENCY, windows.length) }, worker));
  const categories = inOrder(verdicts.flatMap((verdict) => verdict.categories));
  // A window held for review holds the text, unless another window is refused outright (S4 wins).
  const review = !categories.includes("S4") && verdicts.some((verdict) => verdict.review === true);
  return { safe: verdicts.every((verdict) => verdict.safe), categories, provider: moderator.name, ...(review ? { review: true as const } : {}) };
}
