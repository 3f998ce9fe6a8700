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
import { IT_ENNE, NL_JARIG, numberValue, PL_LETNI, RU_LETNIY } from "./pre-screen-numbers.ts";
import { type Rule, RULES, statesAdultAge } from "./pre-screen-rules.ts";
import { hasSexualTerm, NATIVE_SEXUAL, SEXUAL } from "./pre-screen-sexual.ts";

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

