/**
 * A character's lorebook (card `character_book`, Character Card V2/V3) as a
 * SillyTavern World Info file, so the export's lorebooks open in
 * SillyTavern's World Info editor as they are.
 *
 * The mapping is SillyTavern's own import of an embedded book
 * (SillyTavern/SillyTavern `public/scripts/world-info.js`,
 * `convertCharacterBook`): `keys`→`key`, `secondary_keys`→`keysecondary`,
 * `insertion_order`→`order`, `enabled`→`!disable`, `position`
 * before_char/after_char → 0/1 unless `extensions.position` says, and the
 * rest from `extensions` (`depth`, `probability`, `selectiveLogic`,
 * `group`, `group_weight`, `scan_depth`, `case_sensitive`,
 * `match_whole_words`, `role`, `sticky`, `cooldown`, `delay`,
 * `exclude_recursion`, `prevent_recursion`) with its defaults. The card's
 * own book is kept whole as `originalData`, as SillyTavern does.
 */

type Book = Record<string, unknown>;

const obj = (value: unknown): Record<string, unknown> => (value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {});
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : []);

/** SillyTavern's `world_info_position`: before and after the character's description. */
const POSITION = { before: 0, after: 1 } as const;
/** SillyTavern's DEFAULT_DEPTH and DEFAULT_WEIGHT. */
const DEFAULT_DEPTH = 4;
const DEFAULT_WEIGHT = 100;

/** The World Info JSON (`{entries: {uid: entry}, originalData}`) of card book `book`; entries without content or keys are kept as they are. */
export function worldInfoOfCharacterBook(book: Book): Record<string, unknown> {
  const entries: Record<string, unknown> = {};
  const list = Array.isArray(book.entries) ? book.entries : [];
  list.forEach((raw, index) => {
    const entry = obj(raw);
    const ext = obj(entry.extensions);
    const uid = typeof entry.id === "number" ? entry.id : index;
    entries[String(uid)] = {
      uid,
      key: strings(entry.keys),
      keysecondary: strings(entry.secondary_keys),
      comment: typeof entry.comment === "string" ? entry.comment : typeof entry.name === "string" ? entry.name : "",
      content: typeof entry.content === "string" ? entry.content : "",
      constant: entry.constant === true,
      selective: entry.selective === true,
      selectiveLogic: typeof ext.selectiveLogic === "number" ? ext.selectiveLogic : 0,
      order: typeof entry.insertion_order === "number" ? entry.insertion_order : 100,
      position: typeof ext.position === "number" ? ext.position : entry.position === "before_char" ? POSITION.before : POSITION.after,
      disable: entry.enabled === false,
      addMemo: Boolean(entry.comment),
      displayIndex: typeof ext.display_index === "number" ? ext.display_index : index,
      excludeRecursion: ext.exclude_recursion === true,
      preventRecursion: ext.prevent_recursion === true,
      probability: typeof ext.probability === "number" ? ext.probability : 100,
      useProbability: ext.useProbability !== false,
      depth: typeof ext.depth === "number" ? ext.depth : DEFAULT_DEPTH,
      group: typeof ext.group === "string" ? ext.group : "",
      groupWeight: typeof ext.group_weight === "number" ? ext.group_weight : DEFAULT_WEIGHT,
      scanDepth: typeof ext.scan_depth === "number" ? ext.scan_depth : null,
      caseSensitive: typeof ext.case_sensitive === "boolean" ? ext.case_sensitive : null,
      matchWholeWords: typeof ext.match_whole_words === "boolean" ? ext.match_whole_words : null,
      role: typeof ext.role === "number" ? ext.role : 0,
      sticky: typeof ext.sticky === "number" ? ext.sticky : null,
      cooldown: typeof ext.cooldown === "number" ? ext.cooldown : null,
      delay: typeof ext.delay === "number" ? ext.delay : null,
    };
  });
  return { entries, originalData: book };
}
