/**
 * Shared helpers for the project's Node scripts: running the project's own
 * CLIs (wrangler, vite, vitest) with Node >= 22 first on PATH and Cloudflare's
 * network features off, and finding the local D1 database file.
 */
import { spawn, type SpawnOptions } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
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

/** Applies the D1 migrations to the local database kept in `persistDir`. */
export async function migrateLocal(persistDir = DEFAULT_PERSIST_DIR): Promise<void> {
  await run("wrangler", ["d1", "migrations", "apply", "DB", "--local", "--persist-to", persistDir], {
    env: toolEnv({ CI: "true" }),
  });
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
