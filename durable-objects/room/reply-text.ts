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
 * Finds the first stop sequence in a reply as it streams, one piece at a
 * time. Only the text a new piece can complete a stop in is searched: the
 * piece and the longest stop's length − 1 characters before it (everything
 * earlier was searched with the pieces before). Searching the whole reply on
 * every piece would also copy it each time (a string grown by `+=` is a
 * rope that a search flattens), O(n²) characters per reply.
 */
export class StopScanner {
  private readonly stops: readonly string[];
  /** How many characters before a piece a stop may start in: the longest stop's length − 1. */
  private readonly overlap: number;
  /** The end of the text so far: at least `overlap` characters and the last piece. */
  private tail = "";
  /** The length of the whole text so far, characters. */
  private length = 0;

  constructor(stops: readonly string[]) {
    this.stops = stops.filter((stop) => stop !== "");
    this.overlap = Math.max(0, ...this.stops.map((stop) => stop.length - 1));
  }

  /** Starts over on `text` (the reply's text was rewritten); returns where its first stop starts, or -1. */
  restart(text: string): number {
    this.tail = "";
    this.length = 0;
    return this.push(text);
  }

  /** `piece` was added to the text; returns where the text's first stop starts (an index into the whole text), or -1. */
  push(piece: string): number {
    if (this.stops.length === 0) return -1;
    const before = this.tail.length > this.overlap ? this.tail.slice(this.tail.length - this.overlap) : this.tail;
    this.tail = before + piece;
    this.length += piece.length;
    const at = earliestStop(this.tail, this.stops);
    return at < 0 ? -1 : this.length - this.tail.length + at;
  }
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
