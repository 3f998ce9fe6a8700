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
 *
 * Decoded before the views are made (`decoded`, docs/decisions/0028):
 * digits of every script as ASCII ("١٣", "१४", "๑๔" → "13", "14", "14",
 * numbers.ts `asciiDigits`); Arabic letters in one form (alif with hamza or
 * madda as bare alif, short vowel marks removed); "ß" as "ss" and the
 * Turkish dotless "ı" as "i" (the lookalike fold would make them "b" and
 * "l"); then appended after the text, each on its own line so that no
 * sentence spans them: every base64 run that decodes to readable UTF-8 text
 * ("U2hlIGlz…" → "She is…") and, when the text has words written backwards
 * ("dlo sraey"), the whole text reversed. In `native` and `latin`, compound
 * number words become digits ("двадцать пять" → "25", "vingt-cinq" →
 * "25": numbers.ts), so no rule reads their last part alone; in `latin`,
 * Roman numerals next to an age word become digits ("XIII years old",
 * "age: XIV") and digits spaced apart before one are joined ("1 3 years").
 */
import { foldConfusables, stripInvisible } from "../../schema/skeleton.ts";
import { asciiDigits, latinCompoundsAsDigits, nativeCompoundsAsDigits, romanValue } from "./numbers.ts";

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

/** A run of base64 long enough to hold a sentence (16+ characters, 4-aligned with its padding). */
const BASE64_RUN = /(?<![A-Za-z0-9+/=])(?:[A-Za-z0-9+/]{4}){4,}(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?(?![A-Za-z0-9+/=])/g;
/** Short English words written backwards ("eht", "dna", "dlo", "sraey"): two distinct ones make a text worth reading reversed. */
const BACKWARDS_WORDS = /(?<![\p{L}\p{N}])(?:eht|dna|si|ehs|eh|dlo|sraey|raey|xes|uoy|ot|htiw|stnaw|lrig|yob|evah|ym|fo|ni|ruoy)(?![\p{L}\p{N}])/gu;
/** An age word after a number: Roman numerals and spaced digits before one are read as a number. */
const AGE_WORD = String.raw`\s*-?\s*(?:years?|yrs?|yo|y\/o|anni|anos|ans|jahre?|jaar|lat|yas|saal|let|лет)(?![\p{L}])`;
const ROMAN_BEFORE_AGE = new RegExp(String.raw`(?<![\p{L}\p{N}])([ivxlc]{1,7})(?=${AGE_WORD})`, "gu");
const ROMAN_AFTER_AGE = /(?<![\p{L}\p{N}])(age[ds]?\s*[:=\-–]?\s*[("'“]*\s*)([ivxlc]{1,7})(?![\p{L}\p{N}])/gu;
const SPACED_DIGITS = new RegExp(String.raw`(?<![\p{N}])(\d)[ .](\d)(?=${AGE_WORD})`, "gu");

/** Base64 decoded as UTF-8 when it is readable text (letters and spaces, no control characters); null otherwise. */
function readableBase64(run: string): string | null {
  try {
    const bytes = Uint8Array.from(atob(run), (ch) => ch.charCodeAt(0));
    const decoded = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u0008\u000e-\u001f\ufffd]/u.test(decoded) || !/\p{L}{2,}[\s,.]+\p{L}{2,}/u.test(decoded)) return null;
    return decoded;
  } catch {
    return null;
  }
}

/**
 * The text the views are made from (module docstring): digits of every
 * script as ASCII, Arabic letters in one form, "ß" and "ı" spelled out,
 * and on lines of their own the readable base64 runs decoded and, when
 * words are written backwards, the text reversed.
 */
export function decoded(text: string): string {
  let base = asciiDigits(text)
    .replace(/ß/g, "ss")
    .replace(/ı/g, "i")
    .replace(/[أإآٱ]/g, "ا")
    .replace(/[\u064B-\u065F\u0670]/g, "");
  const extra: string[] = [];
  for (const [run] of base.matchAll(BASE64_RUN)) {
    const plain = readableBase64(run);
    if (plain !== null) extra.push(asciiDigits(plain));
  }
  const backwards = new Set([...base.toLowerCase().matchAll(BACKWARDS_WORDS)].map(([word]) => word));
  // Reversed, ", word" becomes "word ,": the space goes back after the mark.
  if (backwards.size >= 2) extra.push([...base].reverse().join("").replace(/ ([,.;:!?]+)(?=\S)/g, "$1 "));
  if (extra.length > 0) base = `${base}\n${extra.join("\n")}`;
  return base;
}

/** The views of `text` (module docstring). Pure; linear in the length of `text`. */
export function textViews(text: string): TextViews {
  const native = nativeCompoundsAsDigits(stripInvisible(decoded(text).normalize("NFKC")).toLowerCase().replace(/[’‘ʼ`´]/g, "'"));
  const latin = latinCompoundsAsDigits(
    foldConfusables(native)
      .toLowerCase()
      // An article before the spelled-out word stays a word: "a l o l i" is "a loli".
      .replace(SPELLED_OUT, (letters) => (/^[ai] /.test(letters) && letters.length > 8 ? letters.slice(0, 2) + letters.slice(2).replace(/[ .*_\-]/g, "") : letters.replace(/[ .*_\-]/g, ""))),
  )
    .replace(ROMAN_BEFORE_AGE, (roman) => (Number.isNaN(romanValue(roman)) ? roman : String(romanValue(roman))))
    .replace(ROMAN_AFTER_AGE, (whole, lead: string, roman: string) => (Number.isNaN(romanValue(roman)) ? whole : lead + String(romanValue(roman))))
    .replace(SPACED_DIGITS, "$1$2");
  return { native, latin, leet: foldLeet(latin, "i"), leetL: foldLeet(latin, "l") };
}
