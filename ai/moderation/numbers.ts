/**
 * Numbers as the pre-screen reads them (pre-screen.ts, normalise.ts):
 * digits of every script, Roman numerals, and number words from 1 to 99 in
 * every language the pre-screen reads, compounds whole ("vingt-cinq" is 25,
 * "двадцать пять" 25, "fünfundzwanzig" 25, "treinta y dos" 32, "열네" 14),
 * never their last part.
 *
 * Spellings follow each language's standard grammar (tens and units joined
 * as the language joins them: French and English by a hyphen, Spanish "y",
 * Portuguese "e", German and Dutch unit-"und"/"en"-tens, Italian tens with
 * the last vowel dropped before "uno" and "otto", Polish, Russian and
 * Turkish by a space; Korean native and Sino-Korean numerals; Hindi's own
 * word for each number). Latin-script words are listed as the `latin` view
 * holds them: lower case, accents removed ("dieciséis" → "dieciseis",
 * "piętnaście" → "pietnascie", "dört" → "dort"; "ß" is read as "ss" and the
 * dotless "ı" as "i" before folding, normalise.ts).
 */

type Words = Record<string, number>;

/** Builds 1–99 from units (1–9), teens (10–19) and tens (20–90), joined by `join(tens, unit)` (each returns spellings). */
function build(units: Words, teens: Words, tens: Words, join: (tens: string, unit: string) => string[]): Words {
  const out: Words = { ...units, ...teens, ...tens };
  for (const [t, tv] of Object.entries(tens)) {
    for (const [u, uv] of Object.entries(units)) for (const spelled of join(t, u)) out[spelled] ??= tv + uv;
  }
  return out;
}

const EN = build(
  { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9 },
  { ten: 10, eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19 },
  { twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90 },
  (t, u) => [`${t}-${u}`, `${t} ${u}`, `${t}${u}`],
);
const ES = build(
  { uno: 1, una: 1, un: 1, dos: 2, tres: 3, cuatro: 4, cinco: 5, seis: 6, siete: 7, ocho: 8, nueve: 9 },
  { diez: 10, once: 11, doce: 12, trece: 13, catorce: 14, quince: 15, dieciseis: 16, diecisiete: 17, dieciocho: 18, diecinueve: 19 },
  { treinta: 30, cuarenta: 40, cincuenta: 50, sesenta: 60, setenta: 70, ochenta: 80, noventa: 90 },
  (t, u) => [`${t} y ${u}`],
);
Object.assign(ES, { veinte: 20, veintiuno: 21, veintiun: 21, veintiuna: 21, veintidos: 22, veintitres: 23, veinticuatro: 24, veinticinco: 25, veintiseis: 26, veintisiete: 27, veintiocho: 28, veintinueve: 29 });
const FR_UNITS: Words = { un: 1, une: 1, deux: 2, trois: 3, quatre: 4, cinq: 5, six: 6, sept: 7, huit: 8, neuf: 9 };
const FR_TEENS: Words = { dix: 10, onze: 11, douze: 12, treize: 13, quatorze: 14, quinze: 15, seize: 16, "dix-sept": 17, "dix sept": 17, "dix-huit": 18, "dix huit": 18, "dix-neuf": 19, "dix neuf": 19 };
const FR = build(FR_UNITS, FR_TEENS, { vingt: 20, trente: 30, quarante: 40, cinquante: 50, soixante: 60 }, (t, u) =>
  u === "un" || u === "une" ? [`${t} et ${u}`, `${t}-et-${u}`] : [`${t}-${u}`, `${t} ${u}`],
);
for (const [teen, v] of Object.entries(FR_TEENS)) {
  FR[`soixante-${teen}`] = 60 + v;
  FR[`soixante ${teen}`] = 60 + v;
  FR[`quatre-vingt-${teen}`] = 80 + v;
  FR[`quatre vingt ${teen}`] = 80 + v;
}
FR["soixante et onze"] = 71;
FR["quatre-vingts"] = 80;
FR["quatre-vingt"] = 80;
for (const [unit, v] of Object.entries(FR_UNITS)) FR[`quatre-vingt-${unit}`] = 80 + v;
const DE = build(
  { ein: 1, eins: 1, eine: 1, zwei: 2, drei: 3, vier: 4, funf: 5, sechs: 6, sieben: 7, acht: 8, neun: 9 },
  { zehn: 10, elf: 11, zwolf: 12, dreizehn: 13, vierzehn: 14, funfzehn: 15, sechzehn: 16, siebzehn: 17, achtzehn: 18, neunzehn: 19 },
  { zwanzig: 20, dreissig: 30, vierzig: 40, funfzig: 50, sechzig: 60, siebzig: 70, achtzig: 80, neunzig: 90 },
  (t, u) => (u === "eins" || u === "eine" ? [] : [`${u}und${t}`]),
);
const IT = build(
  { uno: 1, una: 1, due: 2, tre: 3, quattro: 4, cinque: 5, sei: 6, sette: 7, otto: 8, nove: 9 },
  { dieci: 10, undici: 11, dodici: 12, tredici: 13, quattordici: 14, quindici: 15, sedici: 16, diciassette: 17, diciotto: 18, diciannove: 19 },
  { venti: 20, trenta: 30, quaranta: 40, cinquanta: 50, sessanta: 60, settanta: 70, ottanta: 80, novanta: 90 },
  (t, u) => (u === "uno" || u === "otto" ? [`${t.slice(0, -1)}${u}`] : u === "una" ? [`${t.slice(0, -1)}una`] : [`${t}${u}`]),
);
const PT = build(
  { um: 1, uma: 1, dois: 2, duas: 2, tres: 3, quatro: 4, cinco: 5, seis: 6, sete: 7, oito: 8, nove: 9 },
  {
    dez: 10, onze: 11, doze: 12, treze: 13, catorze: 14, quatorze: 14, quinze: 15, dezesseis: 16, dezasseis: 16, dezessete: 17,
    dezassete: 17, dezoito: 18, dezenove: 19, dezanove: 19,
  },
  { vinte: 20, trinta: 30, quarenta: 40, cinquenta: 50, sessenta: 60, setenta: 70, oitenta: 80, noventa: 90 },
  (t, u) => [`${t} e ${u}`],
);
const NL = build(
  { een: 1, twee: 2, drie: 3, vier: 4, vijf: 5, zes: 6, zeven: 7, acht: 8, negen: 9 },
  { tien: 10, elf: 11, twaalf: 12, dertien: 13, veertien: 14, vijftien: 15, zestien: 16, zeventien: 17, achttien: 18, negentien: 19 },
  { twintig: 20, dertig: 30, veertig: 40, vijftig: 50, zestig: 60, zeventig: 70, tachtig: 80, negentig: 90 },
  (t, u) => [`${u}en${t}`],
);
const PL = build(
  { jeden: 1, jedna: 1, dwa: 2, dwie: 2, trzy: 3, cztery: 4, piec: 5, szesc: 6, siedem: 7, osiem: 8, dziewiec: 9 },
  {
    dziesiec: 10, jedenascie: 11, dwanascie: 12, trzynascie: 13, czternascie: 14, pietnascie: 15, szesnascie: 16, siedemnascie: 17,
    osiemnascie: 18, dziewietnascie: 19,
  },
  {
    dwadziescia: 20, trzydziesci: 30, czterdziesci: 40, piecdziesiat: 50, szescdziesiat: 60, siedemdziesiat: 70, osiemdziesiat: 80,
    dziewiecdziesiat: 90,
  },
  (t, u) => [`${t} ${u}`],
);
const TR_UNITS: Words = { bir: 1, iki: 2, uc: 3, dort: 4, bes: 5, alti: 6, yedi: 7, sekiz: 8, dokuz: 9 };
const TR = build(
  TR_UNITS,
  { on: 10 },
  { yirmi: 20, otuz: 30, kirk: 40, elli: 50, altmis: 60, yetmis: 70, seksen: 80, doksan: 90 },
  (t, u) => [`${t} ${u}`, `${t}${u}`],
);
for (const [u, v] of Object.entries(TR_UNITS)) {
  TR[`on ${u}`] = 10 + v;
  TR[`on${u}`] = 10 + v;
}
/** Hindi romanised (Hinglish), 1–30: ages in chats are written this way. */
const HI_LATIN: Words = {
  ek: 1, do: 2, teen: 3, char: 4, paanch: 5, panch: 5, chhe: 6, che: 6, saat: 7, aath: 8, nau: 9, das: 10, gyarah: 11, gyara: 11,
  barah: 12, bara: 12, terah: 13, tera: 13, chaudah: 14, chauda: 14, pandrah: 15, pandra: 15, solah: 16, sola: 16, satrah: 17,
  satra: 17, atharah: 18, athara: 18, unnis: 19, unees: 19, bees: 20, bis: 20, ikkis: 21, baais: 22, teis: 23, chaubis: 24,
  pachis: 25, pachchis: 25, chabbis: 26, sattais: 27, athais: 28, untis: 29, tees: 30,
};

/** Number words of the Latin-script languages, by language (ISO 639-1). */
export const LATIN_NUMBER_WORDS: Readonly<Record<"en" | "es" | "fr" | "de" | "it" | "pt" | "nl" | "pl" | "tr" | "hi", Words>> = {
  en: EN, es: ES, fr: FR, de: DE, it: IT, pt: PT, nl: NL, pl: PL, tr: TR, hi: HI_LATIN,
};

const RU = build(
  { один: 1, одна: 1, два: 2, две: 2, три: 3, четыре: 4, пять: 5, шесть: 6, семь: 7, восемь: 8, девять: 9 },
  {
    десять: 10, одиннадцать: 11, двенадцать: 12, тринадцать: 13, четырнадцать: 14, пятнадцать: 15, шестнадцать: 16,
    семнадцать: 17, восемнадцать: 18, девятнадцать: 19,
  },
  { двадцать: 20, тридцать: 30, сорок: 40, пятьдесят: 50, шестьдесят: 60, семьдесят: 70, восемьдесят: 80, девяносто: 90 },
  (t, u) => [`${t} ${u}`],
);
/** Korean native numerals (ages with 살) in their adnominal and plain forms, and Sino-Korean ones (ages with 세). */
const KO_NATIVE_UNITS: Words = { 한: 1, 하나: 1, 두: 2, 둘: 2, 세: 3, 셋: 3, 네: 4, 넷: 4, 다섯: 5, 여섯: 6, 일곱: 7, 여덟: 8, 아홉: 9 };
const KO = build(KO_NATIVE_UNITS, { 열: 10 }, { 스물: 20, 스무: 20, 서른: 30, 마흔: 40, 쉰: 50 }, (t, u) => [`${t}${u}`, `${t} ${u}`]);
for (const [u, v] of Object.entries(KO_NATIVE_UNITS)) {
  KO[`열${u}`] = 10 + v;
  KO[`열 ${u}`] = 10 + v;
}
const KO_SINO_DIGITS: Words = { 일: 1, 이: 2, 삼: 3, 사: 4, 오: 5, 육: 6, 칠: 7, 팔: 8, 구: 9 };
for (const [u, v] of Object.entries(KO_SINO_DIGITS)) {
  KO[`십${u}`] = 10 + v;
  for (const [t, tv] of Object.entries(KO_SINO_DIGITS)) if (tv >= 2) KO[`${t}십${u}`] = tv * 10 + v;
}
KO["십"] = 10;
for (const [t, tv] of Object.entries(KO_SINO_DIGITS)) if (tv >= 2) KO[`${t}십`] = tv * 10;
/** Hindi (Devanagari), 1–30 and the tens: each number has its own word. */
const HI: Words = {
  एक: 1, दो: 2, तीन: 3, चार: 4, पाँच: 5, पांच: 5, छह: 6, छः: 6, सात: 7, आठ: 8, नौ: 9, दस: 10, ग्यारह: 11, बारह: 12, तेरह: 13,
  चौदह: 14, पंद्रह: 15, पन्द्रह: 15, सोलह: 16, सत्रह: 17, अठारह: 18, उन्नीस: 19, बीस: 20, इक्कीस: 21, बाईस: 22, तेईस: 23,
  चौबीस: 24, पच्चीस: 25, छब्बीस: 26, सत्ताईस: 27, अट्ठाईस: 28, उनतीस: 29, तीस: 30, चालीस: 40, पचास: 50, साठ: 60,
};
/** Arabic cardinals (both genders; alif forms folded to ا by normalise.ts) and the ordinals ages use ("في الرابعة عشرة من عمرها"). */
const AR_UNITS: Words = {
  واحد: 1, واحدة: 1, اثنان: 2, اثنين: 2, اثنتان: 2, ثلاث: 3, ثلاثة: 3, اربع: 4, اربعة: 4, خمس: 5, خمسة: 5, ست: 6, ستة: 6, سبع: 7,
  سبعة: 7, ثمان: 8, ثماني: 8, ثمانية: 8, تسع: 9, تسعة: 9,
};
const AR_ORDINALS: Words = {
  الاولى: 1, الاول: 1, الثانية: 2, الثاني: 2, الثالثة: 3, الثالث: 3, الرابعة: 4, الرابع: 4, الخامسة: 5, الخامس: 5, السادسة: 6,
  السادس: 6, السابعة: 7, السابع: 7, الثامنة: 8, الثامن: 8, التاسعة: 9, التاسع: 9,
};
const AR_TENS: Words = { عشرون: 20, عشرين: 20, ثلاثون: 30, ثلاثين: 30, اربعون: 40, اربعين: 40, خمسون: 50, خمسين: 50, ستون: 60, ستين: 60 };
const AR: Words = { ...AR_UNITS, ...AR_ORDINALS, ...AR_TENS, عشر: 10, عشرة: 10, العاشرة: 10, العاشر: 10 };
for (const [u, v] of [...Object.entries(AR_UNITS), ...Object.entries(AR_ORDINALS)]) {
  if (v === 1) {
    AR["احد عشر"] = 11;
    AR["احدى عشرة"] = 11;
    AR["الحادية عشرة"] = 11;
    AR["الحادي عشر"] = 11;
    continue;
  }
  AR[`${u} عشر`] = 10 + v;
  AR[`${u} عشرة`] = 10 + v;
  for (const [t, tv] of Object.entries(AR_TENS)) AR[`${u} و${t}`] = tv + v;
  for (const [t, tv] of Object.entries(AR_TENS)) AR[`${u} وال${t}`] = tv + v;
}
Object.assign(AR, { اثنا: 2, اثنتا: 2, "اثنا عشر": 12, "اثنتا عشرة": 12, "اثني عشر": 12, "اثنتي عشرة": 12 });

/** Number words of the scripts read in the `native` view, by language. */
export const NATIVE_NUMBER_WORDS: Readonly<Record<"ru" | "ko" | "hi" | "ar", Words>> = { ru: RU, ko: KO, hi: HI, ar: AR };

const ALL: Words = Object.assign({}, ...Object.values(LATIN_NUMBER_WORDS), ...Object.values(NATIVE_NUMBER_WORDS));

/**
 * Zero of each decimal digit block (Unicode general category Nd) that NFKC
 * leaves alone: Arabic-Indic, Extended Arabic-Indic (Persian, Urdu), NKo,
 * Devanagari, Bengali, Gurmukhi, Gujarati, Oriya, Tamil, Telugu, Kannada,
 * Malayalam, Sinhala, Thai, Lao, Tibetan, Myanmar (two), Khmer, Mongolian,
 * Limbu, New Tai Lue, Balinese, Sundanese, Lepcha, Ol Chiki, Vai, Saurashtra,
 * Kayah Li, Javanese, Cham, Meetei Mayek, Osmanya, Adlam. Fullwidth and
 * mathematical digits are folded by NFKC already.
 */
const DIGIT_ZEROS = [
  0x0660, 0x06f0, 0x07c0, 0x0966, 0x09e6, 0x0a66, 0x0ae6, 0x0b66, 0x0be6, 0x0c66, 0x0ce6, 0x0d66, 0x0de6, 0x0e50, 0x0ed0, 0x0f20,
  0x1040, 0x1090, 0x17e0, 0x1810, 0x1946, 0x19d0, 0x1b50, 0x1bb0, 0x1c40, 0x1c50, 0xa620, 0xa8d0, 0xa900, 0xa9d0, 0xaa50, 0xabf0,
  0x104a0, 0x1e950,
];
const OTHER_DIGIT = /[^\d\P{Nd}]/gu;

/** `text` with the digits of every script written as ASCII digits ("١٣" → "13", "१४" → "14", "๑๔" → "14"). */
export function asciiDigits(text: string): string {
  return text.replace(OTHER_DIGIT, (digit) => {
    const cp = digit.codePointAt(0)!;
    const zero = DIGIT_ZEROS.find((z) => cp >= z && cp < z + 10);
    return zero === undefined ? digit : String(cp - zero);
  });
}

const ROMAN: Record<string, number> = { i: 1, v: 5, x: 10, l: 50, c: 100 };

/** The value of a Roman numeral (lower case, "i" … "xcix"), or NaN when it is not one written the standard way. */
export function romanValue(text: string): number {
  if (!/^(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})$/.test(text) || text === "") return NaN;
  let total = 0;
  for (let i = 0; i < text.length; i++) {
    const value = ROMAN[text[i]!]!;
    const next = ROMAN[text[i + 1] ?? ""] ?? 0;
    total += value < next ? -value : value;
  }
  return total;
}

/**
 * The value of a number as a rule captures it: ASCII digits, a Roman
 * numeral, or a number word of any language here (compounds whole: "vingt-
 * cinq" → 25; hyphens and spaces between the parts as written); NaN when
 * unknown.
 */
export function numberWordValue(raw: string): number {
  const text = raw.trim().toLowerCase().replace(/\s+/g, " ");
  if (/^\d+$/.test(text)) return Number(text);
  if (text in ALL) return ALL[text]!;
  const spaced = text.replace(/-/g, " ");
  if (spaced in ALL) return ALL[spaced]!;
  return romanValue(text);
}

const byLength = (words: Iterable<string>) => [...new Set(words)].sort((a, b) => b.length - a.length);
const escape = (word: string) => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/[ -]/g, "[\\s-]+");

/** A regex source matching any number word of `words` as a whole word (longest first, so compounds win over their parts). */
export function numberWordsSource(words: Words): string {
  return `(?<![\\p{L}\\p{M}\\p{N}-])(?:${byLength(Object.keys(words)).map(escape).join("|")})(?![\\p{L}\\p{M}\\p{N}])`;
}

/**
 * Compound number words (tens and a unit, 21–99) of every language here,
 * in the `latin` view: written as digits before the rules read a text, so
 * that no rule can read "vingt-cinq" as 5 or "treinta y dos" as 2.
 * Words of one part stay words (many are also other words: "on", "sei",
 * "elf", "do").
 */
const LATIN_COMPOUNDS = new RegExp(
  numberWordsSource(
    Object.fromEntries(
      Object.values(LATIN_NUMBER_WORDS)
        .flatMap((words) => Object.entries(words))
        .filter(([word, value]) => value > 20 && value % 10 !== 0 && /[\s-]|und|en[tdvzn]|[a-z]{7,}/.test(word)),
    ),
  ),
  "gu",
);
/** Compound number words of Russian and Arabic ("двадцать пять", "خمسة وعشرون"), in the `native` view. */
const NATIVE_COMPOUNDS = new RegExp(
  numberWordsSource(
    Object.fromEntries([...Object.entries(RU), ...Object.entries(AR)].filter(([word, value]) => value > 20 && /\s/.test(word))),
  ),
  "gu",
);

/** Every compound holds a tens word: the first four letters of each, a cheap test before the long alternation runs. */
const LATIN_TENS = new RegExp(
  [...new Set(Object.values(LATIN_NUMBER_WORDS).flatMap((words) => Object.entries(words).filter(([w, v]) => v >= 20 && v % 10 === 0 && !/\s/.test(w)).map(([w]) => w.slice(0, 4))))].join("|"),
);

/** `text` (the `latin` view) with compound number words written as digits ("vingt-cinq ans" → "25 ans"). */
export function latinCompoundsAsDigits(text: string): string {
  if (!LATIN_TENS.test(text)) return text;
  return text.replace(LATIN_COMPOUNDS, (word) => String(numberWordValue(word)));
}

/** `text` (the `native` view) with Russian and Arabic compound number words written as digits. */
export function nativeCompoundsAsDigits(text: string): string {
  if (!/[\u0400-\u04FF\u0600-\u06FF]/.test(text)) return text;
  return text.replace(NATIVE_COMPOUNDS, (word) => String(numberWordValue(word)));
}
