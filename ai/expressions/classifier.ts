/**
 * ExpressionClassifier: which of its speaker's expression labels a finished
 * character reply shows (DESIGN.md "Character assets": `expression` rides
 * on every character message; SillyTavern's Character Expressions does the
 * same with a classifier model over its 28 labels).
 *
 * Two kinds, chosen by `EXPRESSION_CLASSIFIER` (createExpressionClassifier):
 * - `lexicon` (the default, offline, no network): cue words, actions and
 *   emoji of each label (lexicon.ts) counted in the reply, the latest
 *   sentences weighing more (the face the reply ends on is the one shown);
 *   a creator's own label is read through SYNONYMS (happy → joy) and its own
 *   name; an emotion the speaker has no label for counts toward the label of
 *   its Ekman group. Accuracy and time per reply: `npm run bench:expressions`
 *   (docs/decisions/0039: high on the set it was tuned on, low on its blind
 *   set; `model` is the choice where faces matter).
 * - `model`: one short call to a chat model (the room's) asking for one of
 *   the labels; an answer that is none of them falls back to the lexicon.
 *
 * Every classifier answers one of `labels` (as given, case kept), or null
 * when `labels` is empty; with nothing recognised, `neutral` when the
 * speaker has it, else the first label.
 */
import { CUES, EKMAN_GROUP, type EmotionLabel, SILLYTAVERN_LABELS, SYNONYMS } from "./lexicon.ts";

export interface ExpressionClassifier {
  /** The label of `labels` that `reply` shows (module docstring); null when `labels` is empty. */
  classify(reply: string, labels: readonly string[]): Promise<string | null>;
}

const isEmotion = (label: string): label is EmotionLabel => (SILLYTAVERN_LABELS as readonly string[]).includes(label);

/** The emotion a creator's label stands for: itself, a synonym's, or null (only its own name is a cue then). */
export function canonicalEmotion(label: string): EmotionLabel | null {
  const key = label.trim().toLowerCase().replace(/[\s_-]+/g, "_");
  if (isEmotion(key)) return key;
  return SYNONYMS[key] ?? SYNONYMS[key.replace(/_/g, "")] ?? null;
}

/** Words of `text`, lower-case (letters, digits, apostrophes and in-word hyphens kept). */
function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}'’-]+/gu) ?? [];
}

/** How often cue `cue` occurs in `lower` (the text) / `tokens` (its words): lexicon.ts's matching rule. */
function count(cue: string, lower: string, tokens: readonly string[]): number {
  if (/[^\p{L}'’]/u.test(cue)) {
    let n = 0;
    for (let at = lower.indexOf(cue); at !== -1; at = lower.indexOf(cue, at + cue.length)) n++;
    return n;
  }
  if (cue.length <= 3) return tokens.filter((token) => token === cue).length;
  return tokens.filter((token) => token.startsWith(cue)).length;
}

/** Weight of the sentence at `index` of `total`: the last third counts double (the face the reply ends on). */
const sentenceWeight = (index: number, total: number) => (total > 2 && index >= (2 * total) / 3 ? 2 : 1);

/** Weight of a cue: a phrase (several words) says more than one word ("sigh of relief" over "sigh"). */
const cueWeight = (cue: string) => (cue.includes(" ") ? 2 : 1);

/** How much an emotion the speaker has no label for counts toward the label of its Ekman group. */
const FOLD_WEIGHT = 0.5;

/** Hits of `cues` in one sentence (`lower`, `tokens`), each weighed by cueWeight. */
function hitsOf(cues: readonly string[], lower: string, tokens: readonly string[]): number {
  let hits = 0;
  for (const cue of cues) {
    const n = count(cue, lower, tokens);
    if (n > 0) hits += n * cueWeight(cue);
  }
  return hits;
}

/**
 * The lexicon classifier's scores of each label of `labels` for `reply`
 * (exported for the benchmark; labels scoring nothing are absent). A
 * label's score is its canonical emotion's (the cues of lexicon.ts) plus
 * hits of its own name; an emotion none of the labels stands for counts
 * FOLD_WEIGHT toward the label of its Ekman group (EKMAN_GROUP: a speaker
 * with only joy, anger, … still shows joy for an amused reply).
 */
export function lexiconScores(reply: string, labels: readonly string[]): Map<string, number> {
  const sentences = reply.split(/(?<=[.!?…*])\s+|\n+/).filter((s) => s.trim() !== "");
  const speaker = labels.map((label) => {
    const emotion = canonicalEmotion(label);
    const own = label.trim().toLowerCase();
    const ownCue = own.length >= 3 && emotion !== "neutral" && !(emotion && CUES[emotion].includes(own)) ? own : null;
    return { label, emotion, ownCue };
  });
  const represented = new Set(speaker.map(({ emotion }) => emotion));
  const emotionScores = new Map<EmotionLabel, number>();
  const ownScores = new Map<string, number>();
  sentences.forEach((sentence, index) => {
    const lower = sentence.toLowerCase();
    const tokens = words(sentence);
    const weight = sentenceWeight(index, sentences.length);
    for (const emotion of SILLYTAVERN_LABELS) {
      // Only the emotions that can reach a label are counted.
      if (!represented.has(emotion) && !speaker.some(({ emotion: own }) => own && EKMAN_GROUP[own] === EKMAN_GROUP[emotion])) continue;
      const hits = hitsOf(CUES[emotion], lower, tokens);
      if (hits > 0) emotionScores.set(emotion, (emotionScores.get(emotion) ?? 0) + hits * weight);
    }
    for (const { label, ownCue } of speaker) {
      const hits = ownCue ? count(ownCue, lower, tokens) : 0;
      if (hits > 0) ownScores.set(label, (ownScores.get(label) ?? 0) + hits * weight);
    }
  });
  const scores = new Map<string, number>();
  const add = (label: string, score: number) => {
    if (score > 0) scores.set(label, (scores.get(label) ?? 0) + score);
  };
  for (const { label, emotion } of speaker) add(label, (emotion ? (emotionScores.get(emotion) ?? 0) : 0) + (ownScores.get(label) ?? 0));
  for (const [emotion, score] of emotionScores) {
    if (represented.has(emotion)) continue;
    const group = EKMAN_GROUP[emotion];
    const target = speaker.find(({ emotion: own }) => own === group) ?? speaker.find(({ emotion: own }) => own && EKMAN_GROUP[own] === group);
    if (target) add(target.label, score * FOLD_WEIGHT);
  }
  return scores;
}

/** The label shown when nothing is recognised: `neutral` (or a synonym of it) when the speaker has one, else the first. */
export function fallbackLabel(labels: readonly string[]): string | null {
  return labels.find((label) => canonicalEmotion(label) === "neutral") ?? labels[0] ?? null;
}

/** The offline classifier (module docstring). */
export class LexiconExpressionClassifier implements ExpressionClassifier {
  async classify(reply: string, labels: readonly string[]): Promise<string | null> {
    return this.classifySync(reply, labels);
  }

  /** The same, synchronously (the benchmark times it per reply). */
  classifySync(reply: string, labels: readonly string[]): string | null {
    if (labels.length === 0) return null;
    let best: string | null = null;
    let bestScore = 0;
    for (const [label, score] of lexiconScores(reply, labels)) {
      if (score > bestScore) {
        best = label;
        bestScore = score;
      }
    }
    return best ?? fallbackLabel(labels);
  }
}

/** One short completion: the prompt in, the model's text out (the room passes its chat model). */
export type Complete = (system: string, user: string, signal: AbortSignal) => Promise<string>;

/** Longest wait for the model's label, ms; the lexicon answers after it. */
const MODEL_TIMEOUT_MS = 4000;

/**
 * The production choice (module docstring): asks the chat model through
 * `complete`; on an error, a timeout or an answer that is none of the
 * labels, the lexicon's label.
 */
export class ModelExpressionClassifier implements ExpressionClassifier {
  private readonly lexicon = new LexiconExpressionClassifier();
  // A plain field, not a parameter property: scripts run this file with Node's type stripping.
  private readonly complete: Complete;

  constructor(complete: Complete) {
    this.complete = complete;
  }

  async classify(reply: string, labels: readonly string[]): Promise<string | null> {
    if (labels.length === 0) return null;
    const system =
      "You label the emotion a roleplay character shows. Answer with exactly one label from the list, nothing else.";
    const user = `Labels: ${labels.join(", ")}\n\nReply:\n${reply.slice(-2000)}\n\nLabel:`;
    try {
      const answer = (await this.complete(system, user, AbortSignal.timeout(MODEL_TIMEOUT_MS))).trim().toLowerCase();
      const word = answer.replace(/^[^\p{L}]+|[^\p{L}_ -]+$/gu, "");
      const match = labels.find((label) => label.toLowerCase() === word) ?? labels.find((label) => answer.includes(label.toLowerCase()));
      if (match) return match;
    } catch {
      // The lexicon answers below.
    }
    return this.lexicon.classify(reply, labels);
  }
}

/**
 * The classifier `EXPRESSION_CLASSIFIER` names: `model` (needs `complete`)
 * or, by default and for any other value, `lexicon`.
 */
export function createExpressionClassifier(setting: string | undefined, complete?: Complete): ExpressionClassifier {
  if (setting === "model" && complete) return new ModelExpressionClassifier(complete);
  return new LexiconExpressionClassifier();
}
