/**
 * Names and titles show exactly what they hold: no control characters, no
 * invisible ones, no bidi controls. Every name and title field of the input
 * schemas (a character's name and pen name, persona names, display names,
 * conversation titles, tags, model connection names) goes through `visibleName`
 * (docs/decisions/0016-normalising-pre-screen.md "Names"). Lone surrogates
 * cannot be written in valid UTF-8 JSON; the rule is for completeness.
 *
 * Refused: controls (Cc: "a\u0000b", tabs, line breaks), format characters
 * (Cf: zero-width space, soft hyphen, word joiner, left-to-right and
 * right-to-left marks, embeddings, overrides "\u202E" and isolates, tag
 * characters), other default-ignorable code points (Hangul fillers "\u3164",
 * the combining grapheme joiner), line and paragraph separators, private
 * use and lone surrogates, the braille blank. Kept, because real names need
 * them: the zero-width joiner between emoji ("👩‍💻"), the zero-width
 * non-joiner between letters of scripts that use it (Persian "می‌خواهم",
 * Indic scripts), and variation selectors (emoji presentation "❤️").
 *
 * A name or title also needs a visible base character: one that is not a
 * combining mark (Mn, Mc, Me), a space or a hidden character. Names made
 * only of combining marks ("\u0301\u0308") show as nothing, or as marks
 * stacked on whatever the page puts before them, and so does a mark at a
 * name's start ("\u0301Mira"): both are refused (issue 42). Empty text is
 * left to each field's own "is required" rule.
 */
/** The message of a refused name or title. */
export const HIDDEN_CHARACTERS_MESSAGE = "Names and titles cannot contain invisible, control or text-direction characters";

const HIDDEN = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\u2800]/u;
/** Variation selectors: default-ignorable, but they only choose how the character before looks. */
const VARIATION_SELECTOR = /[\uFE00-\uFE0F\u{E0100}-\u{E01EF}]/u;
const PICTOGRAPH = /[\p{Extended_Pictographic}\p{Emoji_Modifier}\uFE0F]/u;
const NON_LATIN_LETTER = /[\p{L}\p{M}]/u;

/** Whether `text` holds a character a name must not (module docstring). */
export function hasHiddenCharacters(text: string): boolean {
  const chars = [...text];
  return chars.some((ch, i) => {
    if (!HIDDEN.test(ch)) return false;
    if (VARIATION_SELECTOR.test(ch)) return false;
    const before = chars[i - 1] ?? "";
    const after = chars[i + 1] ?? "";
    if (ch === "\u200D") return !(PICTOGRAPH.test(before) && PICTOGRAPH.test(after));
    if (ch === "\u200C") return !(NON_LATIN_LETTER.test(before) && NON_LATIN_LETTER.test(after) && !/\p{Script=Latin}/u.test(before + after));
    return true;
  });
}

/** The message of a name or title with no visible base character, or one that starts with a combining mark. */
export const NO_VISIBLE_CHARACTER_MESSAGE = "Names and titles need a visible letter, number or symbol, and cannot start with a combining mark";

const MARK = /^\p{M}$/u;
const BLANK = /^[\p{Z}\s]$/u;

/** Whether `text` (not empty) has no character that shows by itself, or starts with a combining mark (module docstring). */
export function lacksVisibleBase(text: string): boolean {
  if (text === "") return false;
  const chars = [...text];
  if (MARK.test(chars[0]!)) return true;
  return !chars.some((ch) => !MARK.test(ch) && !BLANK.test(ch) && !HIDDEN.test(ch));
}

/** What is wrong with a name or title (a message for people), or null when nothing is. */
export function nameProblem(text: string): string | null {
  if (hasHiddenCharacters(text)) return HIDDEN_CHARACTERS_MESSAGE;
  if (lacksVisibleBase(text)) return NO_VISIBLE_CHARACTER_MESSAGE;
  return null;
}

/**
 * The one refinement of every name and title field (a character's name and
 * pen name, tags, display names, persona names, conversation titles, model
 * connection names): `z.string().refine(...visibleName)` refuses hidden
 * characters with HIDDEN_CHARACTERS_MESSAGE and text without a visible base
 * character with NO_VISIBLE_CHARACTER_MESSAGE.
 */
export const visibleName = [
  (value: string) => nameProblem(value) === null,
  { error: (issue: { input?: unknown }) => nameProblem(String(issue.input)) ?? HIDDEN_CHARACTERS_MESSAGE },
] as const;
