/**
 * The views of a text the pre-screen reads (pre-screen.ts), so that
 * spelling tricks do not hide what it says. Every view starts from the same
 * base: Unicode NFKC (fullwidth "１３" → "13", "ｌｏｌｉ" → "loli", ligatures),
 * invisible and bidi characters removed (zero-width spaces and joiners, soft
 * hyphens, bidi overrides: schema/skeleton.ts `INVISIBLE`), lower case,
 * curly apostrophes made straight.
 *
 * - `native`: the base only. Scripts with their own letters (Japanese,
 *   Chinese, Russian) are read here.
 * - `latin`: lookalikes folded to ASCII and accents removed
 *   (schema/skeleton.ts `foldConfusables`: Cyrillic "о" → "o", "𝖑𝖔𝖑𝖎" →
 *   "loli", "años" → "anos"), and letters spelled out one by one joined
 *   ("l.o.l.i", "s e x y" → "loli", "sexy"). English, Spanish, French and
 *   German are read here.
 * - `leet`: `latin` with leetspeak folded inside words that mix letters with
 *   digits or symbols ("l0li" → "loli", "und3r4g3" → "underage",
 *   "s3x" → "sex"); words of digits only ("13", "2013") are left alone, so
 *   ages stay ages. "1" reads "i" in `leet` and "l" in `leetL`
 *   ("1oli" → "loli", "k1d" → "kid").
 */
import { foldConfusables, stripInvisible } from "../../schema/skeleton.ts";

/** The views of one text; see the module docstring. */
export interface TextViews {
  native: string;
  latin: string;
  leet: string;
  leetL: string;
}

const LEET: Record<string, string> = { "0": "o", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "9": "g", "@": "a", $: "s", "!": "i", "+": "t", "2": "z", "6": "g" };
/** A word that may be leetspeak: letters, digits and the symbols of LEET, with at least one letter. */
const LEET_WORD = /[\p{L}\p{N}@$!+]*\p{L}[\p{L}\p{N}@$!+]*/gu;
/** Letters written one at a time with a separator: at least four ("l.o.l.i", "s e x y", "t-e-e-n"). */
const SPELLED_OUT = /(?<![\p{L}\p{N}])(?:\p{L}[ .*_\-]){3,}\p{L}(?![\p{L}\p{N}])/gu;

function foldLeet(text: string, one: "i" | "l"): string {
  return text.replace(LEET_WORD, (word) => {
    if (!/[\d@$!+]/.test(word)) return word;
    // A number with a suffix that reads as one ("13yo", "7th", "16yrs", "1990s") keeps its digits.
    if (/^\d+(?:yo|y|yrs?|years?|th|st|nd|rd|s|e|eme|er|ans|anos|jahre?)$/u.test(word)) return word;
    return word.replace(/[\d@$!+]/g, (ch) => (ch === "1" ? one : (LEET[ch] ?? ch)));
  });
}

/** The views of `text` (module docstring). Pure; linear in the length of `text`. */
export function textViews(text: string): TextViews {
  const native = stripInvisible(text.normalize("NFKC")).toLowerCase().replace(/[’‘ʼ`´]/g, "'");
  const latin = foldConfusables(native)
    .toLowerCase()
    // An article before the spelled-out word stays a word: "a l o l i" is "a loli".
    .replace(SPELLED_OUT, (letters) => (/^[ai] /.test(letters) && letters.length > 8 ? letters.slice(0, 2) + letters.slice(2).replace(/[ .*_\-]/g, "") : letters.replace(/[ .*_\-]/g, "")));
  return { native, latin, leet: foldLeet(latin, "i"), leetL: foldLeet(latin, "l") };
}
