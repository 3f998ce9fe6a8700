/**
 * A book as the scan reads it, compiled once per book version: each entry
 * with the book's settings and its Card V3 decorators applied (SillyTavern's
 * defaults where neither says), sorted as SillyTavern's `getSortedEntries`
 * (higher `order` first), and its plain keys in the book's key automata
 * (matching.ts KeySet: one for keys matched without case, one with).
 *
 * Compiled books are remembered by the book object (a WeakMap): a caller
 * that keeps a book object while it does not change (the room keeps one
 * per book id and `updated_at`, durable-objects/room/lore.ts) compiles it
 * once; a changed book must be a new object.
 */
import { type Decorator, parseDecorators } from "./decorators.ts";
import { hasMacro, KeySet, regexOfKey, requiredLiteral } from "./matching.ts";
import { DEFAULT_DEPTH, DEFAULT_ORDER, DEFAULT_SCAN_DEPTH, type LoreEntry, type Lorebook, type LorePosition, type LoreRole } from "./types.ts";

/**
 * A key of an entry as compiled: a plain key's id in its KeySet (`lower`
 * or `raw` by the entry's case sensitivity), a regex key's RegExp and the
 * id of the literal it needs, or a key with macros, expanded per reply.
 */
export type CompiledKey =
  | { kind: "plain"; text: string; id: number; oneWord: boolean }
  | { kind: "regex"; text: string; regex: RegExp; literal: { caseSensitive: boolean; id: number } | null }
  | { kind: "macro"; text: string };

/** An entry with everything that does not change between replies worked out. */
export interface Resolved {
  lorebookId: string;
  lorebookName: string;
  /** `${lorebookId}.${entryId}`: its timers' key. */
  key: string;
  entry: LoreEntry;
  /** Without its decorator lines. */
  content: string;
  /** Non-empty keys as written (the first names the entry when it has no comment). */
  keys: string[];
  primary: CompiledKey[];
  secondary: CompiledKey[];
  /** `@@additional_keys` lines: each needs one of its keys. */
  additional: CompiledKey[][];
  /** `@@exclude_keys`: none may match. */
  exclude: CompiledKey[];
  caseSensitive: boolean;
  matchWholeWords: boolean;
  useGroupScoring: boolean;
  scanDepth: number;
  probability: number;
  position: LorePosition;
  depth: number;
  role: LoreRole;
  order: number;
  groups: string[];
  decorators: Set<string>;
  activateOnlyAfter: number | null;
  activateOnlyEvery: number | null;
  isGreeting: number | null;
  /** Its book scans recursively. */
  recursive: boolean;
  /** `delayUntilRecursion` as a level (true or unreadable = 1), or 0. */
  recursionLevel: number;
  /** The compiled book it belongs to (its key ids are in that book's KeySets). */
  book: CompiledBook;
}

export interface CompiledBook {
  /** Higher `order` first. */
  entries: Resolved[];
  /** Plain keys matched without case (lower-cased). */
  lower: KeySet;
  /** Plain keys matched with case. */
  raw: KeySet;
  /** The deepest scan any entry asks for (messages). */
  maxScanDepth: number;
  /** Entries by `${lorebookId}.${entryId}`. */
  byKey: Map<string, Resolved>;
}

const compiled = new WeakMap<Lorebook, CompiledBook>();

/** `book` compiled (remembered while the object lives). Throws nothing: unreadable keys are plain text, as in SillyTavern. */
export function compileBook(book: Lorebook): CompiledBook {
  let result = compiled.get(book);
  if (!result) {
    result = compile(book);
    compiled.set(book, result);
  }
  return result;
}

function compile(book: Lorebook): CompiledBook {
  const lower = new KeySet();
  const raw = new KeySet();
  const recursive = book.settings?.recursive === true;
  const entries = [...book.entries]
    .sort((a, b) => num(b.order, DEFAULT_ORDER) - num(a.order, DEFAULT_ORDER))
    .map((entry) => resolve(book, entry, recursive, lower, raw) as Resolved);
  lower.build();
  raw.build();
  const result: CompiledBook = {
    entries,
    lower,
    raw,
    maxScanDepth: entries.reduce((max, e) => Math.max(max, e.scanDepth), 0),
    byKey: new Map(entries.map((e) => [e.key, e])),
  };
  for (const entry of entries) entry.book = result;
  return result;
}

function compileKeys(keys: readonly string[], caseSensitive: boolean, lower: KeySet, raw: KeySet): CompiledKey[] {
  return keys.flatMap((written): CompiledKey[] => {
    if (typeof written !== "string") return [];
    if (hasMacro(written)) return [{ kind: "macro", text: written }];
    const text = written.trim();
    if (!text) return [];
    const regex = regexOfKey(text);
    if (regex) {
      const literal = requiredLiteral(regex);
      return [{ kind: "regex", text, regex, literal: literal === null ? null : regex.ignoreCase ? { caseSensitive: false, id: lower.add(literal) } : { caseSensitive: true, id: raw.add(literal) } }];
    }
    const needle = caseSensitive ? text : text.toLowerCase();
    return [{ kind: "plain", text, id: (caseSensitive ? raw : lower).add(needle), oneWord: needle.split(/\s+/).length <= 1 }];
  });
}

function num(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}

function decoratorNumber(decorators: Decorator[], name: string): number | null {
  const found = decorators.find((d) => d.name === name);
  const value = found ? Number(found.values[0]) : NaN;
  return Number.isFinite(value) ? value : null;
}

function resolve(book: Lorebook, entry: LoreEntry, recursive: boolean, lower: KeySet, raw: KeySet): Omit<Resolved, "book"> & { book?: CompiledBook } {
  const settings = book.settings ?? {};
  const { decorators, content } = parseDecorators(entry.content ?? "");
  const names = new Set(decorators.map((d) => d.name));
  const positionDecorator = decorators.find((d) => d.name === "position")?.values[0];
  const decoratedPosition: LorePosition | null =
    positionDecorator === "before_desc" || positionDecorator === "before_char" ? "before_char" : positionDecorator === "after_desc" || positionDecorator === "after_char" ? "after_char" : null;
  const decoratedDepth = decoratorNumber(decorators, "depth");
  const roleDecorator = decorators.find((d) => d.name === "role")?.values[0];
  let position: LorePosition = entry.position ?? "before_char";
  let depth = num(entry.depth, DEFAULT_DEPTH);
  // SPEC_V3: @@position wins over @@depth.
  if (decoratedPosition) position = decoratedPosition;
  else if (decoratedDepth !== null) {
    position = "at_depth";
    depth = Math.max(0, decoratedDepth);
  }
  const caseSensitive = entry.caseSensitive ?? settings.caseSensitive ?? false;
  const keys = entry.keys ?? [];
  const delay = entry.delayUntilRecursion;
  return {
    lorebookId: book.id,
    lorebookName: book.name ?? "",
    key: `${book.id}.${entry.id}`,
    entry,
    content,
    keys: keys.filter((key) => typeof key === "string" && key.trim() !== ""),
    primary: compileKeys(keys, caseSensitive, lower, raw),
    secondary: compileKeys(entry.selective === false ? [] : (entry.secondaryKeys ?? []), caseSensitive, lower, raw),
    additional: decorators.filter((d) => d.name === "additional_keys" && d.values.length > 0).map((d) => compileKeys(d.values, caseSensitive, lower, raw)),
    exclude: compileKeys(
      decorators.filter((d) => d.name === "exclude_keys").flatMap((d) => d.values),
      caseSensitive,
      lower,
      raw,
    ),
    caseSensitive,
    matchWholeWords: names.has("match_full_word") || (entry.matchWholeWords ?? settings.matchWholeWords ?? false),
    useGroupScoring: entry.useGroupScoring ?? settings.useGroupScoring ?? false,
    scanDepth: decoratorNumber(decorators, "scan_depth") ?? entry.scanDepth ?? settings.scanDepth ?? DEFAULT_SCAN_DEPTH,
    probability: decoratorNumber(decorators, "probability") ?? (entry.useProbability === false ? 100 : num(entry.probability, 100)),
    position,
    depth,
    role: roleDecorator === "user" || roleDecorator === "assistant" || roleDecorator === "system" ? roleDecorator : (entry.role ?? "system"),
    order: num(entry.order, DEFAULT_ORDER),
    groups: (entry.group ?? "").split(/,\s*/).filter(Boolean),
    decorators: names,
    activateOnlyAfter: decoratorNumber(decorators, "activate_only_after"),
    activateOnlyEvery: decoratorNumber(decorators, "activate_only_every"),
    isGreeting: decoratorNumber(decorators, "is_greeting"),
    recursive,
    recursionLevel: !delay ? 0 : delay === true || !Number.isFinite(Number(delay)) ? 1 : Number(delay),
  };
}
