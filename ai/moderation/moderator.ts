/**
 * Moderation (DESIGN.md "Beyond the spec", "Moderation"): one `Moderator`
 * interface, three providers, chosen by `MODERATION_PROVIDER` like the chat
 * model by `AI_PROVIDER` (durable-objects/chat-models.ts).
 *
 * - `workers-ai`: Llama Guard 3 (`@cf/meta/llama-guard-3-8b`) through the
 *   `AI` binding; production. Its answer is parsed by `parseLlamaGuard`.
 * - `openai`: any OpenAI-compatible moderations endpoint,
 *   `POST {MODERATION_BASE_URL or OPENAI_BASE_URL}/moderations`; OpenAI's
 *   categories are mapped to Llama Guard's (`OPENAI_CATEGORY_HAZARDS`).
 * - `offline`: the offline screen — a stand-in, not real moderation. A few
 *   word lists and patterns (`offlineScreen`, rules below) so that local runs
 *   and tests exercise the refused and flagged paths with no network. It
 *   must never be presented to anyone as moderation.
 *
 * Every provider answers in one vocabulary: the 14 hazard categories of
 * Llama Guard 3 (`HAZARD_CATEGORIES`, S1–S14). What a caller does with a
 * verdict is DESIGN.md's policy: S4 (`isChildSafetyViolation`) is always
 * refused; any other category flags the content for review. Sexual content
 * (S12) is what an NSFW character is for on this adults' platform: with
 * `nsfw: true` it is dropped from the verdict; S4 never is.
 *
 * A provider that fails — network, HTTP error, output that is not a verdict —
 * throws `ModerationError`; callers choose fail-open or fail-closed. Output
 * that cannot be read is an error, never "safe".
 *
 * This module is a leaf (.dependency-cruiser.cjs `moderation-imports-only-schema`):
 * the Worker's routes and the Durable Object both import it.
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
 *      "age: N", `Age("N")` — but not "at age N" (a backstory) — and
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
 */
import { z } from "zod";

/**
 * The hazard categories of Llama Guard 3, code → name, as listed in its model
 * card ("Hazard Taxonomy and Policy",
 * https://huggingface.co/meta-llama/Llama-Guard-3-8B), which follows the
 * MLCommons AI Safety hazard taxonomy
 * (https://mlcommons.org/2024/04/mlc-aisafety-v0-5-poc/) plus S14 for tool
 * use. Every provider's verdict uses these codes.
 */
export const HAZARD_CATEGORIES = {
  S1: "Violent Crimes",
  S2: "Non-Violent Crimes",
  S3: "Sex-Related Crimes",
  S4: "Child Sexual Exploitation",
  S5: "Defamation",
  S6: "Specialized Advice",
  S7: "Privacy",
  S8: "Intellectual Property",
  S9: "Indiscriminate Weapons",
  S10: "Hate",
  S11: "Suicide & Self-Harm",
  S12: "Sexual Content",
  S13: "Elections",
  S14: "Code Interpreter Abuse",
} as const;

/** A Llama Guard 3 hazard category code, "S1" … "S14" (HAZARD_CATEGORIES). */
export type HazardCategory = keyof typeof HAZARD_CATEGORIES;

/** Whether `code` is one of "S1" … "S14" exactly (upper-case S, no padding). */
export function isHazardCategory(code: string): code is HazardCategory {
  return Object.hasOwn(HAZARD_CATEGORIES, code);
}

/** The moderation providers; `offline` is a stand-in, never real moderation. */
export const MODERATORS = ["workers-ai", "openai", "offline"] as const;
export type ModeratorName = (typeof MODERATORS)[number];

/** What is screened. */
export interface ModerationInput {
  /**
   * The text to judge: a character's fields joined (name, description,
   * personality, scenario, greeting, example dialogue …), a person's chat
   * message, or a whole generated reply. Not truncated: the caller bounds it.
   */
  text: string;
  /**
   * Who wrote `text`: "user" for a person (a chat message, and a character
   * card, which its creator wrote), "assistant" for a reply the chat model
   * generated. Llama Guard judges the last turn of a conversation, so this
   * decides which turn `text` is.
   */
  role: "user" | "assistant";
  /**
   * For `role: "assistant"`: the person's message the reply answers (the
   * conversation's last user message), sent to Llama Guard as the user turn
   * before the reply so that it judges the reply in context. Ignored for
   * `role: "user"`, by the OpenAI provider (its endpoint judges single texts)
   * and by the offline screen.
   */
  context?: string;
  /**
   * Whether the character is marked NSFW. Sexual content between adults
   * (S12) is allowed on an NSFW character and dropped from the verdict; the
   * offline screen also reads the flag as a sign of sexual content (rule 1a).
   */
  nsfw: boolean;
}

export interface ModerationOptions {
  /** Aborts the provider's request; the promise then rejects with the abort error, not ModerationError. */
  signal?: AbortSignal;
}

/** A provider's plain answer. */
export interface ModerationVerdict {
  /**
   * No category applies: nothing to refuse or flag. `false` with an empty
   * `categories` means the provider said "unsafe" without naming a category
   * (flag it for review).
   */
  safe: boolean;
  /** The hazard categories found, each once, in order S1 … S14; S12 is left out when the input was NSFW. */
  categories: HazardCategory[];
  /** Which provider judged: an `offline` verdict is a stand-in's and must not be presented as moderation. */
  provider: ModeratorName;
}

/**
 * Screens text for the hazards of HAZARD_CATEGORIES. `screen` resolves to a
 * verdict or rejects with ModerationError (the provider failed or answered
 * something that is not a verdict) or, after `options.signal` aborts, with
 * the abort error.
 */
export interface Moderator {
  readonly name: ModeratorName;
  screen(input: ModerationInput, options?: ModerationOptions): Promise<ModerationVerdict>;
}

/**
 * A moderation provider failed: the request did not go through, the HTTP
 * status was not 2xx, or the answer was not a verdict. The message is for
 * logs, not people. Never means "safe"; the caller decides whether to let the
 * content through (fail-open) or refuse it (fail-closed).
 */
export class ModerationError extends Error {
  override readonly name = "ModerationError";
  /** The provider that failed; absent when `MODERATION_PROVIDER` names none (moderatorName). */
  readonly provider?: ModeratorName;
  /** HTTP status of the provider's answer, when there was one. */
  readonly status?: number;

  constructor(message: string, details: { provider?: ModeratorName; status?: number } = {}) {
    super(message);
    this.provider = details.provider;
    this.status = details.status;
  }
}

/** Whether the verdict names S4 (Child Sexual Exploitation): always refused (DESIGN.md "Moderation"). */
export function isChildSafetyViolation(verdict: ModerationVerdict): boolean {
  return verdict.categories.includes("S4");
}

/** Categories each once, in S1 … S14 order. */
const inOrder = (categories: Iterable<HazardCategory>): HazardCategory[] =>
  [...new Set(categories)].sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));

/**
 * The verdict of a provider's answer: `unsafe` with `categories`, S12 dropped
 * when `nsfw` (so "unsafe, S12" alone on an NSFW character is safe).
 */
function verdictOf(provider: ModeratorName, unsafe: boolean, categories: HazardCategory[], nsfw: boolean): ModerationVerdict {
  const kept = inOrder(categories.filter((code) => !(nsfw && code === "S12")));
  const onlyAllowed = categories.length > 0 && kept.length === 0;
  return { safe: !unsafe || onlyAllowed, categories: kept, provider };
}

// ---------------------------------------------------------------------------
// Workers AI: Llama Guard 3

/** The Workers AI model the `workers-ai` provider runs unless `MODERATION_MODEL` names another. */
export const LLAMA_GUARD_MODEL = "@cf/meta/llama-guard-3-8b";

/**
 * The part of the Workers AI binding the provider uses: `run(model, inputs,
 * options)`, which for Llama Guard resolves to `{ response }` (see
 * `parseLlamaGuard`). Tests pass a stub of it.
 */
export interface AiRunner {
  run(model: string, inputs: Record<string, unknown>, options?: Record<string, unknown>): Promise<unknown>;
}

/** Llama Guard's reading of a conversation, before the NSFW allowance. */
export interface LlamaGuardResult {
  safe: boolean;
  categories: HazardCategory[];
}

const llamaGuardObject = z.object({
  safe: z.boolean(),
  categories: z.array(z.string()).optional(),
});

/** One category as Llama Guard writes it: "S4", "s4", "S4: Child Sexual Exploitation", or the name alone. */
function llamaGuardCategory(raw: string): HazardCategory | null {
  const text = raw.trim();
  const code = /^s(\d{1,2})\b/i.exec(text);
  if (code) {
    const candidate = `S${Number(code[1])}`;
    return isHazardCategory(candidate) ? candidate : null;
  }
  const byName = Object.entries(HAZARD_CATEGORIES).find(([, name]) => name.toLowerCase() === text.toLowerCase());
  return byName ? (byName[0] as HazardCategory) : null;
}

/**
 * Reads what Workers AI returns for Llama Guard 3, in either documented form
 * (workers-types `Ai_Cf_Meta_Llama_Guard_3_8B_Output`):
 * - text, as the model writes it (model card, "Llama Guard 3 output"):
 *   `{ response: "safe" }`, or `{ response: "unsafe\nS1,S10" }` — "unsafe",
 *   then the codes, separated by commas, spaces or line breaks (any case;
 *   surrounding blank lines ignored); a response that is itself a JSON
 *   object is read as the object form;
 * - object: `{ response: { safe: boolean, categories?: string[] } }` with
 *   codes ("S4") or category names.
 *
 * "unsafe" without codes is `{ safe: false, categories: [] }`.
 *
 * @throws ModerationError (provider `workers-ai`) for anything else: no
 *   `response`, another word than safe/unsafe, an unknown code such as "S15".
 *   Malformed output is an error, never "safe".
 */
export function parseLlamaGuard(output: unknown): LlamaGuardResult {
  const malformed = (why: string): never => {
    throw new ModerationError(`Llama Guard output ${why}: ${JSON.stringify(output)?.slice(0, 300)}`, { provider: "workers-ai" });
  };
  const response = (output as { response?: unknown } | null)?.response;
  let object: unknown = response;
  if (typeof response === "string") {
    const text = response.trim();
    if (text.startsWith("{")) {
      try {
        object = JSON.parse(text);
      } catch {
        return malformed("is broken JSON");
      }
    } else {
      const [word = "", ...codes] = text.split(/[\s,]+/).filter(Boolean);
      if (word.toLowerCase() === "safe" && codes.length === 0) return { safe: true, categories: [] };
      if (word.toLowerCase() !== "unsafe") return malformed("is neither safe nor unsafe");
      const categories = codes.map((code) => llamaGuardCategory(code) ?? malformed(`names an unknown category ${code}`));
      return { safe: false, categories: inOrder(categories) };
    }
  }
  const parsed = llamaGuardObject.safeParse(object);
  if (!parsed.success) return malformed("has no safe/unsafe response");
  if (parsed.data.safe) return { safe: true, categories: [] };
  const categories = (parsed.data.categories ?? []).map(
    (code) => llamaGuardCategory(code) ?? malformed(`names an unknown category ${code}`),
  );
  return { safe: false, categories: inOrder(categories) };
}

/**
 * Llama Guard 3 on Workers AI. A person's text is sent as the only user turn
 * (prompt classification); a reply as the assistant turn after the person's
 * message (response classification), since Llama Guard judges the last turn
 * and its template wants turns alternating from a user turn
 * (workers-types `Ai_Cf_Meta_Llama_Guard_3_8B_Input`); a reply without
 * `context` (a greeting) follows a placeholder user turn.
 */
export class WorkersAIModerator implements Moderator {
  readonly name = "workers-ai" as const;
  private readonly ai: AiRunner;
  private readonly model: string;

  constructor(ai: AiRunner, model: string = LLAMA_GUARD_MODEL) {
    this.ai = ai;
    this.model = model;
  }

  /** @throws ModerationError when the binding throws or its output is not a verdict (parseLlamaGuard). */
  async screen(input: ModerationInput, { signal }: ModerationOptions = {}): Promise<ModerationVerdict> {
    const messages =
      input.role === "user"
        ? [{ role: "user", content: input.text }]
        : [
            { role: "user", content: input.context?.trim() || "(The conversation begins.)" },
            { role: "assistant", content: input.text },
          ];
    let output: unknown;
    try {
      // A verdict is at most "unsafe" and 14 codes: 64 tokens is plenty; 0 temperature for the same answer twice.
      output = await this.ai.run(this.model, { messages, max_tokens: 64, temperature: 0 }, signal ? { signal } : {});
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new ModerationError(`Workers AI ${this.model}: ${String(error).slice(0, 300)}`, { provider: this.name });
    }
    const result = parseLlamaGuard(output);
    return verdictOf(this.name, !result.safe, result.categories, input.nsfw);
  }
}

// ---------------------------------------------------------------------------
// OpenAI-compatible /moderations

/**
 * OpenAI moderation categories (`results[].categories` of
 * https://platform.openai.com/docs/api-reference/moderations/object, models
 * `omni-moderation-*` and `text-moderation-*`) → the nearest Llama Guard 3
 * category. Judgement calls: harassment has no category of its own in the
 * MLCommons taxonomy, so it counts as Hate (S10), its threatening form too;
 * "illicit/violent" (wrongdoing with violence or weapons) as Violent Crimes
 * (S1); OpenAI's "violence" covers depictions as well, which Llama Guard's S1
 * does not, so this provider flags more fiction than Llama Guard does.
 * Categories not in the table (a newer model's) are ignored; a result
 * `flagged` only through them is "unsafe" with no category.
 */
export const OPENAI_CATEGORY_HAZARDS: Readonly<Record<string, HazardCategory>> = {
  "sexual/minors": "S4",
  sexual: "S12",
  hate: "S10",
  "hate/threatening": "S10",
  harassment: "S10",
  "harassment/threatening": "S10",
  "self-harm": "S11",
  "self-harm/intent": "S11",
  "self-harm/instructions": "S11",
  violence: "S1",
  "violence/graphic": "S1",
  illicit: "S2",
  "illicit/violent": "S1",
};

/** The model the `openai` provider asks for unless `MODERATION_MODEL` names another. */
export const OPENAI_MODERATION_MODEL = "omni-moderation-latest";

const openAIModeration = z.object({
  results: z
    .array(
      z.object({
        flagged: z.boolean(),
        categories: z.record(z.string(), z.boolean().nullable()),
      }),
    )
    .min(1),
});

/** An OpenAI-compatible moderations endpoint. */
export interface OpenAIModerationConfig {
  /** e.g. `https://api.openai.com/v1`; `/moderations` is appended. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …` when set. */
  apiKey?: string;
  /** Default OPENAI_MODERATION_MODEL. */
  model?: string;
  /** The outside world; Workers and tests use the global fetch. */
  fetch?: typeof fetch;
}

/**
 * `POST {baseUrl}/moderations` with `{ model, input: text }`; the answer's
 * first result decides: `flagged: false` is safe, else the categories marked
 * true, mapped by OPENAI_CATEGORY_HAZARDS. `context` is not sent (the
 * endpoint judges single texts).
 */
export class OpenAIModerator implements Moderator {
  readonly name = "openai" as const;
  private readonly config: OpenAIModerationConfig;
  private readonly url: string;

  constructor(config: OpenAIModerationConfig) {
    this.config = config;
    this.url = `${config.baseUrl.replace(/\/+$/, "")}/moderations`;
  }

  /** @throws ModerationError on a network failure, a non-2xx status (with `status`), or a body without `results[0].flagged`. */
  async screen(input: ModerationInput, { signal }: ModerationOptions = {}): Promise<ModerationVerdict> {
    const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
    if (this.config.apiKey) headers.authorization = `Bearer ${this.config.apiKey}`;
    const doFetch = this.config.fetch ?? fetch;
    let status: number | undefined;
    let body: string;
    let ok: boolean;
    try {
      const response = await doFetch(this.url, {
        method: "POST",
        headers,
        body: JSON.stringify({ model: this.config.model || OPENAI_MODERATION_MODEL, input: input.text }),
        signal,
      });
      status = response.status;
      ok = response.ok;
      body = await response.text();
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new ModerationError(`${this.url}: ${String(error).slice(0, 300)}`, { provider: this.name, status });
    }
    if (!ok) throw new ModerationError(`${this.url} answered ${status}: ${body.slice(0, 300)}`, { provider: this.name, status });
    let json: unknown = null;
    try {
      json = JSON.parse(body);
    } catch {
      // Not JSON: reported below as no result.
    }
    const parsed = openAIModeration.safeParse(json);
    if (!parsed.success) {
      throw new ModerationError(`${this.url} answered no moderation result: ${body.slice(0, 300)}`, { provider: this.name, status });
    }
    const result = parsed.data.results[0]!;
    if (!result.flagged) return { safe: true, categories: [], provider: this.name };
    const categories = Object.entries(result.categories).flatMap(([name, on]) => {
      const code = on && Object.hasOwn(OPENAI_CATEGORY_HAZARDS, name) ? OPENAI_CATEGORY_HAZARDS[name] : undefined;
      return code ? [code] : [];
    });
    return verdictOf(this.name, true, categories, input.nsfw);
  }
}

// ---------------------------------------------------------------------------
// The offline screen (a stand-in, not real moderation)

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
  // "age 12", "aged 16", "age: 15", Age("15") — not "at age 12"
  String.raw`(?<!${START}at\s+)${START}${NOT_NEGATED}age[ds]?${END}\s*[:=]?\s*[("'“]*\s*${MINOR_AGE}`,
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

// ---------------------------------------------------------------------------
// Provider choice

/** The bindings and variables the providers read (a subset of the Worker's and the Durable Object's `Env`). */
export interface ModeratorEnv {
  /** `workers-ai` | `openai` | `offline`; empty or absent: follow AI_PROVIDER. */
  MODERATION_PROVIDER?: string;
  /** Model of the chosen provider; empty: LLAMA_GUARD_MODEL or OPENAI_MODERATION_MODEL. */
  MODERATION_MODEL?: string;
  /** Base URL of the `openai` provider's endpoint; empty: OPENAI_BASE_URL. */
  MODERATION_BASE_URL?: string;
  /** Key of MODERATION_BASE_URL; absent: OPENAI_API_KEY. */
  MODERATION_API_KEY?: string;
  AI_PROVIDER?: string;
  OPENAI_BASE_URL?: string;
  OPENAI_API_KEY?: string;
  AI?: unknown;
}

/**
 * Which provider moderates in this deployment.
 *
 * An explicit `MODERATION_PROVIDER` is obeyed or refused, never replaced by
 * the stand-in: `workers-ai` needs the `AI` binding and `openai` a base URL
 * (`MODERATION_BASE_URL`, else `OPENAI_BASE_URL`). Without one, moderation
 * follows `AI_PROVIDER` the way the chat model does (chat-models.ts
 * `chatModelName`): `workers-ai` with the binding, `openai` with
 * `OPENAI_BASE_URL`, otherwise `offline` — a deployment whose chat model is
 * the offline one gets the offline screen.
 *
 * @throws ModerationError for an unknown `MODERATION_PROVIDER` (no
 *   `provider`) or one whose binding or URL is missing.
 */
export function moderatorName(env: ModeratorEnv): ModeratorName {
  const chosen = (env.MODERATION_PROVIDER ?? "").trim().toLowerCase();
  const baseUrl = env.MODERATION_BASE_URL || env.OPENAI_BASE_URL;
  if (chosen === "") {
    const chat = (env.AI_PROVIDER ?? "").trim().toLowerCase();
    if (chat === "workers-ai" && env.AI) return "workers-ai";
    if (chat === "openai" && baseUrl) return "openai";
    return "offline";
  }
  if (chosen === "workers-ai") {
    if (!env.AI) throw new ModerationError("MODERATION_PROVIDER is workers-ai but there is no AI binding", { provider: chosen });
    return chosen;
  }
  if (chosen === "openai") {
    if (!baseUrl) {
      throw new ModerationError("MODERATION_PROVIDER is openai but neither MODERATION_BASE_URL nor OPENAI_BASE_URL is set", { provider: chosen });
    }
    return chosen;
  }
  if (chosen === "offline") return chosen;
  throw new ModerationError(`MODERATION_PROVIDER ${JSON.stringify(chosen)} is not one of ${MODERATORS.join(", ")}`);
}

/**
 * The moderator of this deployment (moderatorName). Cheap: call it per
 * request.
 *
 * @throws ModerationError when the configuration cannot work (moderatorName).
 */
export function moderatorFor(env: ModeratorEnv): Moderator {
  switch (moderatorName(env)) {
    case "workers-ai":
      return new WorkersAIModerator(env.AI as AiRunner, env.MODERATION_MODEL || LLAMA_GUARD_MODEL);
    case "openai":
      return new OpenAIModerator({
        baseUrl: (env.MODERATION_BASE_URL || env.OPENAI_BASE_URL)!,
        apiKey: env.MODERATION_API_KEY ?? env.OPENAI_API_KEY,
        model: env.MODERATION_MODEL || OPENAI_MODERATION_MODEL,
      });
    case "offline":
      return new OfflineModerator();
  }
}
