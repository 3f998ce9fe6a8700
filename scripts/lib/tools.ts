/**
 * Shared helpers for the project's Node scripts: running the project's own
 * CLIs (wrangler, vite, vitest) with Node >= 22 first on PATH and Cloudflare's
 * network features off, and finding the local D1 database file.
 */
import { spawn, type SpawnOptions } from "node:child_process";
import { existsSync, readdirSync, type WriteStream } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

/** Project root (absolute). */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** Where `npm start` keeps local D1/R2/Durable Object state. */
export const DEFAULT_PERSIST_DIR = join(ROOT, ".wrangler/state");

/** Environment for child processes: this Node first on PATH, no telemetry or remote fetches. */
export function toolEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PATH: `${dirname(process.execPath)}:${join(ROOT, "node_modules/.bin")}:${process.env.PATH ?? ""}`,
    WRANGLER_SEND_METRICS: "false",
    CLOUDFLARE_CF_FETCH_ENABLED: "false",
    NODE_NO_WARNINGS: "1",
    ...extra,
  };
}

/**
 * Runs a project CLI to completion. Resolves on exit code 0.
 * @throws Error naming the command and its exit code otherwise.
 */
export function run(command: string, args: string[], options: SpawnOptions = {}): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: "inherit", env: toolEnv(), ...options });
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      if (code === 0) resolvePromise();
      else reject(new Error(`${command} ${args.join(" ")} exited with ${signal ?? code}`));
    });
  });
}

/**
 * Runs a project CLI to completion with its output (stdout and stderr) going
 * to `log` instead of the terminal. Resolves with that output on exit code 0.
 * @throws Error naming the command and its exit code otherwise (`output` holds what it printed).
 */
export function runLogged(command: string, args: string[], log: WriteStream, options: SpawnOptions = {}): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    log.write(`\n$ ${command} ${args.join(" ")}\n`);
    let output = "";
    const child = spawn(command, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"], env: toolEnv(), ...options });
    const take = (chunk: Buffer) => {
      output += chunk.toString();
      log.write(chunk);
    };
    child.stdout?.on("data", take);
    child.stderr?.on("data", take);
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      if (code === 0) resolvePromise(output);
      else reject(Object.assign(new Error(`${command} ${args.join(" ")} exited with ${signal ?? code}`), { output }));
    });
  });
}

/** How a command run by `runByLine` ended. */
export interface LineRunEnd {
  /** It exited with code 0. */
  passed: boolean;
  /** "exit N" or the signal that ended it; why it could not start, when `started` is false. */
  detail: string;
  started: boolean;
}

/**
 * Runs a project CLI to completion, handing each line it prints (stdout and
 * stderr alike, as they come) to `onLine`. Never rejects: resolves with how
 * it ended. `env` is added to toolEnv's.
 */
export function runByLine(command: string, args: string[], onLine: (line: string) => void, env: Record<string, string> = {}): Promise<LineRunEnd> {
  return new Promise((resolvePromise) => {
    const child = spawn(command, args, { cwd: ROOT, env: toolEnv(env), stdio: ["ignore", "pipe", "pipe"] });
    for (const stream of [child.stdout, child.stderr]) createInterface({ input: stream }).on("line", onLine);
    child.on("error", (error) => resolvePromise({ passed: false, detail: error.message, started: false }));
    child.on("close", (code, signal) => resolvePromise({ passed: code === 0, detail: `exit ${signal ?? code}`, started: true }));
  });
}

/**
 * Applies the D1 migrations to the local database kept in `persistDir`;
 * with `log`, wrangler's output (a status table per migration) goes there
 * instead of the terminal.
 */
export async function migrateLocal(persistDir = DEFAULT_PERSIST_DIR, log?: WriteStream): Promise<void> {
  const args = ["d1", "migrations", "apply", "DB", "--local", "--persist-to", persistDir];
  const options = { env: toolEnv({ CI: "true" }) };
  if (log) await runLogged("wrangler", args, log, options);
  else await run("wrangler", args, options);
}

/** Names of the D1 migrations applied to the local database file `dbFile` (wrangler's `d1_migrations` table), oldest first; none before the first. */
export function appliedMigrations(dbFile: string | null): string[] {
  if (!dbFile) return [];
  const db = new DatabaseSync(dbFile, { readOnly: true });
  try {
    const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'd1_migrations'").get();
    if (!table) return [];
    return (db.prepare("SELECT name FROM d1_migrations ORDER BY id").all() as { name: string }[]).map((row) => row.name);
  } finally {
    db.close();
  }
}

/**
 * Path of the local D1 SQLite file under `persistDir` (miniflare's layout:
 * v3/d1/miniflare-D1DatabaseObject/<hash>.sqlite), or null before the first
 * migration created it.
 */
export function localD1File(persistDir = DEFAULT_PERSIST_DIR): string | null {
  const dir = join(persistDir, "v3/d1/miniflare-D1DatabaseObject");
  if (!existsSync(dir)) return null;
  const file = readdirSync(dir).find((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite");
  return file ? join(dir, file) : null;
}
