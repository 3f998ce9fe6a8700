/**
 * The `offline` moderator: the offline screen — a stand-in, not real
 * moderation. A few word lists and patterns (`offlineScreen`, rules below)
 * so that local runs and tests exercise the refused and flagged paths with
 * no network. It must never be presented to anyone as moderation. Never
 * throws ModerationError.
 *
 * ## The offline screen's rules
 *
 * Text is lower-cased and NFKC-normalised; every term matches as a whole word
 * (no letter or digit on either side, so "kidding", "sextant", "asexual" and
 * "childhood" do not match) with `-` or spaces between the words of a phrase.
 * It reads `text` only (never `context`).
 *
 * 1. **S4 (Child Sexual Exploitation)** when
 *    a. a *strong minor signal* occurs and the input is NSFW (`nsfw: true`) or
 *       has a *sexual term*; or
 *    b. a *weak minor signal* and a *sexual term* occur in the same
 *       sentence (split after . ! ? and at line breaks).
 *    (Weak signals need sexual words next to them: an NSFW card that
 *    says "she has two children" is not refused for the flag alone, nor a
 *    long card that mentions a child in one place and sex in another.)
 *    - Strong minor signals: a stated age from 1 to 17 (digits or the words
 *      "one" … "seventeen") written as "N years old", "N-year-old",
 *      "N yrs old", "Nyo", "N y/o", "N years of age", "age N", "aged N",
 *      "age: N", `Age("N")` — but not "at age N", "since age N" (nor
 *      from, by, until, till, before, after: a backstory) — and
 *      the terms `MINOR_TERMS_STRONG` ("underage", "preteen", "loli",
 *      "shota", "minors", "a minor" at the end of a clause …).
 *    - Weak minor signals: `MINOR_TERMS_WEAK` ("child", "kid", "toddler",
 *      "little girl", "schoolgirl" …).
 *    - Sexual terms: `SEXUAL_TERMS` ("sex", "naked", "erotic", "horny" …).
 *    - A signal right after a negation ("not", "no", "never", "…n't") does
 *      not count: "not a minor", "no minors", "isn't underage". Ages of 18
 *      and over never count ("18 years old" is safe). A weak signal right
 *      after a possessive ("his", "her", "their", "my", "your", "our",
 *      "its") does not count: "having his child" is about pregnancy.
 * 2. **S12 (Sexual Content)** when a sexual term occurs and `nsfw` is false
 *    (flagged, like a real model would on a SFW character).
 * 3. **Test marker**: `[[moderation:S<n>]]` anywhere in the text (n from 1 to
 *    14, any case) yields category S<n>, e.g. `[[moderation:S10]]` → S10
 *    (Hate). It lets tests and local runs reach the flagged path for any
 *    category without writing harmful text; it means nothing to the real
 *    providers.
 *
 * Known limits (it is a stand-in): no misspellings ("s3x"), no other
 * languages, no meaning — "a 1000-year-old vampire who looks 16" passes,
 * "she has two kids" next to a sexual word in an adult's backstory is refused.
 * The pre-screen in front of every provider (pre-screen.ts, decision 0016)
 * normalises first and catches many of the disguises it misses.
 */
import {
  type HazardCategory,
  inOrder,
  isHazardCategory,
  type ModerationInput,
  type ModerationOptions,
  type ModerationVerdict,
  type Moderator,
  verdictOf,
} from "./moderator.ts";

/** Sexual terms of the offline screen (rules 1 and 2); phrases match with spaces or hyphens. */
export const SEXUAL_TERMS: readonly string[] = [
  "sex", "sexual", "sexually", "sexy", "nude", "nudes", "naked", "porn", "porno", "pornographic", "pornography",
  "erotic", "erotica", "orgasm", "orgasms", "aroused", "arousal", "horny", "intercourse", "masturbate",
  "masturbates", "masturbating", "masturbation", "genitals", "penis", "vagina", "nipples", "lewd", "fuck",
  "fucks", "fucked", "fucking", "foreplay", "seduce", "seduces", "seduced", "seducing", "seduction", "seductive",
  "make love", "makes love", "making love", "made love", "kinky", "fetish",
];

/** Strong minor signals of the offline screen besides stated ages (rule 1a: with the NSFW flag or a sexual term). */
export const MINOR_TERMS_STRONG: readonly string[] = [
  "underage", "under age", "preteen", "preteens", "pre teen", "pre teens", "prepubescent", "pre pubescent",
  "loli", "lolis", "lolicon", "shota", "shotas", "shotacon", "minors",
];

/** Weak minor signals of the offline screen (rule 1b: only with a sexual term in the text). */
export const MINOR_TERMS_WEAK: readonly string[] = [
  "child", "children", "kid", "kids", "toddler", "toddlers", "little girl", "little girls", "little boy",
  "little boys", "schoolgirl", "schoolgirls", "schoolboy", "schoolboys", "schoolchild", "schoolchildren",
  "middle schooler", "middle schoolers", "grade schooler", "grade schoolers",
];

const NUMBER_WORDS = [
  "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
  "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
];

/** Not preceded by a letter or digit / not followed by one: a whole word in any script. */
const START = String.raw`(?<![\p{L}\p{N}])`;
const END = String.raw`(?![\p{L}\p{N}])`;
/** Not right after "not", "no", "never" or "…n't" (and a space). */
const NOT_NEGATED = String.raw`(?<!(?:${START}(?:not|no|never)|n't)\s+)`;
/**
 * An age under 18: 1–17 in digits (not inside a longer number: "21", "1.5")
 * or in words (not the end of a compound: "twenty-one", "thirty one").
 */
const MINOR_AGE = String.raw`(?:(?<![\p{N}.,])(?:1[0-7]|0?[1-9])(?![\p{N}])|${START}(?<!ty[\s-])(?:${NUMBER_WORDS.join("|")})${END})`;

const escape = (term: string) => term.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/ /g, "[\\s-]+");
const termsPattern = (terms: readonly string[], negatable: boolean) =>
  new RegExp(`${START}${negatable ? NOT_NEGATED : ""}(?:${terms.map(escape).join("|")})${END}`, "u");

const SEXUAL = termsPattern(SEXUAL_TERMS, false);
const STRONG = termsPattern(MINOR_TERMS_STRONG, true);
/** Not right after a possessive ("his child", "her kids": a parent's, not a minor in the scene). */
const NOT_POSSESSED = String.raw`(?<!${START}(?:his|her|their|my|your|our|its)\s+)`;
const WEAK = new RegExp(`${START}${NOT_NEGATED}${NOT_POSSESSED}(?:${MINOR_TERMS_WEAK.map(escape).join("|")})${END}`, "u");
/** Sentences for rule 1b: split after . ! ? and at line breaks. */
const SENTENCE_BREAK = /(?<=[.!?])\s+|\n+/u;
/** "a minor" as a noun: at the end of a clause (not "a minor character"). */
const A_MINOR = new RegExp(String.raw`${START}${NOT_NEGATED}a\s+minor(?=\s*(?:$|[^\s\p{L}\p{N}]))`, "u");
const STATED_AGES = [
  // "15 years old", "15-year-old", "fifteen year old", "12 yrs old"
  String.raw`${NOT_NEGATED}${MINOR_AGE}[\s-]*(?:years?|yrs?)[\s-]*old${END}`,
  // "16yo", "16 y/o", "16 y.o."
  String.raw`${NOT_NEGATED}${MINOR_AGE}\s*(?:yo|y\/o|y\.o\.?)${END}`,
  // "14 years of age"
  String.raw`${NOT_NEGATED}${MINOR_AGE}\s+years?\s+of\s+age${END}`,
  // "age 12", "aged 16", "age: 15", Age("15") — not "at age 12", "since age 12" (a backstory)
  String.raw`(?<!${START}(?:at|since|from|by|until|till|before|after)\s+)${START}${NOT_NEGATED}age[ds]?${END}\s*[:=]?\s*[("'“]*\s*${MINOR_AGE}`,
].map((source) => new RegExp(source, "u"));
const MARKER = /\[\[moderation:s(\d{1,2})\]\]/giu;

/**
 * The categories the offline screen finds in `text` (rules in this module's
 * docstring), deterministic, in S1 … S14 order. `nsfw` is the character's
 * NSFW flag: it counts as sexual context for strong minor signals, and
 * sexual terms are S12 only without it. A stand-in, not real moderation.
 */
export function offlineScreen(text: string, nsfw: boolean): HazardCategory[] {
  const normal = text.normalize("NFKC").toLowerCase().replace(/[’‘]/g, "'");
  const found = new Set<HazardCategory>();
  const sexual = SEXUAL.test(normal);
  const strong = STRONG.test(normal) || A_MINOR.test(normal) || STATED_AGES.some((age) => age.test(normal));
  const weakInSexualSentence = sexual && normal.split(SENTENCE_BREAK).some((sentence) => SEXUAL.test(sentence) && WEAK.test(sentence));
  if ((strong && (nsfw || sexual)) || weakInSexualSentence) found.add("S4");
  if (sexual && !nsfw) found.add("S12");
  for (const [, n] of normal.matchAll(MARKER)) {
    const code = `S${Number(n)}`;
    if (isHazardCategory(code)) found.add(code);
  }
  return inOrder(found);
}

/**
 * The offline screen — a stand-in, not real moderation: `offlineScreen` on
 * `input.text`, no network, no model. For local runs and tests only; its
 * verdicts say `provider: "offline"` and must not be shown as moderation.
 */
export class OfflineModerator implements Moderator {
  readonly name = "offline" as const;

  /** Never throws ModerationError; rejects only when `options.signal` has already aborted. */
  async screen(input: ModerationInput, { signal }: ModerationOptions = {}): Promise<ModerationVerdict> {
    signal?.throwIfAborted();
    const categories = offlineScreen(input.text, input.nsfw);
    return verdictOf(this.name, categories.length > 0, categories, input.nsfw);
  }
}
