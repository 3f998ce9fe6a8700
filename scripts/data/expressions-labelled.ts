/**
 * The labelled set of `npm run bench:expressions` (scripts/bench-expressions.ts):
 * short character replies in roleplay style (*actions* and "speech"), each
 * with the one of SillyTavern's 28 expression labels a person reading it
 * would give. The offline lexicon (ai/expressions/lexicon.ts) is tuned on
 * this set only; scripts/data/expressions-blind.ts is the held-out one.
 */
import type { EmotionLabel } from "../../ai/expressions/lexicon.ts";

/** One reply and the label a reader gives it. */
export interface LabelledReply {
  label: EmotionLabel;
  text: string;
}

export const LABELLED_REPLIES: readonly LabelledReply[] = [];
