/**
 * A stored lorebook (DESIGN.md turn 4 "Lorebooks"): its entries in the
 * engine's shape (`LoreEntry`, schema/lorebook/activation.ts) plus
 * SillyTavern's `comment` and every field of an imported entry this site
 * does not read (`extensions`), and the conversions between it and the two
 * file formats books travel in:
 *
 * - SillyTavern World Info JSON (`{entries: {uid: entry}}`, fields as
 *   `newWorldInfoEntryTemplate` in SillyTavern `public/scripts/world-info.js`);
 * - a card's `character_book` (Character Card V2/V3, SillyTavern's own fields
 *   under each entry's `extensions`, as its `convertCharacterBook` reads them).
 *
 * Import keeps every field, known or not (an unknown entry field rides in the
 * entry's `extensions`, an unknown top-level field in the book's); export
 * writes them back beside the known ones. Pure: the Worker and the web page
 * share it. The zod input schemas are in schema/inputs.ts.
 */
import type { LoreEntry, Lorebook, LorebookSettings, LorePosition, LoreRole, SelectiveLogic } from "./activation.ts";
import { positionOf } from "./world-info.ts";

/** One stored entry: the engine's fields, the author's note about it, and whatever else it came with. */
export interface LorebookEntry extends LoreEntry {
  /** SillyTavern's `comment`: the entry's title in the editor; never in the prompt. */
  comment: string;
  /** Fields of the imported entry this site does not read, kept for export. */
  extensions: Record<string, unknown>;
}

/** A book as `GET /api/lorebooks/{id}` shows it. */
export interface LorebookRecord {
  id: string;
  name: string;
  description: string;
  entries: LorebookEntry[];
  settings: LorebookSettings;
  /** The character whose card `character_book` this is; null for a standalone book. */
  characterId: number | null;
  createdAt: number;
  updatedAt: number;
}

/** A book as `GET /api/lorebooks` lists it (no entries). */
export interface LorebookSummary {
  id: string;
  name: string;
  description: string;
  entryCount: number;
  characterId: number | null;
  updatedAt: number;
}

/** What a file gives a new book (the parts `POST /api/lorebooks` takes, and the top-level extras). */
export interface LorebookContent {
  name: string;
  description: string;
  entries: LorebookEntry[];
  settings: LorebookSettings;
  extensions: Record<string, unknown>;
}

/** Limits of a book (docs/decisions/0034). */
export const LOREBOOK_LIMITS = {
  name: 100,
  description: 2_000,
  /** Entries in one book: the largest community books have a few hundred; the bench runs 1,000. */
  entries: 1_000,
  /** Characters of one entry's content. */
  content: 20_000,
  comment: 500,
  /** Keys (primary or secondary) of one entry, and characters of one key. */
  keys: 100,
  key: 500,
  /** The whole book as JSON, characters: inside one D1 row (2 MB) and one screening call (schema: MAX_SCREENED_CHARS). */
  bookChars: 1_000_000,
  /** Books a person keeps. */
  books: 200,
  /** Standalone books attached to one character, or to one chat. */
  attached: 10,
} as const;

export const SELECTIVE_LOGICS: readonly SelectiveLogic[] = ["AND_ANY", "NOT_ALL", "NOT_ANY", "AND_ALL"];
export const LORE_POSITIONS: readonly LorePosition[] = ["before_char", "after_char", "at_depth"];
export const LORE_ROLES: readonly LoreRole[] = ["system", "user", "assistant"];

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value && typeof value === "object" && !Array.isArray(value) ? (value as Json) : {});
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : []);
const num = (value: unknown): number | undefined => (typeof value === "number" && Number.isFinite(value) ? value : undefined);
const bool = (value: unknown): boolean | undefined => (typeof value === "boolean" ? value : undefined);
const text = (value: unknown): string => (typeof value === "string" ? value : "");
const without = (value: Json, known: ReadonlySet<string>): Json => Object.fromEntries(Object.entries(value).filter(([key]) => !known.has(key)));

/** The engine's view of a stored book (its entries already are `LoreEntry`s). */
export function engineBook(book: { id: string; name?: string; entries: readonly LorebookEntry[]; settings: LorebookSettings }): Lorebook {
  return { id: book.id, ...(book.name !== undefined ? { name: book.name } : {}), entries: [...book.entries], settings: book.settings };
}

// ---------------------------------------------------------------------------
// SillyTavern World Info

/** World Info entry fields this site reads (the rest are kept in `extensions`). */
const WI_KNOWN = new Set([
  "uid", "key", "keysecondary", "comment", "content", "constant", "selective", "selectiveLogic", "order", "position",
  "disable", "probability", "useProbability", "depth", "role", "group", "groupOverride", "groupWeight", "useGroupScoring",
  "scanDepth", "caseSensitive", "matchWholeWords", "sticky", "cooldown", "delay", "excludeRecursion", "preventRecursion",
  "delayUntilRecursion",
]);
const LOGIC_NUMBER: Record<SelectiveLogic, number> = { AND_ANY: 0, NOT_ALL: 1, NOT_ANY: 2, AND_ALL: 3 };
const ROLE_NUMBER: Record<LoreRole, number> = { system: 0, user: 1, assistant: 2 };
const POSITION_NUMBER: Record<LorePosition, number> = { before_char: 0, after_char: 1, at_depth: 4 };

/** Drops undefined fields (so a stored entry holds only what was said). */
function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** The engine fields both formats share once mapped to SillyTavern's names. */
function entryOf(id: string, raw: Json, fields: Json, extra: Json): LorebookEntry {
  const logic = num(fields.selectiveLogic);
  const role = num(fields.role);
  const group = fields.group;
  const delayUntilRecursion = fields.delayUntilRecursion;
  return defined({
    id,
    keys: strings(fields.key),
    secondaryKeys: strings(fields.keysecondary),
    selectiveLogic: logic !== undefined ? SELECTIVE_LOGICS[logic] : undefined,
    selective: bool(fields.selective),
    content: text(raw.content),
    comment: text(fields.comment),
    caseSensitive: bool(fields.caseSensitive) ?? null,
    matchWholeWords: bool(fields.matchWholeWords) ?? null,
    constant: fields.constant === true,
    disable: fields.disable === true,
    probability: num(fields.probability),
    useProbability: bool(fields.useProbability),
    position: positionOf(fields.position),
    depth: num(fields.depth),
    role: role !== undefined ? LORE_ROLES[role] : undefined,
    order: num(fields.order),
    scanDepth: num(fields.scanDepth) ?? null,
    sticky: num(fields.sticky),
    cooldown: num(fields.cooldown),
    delay: num(fields.delay),
    group: typeof group === "string" && group !== "" ? group : undefined,
    groupWeight: num(fields.groupWeight),
    groupOverride: bool(fields.groupOverride),
    useGroupScoring: bool(fields.useGroupScoring) ?? null,
    preventRecursion: bool(fields.preventRecursion),
    excludeRecursion: bool(fields.excludeRecursion),
    delayUntilRecursion: typeof delayUntilRecursion === "number" || typeof delayUntilRecursion === "boolean" ? delayUntilRecursion || undefined : undefined,
    extensions: extra,
  });
}

/** A SillyTavern World Info file as a book's content. Entries are an object by uid (SillyTavern) or an array. Nothing throws. */
export function contentOfWorldInfo(file: unknown, fallbackName = "Imported lorebook"): LorebookContent {
  const f = obj(file);
  const list = Array.isArray(f.entries) ? f.entries : Object.values(obj(f.entries));
  // Shown in SillyTavern's display order (`displayIndex`), the file's order where it says none.
  const place = (raw: Json, index: number) => (typeof raw.displayIndex === "number" && Number.isFinite(raw.displayIndex) ? raw.displayIndex : index);
  const entries = list
    .map((raw, index) => ({ raw: obj(raw), index }))
    .sort((a, b) => place(a.raw, a.index) - place(b.raw, b.index) || a.index - b.index)
    .map(({ raw, index }) => entryOf(String(raw.uid ?? index), raw, raw, without(raw, WI_KNOWN)));
  const original = obj(f.originalData);
  const name = text(f.name) || text(original.name) || fallbackName;
  return {
    name: name.slice(0, 100),
    description: (text(f.description) || text(original.description)).slice(0, 2_000),
    entries,
    settings: {},
    extensions: without(f, new Set(["entries", "name", "description"])),
  };
}

/** `book` as a SillyTavern World Info file: `{entries: {uid: entry}}` with every field SillyTavern writes, the kept ones beside them. */
export function worldInfoOf(book: { name: string; description: string; entries: readonly LorebookEntry[]; extensions?: Json }): Json {
  const entries: Json = {};
  const used = new Set<number>();
  const uidOf = (id: string, index: number) => {
    let uid = /^\d+$/.test(id) ? Number(id) : index;
    while (used.has(uid)) uid++;
    used.add(uid);
    return uid;
  };
  // The list's order is the display order (entries are reordered on their page): the imported displayIndex
  // values are given back as they were only while they still follow it.
  const imported = book.entries.map((entry) => entry.extensions.displayIndex);
  const keptDisplayIndex = imported.every((n, i) => typeof n === "number" && (i === 0 || n > (imported[i - 1] as number)));
  book.entries.forEach((entry, index) => {
    const uid = uidOf(entry.id, index);
    entries[String(uid)] = {
      ...entry.extensions,
      uid,
      key: entry.keys,
      keysecondary: entry.secondaryKeys ?? [],
      comment: entry.comment,
      content: entry.content,
      constant: entry.constant === true,
      selective: entry.selective ?? true,
      selectiveLogic: LOGIC_NUMBER[entry.selectiveLogic ?? "AND_ANY"],
      order: entry.order ?? 100,
      position: POSITION_NUMBER[entry.position ?? "before_char"],
      disable: entry.disable === true,
      probability: entry.probability ?? 100,
      useProbability: entry.useProbability ?? true,
      depth: entry.depth ?? 4,
      role: ROLE_NUMBER[entry.role ?? "system"],
      group: entry.group ?? "",
      groupOverride: entry.groupOverride === true,
      groupWeight: entry.groupWeight ?? 100,
      useGroupScoring: entry.useGroupScoring ?? null,
      scanDepth: entry.scanDepth ?? null,
      caseSensitive: entry.caseSensitive ?? null,
      matchWholeWords: entry.matchWholeWords ?? null,
      sticky: entry.sticky ?? 0,
      cooldown: entry.cooldown ?? 0,
      delay: entry.delay ?? 0,
      excludeRecursion: entry.excludeRecursion === true,
      preventRecursion: entry.preventRecursion === true,
      delayUntilRecursion: entry.delayUntilRecursion ?? false,
      displayIndex: keptDisplayIndex ? (entry.extensions.displayIndex as number) : index,
    };
  });
  return { ...book.extensions, name: book.name, description: book.description, entries };
}

// ---------------------------------------------------------------------------
// Card V2/V3 character_book

/** Card entry fields read (the rest are kept in `extensions`, with the unread keys of its own `extensions`). */
const CARD_KNOWN = new Set(["id", "keys", "secondary_keys", "comment", "name", "content", "constant", "selective", "insertion_order", "enabled", "position", "case_sensitive", "extensions"]);
/** SillyTavern's fields under a card entry's `extensions`, by our World Info name. */
const CARD_EXT: Record<string, string> = {
  position: "position",
  depth: "depth",
  probability: "probability",
  useProbability: "useProbability",
  selectiveLogic: "selectiveLogic",
  group: "group",
  groupOverride: "group_override",
  groupWeight: "group_weight",
  useGroupScoring: "use_group_scoring",
  scanDepth: "scan_depth",
  caseSensitive: "case_sensitive",
  matchWholeWords: "match_whole_words",
  role: "role",
  sticky: "sticky",
  cooldown: "cooldown",
  delay: "delay",
  excludeRecursion: "exclude_recursion",
  preventRecursion: "prevent_recursion",
  delayUntilRecursion: "delay_until_recursion",
};
const CARD_EXT_KNOWN = new Set(Object.values(CARD_EXT));
const BOOK_KNOWN = new Set(["name", "description", "entries", "scan_depth", "token_budget", "recursive_scanning"]);

/** A card's `character_book` (or a whole V2/V3 card's) as a book's content. Nothing throws. */
export function contentOfCharacterBook(book: unknown, fallbackName = "Imported lorebook"): LorebookContent {
  const b = obj(book);
  const list = Array.isArray(b.entries) ? b.entries : [];
  const entries = list.map(obj).map((raw, index) => {
    const ext = obj(raw.extensions);
    const fields: Json = {};
    for (const [ours, theirs] of Object.entries(CARD_EXT)) if (ext[theirs] !== undefined) fields[ours] = ext[theirs];
    fields.key = raw.keys;
    fields.keysecondary = raw.secondary_keys;
    fields.comment = text(raw.comment) || text(raw.name);
    fields.constant = raw.constant;
    fields.selective = raw.selective;
    fields.order = raw.insertion_order;
    fields.disable = raw.enabled === false;
    fields.caseSensitive = bool(raw.case_sensitive) ?? bool(ext.case_sensitive);
    // SillyTavern's convertCharacterBook: a card entry without SillyTavern's number goes after the character unless it says before_char.
    fields.position = num(ext.position) ?? (raw.position === "before_char" ? 0 : 1);
    const extra = { ...without(raw, CARD_KNOWN), ...without(ext, CARD_EXT_KNOWN) };
    return entryOf(String(raw.id ?? index), raw, fields, extra);
  });
  return {
    name: (text(b.name) || fallbackName).slice(0, 100),
    description: text(b.description).slice(0, 2_000),
    entries,
    settings: defined({ scanDepth: num(b.scan_depth), tokenBudget: num(b.token_budget), recursive: bool(b.recursive_scanning) }),
    extensions: without(b, BOOK_KNOWN),
  };
}

/**
 * `book` as a card's `character_book`. `previous` (the card's book as it
 * was) gives each entry of the same id its fields this site does not read
 * back, and the book its top-level ones, so an edit here loses nothing of
 * the card.
 */
export function characterBookOf(
  book: { name: string; description: string; entries: readonly LorebookEntry[]; settings: LorebookSettings; extensions?: Json },
  previous?: Json | null,
): Json {
  const before = new Map(
    (Array.isArray(previous?.entries) ? previous.entries : []).map(obj).map((raw, index) => [String(raw.id ?? index), raw] as const),
  );
  const entries = book.entries.map((entry, index) => {
    const old = before.get(entry.id) ?? {};
    const kept = entry.extensions ?? {};
    const cardRest = Object.fromEntries(Object.entries(kept).filter(([key]) => key in old && !CARD_KNOWN.has(key)));
    const extRest = Object.fromEntries(Object.entries(kept).filter(([key]) => !(key in old)));
    const id = /^\d+$/.test(entry.id) ? Number(entry.id) : entry.id;
    const position = entry.position ?? "before_char";
    return {
      ...old,
      ...cardRest,
      id,
      keys: entry.keys,
      secondary_keys: entry.secondaryKeys ?? [],
      comment: entry.comment,
      content: entry.content,
      constant: entry.constant === true,
      selective: entry.selective ?? true,
      insertion_order: entry.order ?? 100,
      enabled: entry.disable !== true,
      position: position === "after_char" ? "after_char" : "before_char",
      use_regex: true,
      ...(entry.caseSensitive !== null && entry.caseSensitive !== undefined ? { case_sensitive: entry.caseSensitive } : {}),
      extensions: {
        ...obj(old.extensions),
        ...extRest,
        position: POSITION_NUMBER[position],
        display_index: index,
        depth: entry.depth ?? 4,
        probability: entry.probability ?? 100,
        useProbability: entry.useProbability ?? true,
        selectiveLogic: LOGIC_NUMBER[entry.selectiveLogic ?? "AND_ANY"],
        group: entry.group ?? "",
        group_override: entry.groupOverride === true,
        group_weight: entry.groupWeight ?? 100,
        use_group_scoring: entry.useGroupScoring ?? null,
        scan_depth: entry.scanDepth ?? null,
        case_sensitive: entry.caseSensitive ?? null,
        match_whole_words: entry.matchWholeWords ?? null,
        role: ROLE_NUMBER[entry.role ?? "system"],
        sticky: entry.sticky ?? 0,
        cooldown: entry.cooldown ?? 0,
        delay: entry.delay ?? 0,
        exclude_recursion: entry.excludeRecursion === true,
        prevent_recursion: entry.preventRecursion === true,
        delay_until_recursion: entry.delayUntilRecursion ?? false,
      },
    };
  });
  const settings = book.settings;
  return {
    ...obj(previous),
    ...(book.extensions ?? {}),
    name: book.name,
    description: book.description,
    ...(settings.scanDepth !== undefined ? { scan_depth: settings.scanDepth } : {}),
    ...(settings.tokenBudget !== undefined ? { token_budget: settings.tokenBudget } : {}),
    ...(settings.recursive !== undefined ? { recursive_scanning: settings.recursive } : {}),
    extensions: obj(obj(previous).extensions),
    entries,
  };
}

/**
 * What an import body is: a World Info file (`entries` an object by uid), a
 * `character_book` (`entries` an array), or a whole V2/V3 card (its
 * `data.character_book`). Null when it is none of them.
 */
export function contentOfImport(body: unknown, fallbackName?: string): LorebookContent | null {
  const b = obj(body);
  const data = obj(b.data);
  if (typeof b.spec === "string" && b.spec.startsWith("chara_card")) {
    const book = obj(data.character_book);
    if (!Array.isArray(book.entries)) return null;
    return contentOfCharacterBook(book, text(book.name) || (text(data.name) ? `${text(data.name)}'s lorebook` : fallbackName));
  }
  if (Array.isArray(b.entries)) {
    // SillyTavern World Info exported as an array carries `key`; a card book carries `keys`.
    const first = obj(b.entries[0]);
    return "key" in first && !("keys" in first) ? contentOfWorldInfo(b, fallbackName) : contentOfCharacterBook(b, fallbackName);
  }
  if (b.entries && typeof b.entries === "object") return contentOfWorldInfo(b, fallbackName);
  return null;
}
