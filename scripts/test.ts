/**
 * `npm test`: typecheck (`tsc -b`), import-graph rules (`npm run
 * check:imports`: dependency-cruiser with .dependency-cruiser.cjs — no import
 * cycles, the folder rules of DESIGN.md), web build (the Worker serves it; the
 * build also checks the first-visit bundle budget), unit and integration tests
 * in the Workers runtime (vitest), and the browser tests in Chromium (e2e/,
 * scripts/e2e.ts).
 *
 * The steps run in two lanes side by side, because neither lane keeps two
 * cores busy on its own (the browser tests wait on Chromium and the app,
 * vitest runs one test file at a time):
 * - the web build, then the browser tests (the longest step: it sets the
 *   run's length);
 * - vitest, then `tsc -b`, then check:imports.
 * Every line a step prints is prefixed with the step's name. A failed step
 * does not stop the others (the browser tests are skipped if the build
 * failed); the run fails if any step did. At the end it repeats each failed
 * step's report (CI shows only a run's last lines, and the browser tests
 * outlast vitest by minutes), then prints the split:
 * each step's start and length in seconds, and the load average (the machine
 * may be shared: compare like with like).
 */
import { loadavg } from "node:os";
import { runByLine } from "./lib/tools.ts";

interface Step {
  name: string;
  command: string;
  args: string[];
}

type Outcome = "passed" | "failed" | "skipped";

interface Timing {
  name: string;
  startS: number;
  seconds: number;
  outcome: Outcome;
}

const runStarted = performance.now();
const sinceStart = () => (performance.now() - runStarted) / 1000;
const timings: Timing[] = [];
/** Each step's output lines, kept to repeat a failed step's report at the end (CI shows only the run's last lines). */
const outputs = new Map<string, string[]>();

/** Most lines of a failed step repeated after the split. */
const REPORT_LINES = 120;

/**
 * The part of a failed step's output that says what failed: from vitest's
 * "Failed Tests" section or Playwright's numbered failures when present (a
 * shard's: only its own lines), else the last lines; at most REPORT_LINES.
 */
function failureReport(lines: string[]): string[] {
  // Playwright's failures may carry a browser-test shard's "[shard N]" prefix (scripts/e2e.ts).
  const marker = lines.findIndex((line) => /Failed Tests \d+|^(\[shard \d+\])?\s+\d+\) /.test(line));
  if (marker < 0) return lines.slice(-REPORT_LINES);
  // Only that shard's lines: the other shard's go on printing meanwhile.
  const shard = /^\[shard \d+\]/.exec(lines[marker]!)?.[0];
  return lines.slice(marker).filter((line) => !shard || line.startsWith(shard)).slice(0, REPORT_LINES);
}

/** Runs `step` to completion, its output prefixed line by line; resolves to whether it passed. */
function runStep({ name, command, args }: Step): Promise<boolean> {
  const startS = sinceStart();
  console.log(`[${name}] started at ${startS.toFixed(1)} s: ${command} ${args.join(" ")}`);
  const lines: string[] = [];
  outputs.set(name, lines);
  return runByLine(command, args, (line) => {
    lines.push(line);
    console.log(`[${name}] ${line}`);
  }).then(({ passed, detail }) => {
    const seconds = sinceStart() - startS;
    timings.push({ name, startS, seconds, outcome: passed ? "passed" : "failed" });
    console.log(`[${name}] ${passed ? "passed" : `FAILED (${detail})`} in ${seconds.toFixed(1)} s`);
    return passed;
  });
}

function skip(name: string, reason: string): false {
  console.log(`[${name}] skipped: ${reason}`);
  timings.push({ name, startS: sinceStart(), seconds: 0, outcome: "skipped" });
  return false;
}

const build: Step = { name: "vite build", command: "vite", args: ["build"] };
const e2e: Step = { name: "browser tests", command: "node", args: ["scripts/e2e.ts"] };
const vitest: Step = { name: "vitest", command: "vitest", args: ["run"] };
const tsc: Step = { name: "tsc", command: "tsc", args: ["-b"] };
const imports: Step = { name: "check:imports", command: "npm", args: ["run", "--silent", "check:imports"] };

const results = await Promise.all([
  (async () => {
    const built = await runStep(build);
    return [built, built ? await runStep(e2e) : skip(e2e.name, "the web build failed")];
  })(),
  (async () => [await runStep(vitest), await runStep(tsc), await runStep(imports)])(),
]);

const total = sinceStart();
for (const t of timings.filter((timing) => timing.outcome === "failed")) {
  console.log(`\n--- ${t.name} failed; its report again:`);
  for (const line of failureReport(outputs.get(t.name) ?? [])) console.log(`[${t.name}] ${line}`);
}
console.log("\nnpm test split (seconds; the two lanes overlap):");
for (const t of timings.sort((a, b) => a.startS - b.startS)) {
  console.log(`  ${t.name.padEnd(14)} start ${t.startS.toFixed(1).padStart(6)}  took ${t.seconds.toFixed(1).padStart(6)}  ${t.outcome}`);
}
console.log(`  ${"total".padEnd(14)} ${total.toFixed(1).padStart(19)}  load average ${loadavg().map((n) => n.toFixed(2)).join(" ")}`);
process.exit(results.flat().every(Boolean) ? 0 : 1);
