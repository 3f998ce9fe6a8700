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
 * Since decision 0028 (issues 35 and 42) it also reads Italian, Portuguese,
 * Dutch, Polish, Turkish, Arabic, Hindi and Korean; decodes before judging
 * (digits of every script, Roman numerals, compound number words, base64
 * and reversed runs: normalise.ts, numbers.ts); refuses only on *evidence*
 * (`ageEvidence`): a marker behind a comparison ("talks like a schoolgirl",
 * "dressed as") or a school beside a stated adult age is a *doubt*, passed
 * to the provider, whose S4 then becomes `review: true` instead of a
 * refusal; and judges a chat message with its conversation (`preScreen`'s
 * `context`, ModerationInput `conversation`).
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
import { LATIN_NUMBER_WORDS, NATIVE_NUMBER_WORDS, numberWordsSource, numberWordValue } from "./numbers.ts";
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
  // Spanish and French, sometimes-sexual words left out: "excitada" (also excited), "se corre", "gozar" (to enjoy),
  // "coucher avec" and "couche ensemble" (a child's teddy, a sleepover), "jouir de" (to enjoy)
  "hacer el amor", "haciendo el amor", "hace el amor", "masturba", "masturbarse", "masturbandose", "orgasmo", "mamada",
  "verga", "pezones", "correrse", "faire l'amour", "fait l'amour", "font l'amour", "masturbe", "masturber", "se masturbe",
  "baise", "baisee", "orgasme", "branler", "nichons", "salope",
  // German ("erregt" is also agitated, "Schwanz" a catgirl's tail)
  "nackt", "ficken", "fickt", "erotisch", "geil", "titten", "muschi", "sexuell",
  "vogeln", "vogelt", "masturbiert", "masturbieren", "mit dir schlafen", "bumsen", "orgasmus",
  // Italian ("eccitata" is also "excited"; "scopa" is also a broom and a card game: only its verb forms; "nudo" is a Spanish
  // knot, "troia" Troy)
  "sesso", "scopare", "scopami", "scopata", "scoparla", "nuda", "erotico", "erotiche", "erotici", "porno", "tette",
  "figa", "cazzo", "pompino", "masturbarsi", "fare l'amore", "fa l'amore", "arrapata", "arrapato",
  // Portuguese ("pau" is also a stick, "safada" only naughty, "transa" a deal in Mexican Spanish, "gozar" to enjoy)
  "transar", "transando", "pelada", "pelado", "nua", "tesao", "foder", "fodendo", "buceta", "peitos", "punheta",
  "fazer amor", "boquete",
  // Dutch
  "seks", "neuken", "neukt", "geile", "naakt", "naakte", "erotische", "pijpen", "pijpbeurt", "klaarkomen", "vrijen",
  "masturberen", "masturbeert", "tieten",
  // Polish ("pieprzyc" is also "to pepper": only with "sie"; "naga", "nagi" are a serpent and a name)
  "seksu", "seksie", "ruchac", "rucha", "napalona", "napalony", "erotyczna", "erotyczny",
  "erotyczne", "erotycznie", "cycki", "cipka", "cipke", "kutas", "masturbuje", "masturbacja", "pieprzyc sie",
  // Turkish
  "sevismek", "sevisiyor", "sevisme", "sevistik", "ciplak", "azgin", "erotik", "sikis", "sikismek", "masturbasyon",
  // Hindi, romanised
  "chudai", "chodna", "chodo", "nangi", "nanga",
];

/**
 * Sexual terms in Japanese, Chinese, Korean, Hindi, Arabic and Russian,
 * read in the native view (no word boundaries in Japanese, Chinese and
 * Korean, whose particles join the word; Arabic as phrases: "الجنس" alone
 * is also "gender", "جنسية" "nationality").
 */
const NATIVE_SEXUAL =
  /セックス|エッチ|えっち|エロ|裸|性交|性行為|犯す|おっぱい|まんこ|ちんこ|自慰|オナニー|乳首|中出し|フェラ|做爱|做愛|性爱|性愛|裸体|裸體|色情|淫|乳房|上床|手淫|脱光|口交|阴茎|阴道|性行为|乳头|섹스|성관계|알몸|야한|야동|자위|보지|자지|성행위|음란|सेक्स|चुदाई|चोद|नंगी|नंगा|कामुक|संभोग|ممارسة الجنس|تريد الجنس|يريد الجنس|الجنس معك|مشاهد جنسية|محتوى جنسي|جنسيا|علاقة جنسية|عارية|عاري|نيك|سكس|شهوة|اباحي|مضاجعة|(?<!\p{L})(?:секс\p{L}*|голая|голый|голые|трах\p{L}*|порно\p{L}*|эроти\p{L}*|сиськи|возбужд\p{L}*|заняться любовью|занимается любовью|занимаются любовью|мастурб\p{L}*|оргазм\p{L}*|минет\p{L}*|ебать|выебать|ебля)(?!\p{L})/u;

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
const numIn = (words: Record<string, number>) => String.raw`(?:(?<![\p{N}.,])\d{1,3}(?![\p{N}])|${numberWordsSource(words)})`;
const NUM_IT = numIn(LATIN_NUMBER_WORDS.it);
const NUM_PT = numIn(LATIN_NUMBER_WORDS.pt);
const NUM_NL = numIn(LATIN_NUMBER_WORDS.nl);
const NUM_PL = numIn(LATIN_NUMBER_WORDS.pl);
const NUM_TR = numIn(LATIN_NUMBER_WORDS.tr);
const NUM_HI_LATIN = numIn(LATIN_NUMBER_WORDS.hi);
const NUM_HI = numIn(NATIVE_NUMBER_WORDS.hi);
const NUM_AR = numIn(NATIVE_NUMBER_WORDS.ar);
const NUM_KO = numIn(NATIVE_NUMBER_WORDS.ko);
/** Italian "N-year-old" adjectives by stem ("tredicenne" = 13). */
const IT_ENNE: Record<string, number> = {
  cinqu: 5, sei: 6, sett: 7, nov: 9, dec: 10, undic: 11, dodic: 12, tredic: 13, quattordic: 14, quindic: 15, sedic: 16, diciassett: 17,
  diciott: 18, diciannov: 19, vent: 20,
};
/** Dutch "N-year-old" adjectives by number word ("vijftienjarige" = 15). */
const NL_JARIG: Record<string, number> = Object.fromEntries(Object.entries(LATIN_NUMBER_WORDS.nl).filter(([, v]) => v <= 20));
/** Polish "N-year-old" adjectives by stem ("czternastoletnia" = 14). */
const PL_LETNI: Record<string, number> = {
  jedno: 1, dwu: 2, trzy: 3, cztero: 4, piecio: 5, szescio: 6, siedmio: 7, osmio: 8, dziewiecio: 9, dziesiecio: 10, jedenasto: 11, dwunasto: 12,
  trzynasto: 13, czternasto: 14, pietnasto: 15, szesnasto: 16, siedemnasto: 17, osiemnasto: 18, dziewietnasto: 19, dwudziesto: 20,
};
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
  return numberWordValue(text);
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
  /(?:(?<![\p{L}\p{N}])(?:since|from|at|by|until|till|before|after|during|ever since|back in|back when|as of|as early as|the age of|age of|when|while|once|hace|desde|a los|il y a|depuis|des|vor|seit|mit|als|в|с|до|после|когда|с тех пор как|da|per|fra|tra|dopo|ja|durante|apos|sinds|sedert|na|od|przez|po|przed|منذ|قبل|بعد|لمدة)(?:\s+(?:the\s+)?(?:age\s+of\s+|aged?\s+|she|he|i|they|we|you|she's|he's|i'm|(?:she|he|i|they|we|you)\s+(?:was|were|had been|turned|first|started|left|finished|graduated|went|was\s+still|were\s+still)(?:\s+(?:in|from|to|at))?|(?:was|were)(?:\s+in)?|(?:in|from)\s+(?:the\s+)?|year|age|ans|anos|jahre?n?))*\s*[:,]?\s*)$/u;
/** Right after a marker: it is about time, not a person ("12 years ago", "for 12 years", "12 лет назад", "12歳の時"). */
const TIME_AFTER = /^(?:\s*(?:ago|later|earlier|before|prior|back|since|before that|atras|despues|antes|plus tot|plus tard|auparavant|spater|zuvor|назад|спустя|тому назад|fa|dopo|prima|atras|depois|geleden|later|temu|pozniej|once|sonra|yken|pehle|पहले|से|बाद|مضت|전|후|때|부터)(?![\p{L}])|の(?:時|とき|頃|ころ)|から|まで|で|时|時|的时候|的時候|那年|起|开始|開始|когда)/u;
/** Right after a school term: a school's staff or a memory, not a pupil. */
const STAFF_AFTER = /^\s*(?:teacher|teachers|teaching|principal|coach|team|class|classroom|cafeteria|canteen|cook|bus|building|gym|library|office|secretary|soccer|football|basketball|volleyball|band|choir|counsell?or|nurse|librarian|janitor|staff|faculty|reunion|sweetheart|days|years|memories|diploma|dropout|graduate|friend|friends|crush|bully|bullies|教師|教师|先生|老师|老師|учитель\p{L}*|profesor\p{L}*|professeur\p{L}*|lehrer\p{L}*|insegnant\p{L}*|docent\p{L}*|leraar|lerares|nauczyciel\p{L}*|ogretmen\p{L}*|선생\p{L}*|교사|शिक्षक\p{L}*)(?!\p{L})/u;
/**
 * Right before a marker: a comparison, not a statement of age ("talks like
 * a schoolgirl", "dressed as a high school girl", "plays the role of a
 * 7th grader", "reminds you of a middle schooler"): a marker behind one is
 * not evidence (issue 35) and goes to the model as a doubt.
 */
const COMPARED_BEFORE =
  /(?<![\p{L}\p{N}])(?:(?:talks?|talking|talked|speaks?|speaking|spoke|sounds?|sounding|acts?|acting|acted|behaves?|behaving|giggles?|giggling|dress(?:es|ed)?|dressing|writes?|writing)\s+(?:just\s+|exactly\s+|a\s+bit\s+|a\s+little\s+)?like|(?:dress(?:es|ed)?|dressing|disguised|cosplay(?:s|ed|ing)?|poses?|posing|posed)\s+(?:up\s+)?as|(?:plays?|playing|played)\s+(?:the\s+)?(?:role|part)\s+of|reminds?\s+(?:\p{L}+\s+)?of|parle\s+comme|habla\s+como|spricht\s+wie|parla\s+come|fala\s+como|praat\s+als|mowi\s+jak|gibi\s+konusuyor)\s+(?:a|an|the|some|her|his|your|une?|una?|eine?|een)?\s*(?:[\p{L}'-]+\s+){0,2}$/u;
/** Right after a marker: a costume or a manner ("a high school girl outfit", "schoolgirl-like"), not a person. */
const COMPARED_AFTER = /^(?:-?like|\s*(?:costume|outfit|uniform|cosplay|look|style|vibes?)s?)(?![\p{L}])/u;
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
  /**
   * Evidence that a stated adult age outweighs (a school or a grade, not an
   * age): beside "19 years old" it is a doubt for the model, not a refusal
   * ("she talks like a high school girl" on a 19-year-old's card).
   */
  weak?: boolean;
  /** Whether a comparison before or after it (COMPARED_BEFORE, COMPARED_AFTER) makes it a doubt; default true. */
  compared?: boolean;
  /** A cheap test the text must pass for the rule to run at all (its script or its age word): the long number alternations stay off other text. */
  needs?: RegExp;
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
  "scuola media", "scuole medie", "delle medie", "alle medie", "prima media", "seconda media", "terza media", "scuola elementare",
  "alle elementari", "delle elementari", "ensino fundamental", "do fundamental", "ensino medio", "do ensino medio",
  "basisschool", "basisschoolmeisje", "basisschoolleerling", "basisschoolleerlinge", "brugklas", "brugklasser", "brugklasster",
  "podstawowka", "podstawowki", "podstawowce", "szkola podstawowa", "szkoly podstawowej", "szkole podstawowej", "gimnazjum",
  "gimnazjalistka", "gimnazjalista", "ortaokul", "ortaokulda", "ortaokullu", "ortaokul ogrencisi", "ilkokul", "ilkokulda",
  "ilkokullu", "liseli",
];

/** Words and slang for minors, read in the `latin` and `leet` views. */
export const MINOR_TERMS: readonly string[] = [
  "underage", "under age", "under-aged", "underaged", "preteen", "preteens", "pre teen", "tween", "tweens", "tweenager",
  "prepubescent", "pre pubescent", "pubescent", "loli", "lolis", "lolicon", "lolita", "shota", "shotas", "shotacon",
  "jailbait", "jail bait", "young teen", "young teens", "young teenager", "barely teen", "barely a teen", "early teens",
  "early teen", "lil teen", "little teen", "teeny bopper", "teenybopper", "cunny", "toddlercon", "minors", "child bride",
  "under 18", "under eighteen", "below 18", "not yet 18", "not even 18", "not yet eighteen", "menor de edad", "menores de edad",
  "una menor", "mineure", "une mineure", "des mineurs", "minderjahrig", "minderjahrige", "minderjahriger", "minderjahriges",
  "minorenne", "minorenni", "menor de idade", "menores de idade", "uma menor", "minderjarig", "minderjarige", "minderjarigen",
  "nieletnia", "nieletni", "nieletnie", "nieletniej", "nieletnich", "resit olmayan", "resit degil", "resit degildir", "nabalig",
];

export const RULES: Rule[] = [
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
    pattern: r(String.raw`${START}(?:born|b\.|birth\s+year:?|year\s+of\s+birth:?|nacid[ao]|naci[oó]|nee?|geboren|geb\.|jahrgang|nat[ao]|nascid[ao]|urodzon[ay]|dogumlu)\s+(?:in\s+|en\s+|el\s+|im\s+|am\s+|on\s+|nel\s+|em\s+|w\s+|(?:\w+\s+){0,3}(?:in|of|de|del)\s+)?(?:(?:january|february|march|april|may|june|july|august|september|october|november|december|\d{1,2})[\s,/.-]+(?:\d{1,2}[\s,/.-]+)?)?(?<year>\d{4})(?!\d)`),
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
    pattern: r(String.raw`${START}(?:(?<!(?:il\s+y|y)\s)a|j'ai|tu\s+as|avait|aura|agee?s?\s+de|(?<!(?:plus|moins|pres|pendant|depuis|apres|avant|environ|bout|cours)\s)de|seulement|juste)\s+(?:seulement\s+|juste\s+|que\s+|a\s+peine\s+)?(?<n>${NUM_FR})\s+ans${END}`),
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
  // Italian: "ha 13 anni", "una ragazzina di quattordici anni", "tredicenne", "13enne"
  { name: "stated age (it)", view: "latin", needs: /anni|enn[ei]/, pattern: r(String.raw`(?<n>${NUM_IT})\s+anni(?!\s+(?:fa|di\s+(?!eta)))${END}`) },
  { name: "stated age (it)", view: "latin", needs: /anni|enn[ei]/, pattern: r(String.raw`(?:(?<![\p{N}])(?<n>\d{1,2})\s*-?\s*|${START}(?<stem>${alternatives(Object.keys(IT_ENNE))}))enn[ei]${END}`) },
  // Portuguese: "tem 12 anos", "uma menina de treze anos", "14 anos de idade"
  {
    name: "stated age (pt)",
    needs: /anos/,
    view: "latin",
    pattern: r(String.raw`${START}(?:tem|tinha|tenho|tens|completou|completa|fez|faz|com|(?<!(?:depois|antes|mais|menos|cerca|alem|durante|apos|perto)\s)de|apenas|so|idade:?)\s+(?:apenas\s+|so\s+)?(?<n>${NUM_PT})\s+anos(?!\s+de\s+(?!idade))${END}`),
  },
  { name: "stated age (pt)", view: "latin", needs: /anos/, pattern: r(String.raw`(?<n>${NUM_PT})\s+anos\s+de\s+idade${END}`) },
  // Dutch: "13 jaar oud", "een meisje van veertien jaar", "15-jarige", "vijftienjarige", "zit in groep 8"
  { name: "stated age (nl)", view: "latin", needs: /jaar|jarig/, pattern: r(String.raw`(?<n>${NUM_NL})[\s-]*jaar\s+oud${END}`) },
  { name: "stated age (nl)", view: "latin", needs: /jaar|jarig/, pattern: r(String.raw`${START}(?:van|ben|werd|wordt|pas|slechts|nog\s+maar)\s+(?:pas\s+|net\s+|maar\s+)?(?<n>${NUM_NL})\s+jaar${END}`) },
  { name: "stated age (nl)", view: "latin", needs: /jaar|jarig/, pattern: r(String.raw`(?:(?<![\p{N}])(?<n>\d{1,2})[\s-]*|${START}(?<stem>${alternatives(Object.keys(NL_JARIG))}))jarige?n?${END}`) },
  { name: "school grade (nl)", view: "latin", needs: /groep/, staff: true, range: [3, 8], pattern: r(String.raw`${START}(?:zit\s+in|in|uit|van)\s+groep\s+(?<n>\d)${END}`) },
  // Polish: "ma 13 lat", "lat 14", "czternastoletnia", "13-letnia", "w 7 klasie"
  { name: "stated age (pl)", view: "latin", needs: /lat|letni/, pattern: r(String.raw`(?<n>${NUM_PL})\s+(?:lat|lata|latek)${END}`) },
  { name: "stated age (pl)", view: "latin", needs: /lat|letni/, pattern: r(String.raw`${START}lat\s+(?<n>\d{1,2})${END}`) },
  { name: "stated age (pl)", view: "latin", needs: /lat|letni/, pattern: r(String.raw`(?:(?<![\p{N}])(?<n>\d{1,2})[\s-]*|${START}(?<stem>${alternatives(Object.keys(PL_LETNI))}))(?:letni(?:a|e|ej|ego|ch|m)?|latk(?:a|iem|i|owi))${END}`) },
  { name: "school grade (pl)", view: "latin", needs: /klasie/, staff: true, range: [1, 8], pattern: r(String.raw`${START}w\s+(?<n>\d)\s*\.?\s*klasie${END}`) },
  // Turkish: "13 yaşında", "on dört yaşında", "15 yaşındaki"
  { name: "stated age (tr)", view: "latin", needs: /yas/, pattern: r(String.raw`(?<n>${NUM_TR})\s*yas(?:inda|indaki|indayim|indasin|indadir|indaydi|i|li|ta)?${END}`) },
  // Hindi, romanised: "13 saal ki hai"
  { name: "stated age (hi)", view: "latin", needs: /saal|sal|varsh|baras/, pattern: r(String.raw`(?<n>${NUM_HI_LATIN})\s+(?:saal|sal|varsh|baras)\s+(?:ki|ka|ke)${END}`) },
  // Hindi: "१३ साल की", "चौदह साल की", "आठवीं कक्षा"
  { name: "stated age (hi)", view: "native", needs: /[\u0900-\u097F]/, pattern: r(String.raw`(?<n>${NUM_HI})\s*(?:साल|वर्ष|बरस)(?![\p{L}\p{M}])`) },
  { name: "school grade (hi)", view: "native", needs: /[\u0900-\u097F]/, staff: true, pattern: r(String.raw`(?<![\p{L}\p{M}])(?:पहली|दूसरी|तीसरी|चौथी|पाँचवीं|पांचवीं|छठी|सातवीं|आठवीं|नौवीं|नवीं|दसवीं|ग्यारहवीं|बारहवीं)\s*(?:कक्षा|क्लास)`) },
  { name: "school grade (hi)", view: "native", needs: /[\u0900-\u097F]/, staff: true, range: [1, 12], pattern: r(String.raw`(?<![\p{L}\p{M}])(?:कक्षा|क्लास)\s*(?<n>\d{1,2})(?!\p{N})`) },
  { name: "minor term (hi)", view: "native", needs: /[\u0900-\u097F]/, pattern: r(String.raw`नाबालिग`) },
  // Arabic: "عمرها 13 سنة", "ثلاث عشرة سنة", "في الرابعة عشرة من عمرها", "قاصر"
  { name: "stated age (ar)", view: "native", needs: /[\u0600-\u06FF]/, pattern: r(String.raw`(?<n>${NUM_AR})\s*(?:سنة|سنوات|سنين|عاما|عام|سنه)(?!\p{L})`) },
  { name: "stated age (ar)", view: "native", needs: /[\u0600-\u06FF]/, pattern: r(String.raw`(?<!\p{L})في\s+(?<n>${NUM_AR})\s+من\s+(?:عمرها|عمره|العمر)`) },
  { name: "stated age (ar)", view: "native", needs: /[\u0600-\u06FF]/, pattern: r(String.raw`(?:عمرها|عمره|بعمر|بسن)\s*(?<n>\d{1,3})(?!\p{N})`) },
  { name: "minor term (ar)", view: "native", needs: /[\u0600-\u06FF]/, pattern: r(String.raw`(?<!\p{L})(?:ال)?قاصر(?:ة|ات|ين)?(?!\p{L})|دون\s+سن\s+الثامنة\s+عشرة?`) },
  { name: "school (ar)", view: "native", needs: /[\u0600-\u06FF]/, staff: true, pattern: r(String.raw`(?:المدرسة|المرحلة|الصف|طالبة|طالب|تلميذة|تلميذ)\s+(?:\p{L}+\s+)?(?:الاعدادية|الابتدائية|المتوسطة|الاعدادي|الابتدائي|المتوسط|اعدادي|ابتدائي|متوسط)`) },
  // Korean: "13살", "열네 살", "15세", 미성년자, 중학생
  { name: "stated age (ko)", view: "native", needs: /[\uAC00-\uD7AF]/, pattern: r(String.raw`(?<n>${NUM_KO})\s*(?:살|세(?![계기상대금월련척탁]))`) },
  { name: "minor term (ko)", view: "native", needs: /[\uAC00-\uD7AF]/, pattern: r(String.raw`미성년`) },
  { name: "school (ko)", view: "native", needs: /[\uAC00-\uD7AF]/, staff: true, pattern: r(String.raw`중학생|초등학생|여중생|남중생|중딩|초딩|여고생|남고생|고등학생|고딩|여학생\s*\(?\s*중|중학교|초등학교`) },
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

/** How a match of a rule counts: not at all, as evidence, or as a doubt (a comparison, or a school beside an adult age). */
type Counted = "no" | "evidence" | "compared";

function counts(rule: Rule, text: string, m: RegExpMatchArray, year: number): Counted {
  const groups = m.groups ?? {};
  const birth = groups.year ?? groups.year2;
  if (birth !== undefined) {
    const age = year - Number(birth);
    if (!(age >= 0 && age < 18)) return "no";
  }
  const stem = groups.stem !== undefined ? (IT_ENNE[groups.stem] ?? NL_JARIG[groups.stem] ?? PL_LETNI[groups.stem]) : undefined;
  const raw = groups.n ?? groups.w ?? (groups.ru !== undefined ? String(RU_LETNIY[groups.ru]) : stem !== undefined ? String(stem) : undefined);
  if (raw !== undefined) {
    const n = numberValue(raw);
    const [min, max] = rule.range ?? [1, 17];
    if (!(n >= min && n <= max)) return "no";
  }
  const index = m.index ?? 0;
  const before = text.slice(Math.max(0, index - 60), index);
  const after = text.slice(index + m[0].length, index + m[0].length + 40);
  if (NEGATED.test(before)) return "no";
  if (rule.backstory !== false && (BACKSTORY.test(before) || TIME_AFTER.test(after))) return "no";
  if (rule.staff && (STAFF_AFTER.test(after) || STAFF_BEFORE.test(before))) return "no";
  const [start, end] = sentenceBounds(text, index);
  if (RELATIVE_BEFORE.test(text.slice(start, index))) {
    const sentence = text.slice(start, Math.max(end, index + m[0].length));
    if (!SEXUAL.test(sentence) && !NATIVE_SEXUAL.test(sentence)) return "no";
  }
  const comparable = rule.compared ?? !/^(?:looks young|birth year)/.test(rule.name);
  if (comparable && (COMPARED_BEFORE.test(before) || COMPARED_AFTER.test(after))) return "compared";
  return "evidence";
}

/**
 * A stated adult age (18–150) anywhere in the text: "19 years old", "a
 * 19-year-old", "Age("19")", "aged 19", "is 19", "Luna (21)", "25 anni",
 * "25 лет", "25歳", "25살", "२४ साल" (digits: number words are digits by
 * now, normalise.ts). Beside one, a school or a grade is a doubt, not
 * evidence (issue 35).
 */
const ADULT_AGE_LATIN = r(
  String.raw`(?<![\p{N}.,])(?<n>\d{2,3})(?:[\s-]*(?:years?|yrs?|yr)[\s-]*(?:old|of\s+age)|\s*(?:yo|y\/o)|\s+(?:anni|anos|ans|jaar|lat|lata|jahre?|saal|yas\p{L}*))(?![\p{L}])|${START}(?:age[ds]?|edad|eta|idade|alter|leeftijd|wiek)\s*[:=\-–]?\s*[("'“]*\s*(?<n2>\d{2,3})(?![\p{N}])|${START}(?:is|she's|he's|i'm|am|now|turned)\s+(?<n3>\d{2})(?![\p{N}]|\s*(?:%|minutes?|hours?|days?|percent|times|feet|inches|cm|kg|lbs?|pounds?|dollars?)${END})|(?<=\p{L}\s{0,3})[,(]\s*(?<n4>\d{2})\s*[,)]`,
);
const ADULT_AGE_NATIVE = r(String.raw`(?<![\p{N}.,])(?<n>\d{2,3})\s*(?:歳|才|岁|歲|лет|года|год|살|세|साल|वर्ष|سنة|عاما|عام|سنوات)`);

function statesAdultAge(views: TextViews): boolean {
  const adult = (m: RegExpMatchArray) => {
    const n = Number(m.groups?.n ?? m.groups?.n2 ?? m.groups?.n3 ?? m.groups?.n4);
    return n >= 18 && n <= 150;
  };
  for (const m of views.latin.matchAll(ADULT_AGE_LATIN)) if (adult(m)) return true;
  for (const m of views.native.matchAll(ADULT_AGE_NATIVE)) if (adult(m)) return true;
  return false;
}

/** What the rules found about age in one text: evidence of a minor (refused with sexual content), or only a doubt for the model. */
export interface AgeEvidence {
  /** The first marker that is evidence: a stated or implied age under 18, a grade or school placing someone there, slang for a minor. */
  marker: AgeMarker | null;
  /** The first marker that is not evidence: behind a comparison, or a school or grade beside a stated adult age. */
  doubt: AgeMarker | null;
}

/**
 * The age evidence of `text` (rules in this module's docstring). `year` is
 * the current year (birth years are read against it).
 */
export function ageEvidence(text: string, year: number, views: TextViews = textViews(text)): AgeEvidence {
  // Most text has no leetspeak: each distinct view is read once.
  const latinViews = [...new Set([views.latin, views.leet, views.leetL])];
  let doubt: AgeMarker | null = null;
  let adult: boolean | undefined;
  for (const rule of RULES) {
    const texts = rule.view === "native" ? [views.native] : latinViews;
    for (const t of texts) {
      if (rule.needs && !rule.needs.test(t)) continue;
      for (const m of t.matchAll(rule.pattern)) {
        const counted = counts(rule, t, m, year);
        if (counted === "no") continue;
        const found = { rule: rule.name, match: m[0].trim() };
        const weak = rule.weak ?? rule.name.startsWith("school");
        if (counted === "evidence" && weak) adult ??= statesAdultAge(views);
        if (counted === "evidence" && !(weak && adult)) return { marker: found, doubt };
        doubt ??= found;
      }
    }
  }
  return { marker: null, doubt };
}

/**
 * The first age marker of `text` that is evidence (ageEvidence), or null.
 * `year` is the current year (birth years are read against it).
 */
export function minorMarker(text: string, year: number, views: TextViews = textViews(text)): AgeMarker | null {
  return ageEvidence(text, year, views).marker;
}

/** What the pre-screen found: a marker, and whether the text is sexual (or the input NSFW). */
export interface PreScreenResult {
  /** Refuse as S4: a marker that is evidence, with sexual content or the NSFW flag (in the text, or the text with its conversation). */
  refused: boolean;
  marker: AgeMarker | null;
  /** Not refused, but a sign of a minor that is not evidence, with sexual content: the model judges, and its S4 goes to review (PreScreenedModerator). */
  doubt: AgeMarker | null;
  sexual: boolean;
}

/** Of each text of a conversation the pre-screen reads at most its last this many characters (a chat message is at most 5,000). */
export const MAX_CONTEXT_CHARS = 4_000;

/**
 * The pre-screen of `text` (module docstring): refused when an age marker
 * that is evidence occurs and `nsfw` is true or a sexual term occurs.
 *
 * `context` holds the texts a chat message is judged with, oldest first
 * (the conversation's recent messages, its memory note and pinned
 * memories; the room fills it): the message is refused when it is sexual
 * (or the chat NSFW) and the evidence is in an earlier text ("I'm 13" …
 * "can we have sex now?"), or it holds the evidence and an earlier text the
 * sexual request. Each context text is read to its last MAX_CONTEXT_CHARS.
 * Deterministic, no network; `now` (ms since the epoch, default Date.now())
 * dates birth years.
 */
export function preScreen(text: string, nsfw: boolean, now: number = Date.now(), context: readonly string[] = []): PreScreenResult {
  const year = new Date(now).getUTCFullYear();
  const views = textViews(text);
  const sexual = hasSexualTerm(views);
  const recent = context.map((entry) => entry.slice(-MAX_CONTEXT_CHARS)).filter((entry) => entry.trim() !== "");
  const own = nsfw || sexual ? ageEvidence(text, year, views) : { marker: null, doubt: null };
  if (own.marker) return { refused: true, marker: own.marker, doubt: null, sexual };
  if (recent.length > 0 && (nsfw || sexual || minorMarker(text, year, views) !== null)) {
    // One text, each part on its own line: a sentence never spans two messages.
    const whole = [...recent, text].join("\n");
    const wholeViews = textViews(whole);
    if (nsfw || sexual || hasSexualTerm(wholeViews)) {
      const joined = ageEvidence(whole, year, wholeViews);
      if (joined.marker) return { refused: true, marker: joined.marker, doubt: null, sexual };
      return { refused: false, marker: null, doubt: own.doubt ?? joined.doubt, sexual };
    }
  }
  return { refused: false, marker: null, doubt: own.doubt, sexual };
}

/**
 * A moderator behind the pre-screen: input the pre-screen refuses is S4
 * (`provider` names the wrapped moderator, whose verdict it stands for)
 * without asking the provider; everything else is the provider's verdict,
 * except that an S4 from the provider on text where the pre-screen saw only
 * a doubt (a comparison, a school beside an adult age) is not a refusal but
 * `review: true` with S4 left out: the rules were unsure and the model
 * still doubts, so a person decides (docs/decisions/0028). choose.ts
 * `moderatorFor` wraps every provider in one.
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
    const result = preScreen(input.text, input.nsfw, this.#now(), input.conversation);
    if (result.refused) {
      const categories: HazardCategory[] = ["S4"];
      return verdictOf(this.inner.name, true, categories, input.nsfw);
    }
    const verdict = await this.inner.screen(input, options);
    if (result.doubt === null || !verdict.categories.includes("S4")) return verdict;
    return { safe: false, categories: verdict.categories.filter((code) => code !== "S4"), provider: verdict.provider, review: true };
  }
}
