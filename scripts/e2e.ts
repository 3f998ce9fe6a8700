/**
 * `npm run test:e2e`: the browser tests. Starts the built app (dist/web; run
 * `npm run build` first — `npm test` does) with `wrangler dev --local` on a
 * fresh local state seeded with the demo catalog, runs Playwright (e2e/), and
 * stops the server. Extra arguments go to `playwright test`.
 *
 * Env: E2E_PORT (default 8788), CHROMIUM_PATH (default /usr/bin/chromium).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { devArgs } from "./lib/dev-args.ts";
import { seedDemo } from "./lib/seed.ts";
import { localD1File, migrateLocal, ROOT, run, toolEnv } from "./lib/tools.ts";

const port = process.env.E2E_PORT ?? "8788";
const baseUrl = `http://127.0.0.1:${port}`;
const stateDir = mkdtempSync(join(tmpdir(), "fabled-e2e-"));

await migrateLocal(stateDir);
seedDemo(localD1File(stateDir)!);

const server = spawn("wrangler", devArgs(port, stateDir), {
  cwd: ROOT,
  env: toolEnv(),
  stdio: ["ignore", "pipe", "pipe"],
  detached: true,
});
let serverLog = "";
server.stdout?.on("data", (chunk) => (serverLog += chunk));
server.stderr?.on("data", (chunk) => (serverLog += chunk));

const stop = () => {
  try {
    process.kill(-server.pid!, "SIGTERM");
  } catch {
    // already gone
  }
  rmSync(stateDir, { recursive: true, force: true });
};

let failed = false;
try {
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`wrangler dev exited:\n${serverLog}`);
    try {
      if ((await fetch(`${baseUrl}/api/tags?popular=true`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`wrangler dev did not start in 120 s:\n${serverLog}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  await run("playwright", ["test", "--config", "e2e/playwright.config.ts", ...process.argv.slice(2)], {
    env: toolEnv({ E2E_BASE_URL: baseUrl }),
  });
} catch (error) {
  failed = true;
  console.error(error instanceof Error ? error.message : error);
} finally {
  stop();
}
process.exit(failed ? 1 : 0);
