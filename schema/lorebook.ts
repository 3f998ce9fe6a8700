/**
 * A character card's lorebook (`character_book`, Character Card V2/V3:
 * https://github.com/malfoyslastname/character-card-spec-v2 "character_book",
 * https://github.com/kwaroran/character-card-spec-v3) as the character form
 * edits it: one row per entry with its keys, secondary keys, content,
 * constant, enabled and insertion order. Everything else a card's book or
 * entry holds (`extensions`, `position`, `case_sensitive`, `use_regex`,
 * `priority`, SillyTavern's own fields, the book's `scan_depth`…) is kept as
 * it was, so an imported lorebook exports again with every field it came
 * with. Shared by the web form and the Worker's tests.
 */

/** One lorebook entry as the form shows it. */
export interface LoreEntryValues {
  /** The words that bring the entry into the prompt (`keys`). */
  keys: string[];
  /** With `selective`, a second word that must occur too (`secondary_keys`). */
  secondaryKeys: string[];
  /** What goes into the prompt (`content`). */
  content: string;
  /** Always in the prompt, whatever was said (`constant`). */
  constant: boolean;
  /** Off: never used, kept (`enabled`). */
  enabled: boolean;
  /** Lower first among the entries in the prompt (`insertion_order`). */
  insertionOrder: number;
  /** Every other field of the card's entry, kept verbatim; `{}` for a new one. */
  rest: Record<string, unknown>;
}

/** The order a new entry gets (SillyTavern's default). */
export const DEFAULT_INSERTION_ORDER = 100;

const EDITED = ["keys", "secondary_keys", "content", "constant", "enabled", "insertion_order"];

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The entries of a stored lorebook as form rows (entries that are not objects are left out). Null or no book: none. */
export function loreEntriesOf(book: Record<string, unknown> | null | undefined): LoreEntryValues[] {
  const raw = Array.isArray(book?.entries) ? (book.entries as unknown[]) : [];
  return raw.filter(isObject).map((entry) => {
    const rest = Object.fromEntries(Object.entries(entry).filter(([key]) => !EDITED.includes(key)));
    return {
      keys: strings(entry.keys),
      secondaryKeys: strings(entry.secondary_keys),
      content: typeof entry.content === "string" ? entry.content : "",
      constant: entry.constant === true,
      enabled: entry.enabled !== false,
      insertionOrder: typeof entry.insertion_order === "number" && Number.isFinite(entry.insertion_order) ? entry.insertion_order : DEFAULT_INSERTION_ORDER,
      rest,
    };
  });
}

/** A new, empty entry (enabled, DEFAULT_INSERTION_ORDER). */
export function newLoreEntry(): LoreEntryValues {
  return { keys: [], secondaryKeys: [], content: "", constant: false, enabled: true, insertionOrder: DEFAULT_INSERTION_ORDER, rest: {} };
}

/**
 * `book` with its entries replaced by `entries` (every other field of the
 * book kept), as a card's `character_book`. A row with no keys and no
 * content is left out. Each entry has the spec's required fields (`keys`,
 * `content`, `extensions`, `enabled`, `insertion_order`); a new one gets the
 * next free numeric `id`; one with secondary keys is `selective` (they
 * count, as the form says). Null when there is neither a book nor an entry.
 */
export function withLoreEntries(book: Record<string, unknown> | null | undefined, entries: readonly LoreEntryValues[]): Record<string, unknown> | null {
  const kept = entries.filter((entry) => entry.keys.some((k) => k.trim() !== "") || entry.content.trim() !== "");
  if (!book && kept.length === 0) return null;
  let nextId = Math.max(0, ...kept.map((entry) => (typeof entry.rest.id === "number" ? entry.rest.id + 1 : 0)));
  const written = kept.map((entry) => {
    const secondary = entry.secondaryKeys.map((k) => k.trim()).filter(Boolean);
    const out: Record<string, unknown> = {
      ...entry.rest,
      keys: entry.keys.map((k) => k.trim()).filter(Boolean),
      secondary_keys: secondary,
      content: entry.content,
      constant: entry.constant,
      enabled: entry.enabled,
      insertion_order: entry.insertionOrder,
    };
    if (!isObject(out.extensions)) out.extensions = {};
    if (out.id === undefined) out.id = nextId++;
    // The form promises that secondary keys count (it has no switch of its own for `selective`).
    if (secondary.length > 0) out.selective = true;
    return out;
  });
  return { ...(book ?? {}), extensions: isObject(book?.extensions) ? book.extensions : {}, entries: written };
}

/** Keys typed as one line, separated by commas ("moon, the Moon Queen") → ["moon", "the Moon Queen"]. */
export function parseKeys(text: string): string[] {
  return text
    .split(",")
    .map((k) => k.trim())
    .filter(Boolean);
}
