/**
 * The lorebook engine's public shapes and SillyTavern's defaults
 * (DESIGN.md turn 4 "Lorebooks"); schema/lorebook/activation.ts re-exports
 * them. No code but `emptyTimedState`.
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
  /** Entries with `@@keep_/dont_activate_after_match` that have fired before on this branch (only they read it). */
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

