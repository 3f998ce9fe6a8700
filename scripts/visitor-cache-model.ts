/**
 * `sh scripts/node.sh scripts/visitor-cache-model.ts [--listable N]`: the edge
 * cache's hit ratio on the visitor mix of `bench:catalog -- --visitor`
 * (scripts/lib/visitor-workload.ts, the same generator and seed) as a model,
 * without a server: each API path is a cache key, kept for its time to live
 * in model seconds while requests arrive at a steady rate. It shows what
 * the bench alone cannot — how the ratio depends on traffic per data center
 * and on each page kind's time to live — and why a 90 % target is a matter
 * of traffic (docs/decisions/0021-reads-at-the-limit.md). A warm-up of 60
 * model seconds, then 120 measured.
 *
 * Flags: --listable N (listable characters, default 78,338: the bench's
 * 100,000), --tags T (default 200), --words W (default 2,000).
 */
import { parseArgs } from "node:util";
import { type PageKind, visitorWorkload } from "./lib/visitor-workload.ts";

const { values } = parseArgs({
  options: {
    listable: { type: "string", default: "78338" },
    tags: { type: "string", default: "200" },
    words: { type: "string", default: "2000" },
  },
});
const population = {
  characterIds: Array.from({ length: Number(values.listable) }, (_, i) => i + 1),
  tags: Array.from({ length: Number(values.tags) }, (_, i) => `t${i}`),
  words: Array.from({ length: Number(values.words) }, (_, i) => `w${i}`),
};

/** A policy: the time to live of a path in seconds, and extra requests a page view makes. */
interface Policy {
  label: string;
  ttl: (path: string) => number;
  extra?: (requests: string[], kind: PageKind) => string[];
}

const isPage = (path: string) => /^\/api\/characters\/\d+$/.test(path);
const POLICIES: Policy[] = [
  { label: "every answer 30 s (today)", ttl: () => 30 },
  {
    label: "character page 600 s + a counters answer at 30 s",
    ttl: (p) => (isPage(p) ? 600 : 30),
    extra: (requests, kind) => (kind === "character" ? [`${requests[0]}/counters`] : []),
  },
  { label: "every answer kept for ever (upper bound)", ttl: () => Infinity },
];

/** Hit ratio overall and per page kind for `policy` at `rate` API requests per second. */
function model(policy: Policy, rate: number): { all: number; kinds: Record<string, number> } {
  const next = visitorWorkload(population);
  const storedAt = new Map<string, number>();
  const counts: Record<string, [number, number]> = {};
  const warm = rate * 60;
  const total = rate * 180;
  let n = 0;
  while (n < total) {
    const page = next();
    for (const path of [...page.requests, ...(policy.extra?.(page.requests, page.kind) ?? [])]) {
      n += 1;
      const now = n / rate;
      const at = storedAt.get(path);
      const hit = at !== undefined && now - at < policy.ttl(path);
      if (!hit) storedAt.set(path, now);
      if (n > warm) {
        const c = (counts[page.kind] ??= [0, 0]);
        c[0] += hit ? 1 : 0;
        c[1] += 1;
      }
    }
  }
  let hits = 0;
  let requests = 0;
  const kinds: Record<string, number> = {};
  for (const [kind, [h, r]] of Object.entries(counts)) {
    hits += h;
    requests += r;
    kinds[kind] = h / r;
  }
  return { all: hits / requests, kinds };
}

const pct = (x: number | undefined) => (x === undefined ? "-" : `${(100 * x).toFixed(1)} %`);
console.log(`visitor mix model: ${population.characterIds.length.toLocaleString("en-US")} listable characters, ${population.tags.length} tags, ${population.words.length} words\n`);
console.log("| policy | requests/s | all | home | tag | search | character |");
console.log("|---|---:|---:|---:|---:|---:|---:|");
for (const policy of POLICIES) {
  for (const rate of [30, 100, 300, 1_000, 3_000, 10_000]) {
    const { all, kinds } = model(policy, rate);
    console.log(`| ${policy.label} | ${rate.toLocaleString("en-US")} | ${pct(all)} | ${pct(kinds.home)} | ${pct(kinds.tag)} | ${pct(kinds.search)} | ${pct(kinds.character)} |`);
  }
}
