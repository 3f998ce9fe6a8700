/**
 * `npm run bench:screening`: the moderation pre-screen
 * (ai/moderation/pre-screen.ts) over its labelled set
 * (ai/moderation/pre-screen-cases.ts): recall (minors refused / minors),
 * false-positive rate (adults refused / adults), every miss and false
 * positive with its disguise, and the time per case. Exits 1 when recall is
 * under 95 % or false positives over 5 % (the targets of issue 21, held by
 * ai/moderation/pre-screen.test.ts too). `--year N` reads birth years
 * against year N instead of the current one.
 */
import { parseArgs } from "node:util";
import { preScreenCases } from "../ai/moderation/pre-screen-cases.ts";
import { preScreen } from "../ai/moderation/pre-screen.ts";

const { values } = parseArgs({ options: { year: { type: "string" } } });
const year = values.year ? Number(values.year) : new Date().getUTCFullYear();
const now = Date.UTC(year, 5, 1);
const cases = preScreenCases(year);

let refusedMinors = 0;
let refusedAdults = 0;
const wrong: string[] = [];
for (const c of cases) {
  const { refused, marker } = preScreen(c.text, c.nsfw, now);
  if (c.minor && refused) refusedMinors++;
  if (!c.minor && refused) refusedAdults++;
  if (refused !== c.minor) {
    wrong.push(`${c.minor ? "missed" : "false positive"} [${c.kind}] ${JSON.stringify(c.text)}${marker ? ` (${marker.rule}: ${JSON.stringify(marker.match)})` : ""}`);
  }
}

// Time: the whole set, repeated, after one warm-up pass (above).
const rounds = 20;
const started = performance.now();
for (let i = 0; i < rounds; i++) for (const c of cases) preScreen(c.text, c.nsfw, now);
const perCaseUs = ((performance.now() - started) * 1000) / (rounds * cases.length);

const minors = cases.filter((c) => c.minor).length;
const adults = cases.length - minors;
const recall = refusedMinors / minors;
const falsePositives = refusedAdults / adults;
const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
console.log(`pre-screen over ${cases.length} labelled cases (${minors} minors, ${adults} adults), year ${year}`);
for (const line of wrong) console.log(`  ${line}`);
console.log(`recall               ${pct(recall)} (${refusedMinors}/${minors}; target >= 95 %)`);
console.log(`false-positive rate  ${pct(falsePositives)} (${refusedAdults}/${adults}; target <= 5 %)`);
console.log(`time per case        ${perCaseUs.toFixed(0)} µs (mean of ${rounds} passes)`);
if (recall < 0.95 || falsePositives > 0.05) process.exitCode = 1;
