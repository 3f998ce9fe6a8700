/**
 * Key matching for the lorebook engine (SillyTavern's
 * `WorldInfoBuffer.matchKeys`): plain keys, `/regex/flags` keys, case
 * sensitivity and whole words.
 *
 * A book's plain keys are compiled once per book version (entries.ts) into
 * an Aho–Corasick automaton (A. V. Aho, M. J. Corasick, "Efficient string
 * matching: an aid to bibliographic search", CACM 18(6), 1975): one pass
 * over each scanned message finds every key in it, and a key then matches
 * at a scan depth when it was seen in a message that recent. A regex key is
 * run on the scan text only when the literal it cannot match without
 * (`requiredLiteral`) was seen; a key holding a macro (`{{char}}`,
 * `<user>`…) is expanded and matched per reply, on the text itself.
 */
import { MAX_SCAN_DEPTH } from "./types.ts";

/**
 * A `/pattern/flags` key as a RegExp, by SillyTavern's `parseRegexFromString`
 * rule: flags from `gimsuy`, an unescaped `/` inside the pattern makes it a
 * plain key, and so does a pattern that does not compile.
 */
export function parseRegexKey(key: string): RegExp | null {
  const match = /^\/([\w\W]+?)\/([gimsuy]*)$/.exec(key);
  if (!match) return null;
  const pattern = match[1]!;
  if (/(^|[^\\])\//.test(pattern)) return null;
  try {
    return new RegExp(pattern.replace("\\/", "/"), match[2]);
  } catch {
    return null;
  }
}

const regexCache = new Map<string, RegExp | null>();

/** parseRegexKey, remembered by key text (a reply's macro-expanded keys are parsed once). */
export function regexOfKey(key: string): RegExp | null {
  let regex = regexCache.get(key);
  if (regex === undefined) {
    regex = parseRegexKey(key);
    if (regexCache.size >= 10_000) regexCache.clear();
    regexCache.set(key, regex);
  }
  return regex;
}

/** A key SillyTavern expands before matching (schema/macros.ts replaceMacros: `{{char}}`, `{{user}}`, `<bot>`, `<user>`). */
export function hasMacro(key: string): boolean {
  return key.includes("{{") || key.includes("<");
}

/**
 * A run of text every match of `regex` contains, or null when none can be
 * told safely: the longest run (at least 3 characters) of plain characters
 * at the pattern's top level that no quantifier makes optional. Patterns
 * with an alternation, Unicode mode (`u`, `v`: case folding beyond
 * `toLowerCase`) or an escape other than `\b \B \d \D \w \W \s \S` and
 * escaped punctuation give none. Lower-cased for an `i` regex.
 */
export function requiredLiteral(regex: RegExp): string | null {
  const source = regex.source;
  if (source.includes("|") || regex.unicode || regex.flags.includes("v")) return null;
  const runs: string[] = [];
  let run = "";
  const cut = () => {
    if (run) runs.push(run);
    run = "";
  };
  const skipQuantifier = (at: number): number => {
    // A quantifier after a group or class, and the lazy `?` after it.
    let i = at;
    if (source[i] === "{") {
      const close = source.indexOf("}", i);
      if (close < 0) return -1;
      i = close + 1;
    } else if (source[i] === "?" || source[i] === "*" || source[i] === "+") i++;
    else return at;
    if (source[i] === "?") i++;
    return i;
  };
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (c === "\\") {
      const d = source[i + 1];
      if (d === undefined) return null;
      if ("bBdDwWsS".includes(d)) {
        cut();
        i = skipQuantifier(i + 2);
        if (i < 0) return null;
        continue;
      }
      if (/[0-9A-Za-z]/.test(d)) return null;
      // Escaped punctuation is itself.
      i = literal(d, i + 2);
      if (i < 0) return null;
      continue;
    }
    if (c === "(" || c === "[") {
      cut();
      const end = c === "[" ? classEnd(source, i) : groupEnd(source, i);
      if (end < 0) return null;
      i = skipQuantifier(end + 1);
      if (i < 0) return null;
      continue;
    }
    if (c === "." || c === "^" || c === "$") {
      cut();
      i = skipQuantifier(i + 1);
      if (i < 0) return null;
      continue;
    }
    if ("?*+{}])".includes(c)) return null;
    i = literal(c, i + 1);
    if (i < 0) return null;
  }
  cut();
  const best = runs.reduce((a, b) => (b.length > a.length ? b : a), "");
  if (best.length < 3) return null;
  // Beyond ASCII, `i` matches letters whose lower cases differ (σ and ς): no literal then.
  if (regex.ignoreCase && /[^\x00-\x7f]/.test(best)) return null;
  return regex.ignoreCase ? best.toLowerCase() : best;

  /** `char` read at `next - 1`: kept unless a quantifier makes it optional. */
  function literal(char: string, next: number): number {
    const q = source[next];
    if (q === "?" || q === "*" || q === "{") {
      cut();
      return skipQuantifier(next);
    }
    if (q === "+") {
      run += char;
      cut();
      return skipQuantifier(next);
    }
    run += char;
    return next;
  }
}

/** Index of the `]` closing the class opened at `open`, or -1. */
function classEnd(source: string, open: number): number {
  for (let i = open + 1; i < source.length; i++) {
    if (source[i] === "\\") i++;
    else if (source[i] === "]" && i > open + 1) return i;
  }
  return -1;
}

/** Index of the `)` closing the group opened at `open`, or -1. */
function groupEnd(source: string, open: number): number {
  let depth = 0;
  for (let i = open; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") i++;
    else if (c === "[") {
      i = classEnd(source, i);
      if (i < 0) return -1;
    } else if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return i;
  }
  return -1;
}

/** Not seen in the scanned text. */
export const NOT_SEEN = 0x7fffffff;
/** Seen in the injected context or the recursion text: inside every scan depth above 0. */
export const ANYWHERE = -1;

/** ASCII word characters: `\w`, as the whole-word rule's `\W` boundaries (SillyTavern's, so CJK keys match inside words). */
function isWordChar(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
}

/** A node's outputs when it has none (shared, never written). */
const NO_OUTPUT: readonly number[] = [];

/**
 * A set of needles (plain keys, already lower-cased when matched without
 * case) found in one pass over a text: an Aho–Corasick automaton, built
 * once with `add` and `build`, then read by `scan`. Most trie nodes have one
 * child: it is kept in two arrays, a Map only for the second and later.
 */
export class KeySet {
  /** Every needle added, by id. */
  readonly needles: string[] = [];
  private readonly ids = new Map<string, number>();
  /** Each node's first child: its character code (-1: none) and node. */
  private readonly edgeCode: number[] = [-1];
  private readonly edgeTo: number[] = [0];
  /** Each node's other children by character code. */
  private readonly more: (Map<number, number> | undefined)[] = [undefined];
  private fail: Int32Array = new Int32Array(1);
  /** Ids of the needles ending at each node, its own and its suffixes'. */
  private readonly out: (readonly number[])[] = [NO_OUTPUT];
  private built = false;
  /** The hits of the scan under way (one reply's), reused: the engine runs one scan at a time. */
  private hits: KeyHits | null = null;

  /** The id of `needle` (added once). Throws after `build`. */
  add(needle: string): number {
    const known = this.ids.get(needle);
    if (known !== undefined) return known;
    if (this.built) throw new Error("KeySet is already built");
    let node = 0;
    for (let i = 0; i < needle.length; i++) {
      const code = needle.charCodeAt(i);
      let child = this.child(node, code);
      if (child === undefined) {
        child = this.edgeCode.length;
        this.edgeCode.push(-1);
        this.edgeTo.push(0);
        this.more.push(undefined);
        this.out.push(NO_OUTPUT);
        if (this.edgeCode[node] === -1) {
          this.edgeCode[node] = code;
          this.edgeTo[node] = child;
        } else (this.more[node] ??= new Map()).set(code, child);
      }
      node = child;
    }
    const id = this.needles.length;
    this.needles.push(needle);
    this.ids.set(needle, id);
    this.out[node] = [...this.out[node]!, id];
    return id;
  }

  get size(): number {
    return this.needles.length;
  }

  private child(node: number, code: number): number | undefined {
    return this.edgeCode[node] === code ? this.edgeTo[node] : this.more[node]?.get(code);
  }

  private children(node: number): [number, number][] {
    const list: [number, number][] = this.edgeCode[node] === -1 ? [] : [[this.edgeCode[node]!, this.edgeTo[node]!]];
    for (const pair of this.more[node] ?? []) list.push(pair);
    return list;
  }

  /** Failure links, breadth first; each node's output gains its longest proper suffix's. */
  build(): void {
    this.built = true;
    this.fail = new Int32Array(this.edgeCode.length);
    const queue: number[] = this.children(0).map(([, child]) => child);
    for (let head = 0; head < queue.length; head++) {
      const node = queue[head]!;
      for (const [code, child] of this.children(node)) {
        let f = this.fail[node]!;
        while (f !== 0 && this.child(f, code) === undefined) f = this.fail[f]!;
        const target = this.child(f, code);
        this.fail[child] = target !== undefined && target !== child ? target : 0;
        const inherited = this.out[this.fail[child]!]!;
        if (inherited.length > 0) this.out[child] = [...this.out[child]!, ...inherited];
        queue.push(child);
      }
    }
  }

  /** Where the needles were seen, all NOT_SEEN: the start of a reply's scan (valid until the next call). */
  freshHits(): KeyHits {
    const hits = (this.hits ??= new KeyHits(this.needles.length));
    hits.any.fill(NOT_SEEN);
    hits.whole.fill(NOT_SEEN);
    return hits;
  }

  /**
   * Marks in `hits` every needle found in `text` at `at` (a message's
   * index, newest 0, or ANYWHERE), keeping the smallest: `any` for any
   * occurrence, `whole` for one between word boundaries.
   */
  scan(text: string, at: number, hits: KeyHits): void {
    if (this.needles.length === 0) return;
    const { edgeCode, edgeTo, more, fail, out, needles } = this;
    let node = 0;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      let to = edgeCode[node] === code ? edgeTo[node] : more[node]?.get(code);
      while (to === undefined && node !== 0) {
        node = fail[node]!;
        to = edgeCode[node] === code ? edgeTo[node] : more[node]?.get(code);
      }
      node = to ?? 0;
      const found = out[node]!;
      for (let k = 0; k < found.length; k++) {
        const id = found[k]!;
        if (hits.any[id]! > at) hits.any[id] = at;
        if (hits.whole[id]! <= at) continue;
        const start = i - needles[id]!.length + 1;
        const before = start === 0 || !isWordChar(text.charCodeAt(start - 1));
        const after = i + 1 === text.length || !isWordChar(text.charCodeAt(i + 1));
        if (before && after) hits.whole[id] = at;
      }
    }
  }
}

/** Where each needle of a KeySet was seen in one reply's scan: the newest message index (ANYWHERE, NOT_SEEN). */
export class KeyHits {
  readonly any: Int32Array;
  readonly whole: Int32Array;
  constructor(size: number) {
    this.any = new Int32Array(size).fill(NOT_SEEN);
    this.whole = new Int32Array(size).fill(NOT_SEEN);
  }
}

/** The scan depth as SillyTavern bounds it: 0 to MAX_SCAN_DEPTH messages. */
export function clampDepth(depth: number): number {
  return Math.min(Math.max(0, depth), MAX_SCAN_DEPTH);
}

/** A scan text and its lower case (for keys that ignore case). */
export interface ScanText {
  raw: string;
  lower: string;
}

/**
 * SillyTavern's scan buffer as one text per depth: the newest messages to
 * the depth, the injected context and the recursion text, one per line,
 * each after a \x01. Built only for regex keys and keys with macros (plain
 * keys use the automaton), once per depth until the recursion text grows.
 */
export class ScanBuffer {
  private readonly recursion: string[] = [];
  private readonly texts = new Map<number, ScanText>();
  /** Results of regex keys on the texts as they are now, by depth then regex. */
  private readonly regexResults = new Map<number, Map<RegExp, boolean>>();
  private readonly messages: readonly string[];
  private readonly inject: readonly string[];
  constructor(messages: readonly string[], inject: readonly string[]) {
    this.messages = messages;
    this.inject = inject;
  }

  text(depth: number): ScanText {
    const d = clampDepth(depth);
    if (d <= 0) return { raw: "", lower: "" };
    let text = this.texts.get(d);
    if (text === undefined) {
      const raw = "\x01" + [...this.messages.slice(0, d), ...this.inject, ...this.recursion].join("\n\x01");
      text = { raw, lower: raw.toLowerCase() };
      this.texts.set(d, text);
    }
    return text;
  }

  /** Does `regex` match the text at `depth` (its own flags decide case). */
  regexMatches(regex: RegExp, depth: number): boolean {
    const d = clampDepth(depth);
    let results = this.regexResults.get(d);
    if (!results) this.regexResults.set(d, (results = new Map()));
    let result = results.get(regex);
    if (result === undefined) {
      regex.lastIndex = 0;
      result = regex.test(this.text(d).raw);
      regex.lastIndex = 0;
      results.set(regex, result);
    }
    return result;
  }

  addRecursion(text: string): void {
    this.recursion.push(text);
    this.texts.clear();
    this.regexResults.clear();
  }
}

/**
 * Does plain `key` occur in `text` (the slow path for a key expanded per
 * reply): case as `caseSensitive` says, and between word boundaries when
 * `wholeWords` and the key is one word. \W is ASCII-only, so in scripts
 * without spaces (CJK…) every letter is a boundary: as in SillyTavern, such
 * keys match inside words.
 */
export function textHasKey(text: ScanText, key: string, caseSensitive: boolean, wholeWords: boolean): boolean {
  const haystack = caseSensitive ? text.raw : text.lower;
  const needle = caseSensitive ? key : key.toLowerCase();
  if (!haystack.includes(needle)) return false;
  if (!wholeWords || needle.split(/\s+/).length > 1) return true;
  return new RegExp(`(?:^|\\W)(${needle.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")})(?:$|\\W)`).test(haystack);
}
