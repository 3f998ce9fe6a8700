/**
 * Moderation (DESIGN.md "Beyond the spec", "Moderation"): one `Moderator`
 * interface, three providers, chosen by `MODERATION_PROVIDER` like the chat
 * model by `AI_PROVIDER` (ai/chat-models.ts).
 *
 * - `workers-ai`: Llama Guard 3 (`@cf/meta/llama-guard-3-8b`) through the
 *   `AI` binding; production. Its answer is parsed by `parseLlamaGuard`.
 * - `openai`: any OpenAI-compatible moderations endpoint,
 *   `POST {MODERATION_BASE_URL or OPENAI_BASE_URL}/moderations`; OpenAI's
 *   categories are mapped to Llama Guard's (`OPENAI_CATEGORY_HAZARDS`).
 * - `offline`: the offline screen — a stand-in, not real moderation. A few
 *   word lists and patterns (`offlineScreen`, rules in offline-screen.ts) so that local runs
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
 * One file per layer: this one holds the interface, the vocabulary and the
 * error; llama-guard.ts, openai-moderations.ts and offline-screen.ts the
 * providers; choose.ts the choice by configuration; index.ts re-exports
 * them all. The Worker (character screening) and the Durable Object (chat
 * screening) import them; they import only `schema/`, npm and `ai/`
 * (.dependency-cruiser.cjs `ai-imports-only-ai-and-schema`).
 */

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
   * For a chat message: the texts it is judged with, oldest first — the
   * conversation's recent messages, its memory note and pinned memories
   * (durable-objects/room/screening.ts fills it). The pre-screen reads them
   * with the message (an age in one message and a request in the next);
   * Llama Guard gets them as the conversation before the message's turn.
   * Ignored by the OpenAI provider (single texts) and the offline screen.
   */
  conversation?: readonly string[];
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
  /**
   * Hold for review, do not refuse: the provider said S4 where the
   * pre-screen's rules saw only a doubt (pre-screen.ts
   * PreScreenedModerator; S4 is then left out of `categories`). Absent
   * otherwise.
   */
  review?: true;
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
export const inOrder = (categories: Iterable<HazardCategory>): HazardCategory[] =>
  [...new Set(categories)].sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));

/**
 * The verdict of a provider's answer: `unsafe` with `categories`, S12 dropped
 * when `nsfw` (so "unsafe, S12" alone on an NSFW character is safe).
 */
export function verdictOf(provider: ModeratorName, unsafe: boolean, categories: HazardCategory[], nsfw: boolean): ModerationVerdict {
  const kept = inOrder(categories.filter((code) => !(nsfw && code === "S12")));
  const onlyAllowed = categories.length > 0 && kept.length === 0;
  return { safe: !unsafe || onlyAllowed, categories: kept, provider };
}
