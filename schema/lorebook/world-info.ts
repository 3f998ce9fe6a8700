/**
 * Lorebooks as the activation engine reads them, from the two formats books
 * arrive in: SillyTavern World Info JSON (`{entries: {uid: entry}}`, its
 * fields as `newWorldInfoEntryTemplate` in SillyTavern
 * `public/scripts/world-info.js`) and a card's `character_book` (Character
 * Card V2/V3, SillyTavern's own fields under each entry's `extensions`, as
 * its `convertCharacterBook` writes them). Unknown or malformed fields read
 * as their defaults; nothing throws.
 */
import type { LoreEntry, Lorebook, LorebookSettings, LorePosition, LoreRole, SelectiveLogic } from "./activation.ts";

type Json = Record<string, unknown>;

const obj = (value: unknown): Json => (value && typeof value === "object" && !Array.isArray(value) ? (value as Json) : {});
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : []);
const number = (value: unknown): number | undefined => (typeof value === "number" && Number.isFinite(value) ? value : undefined);
const bool = (value: unknown): boolean | undefined => (typeof value === "boolean" ? value : undefined);

const LOGIC: SelectiveLogic[] = ["AND_ANY", "NOT_ALL", "NOT_ANY", "AND_ALL"];
const ROLES: LoreRole[] = ["system", "user", "assistant"];

/**
 * SillyTavern's `world_info_position` number as ours: 0 before, 1 after, 4 at
 * depth; the author's-note and example-message positions (2, 5 top; 3, 6
 * bottom) have no place of their own here, so top reads as before and
 * bottom as after. Card strings `before_char`/`after_char` as they are.
 */
export function positionOf(value: unknown): LorePosition {
  if (value === 4 || value === "at_depth") return "at_depth";
  if (value === 1 || value === 3 || value === 6 || value === "after_char") return "after_char";
  return "before_char";
}

function common(id: string, raw: Json, ext: Json): LoreEntry {
  const logic = number(raw.selectiveLogic ?? ext.selectiveLogic);
  const role = number(raw.role ?? ext.role);
  return {
    id,
    keys: [],
    content: typeof raw.content === "string" ? raw.content : "",
    selectiveLogic: logic !== undefined ? LOGIC[logic] : undefined,
    probability: number(raw.probability ?? ext.probability),
    useProbability: bool(raw.useProbability ?? ext.useProbability),
    depth: number(raw.depth ?? ext.depth),
    role: role !== undefined ? ROLES[role] : undefined,
    group: typeof (raw.group ?? ext.group) === "string" ? ((raw.group ?? ext.group) as string) : undefined,
    groupWeight: number(raw.groupWeight ?? ext.group_weight),
    groupOverride: bool(raw.groupOverride ?? ext.group_override),
    useGroupScoring: bool(raw.useGroupScoring ?? ext.use_group_scoring) ?? null,
    scanDepth: number(raw.scanDepth ?? ext.scan_depth) ?? null,
    caseSensitive: bool(raw.caseSensitive ?? ext.case_sensitive) ?? null,
    matchWholeWords: bool(raw.matchWholeWords ?? ext.match_whole_words) ?? null,
    sticky: number(raw.sticky ?? ext.sticky),
    cooldown: number(raw.cooldown ?? ext.cooldown),
    delay: number(raw.delay ?? ext.delay),
    preventRecursion: bool(raw.preventRecursion ?? ext.prevent_recursion),
    excludeRecursion: bool(raw.excludeRecursion ?? ext.exclude_recursion),
    delayUntilRecursion: (bool(raw.delayUntilRecursion ?? ext.delay_until_recursion) ?? number(raw.delayUntilRecursion ?? ext.delay_until_recursion)) || undefined,
  };
}

/** A SillyTavern World Info file's entries (`entries` an object by uid, or an array) as a lorebook `id`. Settings are SillyTavern's globals, so none are read. */
export function lorebookOfWorldInfo(id: string, file: unknown): Lorebook {
  const entriesField = obj(file).entries;
  const list = Array.isArray(entriesField) ? entriesField : Object.values(obj(entriesField));
  const entries = list.map(obj).map((raw, index): LoreEntry => ({
    ...common(String(raw.uid ?? index), raw, {}),
    keys: strings(raw.key),
    secondaryKeys: strings(raw.keysecondary),
    selective: bool(raw.selective),
    constant: raw.constant === true,
    disable: raw.disable === true,
    position: positionOf(raw.position),
    order: number(raw.order),
  }));
  return { id, entries };
}

/**
 * A card's `character_book` as a lorebook `id`: `keys`, `secondary_keys`,
 * `insertion_order`, `enabled`, `constant`, `selective`, `case_sensitive`,
 * `position`, SillyTavern's fields from `extensions`, and the book's
 * `scan_depth`, `token_budget`, `recursive_scanning`.
 */
export function lorebookOfCharacterBook(id: string, book: unknown): Lorebook {
  const b = obj(book);
  const list = Array.isArray(b.entries) ? b.entries : [];
  const entries = list.map(obj).map((raw, index): LoreEntry => {
    const ext = obj(raw.extensions);
    const entry = common(String(raw.id ?? index), { content: raw.content }, ext);
    return {
      ...entry,
      keys: strings(raw.keys),
      secondaryKeys: strings(raw.secondary_keys),
      selective: bool(raw.selective),
      constant: raw.constant === true,
      disable: raw.enabled === false,
      caseSensitive: bool(raw.case_sensitive) ?? entry.caseSensitive,
      position: positionOf(number(ext.position) ?? raw.position),
      order: number(raw.insertion_order),
    };
  });
  const settings: LorebookSettings = {
    scanDepth: number(b.scan_depth),
    tokenBudget: number(b.token_budget),
    recursive: bool(b.recursive_scanning),
  };
  return { id, entries, settings };
}
