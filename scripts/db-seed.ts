/**
 * `npm run db:seed`: applies the D1 migrations to the local state
 * (.wrangler/state) and seeds the demo catalog (scripts/data/demo-characters.ts);
 * running it again adds only what is missing.
 *
 * `npm run db:seed -- --synthetic N`: adds N generated characters for scale
 * tests instead (see scripts/lib/seed.ts `seedSynthetic`), with progress and
 * the elapsed time.
 *
 * Stop `wrangler dev` on the same state first: seeding writes the SQLite file directly.
 */
import { statSync } from "node:fs";
import { parseArgs } from "node:util";
import { seedDemo, seedSynthetic } from "./lib/seed.ts";
import { DEFAULT_PERSIST_DIR, localD1File, migrateLocal } from "./lib/tools.ts";

const USAGE = `Usage: npm run db:seed -- [options]

Seeds the local D1 database (migrating it first).

Options:
  --synthetic N       add N generated characters instead of the demo catalog
                      (1000000 takes under three minutes)
  --seed S            PRNG seed of the synthetic characters (default 1)
  --persist-to DIR    local state directory (default .wrangler/state)
  -h, --help          show this help
`;

const { values } = parseArgs({
  options: {
    synthetic: { type: "string" },
    seed: { type: "string", default: "1" },
    "persist-to": { type: "string", default: DEFAULT_PERSIST_DIR },
    help: { type: "boolean", short: "h", default: false },
  },
});

if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}

/** Parses a count such as 1000000, 1_000_000, 1,000,000 or 1e6. */
function parseCount(text: string, flag: string): number {
  const n = Number(text.replace(/[_,]/g, ""));
  if (!Number.isSafeInteger(n) || n < 1) {
    process.stderr.write(`${flag} must be a positive whole number, got "${text}"\n\n${USAGE}`);
    process.exit(2);
  }
  return n;
}

const persistDir = values["persist-to"];
const count = values.synthetic === undefined ? null : parseCount(values.synthetic, "--synthetic");
const seed = parseCount(values.seed, "--seed");
await migrateLocal(persistDir);
const dbFile = localD1File(persistDir);
if (!dbFile) throw new Error(`No local D1 database under ${persistDir} after migrating`);

if (count === null) {
  const result = seedDemo(dbFile);
  console.log(
    result.characters === 0 && result.users === 0
      ? `Demo catalog already in ${persistDir}; nothing to add.`
      : `Demo catalog: added ${result.characters} characters and ${result.users} creator accounts to ${persistDir}.`,
  );
} else {
  const started = performance.now();
  const interactive = process.stdout.isTTY;
  const step = Math.max(1, Math.floor(count / 20));
  let lastReported = 0;
  console.log(`Adding ${count.toLocaleString("en-US")} synthetic characters to ${persistDir}…`);
  const result = seedSynthetic(dbFile, count, {
    seed,
    onProgress: (done) => {
      const elapsed = (performance.now() - started) / 1000;
      const line = `  ${done.toLocaleString("en-US")} / ${count.toLocaleString("en-US")}  (${elapsed.toFixed(1)} s, ${Math.round(done / elapsed).toLocaleString("en-US")}/s)`;
      if (interactive) process.stdout.write(`\r${line}`);
      else if (done - lastReported >= step || done === count) {
        lastReported = done;
        console.log(line);
      }
    },
  });
  if (interactive) process.stdout.write("\n");
  const bytes = statSync(dbFile).size;
  console.log(
    `Inserted ${result.inserted.toLocaleString("en-US")} characters in ${(result.ms / 1000).toFixed(1)} s ` +
      `(index merge and statistics included); database is ${(bytes / 2 ** 20).toFixed(0)} MiB.`,
  );
}
