/**
 * `npm run bench:expressions`: the offline ExpressionClassifier
 * (ai/expressions/classifier.ts, the lexicon) on two sets of short roleplay
 * replies labelled by hand with SillyTavern's 28 labels:
 *
 * - the labelled set (scripts/data/expressions-labelled.ts, 8 replies a
 *   label), which the lexicon is tuned on;
 * - the blind set (scripts/data/expressions-blind.ts), written and committed
 *   before the classifier was measured on it and never tuned on: the honest
 *   figure.
 *
 * For each set it prints:
 * - top-1 accuracy over all 28 labels (a speaker with SillyTavern's full
 *   set; chance is 1/28 ≈ 3.6 %);
 * - accuracy for a speaker with only the 6 Ekman faces + neutral (anger,
 *   disgust, fear, joy, sadness, surprise, neutral: the common small sprite
 *   set), each true label read as its Ekman group by GoEmotions' own mapping
 *   (google-research/goemotions, data/ekman_mapping.json);
 * - recall of the 5 worst labels (28 labels);
 * - time per reply, p50/p95 in µs (each reply classified `--runs` times,
 *   default 200, after a warm-up).
 *
 * `--misses` lists the labelled set's wrong answers (what tuning looks at;
 * the blind set's are never printed). No targets: the figures are reported in docs/decisions/0039 and README.
 */
import { parseArgs } from "node:util";
import { LexiconExpressionClassifier } from "../ai/expressions/classifier.ts";
import { type EmotionLabel, SILLYTAVERN_LABELS } from "../ai/expressions/lexicon.ts";
import { BLIND_REPLIES } from "./data/expressions-blind.ts";
import { LABELLED_REPLIES, type LabelledReply } from "./data/expressions-labelled.ts";
import { percentile } from "./lib/bench-tools.ts";

const { values } = parseArgs({ options: { runs: { type: "string", default: "200" }, misses: { type: "boolean", default: false } } });
const RUNS = Math.max(1, Number(values.runs) || 200);

/** GoEmotions' Ekman mapping (data/ekman_mapping.json); neutral stays neutral. */
const EKMAN: Record<string, readonly EmotionLabel[]> = {
  anger: ["anger", "annoyance", "disapproval"],
  disgust: ["disgust"],
  fear: ["fear", "nervousness"],
  joy: ["joy", "amusement", "approval", "excitement", "gratitude", "love", "optimism", "relief", "pride", "admiration", "desire", "caring"],
  sadness: ["sadness", "disappointment", "embarrassment", "grief", "remorse"],
  surprise: ["surprise", "realization", "confusion", "curiosity"],
  neutral: ["neutral"],
};
const EKMAN_LABELS = Object.keys(EKMAN);
const ekmanOf = (label: EmotionLabel): string => EKMAN_LABELS.find((group) => EKMAN[group]!.includes(label))!;

const classifier = new LexiconExpressionClassifier();

const percent = (n: number, of: number) => `${((100 * n) / of).toFixed(1)} %`;

/** Prints `set`'s figures (module docstring); `showMisses` lists the replies labelled wrongly (never for the blind set). */
function measure(name: string, set: readonly LabelledReply[], showMisses: boolean): void {
  let top1 = 0;
  let ekman = 0;
  const recall = new Map<EmotionLabel, { hit: number; of: number }>();
  const misses: string[] = [];
  for (const { label, text } of set) {
    const got = classifier.classifySync(text, SILLYTAVERN_LABELS);
    const entry = recall.get(label) ?? { hit: 0, of: 0 };
    entry.of++;
    if (got === label) {
      top1++;
      entry.hit++;
    } else misses.push(`  ${label} → ${got}: ${text}`);
    recall.set(label, entry);
    if (classifier.classifySync(text, EKMAN_LABELS) === ekmanOf(label)) ekman++;
  }

  const times: number[] = [];
  for (const { text } of set) classifier.classifySync(text, SILLYTAVERN_LABELS);
  for (let run = 0; run < RUNS; run++) {
    for (const { text } of set) {
      const start = performance.now();
      classifier.classifySync(text, SILLYTAVERN_LABELS);
      times.push((performance.now() - start) * 1000);
    }
  }
  times.sort((a, b) => a - b);

  const worst = [...recall]
    .map(([label, { hit, of }]) => ({ label, hit, of }))
    .sort((a, b) => a.hit / a.of - b.hit / b.of || a.label.localeCompare(b.label))
    .slice(0, 5);
  console.log(`${name} set: ${set.length} replies`);
  console.log(`  top-1 over 28 labels:            ${percent(top1, set.length)} (${top1}/${set.length})`);
  console.log(`  Ekman 6 + neutral speaker:       ${percent(ekman, set.length)} (${ekman}/${set.length})`);
  console.log(`  worst 5 labels (recall):         ${worst.map(({ label, hit, of }) => `${label} ${hit}/${of}`).join(", ")}`);
  console.log(`  time per reply:                  p50 ${percentile(times, 50).toFixed(1)} µs, p95 ${percentile(times, 95).toFixed(1)} µs`);
  if (showMisses && misses.length > 0) console.log(misses.join("\n"));
}

measure("labelled (tuned on)", LABELLED_REPLIES, values.misses ?? false);
measure("blind (never tuned on)", BLIND_REPLIES, false);
