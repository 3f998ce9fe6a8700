/**
 * Small text rules of a streaming reply: where a stop sequence cuts it, and
 * how the first piece of a continuation joins the reply's text.
 */

/** Where the first of `stops` occurs in `text`, or -1. */
export function earliestStop(text: string, stops: readonly string[]): number {
  let cut = -1;
  for (const stop of stops) {
    const at = text.indexOf(stop);
    if (at >= 0 && (cut < 0 || at < cut)) cut = at;
  }
  return cut;
}

/**
 * The first piece of a continuation, joined to the reply's text: a space
 * before a word, an action (`*`) or a quote (models often start a
 * continuation without one), none before closing punctuation or when either
 * side already has white space.
 */
export function continuationPiece(base: string, piece: string): string {
  if (/\s$/.test(base) || /^[\s,.;:!?…)\]}”’-]/.test(piece) || piece === "") return piece;
  return ` ${piece}`;
}
