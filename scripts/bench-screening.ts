/**
 * `npm run bench:screening`: the moderation pre-screen
 * (ai/moderation/pre-screen.ts) over its labelled set
 * (ai/moderation/pre-screen-cases.ts) and its two blind sets
 * (ai/moderation/pre-screen-blind.ts: disguised minors, real-world adult
 * cards; written before the rules that read them). For each set: recall
 * (minors refused / minors), false-positive rate (adults refused / adults),
 * both per language (ISO 639-1), every miss and false positive with its
 * disguise, and the time per case. A chat case of a blind set is judged
 * with its `context` (recent messages, memory note), as the room does.
 *
 * Exits 1 when the labelled set's recall is under 95 % or its false
 * positives over 5 % (issue 21, held by ai/moderation/pre-screen.test.ts
 * too), or a blind set misses its target (issues 35 and 42: recall ≥ 95 %,
 * false positives ≤ 2 %). `--year N` reads birth years against year N
 * instead of the current one.
 */
import { parseArgs } from "node:util";
import { type BlindCase, blindAdults, blindMinors } from "../ai/moderation/pre-screen-blind.ts";
import { preScreenCases } from "../ai/moderation/pre-screen-cases.ts";
import { preScreen } from "../ai/moderation/pre-screen.ts";

const { values } = parseArgs({ options: { year: { type: "string" } } });
const year = values.year ? Number(values.year) : new Date().getUTCFullYear();
const now = Date.UTC(year, 5, 1);

/** The labelled set's language, from its kind ("spanish words" → es); English otherwise. */
const LANGUAGE_OF_KIND: [RegExp, string][] = [[/spanish|años/, "es"], [/french/, "fr"], [/german/, "de"], [/japanese/, "ja"], [/russian/, "ru"], [/chinese/, "zh"]];
const labelled: BlindCase[] = preScreenCases(year).map((c) => ({ ...c, lang: LANGUAGE_OF_KIND.find(([pattern]) => pattern.test(c.kind))?.[1] ?? "en" }));

const judge = (c: BlindCase) => preScreen(c.text, c.nsfw, now, c.context);
const pct = (part: number, whole: number) => (whole === 0 ? "   -   " : `${((part / whole) * 100).toFixed(1).padStart(5)} %`);

/** Prints one set's figures; true when they meet `targets`. */
function report(name: string, cases: BlindCase[], targets: { recall: number; falsePositives: number }): boolean {
  const byLang = new Map<string, { minors: number; refusedMinors: number; adults: number; refusedAdults: number }>();
  const wrong: string[] = [];
  for (const c of cases) {
    const { refused, marker } = judge(c);
    const row = byLang.get(c.lang) ?? { minors: 0, refusedMinors: 0, adults: 0, refusedAdults: 0 };
    if (c.minor) {
      row.minors++;
      if (refused) row.refusedMinors++;
    } else {
      row.adults++;
      if (refused) row.refusedAdults++;
    }
    byLang.set(c.lang, row);
    if (refused !== c.minor) {
      const shown = JSON.stringify(c.text.length > 140 ? `${c.text.slice(0, 140)}…` : c.text);
      wrong.push(`${c.minor ? "missed" : "false positive"} [${c.lang}, ${c.kind}] ${shown}${marker ? ` (${marker.rule}: ${JSON.stringify(marker.match)})` : ""}`);
    }
  }
  const total = { minors: 0, refusedMinors: 0, adults: 0, refusedAdults: 0 };
  for (const row of byLang.values()) for (const key of Object.keys(total) as (keyof typeof total)[]) total[key] += row[key];
  console.log(`\n${name}: ${cases.length} cases (${total.minors} minors, ${total.adults} adults)`);
  for (const line of wrong) console.log(`  ${line}`);
  console.log(`  language  recall              false positives`);
  for (const [lang, row] of [...byLang].sort(([x], [y]) => x.localeCompare(y))) {
    console.log(`  ${lang.padEnd(8)}  ${pct(row.refusedMinors, row.minors)} (${row.refusedMinors}/${row.minors})`.padEnd(32) + `  ${pct(row.refusedAdults, row.adults)} (${row.refusedAdults}/${row.adults})`);
  }
  const recall = total.minors === 0 ? 1 : total.refusedMinors / total.minors;
  const falsePositives = total.adults === 0 ? 0 : total.refusedAdults / total.adults;
  const recallLine = total.minors === 0 ? "" : `recall ${pct(total.refusedMinors, total.minors)} (${total.refusedMinors}/${total.minors}; target >= ${targets.recall * 100} %)`;
  const fpLine = total.adults === 0 ? "" : `false positives ${pct(total.refusedAdults, total.adults)} (${total.refusedAdults}/${total.adults}; target <= ${targets.falsePositives * 100} %)`;
  console.log(`  all       ${[recallLine, fpLine].filter(Boolean).join("; ")}`);
  return recall >= targets.recall && falsePositives <= targets.falsePositives;
}

console.log(`pre-screen, birth years read against ${year}`);
const ok = [
  report("labelled set", labelled, { recall: 0.95, falsePositives: 0.05 }),
  report("blind set: disguised minors", blindMinors(year), { recall: 0.95, falsePositives: 0.02 }),
  report("blind set: real-world adult cards and chats", blindAdults(), { recall: 0.95, falsePositives: 0.02 }),
].every(Boolean);

// Time: every case, repeated, after the warm-up pass above.
const all = [...labelled, ...blindMinors(year), ...blindAdults()];
const rounds = 20;
const started = performance.now();
for (let i = 0; i < rounds; i++) for (const c of all) judge(c);
const perCaseUs = ((performance.now() - started) * 1000) / (rounds * all.length);
console.log(`\ntime per case        ${perCaseUs.toFixed(0)} µs (mean of ${rounds} passes over ${all.length} cases)`);
if (!ok) process.exitCode = 1;
