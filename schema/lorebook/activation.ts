/**
 * Lorebook (World Info) activation: which entries of which books go into the
 * prompt for the next reply, where, and why. Pure (no I/O, no clock, no
 * Math.random): the room and the browser's "test" box run the same code.
 *
 * It follows SillyTavern's World Info scan field by field
 * (SillyTavern/SillyTavern `public/scripts/world-info.js`: `checkWorldInfo`,
 * `WorldInfoBuffer`, `WorldInfoTimedEffects`, `filterByInclusionGroups`) and
 * reads Character Card V3 `@@` decorators (kwaroran/character-card-spec-v3
 * SPEC_V3.md "Decorators"). The table of fields, SillyTavern's meaning and
 * ours is docs/decisions/0033-lorebook-activation.md.
 */

export type SelectiveLogic = "AND_ANY" | "NOT_ALL" | "NOT_ANY" | "AND_ALL";
export type LorePosition = "before_char" | "after_char" | "at_depth";
export type LoreRole = "system" | "user" | "assistant";
/** Why an entry is in the prompt (the prompt inspector shows it). */
export type ActivationReason = "key" | "secondary" | "regex" | "constant" | "recursion" | "sticky";

/** One World Info entry, in SillyTavern's meaning (DESIGN.md turn 4 "Lorebooks"). */
export interface LoreEntry {
  id: string;
  /** SillyTavern's `comment`: the entry's title in the editor and the prompt inspector; never in the prompt. */
  comment?: string;
  /** Primary keys: plain text, or `/pattern/flags` for a regular expression. Any one matching is enough. */
  keys: string[];
  /** Checked with `selectiveLogic` once a primary key matched; empty: not checked. */
  secondaryKeys?: string[];
  /** Default AND_ANY. */
  selectiveLogic?: SelectiveLogic;
  /** SillyTavern's `selective`; false ignores the secondary keys. Default true. */
  selective?: boolean;
  /** May start with Card V3 `@@` decorator lines, which are read and left out of the prompt. */
  content: string;
  /** Null or absent: the book's setting (default false). */
  caseSensitive?: boolean | null;
  matchWholeWords?: boolean | null;
  /** In the prompt whatever was said (still subject to probability, groups, timers, budget). */
  constant?: boolean;
  /** Never used, kept. */
  disable?: boolean;
  /** 0–100, percent chance once matched; default 100. */
  probability?: number;
  /** False: `probability` is not rolled. Default true. */
  useProbability?: boolean;
  /** Default before_char. */
  position?: LorePosition;
  /** at_depth only: messages from the newest (0 = after the newest). Default 4. */
  depth?: number;
  /** at_depth only. Default system. */
  role?: LoreRole;
  /** Higher is inserted later (nearer the chat) and wins budget and group ties first. Default 100. */
  order?: number;
  /** Messages scanned for this entry; null or absent: the book's. */
  scanDepth?: number | null;
  /** Messages the entry stays in after it fired. */
  sticky?: number;
  /** Messages the entry cannot fire after it fired. */
  cooldown?: number;
  /** The entry cannot fire before the chat has this many messages. */
  delay?: number;
  /** Inclusion groups, comma-separated: at most one entry of a group fires per reply. */
  group?: string;
  /** Relative chance of winning its group. Default 100. */
  groupWeight?: number;
  /** Wins its group outright (highest `order` among such entries). */
  groupOverride?: boolean;
  /** Group scoring: only the entries with the most matching keys stay in the group. Null: the book's. */
  useGroupScoring?: boolean | null;
  /** Its content does not trigger other entries by recursion. */
  preventRecursion?: boolean;
  /** Not triggered by other entries' content. */
  excludeRecursion?: boolean;
  /** Only triggered by recursion (true = level 1, or the recursion level it waits for). */
  delayUntilRecursion?: boolean | number;
}

/** A book's own settings (SillyTavern keeps these global; here they travel with the book). */
export interface LorebookSettings {
  /** Newest messages scanned. Default 2. */
  scanDepth?: number;
  /** Tokens the activated entries may take (caps the caller's budget). */
  tokenBudget?: number;
  /** Activated entries' content is scanned too. Default false. */
  recursive?: boolean;
  /** Scan passes at most (the first counts); 0 = until nothing new fires. */
  maxRecursionSteps?: number;
  caseSensitive?: boolean;
  matchWholeWords?: boolean;
  useGroupScoring?: boolean;
}

export interface Lorebook {
  id: string;
  /** Shown in the prompt inspector beside what fired; never in the prompt. */
  name?: string;
  entries: LoreEntry[];
  settings?: LorebookSettings;
}

/** One message of the chat as scanned. */
export interface ScannedMessage {
  text: string;
  /** The speaker's name; prefixed as "Name: text" like SillyTavern's "include names". */
  name?: string;
  /** A person's message (not a character's): counts for `@@activate_only_after`/`_every`. */
  isUser?: boolean;
}

/** A timer record: the chat length (messages) it started at and ends at. */
export interface TimedEffect {
  start: number;
  end: number;
  /** A cooldown that began when a sticky ended: kept even when the chat has not advanced. */
  protected?: boolean;
}

/** Per-branch state the room keeps between replies; keys are `${lorebookId}.${entryId}`. */
export interface TimedState {
  sticky: Record<string, TimedEffect>;
  cooldown: Record<string, TimedEffect>;
  /** Entries that have fired before on this branch (for `@@keep_/dont_activate_after_match`). */
  matched: string[];
}

export interface ActivationInput {
  /** Newest first. */
  messages: readonly ScannedMessage[];
  /** Other text scanned with the chat (an author's note…), SillyTavern's "inject" buffer. */
  scanContext?: readonly string[];
  /** Tokens in a text (the model's counter). */
  countTokens: (text: string) => number;
  /** Tokens the entries may take in all; absent: no limit but the books'. */
  tokenBudget?: number;
  /** The reply's message id: seeds probability and group rolls, so regenerating reproduces them. */
  seed: string;
  /** The branch's state after the previous reply; absent: none. */
  timedState?: TimedState | null;
  /** Messages in the branch before this reply (timers count these); default `messages.length`. */
  chatLength?: number;
  /** Characters' messages in the branch; default counted from `messages`. */
  characterMessageCount?: number;
  /** Index of the greeting the chat opened with (0 = first_mes), for `@@is_greeting`. */
  greetingIndex?: number | null;
  /** Expands macros in keys ({{char}}, {{user}}); default none. */
  substitute?: (text: string) => string;
  /** "Name: text" in the scan. Default true. */
  includeNames?: boolean;
}

export interface ActivatedEntry {
  lorebookId: string;
  entryId: string;
  /** Without its decorator lines. */
  content: string;
  position: LorePosition;
  /** at_depth only, else null. */
  depth: number | null;
  role: LoreRole | null;
  order: number;
  reason: ActivationReason;
  /** The book's `name` ("" when it has none). */
  lorebookName: string;
  /** The entry's `comment`, else its first key, else "" (the inspector then shows its id). */
  title: string;
  /** The primary key that matched (`key`, `secondary`, `regex`, `recursion`); null for `constant` and `sticky`. */
  key: string | null;
  /** `secondary` with AND_ANY or AND_ALL: the first secondary key that matched; null otherwise (NOT_ logics match by absence). */
  secondaryKey: string | null;
  /** The Card V3 decorator that made it fire (`@@activate` → constant, `@@keep_activate_after_match` → sticky), else null. */
  decorator: string | null;
}

export interface ActivationResult {
  /** Lowest `order` first, as SillyTavern joins them. */
  entries: ActivatedEntry[];
  /** To keep for the branch and pass back with the next reply. */
  timedState: TimedState;
  /** True when the budget stopped the scan. */
  budgetOverflowed: boolean;
}

/** SillyTavern's defaults (world-info.js `DEFAULT_DEPTH`, `DEFAULT_WEIGHT`, `world_info_depth`, `MAX_SCAN_DEPTH`). */
export const DEFAULT_DEPTH = 4;
export const DEFAULT_GROUP_WEIGHT = 100;
export const DEFAULT_SCAN_DEPTH = 2;
export const DEFAULT_ORDER = 100;
export const MAX_SCAN_DEPTH = 1000;

export function emptyTimedState(): TimedState {
  return { sticky: {}, cooldown: {}, matched: [] };
}

// ---------------------------------------------------------------------------
// Seeded randomness

/**
 * A number in [0, 1) fixed by `seed` and `label`: FNV-1a (32-bit, Fowler–Noll–Vo,
 * http://www.isthe.com/chongo/tech/comp/fnv/) hashes the pair, mulberry32
 * (Tommy Ettinger, public domain:
 * https://gist.github.com/tommyettinger/46a874533244883189143505d203312c)
 * turns it into a float. One draw per decision, so a roll never depends on
 * which other entries were rolled before it.
 */
export function seededRandom(seed: string, label: string): number {
  const text = `${seed}\u0000${label}`;
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  let t = (hash + 0x6d2b79f5) | 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

// ---------------------------------------------------------------------------
// Card V3 decorators

/** Decorators this engine reads (SPEC_V3.md "Decorators", plus RisuAI's `@@match_full_word`, `@@probability`). */
const KNOWN_DECORATORS = new Set([
  "activate",
  "dont_activate",
  "depth",
  "role",
  "position",
  "scan_depth",
  "activate_only_after",
  "activate_only_every",
  "keep_activate_after_match",
  "dont_activate_after_match",
  "is_greeting",
  "additional_keys",
  "exclude_keys",
  "match_full_word",
  "probability",
]);

export interface Decorator {
  name: string;
  /** Comma-separated values, trimmed; [] for a decorator without a value. */
  values: string[];
}

/**
 * Splits an entry's content into its leading `@@name value` lines and the
 * rest. A `@@@name` line is a fallback, read only when the line before it was
 * a decorator this engine does not know (SPEC_V3.md "fallback decorators").
 * Every leading decorator line, known or not, is left out of the content.
 */
export function parseDecorators(content: string): { decorators: Decorator[]; content: string } {
  if (!content.startsWith("@@")) return { decorators: [], content };
  const lines = content.split("\n");
  const decorators: Decorator[] = [];
  let previousUnknown = false;
  let i = 0;
  for (; i < lines.length && lines[i]!.startsWith("@@"); i++) {
    const line = lines[i]!;
    const fallback = line.startsWith("@@@");
    if (fallback && !previousUnknown) continue;
    const body = line.slice(fallback ? 3 : 2).trim();
    const space = body.search(/\s/);
    const name = (space < 0 ? body : body.slice(0, space)).toLowerCase();
    const value = space < 0 ? "" : body.slice(space + 1).trim();
    if (KNOWN_DECORATORS.has(name)) {
      decorators.push({ name, values: value === "" ? [] : value.split(",").map((v) => v.trim()).filter(Boolean) });
      previousUnknown = false;
    } else {
      previousUnknown = true;
    }
  }
  return { decorators, content: lines.slice(i).join("\n") };
}

// ---------------------------------------------------------------------------
// Matching

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

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

interface Resolved {
  lorebookId: string;
  lorebookName: string;
  key: string;
  entry: LoreEntry;
  content: string;
  keys: string[];
  secondaryKeys: string[];
  additionalKeys: string[][];
  excludeKeys: string[];
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
  recursive: boolean;
}

// Caches of pure functions of their key (a scan reads the same texts and keys once per entry).
const regexCache = new Map<string, RegExp | null>();
const wholeWordCache = new Map<string, RegExp>();

function remember<V>(cache: Map<string, V>, key: string, make: () => V, limit = 10_000): V {
  let value = cache.get(key);
  if (value === undefined) {
    value = make();
    if (cache.size >= limit) cache.clear();
    cache.set(key, value);
  }
  return value;
}

/** Does `key` occur in `haystack` (SillyTavern's `WorldInfoBuffer.matchKeys`). */
function matchKey(haystack: ScanText, key: string, entry: Resolved): { matched: boolean; regex: boolean } {
  const regex = remember(regexCache, key, () => parseRegexKey(key));
  // A regex key ignores case sensitivity and whole words: its own flags decide.
  if (regex) {
    regex.lastIndex = 0;
    return { matched: regex.test(haystack.raw), regex: true };
  }
  const text = entry.caseSensitive ? haystack.raw : haystack.lower;
  const needle = entry.caseSensitive ? key : key.toLowerCase();
  if (!mayContain(haystack, needle, entry.caseSensitive) || !text.includes(needle)) return { matched: false, regex: false };
  if (!entry.matchWholeWords || needle.split(/\s+/).length > 1) return { matched: true, regex: false };
  // \W is ASCII-only, so in scripts without spaces (CJK…) every letter is a boundary: as in SillyTavern, such keys match inside words.
  const bounded = remember(wholeWordCache, needle, () => new RegExp(`(?:^|\\W)(${escapeRegExp(needle)})(?:$|\\W)`));
  return { matched: bounded.test(text), regex: false };
}

function num(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}

function decoratorNumber(decorators: Decorator[], name: string): number | null {
  const found = decorators.find((d) => d.name === name);
  const value = found ? Number(found.values[0]) : NaN;
  return Number.isFinite(value) ? value : null;
}

function resolve(book: Lorebook, entry: LoreEntry, recursive: boolean): Resolved {
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
  return {
    lorebookId: book.id,
    lorebookName: book.name ?? "",
    key: `${book.id}.${entry.id}`,
    entry,
    content,
    keys: entry.keys ?? [],
    secondaryKeys: entry.selective === false ? [] : (entry.secondaryKeys ?? []),
    additionalKeys: decorators.filter((d) => d.name === "additional_keys" && d.values.length > 0).map((d) => d.values),
    excludeKeys: decorators.filter((d) => d.name === "exclude_keys").flatMap((d) => d.values),
    caseSensitive: entry.caseSensitive ?? settings.caseSensitive ?? false,
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
  };
}

/** Why an entry fired, as ActivatedEntry tells it. */
type Why = Pick<ActivatedEntry, "reason" | "key" | "secondaryKey" | "decorator">;

/** A scan text and its lower case (for keys that ignore case). */
interface ScanText {
  raw: string;
  lower: string;
  /** Every three-character run of `raw` and of `lower`, made on first use (mayContain). */
  trigrams?: { raw: Set<string>; lower: Set<string> };
}

function trigramsOf(text: string): Set<string> {
  const set = new Set<string>();
  for (let i = 0; i + 3 <= text.length; i++) set.add(text.slice(i, i + 3));
  return set;
}

/**
 * False when `needle` cannot occur in `haystack`: some three-character run
 * of it (its first, middle and last are tried) is nowhere in the text. A
 * necessary condition only, checked in constant time, so that a book of
 * a thousand keys runs `includes` over the scan text only for the few that
 * may match (`npm run bench:lorebook`).
 */
function mayContain(haystack: ScanText, needle: string, caseSensitive: boolean): boolean {
  if (needle.length < 3) return true;
  haystack.trigrams ??= { raw: trigramsOf(haystack.raw), lower: trigramsOf(haystack.lower) };
  const set = caseSensitive ? haystack.trigrams.raw : haystack.trigrams.lower;
  const middle = Math.floor((needle.length - 3) / 2);
  return set.has(needle.slice(0, 3)) && set.has(needle.slice(middle, middle + 3)) && set.has(needle.slice(-3));
}

/** SillyTavern's scan buffer: the newest messages to a depth, the injected context and the recursion text, one per line, each after a \x01. */
class ScanBuffer {
  private readonly recursion: string[] = [];
  private readonly messages: string[];
  private readonly inject: readonly string[];
  constructor(messages: string[], inject: readonly string[]) {
    this.messages = messages;
    this.inject = inject;
  }

  private readonly texts = new Map<number, ScanText>();

  text(depth: number): ScanText {
    const d = Math.min(Math.max(0, depth), MAX_SCAN_DEPTH);
    if (d <= 0) return { raw: "", lower: "" };
    let text = this.texts.get(d);
    if (text === undefined) {
      const raw = "\x01" + [...this.messages.slice(0, d), ...this.inject, ...this.recursion].join("\n\x01");
      text = { raw, lower: raw.toLowerCase() };
      this.texts.set(d, text);
    }
    return text;
  }

  addRecursion(text: string): void {
    this.recursion.push(text);
    this.texts.clear();
  }
}

// ---------------------------------------------------------------------------
// The scan

/**
 * The entries of `books` that fire for the next reply.
 *
 * `books` in priority order (the chat's, then the speaker's, then other
 * members'); within a book, higher `order` first, as SillyTavern's
 * `getSortedEntries`. A scan pass checks each entry (disabled, timers,
 * decorators, constant, sticky, primary keys, secondary keys with their
 * logic), then inclusion groups, then the probability roll and the token
 * budget in that order; with recursion on, what fired is scanned again until
 * nothing new fires, the budget is reached or `maxRecursionSteps` passes ran.
 * Timers are counted in messages of the branch (`chatLength`) and returned
 * for the room to keep. Throws nothing: unreadable keys and decorators are
 * ignored as SillyTavern ignores them.
 */
export function activate(books: Lorebook | readonly Lorebook[], input: ActivationInput): ActivationResult {
  const bookList = Array.isArray(books) ? (books as readonly Lorebook[]) : [books as Lorebook];
  const substitute = input.substitute ?? ((text: string) => text);
  const includeNames = input.includeNames !== false;
  const chatLength = input.chatLength ?? input.messages.length;
  const characterMessages = input.characterMessageCount ?? input.messages.filter((m) => !m.isUser).length;
  const recursiveBooks = bookList.filter((b) => b.settings?.recursive === true);
  const recursive = recursiveBooks.length > 0;
  const stepLimits = recursiveBooks.map((b) => num(b.settings?.maxRecursionSteps, 0)).filter((n) => n > 0);
  const maxSteps = stepLimits.length > 0 ? Math.min(...stepLimits) : 0;
  const budgets = [input.tokenBudget, ...bookList.map((b) => b.settings?.tokenBudget)].filter((n): n is number => typeof n === "number" && Number.isFinite(n));
  const budget = budgets.length > 0 ? Math.max(1, Math.round(Math.min(...budgets))) : Infinity;

  const sorted: Resolved[] = bookList.flatMap((book) =>
    [...book.entries]
      .sort((a, b) => num(b.order, DEFAULT_ORDER) - num(a.order, DEFAULT_ORDER))
      .map((entry) => resolve(book, entry, book.settings?.recursive === true)),
  );
  const byKey = new Map(sorted.map((e) => [e.key, e]));

  // Timed effects (SillyTavern `WorldInfoTimedEffects.checkTimedEffects`).
  const previous = input.timedState ?? emptyTimedState();
  // Kept state may come from an older room: a missing part reads as empty.
  const state: TimedState = { sticky: { ...previous.sticky }, cooldown: { ...previous.cooldown }, matched: [...(previous.matched ?? [])] };
  const sticky = new Set<string>();
  const cooldown = new Set<string>();
  const check = (type: "sticky" | "cooldown", active: Set<string>) => {
    for (const [key, effect] of Object.entries(state[type])) {
      const entry = byKey.get(key);
      // Not advanced (a regenerate or a rewind to before it started): the timer is undone.
      if (chatLength <= effect.start && !effect.protected) {
        delete state[type][key];
        continue;
      }
      if (!entry) {
        if (chatLength >= effect.end) delete state[type][key];
        continue;
      }
      if (!entry.entry[type]) {
        delete state[type][key];
        continue;
      }
      if (chatLength >= effect.end) {
        delete state[type][key];
        if (type === "sticky" && entry.entry.cooldown) {
          state.cooldown[key] = { start: chatLength, end: chatLength + entry.entry.cooldown, protected: true };
          cooldown.add(key);
        }
        continue;
      }
      active.add(key);
    }
  };
  check("sticky", sticky);
  check("cooldown", cooldown);
  const delayed = new Set(sorted.filter((e) => e.entry.delay && chatLength < e.entry.delay).map((e) => e.key));
  const matchedBefore = new Set(state.matched);

  const messages = input.messages.map((m) => {
    const text = m.text.trim();
    return includeNames && m.name ? `${m.name}: ${text}` : text;
  });
  const buffer = new ScanBuffer(messages, input.scanContext ?? []);

  const recursionLevels = [...new Set(sorted.filter((e) => e.entry.delayUntilRecursion).map((e) => (e.entry.delayUntilRecursion === true ? 1 : Number(e.entry.delayUntilRecursion))))].sort((a, b) => a - b);
  let recursionLevel = recursionLevels.shift() ?? 0;

  const activated: Resolved[] = [];
  const activatedKeys = new Set<string>();
  const reasons = new Map<string, Why>();
  const failedProbability = new Set<string>();
  let allActivatedText = "";
  let overflowed = false;
  let inRecursion = false;
  let steps = 0;

  const keyMatches = (text: ScanText, keys: string[], entry: Resolved) =>
    keys
      .map((k) => substitute(k).trim())
      .filter(Boolean)
      .map((k) => ({ key: k, ...matchKey(text, k, entry) }));

  for (;;) {
    if (maxSteps && maxSteps <= steps) break;
    steps++;
    const now: Resolved[] = [];
    for (const entry of sorted) {
      const e = entry.entry;
      if (failedProbability.has(entry.key) || activatedKeys.has(entry.key) || e.disable) continue;
      const isSticky = sticky.has(entry.key);
      if (delayed.has(entry.key)) continue;
      if (cooldown.has(entry.key) && !isSticky) continue;
      if (!inRecursion && e.delayUntilRecursion && !isSticky) continue;
      if (inRecursion && e.delayUntilRecursion && (e.delayUntilRecursion === true ? 1 : Number(e.delayUntilRecursion)) > recursionLevel && !isSticky) continue;
      if (inRecursion && recursive && e.excludeRecursion && !isSticky) continue;
      // Beside a recursive book, a book without recursion is not triggered by other entries.
      if (inRecursion && recursive && !entry.recursive && !e.delayUntilRecursion && !isSticky) continue;
      const fire = (reason: ActivationReason, why: Partial<Omit<Why, "reason">> = {}) => {
        now.push(entry);
        reasons.set(entry.key, { reason, key: null, secondaryKey: null, decorator: null, ...why });
      };
      if (entry.decorators.has("activate")) {
        fire("constant", { decorator: "@@activate" });
        continue;
      }
      if (entry.decorators.has("dont_activate")) continue;
      if (entry.isGreeting !== null && input.greetingIndex != null && entry.isGreeting !== input.greetingIndex) continue;
      if (entry.activateOnlyAfter !== null && characterMessages < entry.activateOnlyAfter) continue;
      if (entry.activateOnlyEvery !== null && entry.activateOnlyEvery > 0 && characterMessages % entry.activateOnlyEvery !== 0) continue;
      if (entry.decorators.has("dont_activate_after_match") && matchedBefore.has(entry.key)) continue;
      if (e.constant) {
        fire("constant");
        continue;
      }
      if (isSticky) {
        fire("sticky");
        continue;
      }
      if (entry.decorators.has("keep_activate_after_match") && matchedBefore.has(entry.key)) {
        fire("sticky", { decorator: "@@keep_activate_after_match" });
        continue;
      }
      if (entry.keys.length === 0) continue;
      const text = buffer.text(entry.scanDepth);
      const primary = keyMatches(text, entry.keys, entry).find((m) => m.matched);
      if (!primary) continue;
      if (entry.additionalKeys.some((keys) => !keyMatches(text, keys, entry).some((m) => m.matched))) continue;
      if (entry.excludeKeys.length > 0 && keyMatches(text, entry.excludeKeys, entry).some((m) => m.matched)) continue;
      const baseReason: ActivationReason = inRecursion ? "recursion" : primary.regex ? "regex" : "key";
      const secondary = keyMatches(text, entry.secondaryKeys, entry);
      if (secondary.length === 0) {
        fire(baseReason, { key: primary.key });
        continue;
      }
      const logic = entry.entry.selectiveLogic ?? "AND_ANY";
      const any = secondary.some((m) => m.matched);
      const all = secondary.every((m) => m.matched);
      const passes = logic === "AND_ANY" ? any : logic === "NOT_ALL" ? !all : logic === "NOT_ANY" ? !any : all;
      const secondaryKey = logic === "AND_ANY" || logic === "AND_ALL" ? (secondary.find((m) => m.matched)?.key ?? null) : null;
      if (passes) fire(inRecursion ? "recursion" : "secondary", { key: primary.key, secondaryKey });
    }

    // Sticky entries first, then the scan order (SillyTavern sorts `newEntries` so).
    const index = new Map(sorted.map((e, i) => [e.key, i]));
    let fresh = [...now].sort((a, b) => Number(sticky.has(b.key)) - Number(sticky.has(a.key)) || index.get(a.key)! - index.get(b.key)!);
    const priorTokens = input.countTokens(allActivatedText);
    fresh = filterByInclusionGroups(fresh, activated, buffer, sticky, input.seed);

    let newContent = "";
    for (const entry of fresh) {
      if (entry.probability < 100 && !sticky.has(entry.key) && seededRandom(input.seed, `probability:${entry.key}`) * 100 > entry.probability) {
        failedProbability.add(entry.key);
        continue;
      }
      newContent += `${entry.content}\n`;
      if (priorTokens + input.countTokens(newContent) >= budget) {
        overflowed = true;
        break;
      }
      activated.push(entry);
      activatedKeys.add(entry.key);
    }

    const forRecursion = fresh.filter((e) => !failedProbability.has(e.key) && !e.entry.preventRecursion && (e.recursive || !recursive));
    let next = recursive && !overflowed && forRecursion.length > 0;
    if (!next && recursionLevels.length > 0) {
      next = true;
      recursionLevel = recursionLevels.shift()!;
    }
    if (!next) break;
    inRecursion = true;
    const text = forRecursion.map((e) => e.content).join("\n");
    buffer.addRecursion(text);
    allActivatedText = `${text}\n${allActivatedText}`;
  }

  // SillyTavern sets timers for every activated entry, a running one kept as it is.
  for (const entry of activated) {
    for (const type of ["sticky", "cooldown"] as const) {
      const length = entry.entry[type];
      if (length && !state[type][entry.key]) state[type][entry.key] = { start: chatLength, end: chatLength + length };
    }
    if (!matchedBefore.has(entry.key)) state.matched.push(entry.key);
  }

  // Sorted by order descending, each put in front: lowest order first, as SillyTavern joins them.
  const ordered = [...activated].sort((a, b) => b.order - a.order).reverse();
  const entries = ordered
    .filter((entry) => entry.content !== "")
    .map((entry) => ({
      lorebookId: entry.lorebookId,
      entryId: entry.entry.id,
      content: entry.content,
      position: entry.position,
      depth: entry.position === "at_depth" ? entry.depth : null,
      role: entry.position === "at_depth" ? entry.role : null,
      order: entry.order,
      ...reasons.get(entry.key)!,
      lorebookName: entry.lorebookName,
      title: entry.entry.comment?.trim() || entry.keys.find((key) => key.trim() !== "")?.trim() || "",
    }));
  return { entries, timedState: state, budgetOverflowed: overflowed };
}

/** How many primary (and positive secondary) keys of `entry` occur: SillyTavern's `WorldInfoBuffer.getScore`. */
function score(entry: Resolved, buffer: ScanBuffer): number {
  if (entry.keys.length === 0) return 0;
  const text = buffer.text(entry.scanDepth);
  const count = (keys: string[]) => keys.filter((k) => matchKey(text, k, entry).matched).length;
  const primary = count(entry.keys);
  if (entry.secondaryKeys.length === 0) return primary;
  const secondary = count(entry.secondaryKeys);
  const logic = entry.entry.selectiveLogic ?? "AND_ANY";
  if (logic === "AND_ANY") return primary + secondary;
  if (logic === "AND_ALL") return secondary === entry.secondaryKeys.length ? primary + secondary : primary;
  return primary;
}

/** At most one entry per inclusion group: SillyTavern's `filterByInclusionGroups` (sticky, scoring, override, weighted roll). */
function filterByInclusionGroups(fresh: Resolved[], activated: Resolved[], buffer: ScanBuffer, sticky: Set<string>, seed: string): Resolved[] {
  const groups = new Map<string, Resolved[]>();
  for (const entry of fresh) for (const group of entry.groups) groups.set(group, [...(groups.get(group) ?? []), entry]);
  if (groups.size === 0) return fresh;
  const removed = new Set<string>();
  for (const [name, all] of groups) {
    const stickies = all.filter((e) => sticky.has(e.key));
    if (stickies.length > 0) {
      for (const e of all) if (!sticky.has(e.key)) removed.add(e.key);
      continue;
    }
    let group = all;
    if (group.some((e) => e.useGroupScoring)) {
      const scores = group.map((e) => score(e, buffer));
      const best = Math.max(...scores);
      const losers = group.filter((e, i) => e.useGroupScoring && scores[i]! < best);
      for (const e of losers) removed.add(e.key);
      group = group.filter((e) => !losers.includes(e));
    }
    if (activated.some((e) => e.groups.includes(name))) {
      for (const e of group) removed.add(e.key);
      continue;
    }
    if (group.length <= 1) continue;
    const overrides = group.filter((e) => e.entry.groupOverride).sort((a, b) => b.order - a.order);
    let winner: Resolved | undefined = overrides[0];
    if (!winner) {
      const weight = (e: Resolved) => num(e.entry.groupWeight, DEFAULT_GROUP_WEIGHT);
      const roll = seededRandom(seed, `group:${name}:${group.map((e) => e.key).join(",")}`) * group.reduce((sum, e) => sum + weight(e), 0);
      let running = 0;
      winner = group.find((e) => (running += weight(e)) >= roll);
    }
    if (!winner) continue;
    for (const e of group) if (e !== winner) removed.add(e.key);
  }
  return fresh.filter((e) => !removed.has(e.key));
}
