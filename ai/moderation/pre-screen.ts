/**
 * The pre-screen: a cheap, deterministic check that runs in front of every
 * moderation provider (`PreScreenedModerator`, wrapped by choose.ts
 * `moderatorFor`) and refuses the clearest cases of sexual content involving
 * minors as S4 before any model is asked. Llama Guard (or the OpenAI
 * endpoint) stays the judge of everything else; the offline screen keeps its
 * role behind it in local runs and tests. What it catches and what it cannot:
 * docs/decisions/0016-normalising-pre-screen.md; its labelled set and the
 * measured recall and false-positive rate: ./pre-screen-cases.ts,
 * `npm run bench:screening`.
 *
 * It reads the text through the views of normalise.ts (NFKC, invisible and
 * bidi characters removed, confusables folded to ASCII, leetspeak folded),
 * then looks for an *age marker* — a sign that someone in the text is under
 * 18 — and refuses (S4) when there is one and the input is NSFW or has a
 * sexual term (`SEXUAL_TERMS` of the offline screen plus `MORE_SEXUAL_TERMS`,
 * in any view).
 *
 * Age markers (`minorMarker`, each a rule of `RULES`):
 * - a stated age from 1 to 17, in digits or number words, in English
 *   ("13 years old", "a thirteen-year-old", "13yo", "age: 13", "she is 13",
 *   "just turned 15"), Spanish ("tiene 13 años", "una chica de trece
 *   años"), French ("elle a 13 ans", "une fille de treize ans"), German
 *   ("13 Jahre alt", "13-jährige"), Japanese and Chinese ("13歳", "十三岁"),
 *   Russian ("ей 13 лет", "тринадцатилетняя");
 * - "looks 12", "looks like she's 12", "could pass for 12";
 * - school grades and levels below university: "7th grader", "in seventh
 *   grade", "grade 7", "middle schooler", "junior high", "elementary
 *   school", "high schooler", "a high school girl", 中学生, 小学生, 高校生,
 *   初中生, "estudiante de secundaria", "collégienne", "Grundschülerin",
 *   "в 7 классе", "7. Klasse" (`SCHOOL_TERMS` and the grade rules);
 * - a birth year that makes someone under 18 this year ("born in 2013",
 *   "nacida en 2013", "née en 2013", "geboren 2013", "2013年生まれ",
 *   "родилась в 2013");
 * - words and slang for minors: "underage", "preteen", "tween", "loli",
 *   "shota", "jailbait", "young teen", "barely teen", "early teens",
 *   "a minor", "menor de edad", "mineure", "minderjährig",
 *   "несовершеннолетняя", 未成年, ロリ, 萝莉 (`MINOR_TERMS`).
 *
 * So that adults pass, a marker does not count when it is negated ("not a
 * minor", "isn't 17"), in a backstory ("since age 12", "at 13", "when she
 * was 12", "back in middle school", "hace 12 años", "il y a 12 ans",
 * "12 лет назад", "12歳の時"), about a school's staff ("a junior high
 * teacher"), or about someone's child ("her son is 12") unless its own
 * sentence is sexual. Whole words only: "nineteen", "canteen", "kid at
 * heart", "goat kids", "a minor injury" never match.
 */
import { type HazardCategory, type ModerationInput, type ModerationOptions, type ModerationVerdict, type Moderator, type ModeratorName, verdictOf } from "./moderator.ts";
import { textViews, type TextViews } from "./normalise.ts";
import { SEXUAL_TERMS } from "./offline-screen.ts";

/** Sexual terms the pre-screen reads besides the offline screen's SEXUAL_TERMS, in the languages it reads. */
export const MORE_SEXUAL_TERMS: readonly string[] = [
  // English ("moan", "lust", "breeding", "sleeps with", "in bed with" are left out: "moans about homework",
  // "a lust for adventure", "horse breeding", "sleeps with her teddy bear", "in bed with the flu")
  "cum", "cums", "cumming", "blowjob", "blowjobs", "handjob", "boobs", "tits", "titties", "pussy", "cock", "cocks",
  "hentai", "smut", "smutty", "nsfw", "grope", "groped", "groping", "orgy", "slutty", "slut", "whore", "lustful",
  "strip naked", "spread her legs", "spread his legs", "have sex", "has sex", "having sex", "virgin", "virginity",
  "deflower", "deflowered", "nudist", "nudity", "rape", "rapes", "raped", "raping", "molest", "molests", "molested",
  "molesting", "sleep with you", "sleep with me", "sleeps with you", "sleeping with you", "undresses slowly",
  "undresses for you", "undress for me", "undresses in front of you",
  // Spanish, accents folded ("coger" is "to take" in Spain)
  "sexo", "desnuda", "desnudo", "desnudas", "desnudos", "follar", "cachonda", "cachondo", "erotico", "erotica",
  "tetas", "polla",
  // French ("bite" is an English word, "baiser" also a kiss)
  "sexe", "sexuel", "sexuelle", "nue", "nues", "erotique", "seins", "chatte", "coquine",
  // German
  "nackt", "ficken", "fickt", "erotisch", "geil", "titten", "muschi", "sexuell",
];

/** Sexual terms in Japanese, Chinese and Russian, read in the native view (no word boundaries in Japanese and Chinese). */
const NATIVE_SEXUAL = /セックス|エッチ|えっち|エロ|裸|性交|犯す|おっぱい|まんこ|ちんこ|做爱|做愛|性爱|性愛|裸体|裸體|色情|淫|乳房|(?<!\p{L})(?:секс\p{L}*|голая|голый|голые|трах\p{L}*|порно\p{L}*|эроти\p{L}*|сиськи|возбужд\p{L}*)(?!\p{L})/u;

const START = String.raw`(?<![\p{L}\p{N}])`;
const END = String.raw`(?![\p{L}\p{N}])`;
const escape = (term: string) => term.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/ /g, "[\\s-]+");
const SEXUAL = new RegExp(`${START}(?:${[...SEXUAL_TERMS, ...MORE_SEXUAL_TERMS].map(escape).join("|")})${END}`, "u");

/** Whether the text has a sexual term in any view. */
function hasSexualTerm(views: TextViews): boolean {
  return [...new Set([views.latin, views.leet, views.leetL])].some((view) => SEXUAL.test(view)) || NATIVE_SEXUAL.test(views.native);
}

// ---- numbers ---------------------------------------------------------------------------------

const EN_UNITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"];
const EN_TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];
const EN_ORDINALS = ["", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh", "twelfth"];
const ES = { uno: 1, una: 1, un: 1, dos: 2, tres: 3, cuatro: 4, cinco: 5, seis: 6, siete: 7, ocho: 8, nueve: 9, diez: 10, once: 11, doce: 12, trece: 13, catorce: 14, quince: 15, dieciseis: 16, diecisiete: 17, dieciocho: 18, diecinueve: 19, veinte: 20 } as Record<string, number>;
const FR = { un: 1, une: 1, deux: 2, trois: 3, quatre: 4, cinq: 5, six: 6, sept: 7, huit: 8, neuf: 9, dix: 10, onze: 11, douze: 12, treize: 13, quatorze: 14, quinze: 15, seize: 16, "dix-sept": 17, "dix sept": 17, "dix-huit": 18, "dix huit": 18, "dix-neuf": 19, "dix neuf": 19, vingt: 20 } as Record<string, number>;
const DE = { ein: 1, eins: 1, eine: 1, zwei: 2, drei: 3, vier: 4, funf: 5, sechs: 6, sieben: 7, acht: 8, neun: 9, zehn: 10, elf: 11, zwolf: 12, dreizehn: 13, vierzehn: 14, funfzehn: 15, sechzehn: 16, siebzehn: 17, achtzehn: 18, neunzehn: 19, zwanzig: 20 } as Record<string, number>;
const RU = {
  один: 1, одна: 1, два: 2, две: 2, три: 3, четыре: 4, пять: 5, шесть: 6, семь: 7, восемь: 8, девять: 9, десять: 10,
  одиннадцать: 11, двенадцать: 12, тринадцать: 13, четырнадцать: 14, пятнадцать: 15, шестнадцать: 16, семнадцать: 17,
  восемнадцать: 18, девятнадцать: 19, двадцать: 20,
} as Record<string, number>;
/** Russian "N-year-old" adjectives: the stem of each number (тринадцатилетняя = 13-летняя). */
const RU_LETNIY: Record<string, number> = {
  одно: 1, двух: 2, трех: 3, трёх: 3, четырех: 4, четырёх: 4, пяти: 5, шести: 6, семи: 7, восьми: 8, девяти: 9, десяти: 10,
  одиннадцати: 11, двенадцати: 12, тринадцати: 13, четырнадцати: 14, пятнадцати: 15, шестнадцати: 16, семнадцати: 17,
  восемнадцати: 18, девятнадцати: 19, двадцати: 20,
};
const CJK_DIGITS: Record<string, number> = { 一: 1, 二: 2, 两: 2, 兩: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };

const alternatives = (words: Iterable<string>) => [...words].sort((a, b) => b.length - a.length).map(escape).join("|");
/** An English number: digits (at most 3, not inside a longer number or a decimal) or words ("thirteen", "twenty-one"). */
const NUM_EN = String.raw`(?:(?<![\p{N}.,])\d{1,3}(?![\p{N}]|[.,]\d)|${START}(?:(?:${EN_TENS.filter(Boolean).join("|")})(?:[\s-]?(?:${EN_UNITS.slice(1, 10).join("|")}))?|${alternatives(EN_UNITS)})${END})`;
const NUM_ES = String.raw`(?:(?<![\p{N}.,])\d{1,3}(?![\p{N}])|${START}(?:${alternatives(Object.keys(ES))})${END})`;
const NUM_FR = String.raw`(?:(?<![\p{N}.,])\d{1,3}(?![\p{N}])|${START}(?:${alternatives(Object.keys(FR))})${END})`;
const NUM_DE = String.raw`(?:(?<![\p{N}.,])\d{1,3}(?![\p{N}])|${START}(?:${alternatives(Object.keys(DE))})${END})`;
const NUM_RU = String.raw`(?:(?<![\p{N}.,])\d{1,3}(?![\p{N}])|${START}(?:${alternatives(Object.keys(RU))})${END})`;
const NUM_CJK = String.raw`(?:(?<![\p{N}.,])\d{1,3}(?![\p{N}])|[一二两兩三四五六七八九十]{1,3})`;

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
  return NaN;
}

const isMinorAge = (n: number) => n >= 1 && n <= 17;

// ---- guards ----------------------------------------------------------------------------------

/** Right before a marker: a negation ("not", "no", "never", "…n't", "isn't"). */
const NEGATED = /(?:(?<![\p{L}\p{N}])(?:not|no|never|nor|without|non|pas|nicht|kein|keine|nunca|jamas|ni|не|ни)|n't|n'est pas)\s+(?:(?:a|an|un|une|una|ein|eine|even|yet|quite|really|actually|longer|some|any|one|body|persons?|people)\s+)?$/u;
/**
 * Right before a marker: a backstory, the marker tells when something
 * happened ("since age", "at", "when she was", "back in", "until", "hace",
 * "il y a", "depuis", "seit", "mit", "в", "с").
 */
const BACKSTORY =
  /(?:(?<![\p{L}\p{N}])(?:since|from|at|by|until|till|before|after|during|ever since|back in|back when|as of|as early as|the age of|age of|when|while|once|hace|desde|a los|il y a|depuis|des|vor|seit|mit|als|в|с|до|после|когда|с тех пор как)(?:\s+(?:the\s+)?(?:age\s+of\s+|aged?\s+|she|he|i|they|we|you|she's|he's|i'm|(?:she|he|i|they|we|you)\s+(?:was|were|had been|turned|first|started|left|finished|graduated|went|was\s+still|were\s+still)(?:\s+(?:in|from|to|at))?|(?:was|were)(?:\s+in)?|(?:in|from)\s+(?:the\s+)?|year|age|ans|anos|jahre?n?))*\s*[:,]?\s*)$/u;
/** Right after a marker: it is about time, not a person ("12 years ago", "for 12 years", "12 лет назад", "12歳の時"). */
const TIME_AFTER = /^(?:\s*(?:ago|later|earlier|before|prior|back|since|before that|atras|despues|antes|plus tot|plus tard|auparavant|spater|zuvor|назад|спустя|тому назад)|の(?:時|とき|頃|ころ)|から|まで|で|时|時|的时候|的時候|那年|起|开始|開始|когда)/u;
/** Right after a school term: a school's staff or a memory, not a pupil. */
const STAFF_AFTER = /^\s*(?:teacher|teachers|teaching|principal|coach|team|class|classroom|cafeteria|canteen|cook|bus|building|gym|library|office|secretary|soccer|football|basketball|volleyball|band|choir|counsell?or|nurse|librarian|janitor|staff|faculty|reunion|sweetheart|days|years|memories|diploma|dropout|graduate|friend|friends|crush|bully|bullies|教師|教师|先生|老师|老師|учитель\p{L}*|profesor\p{L}*|professeur\p{L}*|lehrer\p{L}*)(?!\p{L})/u;
/** Right before a school term: someone who works there ("works at a middle school", "coaches the 8th grade …"). */
const STAFF_BEFORE = /(?<![\p{L}\p{N}])(?:works?|working|worked|teach(?:es|ing)?|taught|coach(?:es|ing)?|employed|substitute|volunteers?)\s+(?:\p{L}+\s+){0,2}?(?:at|in|for)?\s*(?:a|an|the|local)?\s*$/u;
/** Before a marker in its sentence: someone's child or sibling ("her son is 12"): counted only with a sexual term in that sentence. */
const RELATIVE_BEFORE = /(?<![\p{L}\p{N}])(?:(?:mother|father|mom|mum|dad|parent|aunt|uncle|guardian|stepmother|stepfather|stepmom|stepdad)\s+(?:of|to)\s+(?:a|an|one|two|three|four|twin)?\s*$|(?:her|his|my|their|your|our|whose)\s+(?:[\p{L}-]+\s+){0,2}(?:son|sons|daughter|daughters|kid|kids|child|children|brother|brothers|sister|sisters|nephew|niece|cousin|sibling|siblings|stepson|stepdaughter|grandson|granddaughter|grandchild|grandkids|students?|pupils?)(?:,)?\s+(?:[\p{L}-]+\s+){0,3}$)/u;

// ---- rules -----------------------------------------------------------------------------------

/** Which view a rule reads. */
type View = "latin" | "native";

/** One kind of age marker: a pattern and, when it captures a number (group `n`) or a year (`year`), the test of it. */
interface Rule {
  name: string;
  view: View;
  pattern: RegExp;
  /** Whether a marker of this rule may be in a backstory (guarded by BACKSTORY and TIME_AFTER); default true. */
  backstory?: boolean;
  /** Minimum and maximum of group `n` (default 1–17). */
  range?: [number, number];
  /** Guarded by STAFF_AFTER (school terms). */
  staff?: boolean;
}

const r = (source: string) => new RegExp(source, "gu");

const GRADE_WORDS = EN_ORDINALS.filter(Boolean).join("|");
/** After a present-tense "is N": not a unit or a count ("is 15 minutes late", "I'm 16 hours into"); only 10–17, so "she is one of us" is not an age. */
const IS_AGE_AFTER = String.raw`(?![\p{N}]|[.,:/]\d|\s*(?:%|percent|feet|foot|ft|inch|inches|in|cm|mm|m|km|miles?|kg|kilos?|lbs?|pounds?|stone|dollars?|euros?|bucks|cents?|minutes?|mins?|hours?|hrs?|seconds?|secs?|days?|weeks?|months?|times?|pages?|o'clock|am|pm|degrees?|points?|stories|floors?|people|men|women|girls|boys|guys|of|out|th|st|nd|rd|x|on|in|at|to|for|from|more|less|other|others|different|ways?|things?|items?|cards?|chapters?|rounds?|laps?|shots?|drinks?|beers?|cats?|dogs?|kids?|children)${END})`;

/** School terms read in the `latin` view (English, Spanish, French, German), pupils below university. */
export const SCHOOL_TERMS: readonly string[] = [
  "middle schooler", "middle schoolers", "middle school", "middle-school", "junior high", "junior higher", "junior high school",
  "junior high schooler", "elementary school", "elementary schooler", "elementary schoolers", "grade school", "grade schooler",
  "grade schoolers", "primary school", "primary schooler", "high schooler", "high schoolers", "kindergartner", "kindergartener",
  "kindergarten", "preschooler", "secundaria", "estudiante de secundaria", "estudiante de primaria", "alumna de primaria",
  "alumna de secundaria", "colegiala de secundaria", "collegienne", "collegien", "ecoliere", "lyceenne", "au college",
  "grundschulerin", "grundschuler", "grundschule", "mittelschulerin", "mittelstufe", "hauptschulerin",
];

/** Words and slang for minors, read in the `latin` and `leet` views. */
export const MINOR_TERMS: readonly string[] = [
  "underage", "under age", "under-aged", "underaged", "preteen", "preteens", "pre teen", "tween", "tweens", "tweenager",
  "prepubescent", "pre pubescent", "pubescent", "loli", "lolis", "lolicon", "lolita", "shota", "shotas", "shotacon",
  "jailbait", "jail bait", "young teen", "young teens", "young teenager", "barely teen", "barely a teen", "early teens",
  "early teen", "lil teen", "little teen", "teeny bopper", "teenybopper", "cunny", "toddlercon", "minors", "child bride",
  "under 18", "under eighteen", "below 18", "not yet 18", "not even 18", "not yet eighteen", "menor de edad", "menores de edad",
  "una menor", "mineure", "une mineure", "des mineurs", "minderjahrig", "minderjahrige", "minderjahriger", "minderjahriges",
];

const RULES: Rule[] = [
  // English: "13 years old", "a thirteen-year-old", "13 yrs old", "13 years of age", "13yo", "13 y/o", "13 y.o."
  { name: "stated age", view: "latin", pattern: r(String.raw`(?<n>${NUM_EN})[\s-]*(?:years?|yrs?|yr)[\s-]*(?:old|of age)${END}`) },
  { name: "stated age", view: "latin", pattern: r(String.raw`(?<n>${NUM_EN})\s*(?:yo|y\s*[/.]\s*[o0]\.?|y)(?![\p{L}\p{N}/])`) },
  // "age 13", "aged 13", "age: 13", Age("13")
  { name: "stated age", view: "latin", pattern: r(String.raw`${START}age[ds]?${END}\s*[:=\-–]?\s*[("'“]*\s*(?<n>${NUM_EN})`) },
  // "she is 13", "I'm 13", "just turned 15", "only 14", "barely 16"
  {
    name: "stated age",
    view: "latin",
    range: [10, 17],
    pattern: r(String.raw`${START}(?:is|am|are|i'm|im|she's|he's|shes|hes|you're|they're|turned|turns|turning|just|only|barely|merely|still)\s+(?:just\s+|only\s+|barely\s+|about\s+|like\s+)?(?<n>${NUM_EN})${IS_AGE_AFTER}`),
  },
  // "Emma, fifteen, is…", "Emma (15)"
  { name: "stated age", view: "latin", range: [10, 17], pattern: r(String.raw`(?<=\p{L}\s{0,3})(?<!${START}(?:size|room|chapter|page|track|episode|part|level|number|no|vol|volume|act|scene|step|item|rank|floor|table|seat|score|hp|mp|lvl|day|night|year|week|round|stage|season|issue|apartment|suite|gate|row|line|verse|book|tier)\s{0,3})[,(]\s*(?<n>${NUM_EN})\s*[,)]`) },
  // "looks 12", "looks like she's 12", "could pass for 12", "appears to be 12", "the body of a 12"
  {
    name: "looks young",
    view: "latin",
    backstory: false,
    pattern: r(String.raw`${START}(?:looks?|looking|looked|appears?|appearing|seems?|passes|pass|passing)\s+(?:to\s+be\s+|for\s+|like\s+|about\s+|around\s+|maybe\s+|only\s+|barely\s+|no\s+(?:older|more)\s+than\s+|younger\s+than\s+|like\s+(?:she's|he's|she\s+is|he\s+is|a|an)\s+|a\s+|an\s+)*(?<n>${NUM_EN})(?![\p{N}])`),
  },
  { name: "looks young", view: "latin", backstory: false, pattern: r(String.raw`${START}body\s+of\s+an?\s+(?<n>${NUM_EN})${END}`) },
  // School grades below university: "7th grader", "seventh grade", "grade 7", "year 8 student"
  { name: "school grade", view: "latin", staff: true, range: [1, 12], pattern: r(String.raw`${START}(?:(?<n>\d{1,2})(?:st|nd|rd|th)|(?<w>${GRADE_WORDS}))[\s-]*grade(?:rs?)?${END}`) },
  { name: "school grade", view: "latin", staff: true, range: [1, 12], pattern: r(String.raw`${START}(?:grade|year)\s+(?<n>\d{1,2})\s+(?:student|pupil|girl|boy|kid)s?${END}`) },
  { name: "school grade", view: "latin", staff: true, range: [1, 11], pattern: r(String.raw`${START}in\s+year\s+(?<n>\d{1,2})${END}`) },
  { name: "school grade", view: "latin", staff: true, range: [1, 12], pattern: r(String.raw`${START}(?:is|in|she's|he's|i'm)\s+(?:the\s+)?grade\s+(?<n>\d{1,2})${END}`) },
  // School levels below university
  { name: "school", view: "latin", staff: true, pattern: r(String.raw`${START}(?:${alternatives(SCHOOL_TERMS)})${END}`) },
  { name: "school", view: "latin", staff: true, pattern: r(String.raw`${START}high\s+school\s+(?:girl|boy|student|kid|freshman|sophomore|junior|cheerleader|pupil)s?${END}`) },
  { name: "school", view: "latin", pattern: r(String.raw`${START}(?:is|am|are|she's|he's|i'm|still|currently)\s+(?:still\s+)?(?:in|attends|attending|goes\s+to)\s+(?:high|middle|elementary|grade)\s+school${END}`) },
  { name: "school", view: "latin", pattern: r(String.raw`${START}(?:freshman|sophomore|junior|senior|student|pupil|girl|boy)\s+(?:in|at)\s+(?:a\s+|the\s+)?(?:high|middle|elementary|grade|junior\s+high)\s+school${END}`) },
  { name: "school", view: "latin", pattern: r(String.raw`${START}(?:attends|attending|goes\s+to)\s+(?:high|middle|elementary|grade|junior\s+high)\s+school${END}`) },
  // Words and slang for minors; "a minor" at the end of a clause (not "a minor injury")
  { name: "minor term", view: "latin", pattern: r(String.raw`${START}(?:${alternatives(MINOR_TERMS)})${END}`) },
  { name: "minor term", view: "latin", pattern: r(String.raw`${START}a\s+minor(?=\s*(?:$|[^\s\p{L}\p{N}]|and\s|who\s|that\s))`) },
  // Birth years: "born in 2013", "b. 2013", "nacida en 2013", "nee en 2013", "geboren 2013"
  {
    name: "birth year",
    view: "latin",
    backstory: false,
    pattern: r(String.raw`${START}(?:born|b\.|birth\s+year:?|year\s+of\s+birth:?|nacid[ao]|naci[oó]|nee?|geboren|geb\.|jahrgang)\s+(?:in\s+|en\s+|el\s+|im\s+|am\s+|on\s+|(?:\w+\s+){0,3}(?:in|of|de|del)\s+)?(?:(?:january|february|march|april|may|june|july|august|september|october|november|december|\d{1,2})[\s,/.-]+(?:\d{1,2}[\s,/.-]+)?)?(?<year>\d{4})(?!\d)`),
  },
  // Spanish: "tiene 13 años", "una chica de trece años", "13 años de edad"
  {
    name: "stated age (es)",
    view: "latin",
    pattern: r(String.raw`${START}(?:tiene|tenia|tengo|tienes|cumplio|cumple|cumplir|(?<!(?:despues|antes|mas|menos|cerca|alrededor|luego|lejos|largo)\s)de|con|edad:?|solo|apenas)\s+(?:solo\s+|apenas\s+)?(?<n>${NUM_ES})\s+an(?:o|ito)s?${END}`),
  },
  { name: "stated age (es)", view: "latin", pattern: r(String.raw`(?<n>${NUM_ES})\s+anos\s+de\s+edad${END}`) },
  // "16 años, desnuda": an age opening the text or a clause
  { name: "stated age (es)", view: "latin", pattern: r(String.raw`(?<=(?:^|[,(:;.!?*\-–]\s{0,3}))(?<n>${NUM_ES})\s+an(?:o|ito)s(?=\s*(?:$|[,.;:!?)]))`) },
  { name: "stated age (fr)", view: "latin", pattern: r(String.raw`(?<=(?:^|[,(:;.!?*\-–]\s{0,3}))(?<n>${NUM_FR})\s+ans(?=\s*(?:$|[,.;:!?)]))`) },
  // French: "elle a 13 ans", "une fille de treize ans", "agee de 13 ans"
  {
    name: "stated age (fr)",
    view: "latin",
    pattern: r(String.raw`${START}(?:(?<!(?:il\s+y|y)\s)a|avait|aura|agee?s?\s+de|(?<!(?:plus|moins|pres|pendant|depuis|apres|avant|environ|bout|cours)\s)de|seulement|juste)\s+(?:seulement\s+|juste\s+|que\s+|a\s+peine\s+)?(?<n>${NUM_FR})\s+ans${END}`),
  },
  // German: "13 Jahre alt", "13-jährige", "dreizehnjährige"
  { name: "stated age (de)", view: "latin", pattern: r(String.raw`(?<n>${NUM_DE})[\s-]*jahre?\s+alt${END}`) },
  { name: "stated age (de)", view: "latin", pattern: r(String.raw`(?<n>${NUM_DE})[\s-]*jahrige?[nrs]?${END}`) },
  { name: "school grade (de)", view: "latin", staff: true, range: [1, 12], pattern: r(String.raw`${START}(?:in\s+der\s+)?(?<n>\d{1,2})\.\s*klasse${END}`) },
  // Japanese and Chinese: "13歳", "13才", "十三岁", "十三歲"
  { name: "stated age (ja/zh)", view: "native", pattern: r(String.raw`(?<n>${NUM_CJK})\s*(?:歳|才|岁|歲)`) },
  { name: "school (ja/zh)", view: "native", staff: true, pattern: r(String.raw`(?:女子|男子)?(?:中学生|小学生|小學生|高校生|初中生|高中生|国中生|國中生|中学校|小学校|小學|初中|国中|國中|高一|高二|初一|初二|初三)`) },
  { name: "minor term (ja/zh)", view: "native", pattern: r(String.raw`未成年|ロリ|ろり|幼女|萝莉|蘿莉|女子中学生`) },
  { name: "birth year (ja/zh)", view: "native", backstory: false, pattern: r(String.raw`(?<year>\d{4})\s*年\s*(?:生まれ|出生|生)`) },
  // Russian: "ей 13 лет", "тринадцать лет", "13-летняя", "тринадцатилетняя", "в 7 классе"
  { name: "stated age (ru)", view: "native", pattern: r(String.raw`(?<n>${NUM_RU})\s*(?:лет|года|год)(?!\p{L})`) },
  { name: "stated age (ru)", view: "native", pattern: r(String.raw`(?:(?<n>\d{1,2})\s*-?\s*|(?<!\p{L})(?<ru>${Object.keys(RU_LETNIY).join("|")}))летн(?:яя|ий|ей|его|юю|ие|их|ему)(?!\p{L})`) },
  { name: "school grade (ru)", view: "native", staff: true, range: [1, 11], pattern: r(String.raw`(?<!\p{L})в\s+(?<n>\d{1,2})\s*-?\s*(?:м\s+)?класс(?:е|а)?(?!\p{L})`) },
  { name: "minor term (ru)", view: "native", pattern: r(String.raw`(?<!\p{L})(?:несовершеннолетн\p{L}*|малолетк\p{L}*|малолетн\p{L}*|школьниц\p{L}*|школьник\p{L}*|лоли|педо\p{L}*)(?!\p{L})`) },
  { name: "birth year (ru)", view: "native", backstory: false, pattern: r(String.raw`(?<!\p{L})(?:родил(?:ась|ся)\s+в|рождения:?)\s+(?<year>\d{4})|(?<year2>\d{4})\s+года\s+рождения`) },
];

/** A marker found: the rule and the words that matched. */
export interface AgeMarker {
  rule: string;
  match: string;
}

/** Where the clause holding `index` starts and ends in `text` (split at . ! ? ; line breaks and their CJK forms). */
function sentenceBounds(text: string, index: number): [number, number] {
  let start = index;
  while (start > 0 && !/[.!?;。！？；\n]/u.test(text[start - 1]!)) start--;
  let end = index;
  while (end < text.length && !/[.!?;。！？；\n]/u.test(text[end]!)) end++;
  return [start, end];
}

function counts(rule: Rule, text: string, m: RegExpMatchArray, year: number): boolean {
  const groups = m.groups ?? {};
  const birth = groups.year ?? groups.year2;
  if (birth !== undefined) {
    const age = year - Number(birth);
    if (!(age >= 0 && age < 18)) return false;
  }
  const raw = groups.n ?? groups.w ?? (groups.ru !== undefined ? String(RU_LETNIY[groups.ru]) : undefined);
  if (raw !== undefined) {
    const n = numberValue(raw);
    const [min, max] = rule.range ?? [1, 17];
    if (!(n >= min && n <= max)) return false;
  }
  const index = m.index ?? 0;
  const before = text.slice(Math.max(0, index - 60), index);
  const after = text.slice(index + m[0].length, index + m[0].length + 40);
  if (NEGATED.test(before)) return false;
  if (rule.backstory !== false && (BACKSTORY.test(before) || TIME_AFTER.test(after))) return false;
  if (rule.staff && (STAFF_AFTER.test(after) || STAFF_BEFORE.test(before))) return false;
  const [start, end] = sentenceBounds(text, index);
  if (RELATIVE_BEFORE.test(text.slice(start, index))) {
    const sentence = text.slice(start, Math.max(end, index + m[0].length));
    if (!SEXUAL.test(sentence) && !NATIVE_SEXUAL.test(sentence)) return false;
  }
  return true;
}

/**
 * The first age marker of `text` (rules in this module's docstring), or
 * null. `year` is the current year (birth years are read against it).
 */
export function minorMarker(text: string, year: number, views: TextViews = textViews(text)): AgeMarker | null {
  // Most text has no leetspeak: each distinct view is read once.
  const latinViews = [...new Set([views.latin, views.leet, views.leetL])];
  for (const rule of RULES) {
    const texts = rule.view === "native" ? [views.native] : latinViews;
    for (const t of texts) {
      for (const m of t.matchAll(rule.pattern)) {
        if (counts(rule, t, m, year)) return { rule: rule.name, match: m[0].trim() };
      }
    }
  }
  return null;
}

/** What the pre-screen found: a marker, and whether the text is sexual (or the input NSFW). */
export interface PreScreenResult {
  /** Refuse as S4: a marker with sexual content or the NSFW flag. */
  refused: boolean;
  marker: AgeMarker | null;
  sexual: boolean;
}

/**
 * The pre-screen of `text` (module docstring): refused when an age marker
 * occurs and `nsfw` is true or a sexual term occurs. Deterministic, no
 * network; `now` (ms since the epoch, default Date.now()) dates birth years.
 */
export function preScreen(text: string, nsfw: boolean, now: number = Date.now()): PreScreenResult {
  const views = textViews(text);
  const sexual = hasSexualTerm(views);
  if (!nsfw && !sexual) return { refused: false, marker: null, sexual };
  const marker = minorMarker(text, new Date(now).getUTCFullYear(), views);
  return { refused: marker !== null, marker, sexual };
}

/**
 * A moderator behind the pre-screen: input the pre-screen refuses is S4
 * (`provider` names the wrapped moderator, whose verdict it stands for)
 * without asking the provider; everything else is the provider's verdict.
 * choose.ts `moderatorFor` wraps every provider in one.
 */
export class PreScreenedModerator implements Moderator {
  readonly name: ModeratorName;
  /** The provider behind the pre-screen. */
  readonly inner: Moderator;
  readonly #now: () => number;

  /** `now` (ms since the epoch) dates birth years; tests pass a fixed clock. */
  constructor(inner: Moderator, now: () => number = Date.now) {
    this.inner = inner;
    this.name = inner.name;
    this.#now = now;
  }

  async screen(input: ModerationInput, options: ModerationOptions = {}): Promise<ModerationVerdict> {
    options.signal?.throwIfAborted();
    if (preScreen(input.text, input.nsfw, this.#now()).refused) {
      const categories: HazardCategory[] = ["S4"];
      return verdictOf(this.inner.name, true, categories, input.nsfw);
    }
    return this.inner.screen(input, options);
  }
}
