/**
 * The numbers of the pre-screen's age rules (pre-screen.ts, pre-screen-rules.ts):
 * the regular-expression sources of a number in each language it reads
 * (digits, number words, CJK numerals), the "N-year-old" adjective stems,
 * and `numberValue`, the value of what a rule captured. Whole words only:
 * `START` and `END` are word boundaries of any script.
 */
import { LATIN_NUMBER_WORDS, NATIVE_NUMBER_WORDS, numberWordsSource, numberWordValue } from "./numbers.ts";

/** Not after a letter or digit of any script: a word starts here. */
export const START = String.raw`(?<![\p{L}\p{N}])`;
/** Not before a letter or digit of any script: a word ends here. */
export const END = String.raw`(?![\p{L}\p{N}])`;
/** `term` as a regular-expression source matching it literally, a space matching any run of spaces or hyphens. */
export const escape = (term: string) => term.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/ /g, "[\\s-]+");

const EN_UNITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"];
const EN_TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];
/** English ordinals by value ("first" = 1; index 0 is empty). */
export const EN_ORDINALS = ["", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh", "twelfth"];
const ES = { uno: 1, una: 1, un: 1, dos: 2, tres: 3, cuatro: 4, cinco: 5, seis: 6, siete: 7, ocho: 8, nueve: 9, diez: 10, once: 11, doce: 12, trece: 13, catorce: 14, quince: 15, dieciseis: 16, diecisiete: 17, dieciocho: 18, diecinueve: 19, veinte: 20 } as Record<string, number>;
const FR = { un: 1, une: 1, deux: 2, trois: 3, quatre: 4, cinq: 5, six: 6, sept: 7, huit: 8, neuf: 9, dix: 10, onze: 11, douze: 12, treize: 13, quatorze: 14, quinze: 15, seize: 16, "dix-sept": 17, "dix sept": 17, "dix-huit": 18, "dix huit": 18, "dix-neuf": 19, "dix neuf": 19, vingt: 20 } as Record<string, number>;
const DE = { ein: 1, eins: 1, eine: 1, zwei: 2, drei: 3, vier: 4, funf: 5, sechs: 6, sieben: 7, acht: 8, neun: 9, zehn: 10, elf: 11, zwolf: 12, dreizehn: 13, vierzehn: 14, funfzehn: 15, sechzehn: 16, siebzehn: 17, achtzehn: 18, neunzehn: 19, zwanzig: 20 } as Record<string, number>;
const RU = {
  один: 1, одна: 1, два: 2, две: 2, три: 3, четыре: 4, пять: 5, шесть: 6, семь: 7, восемь: 8, девять: 9, десять: 10,
  одиннадцать: 11, двенадцать: 12, тринадцать: 13, четырнадцать: 14, пятнадцать: 15, шестнадцать: 16, семнадцать: 17,
  восемнадцать: 18, девятнадцать: 19, двадцать: 20,
} as Record<string, number>;
/** Russian "N-year-old" adjectives: the stem of each number (тринадцатилетняя = 13-летняя). */
export const RU_LETNIY: Record<string, number> = {
  одно: 1, двух: 2, трех: 3, трёх: 3, четырех: 4, четырёх: 4, пяти: 5, шести: 6, семи: 7, восьми: 8, девяти: 9, десяти: 10,
  одиннадцати: 11, двенадцати: 12, тринадцати: 13, четырнадцати: 14, пятнадцати: 15, шестнадцати: 16, семнадцати: 17,
  восемнадцати: 18, девятнадцати: 19, двадцати: 20,
};
const CJK_DIGITS: Record<string, number> = { 一: 1, 二: 2, 两: 2, 兩: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };

/** A regular-expression source matching any of `words` literally, longest first (so "dix-sept" wins over "dix"). */
export const alternatives = (words: Iterable<string>) => [...words].sort((a, b) => b.length - a.length).map(escape).join("|");
/** An English number: digits (at most 3, not inside a longer number or a decimal) or words ("thirteen", "twenty-one"). */
export const NUM_EN = String.raw`(?:(?<![\p{N}.,])\d{1,3}(?![\p{N}]|[.,]\d)|${START}(?:(?:${EN_TENS.filter(Boolean).join("|")})(?:[\s-]?(?:${EN_UNITS.slice(1, 10).join("|")}))?|${alternatives(EN_UNITS)})${END})`;
/** A number in Spanish, French, German, Russian: digits (at most 3) or number words; then, built from numbers.ts, Italian, Portuguese, Dutch, Polish, Turkish, romanised Hindi, and Hindi, Arabic and Korean in their scripts. */
export const NUM_ES = String.raw`(?:(?<![\p{N}.,])\d{1,3}(?![\p{N}])|${START}(?:${alternatives(Object.keys(ES))})${END})`;
export const NUM_FR = String.raw`(?:(?<![\p{N}.,])\d{1,3}(?![\p{N}])|${START}(?:${alternatives(Object.keys(FR))})${END})`;
export const NUM_DE = String.raw`(?:(?<![\p{N}.,])\d{1,3}(?![\p{N}])|${START}(?:${alternatives(Object.keys(DE))})${END})`;
export const NUM_RU = String.raw`(?:(?<![\p{N}.,])\d{1,3}(?![\p{N}])|${START}(?:${alternatives(Object.keys(RU))})${END})`;
const numIn = (words: Record<string, number>) => String.raw`(?:(?<![\p{N}.,])\d{1,3}(?![\p{N}])|${numberWordsSource(words)})`;
export const NUM_IT = numIn(LATIN_NUMBER_WORDS.it);
export const NUM_PT = numIn(LATIN_NUMBER_WORDS.pt);
export const NUM_NL = numIn(LATIN_NUMBER_WORDS.nl);
export const NUM_PL = numIn(LATIN_NUMBER_WORDS.pl);
export const NUM_TR = numIn(LATIN_NUMBER_WORDS.tr);
export const NUM_HI_LATIN = numIn(LATIN_NUMBER_WORDS.hi);
export const NUM_HI = numIn(NATIVE_NUMBER_WORDS.hi);
export const NUM_AR = numIn(NATIVE_NUMBER_WORDS.ar);
export const NUM_KO = numIn(NATIVE_NUMBER_WORDS.ko);
/** Italian "N-year-old" adjectives by stem ("tredicenne" = 13). */
export const IT_ENNE: Record<string, number> = {
  cinqu: 5, sei: 6, sett: 7, nov: 9, dec: 10, undic: 11, dodic: 12, tredic: 13, quattordic: 14, quindic: 15, sedic: 16, diciassett: 17,
  diciott: 18, diciannov: 19, vent: 20,
};
/** Dutch "N-year-old" adjectives by number word ("vijftienjarige" = 15). */
export const NL_JARIG: Record<string, number> = Object.fromEntries(Object.entries(LATIN_NUMBER_WORDS.nl).filter(([, v]) => v <= 20));
/** Polish "N-year-old" adjectives by stem ("czternastoletnia" = 14). */
export const PL_LETNI: Record<string, number> = {
  jedno: 1, dwu: 2, trzy: 3, cztero: 4, piecio: 5, szescio: 6, siedmio: 7, osmio: 8, dziewiecio: 9, dziesiecio: 10, jedenasto: 11, dwunasto: 12,
  trzynasto: 13, czternasto: 14, pietnasto: 15, szesnasto: 16, siedemnasto: 17, osiemnasto: 18, dziewietnasto: 19, dwudziesto: 20,
};
/** A number in Japanese or Chinese: digits (at most 3) or CJK numerals up to 99. */
export const NUM_CJK = String.raw`(?:(?<![\p{N}.,])\d{1,3}(?![\p{N}])|[一二两兩三四五六七八九十]{1,3})`;

/** The value of a number as the rules capture it (digits, words of any language above, CJK numerals); NaN when unknown. */
export function numberValue(raw: string): number {
  const text = raw.trim().toLowerCase();
  if (/^\d+$/.test(text)) return Number(text);
  for (const table of [ES, FR, DE, RU]) if (text in table) return table[text]!;
  const unit = EN_UNITS.indexOf(text);
  if (unit >= 0) return unit;
  const ordinal = EN_ORDINALS.indexOf(text);
  if (ordinal > 0) return ordinal;
  const compound = /^([a-z]+)[\s-]?([a-z]*)$/.exec(text);
  if (compound && EN_TENS.includes(compound[1]!)) {
    const ones = compound[2] ? EN_UNITS.indexOf(compound[2]) : 0;
    if (ones >= 0 && ones < 10) return EN_TENS.indexOf(compound[1]!) * 10 + ones;
  }
  if (/^[一二两兩三四五六七八九十]+$/.test(text)) {
    const [tens, ones] = text.includes("十") ? text.split("十") : ["", text];
    const t = text.includes("十") ? (tens ? (CJK_DIGITS[tens] ?? NaN) : 1) : 0;
    const o = ones ? (CJK_DIGITS[ones] ?? NaN) : 0;
    return t * 10 + o;
  }
  return numberWordValue(text);
}
