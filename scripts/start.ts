/**
 * `npm start`: builds the web app, applies the D1 migrations locally, seeds the
 * demo catalog when the database has no characters, and serves everything on
 * http://localhost:$PORT (default 8787) with `wrangler dev` in local mode:
 * offline chat model, local sign-in, local D1/R2/Durable Objects under
 * .wrangler/state.
 *
 * A calm start (issue 26): a few lines — what was built, the migrations
 * applied in one line, the seed, the URL once the app answers. Everything the
 * tools print (Vite's file list, wrangler's status tables, bindings and
 * warnings) goes to the log file named in the output (START_LOG,
 * .wrangler/start.log, overwritten by each start); after the app is ready,
 * wrangler's errors still reach the terminal. A step that fails prints the
 * end of its output.
 *
 * Flags: --no-build (reuse dist/web), --persist-to DIR (another local state).
 */
import { spawn } from "node:child_process";
import { createWriteStream, mkdirSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { parseArgs } from "node:util";
import { devArgs } from "./lib/dev-args.ts";
import { seedDemoIfEmpty } from "./lib/seed.ts";
import { appliedMigrations, DEFAULT_PERSIST_DIR, localD1File, migrateLocal, ROOT, runLogged, toolEnv } from "./lib/tools.ts";

/** Where the tools' full output goes. */
const START_LOG = join(ROOT, ".wrangler/start.log");
/** How long the app may take to answer after `wrangler dev` starts, ms. */
const READY_TIMEOUT_MS = 120_000;
/** Lines of a failed step's output shown in the terminal. */
const FAILURE_TAIL_LINES = 30;

const { values } = parseArgs({
  options: {
    "no-build": { type: "boolean", default: false },
    "persist-to": { type: "string", default: DEFAULT_PERSIST_DIR },
  },
});
const persistDir = values["persist-to"];
const port = process.env.PORT ?? "8787";
const url = `http://localhost:${port}`;

mkdirSync(dirname(START_LOG), { recursive: true });
const log = createWriteStream(START_LOG);
const logName = relative(process.cwd(), START_LOG) || START_LOG;

/** Runs `step`; on failure prints the end of its output and where the rest is, and exits 1. */
async function step<T>(what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const output = (error as { output?: string }).output ?? "";
    const tail = output.trimEnd().split("\n").slice(-FAILURE_TAIL_LINES).join("\n");
    console.error(`${what} failed: ${(error as Error).message}${tail ? `\n${tail}` : ""}\nFull output: ${logName}`);
    process.exit(1);
  }
}

console.log(`Fabled: starting (full output of the tools: ${logName})`);

if (!values["no-build"]) {
  const output = await step("Building the web app", () => runLogged("vite", ["build"], log));
  const budget = /first visit to \/ downloads [^\n]*/.exec(output)?.[0];
  console.log(`Built the web app into dist/web${budget ? `: ${budget}` : ""}.`);
}

const before = appliedMigrations(localD1File(persistDir));
await step("Applying the D1 migrations", () => migrateLocal(persistDir, log));
const dbFile = localD1File(persistDir);
if (!dbFile) throw new Error(`No local D1 database under ${persistDir} after migrating`);
const after = appliedMigrations(dbFile);
const applied = after.filter((name) => !before.includes(name));
console.log(
  applied.length === 0
    ? `Migrations: up to date (${after.length}).`
    : `Migrations: applied ${applied.length} (${applied[0]}${applied.length > 1 ? ` … ${applied.at(-1)}` : ""}).`,
);
await seedDemoIfEmpty(dbFile, persistDir);

console.log("Starting the local server (offline chat model, local sign-in)…");
const server = spawn("wrangler", devArgs(port, persistDir), { cwd: ROOT, stdio: ["inherit", "pipe", "pipe"], env: toolEnv() });
let ready = false;
let recent = "";
const onOutput = (chunk: Buffer) => {
  log.write(chunk);
  const text = chunk.toString();
  recent = (recent + text).slice(-20_000);
  // Once running, what goes wrong is still said in the terminal.
  if (ready) for (const line of text.split("\n")) if (/\[ERROR\]|✘|Uncaught/.test(line)) console.error(line);
};
server.stdout.on("data", onOutput);
server.stderr.on("data", onOutput);
server.on("exit", (code, signal) => {
  if (!ready) {
    const tail = recent.trimEnd().split("\n").slice(-FAILURE_TAIL_LINES).join("\n");
    console.error(`The local server stopped before it was ready (${signal ?? code}):\n${tail}\nFull output: ${logName}`);
  }
  log.end(() => process.exit(code ?? 1));
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));

const deadline = Date.now() + READY_TIMEOUT_MS;
while (!ready && server.exitCode === null) {
  try {
    await (await fetch(`http://127.0.0.1:${port}/robots.txt`)).body?.cancel();
    ready = true;
  } catch {
    if (Date.now() > deadline) {
      console.error(`The local server did not answer within ${READY_TIMEOUT_MS / 1000} s; see ${logName}.`);
      server.kill("SIGTERM");
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
if (ready) console.log(`\nFabled is ready on ${url}  (Ctrl+C to stop)`);
