/**
 * `npm run test:e2e`: the browser tests (Playwright driving Chromium, e2e/).
 *
 * Starts, side by side, each on a fresh local state seeded with the demo
 * catalog (migrated and seeded once, then copied):
 * - the app as `npm start` runs it (development, local sign-in) on E2E_PORT;
 * - the app configured for OpenID Connect against a real identity provider
 *   on loopback (oauth2-mock-server, which signs ID tokens with its own RS256
 *   key and approves every authorization request) on E2E_PORT + 1, for
 *   e2e/oidc.spec.ts. It must be a second app: with a provider configured the
 *   local sign-in does not exist, and every other spec signs in with it.
 * Needs the web build (`npm run build`; `npm test` does it first). Extra
 * arguments go to `playwright test`. Prints how long the apps took to start
 * and the tests to run.
 *
 * Env: E2E_PORT (default 8788), CHROMIUM_PATH (default /usr/bin/chromium).
 * The tests get E2E_BASE_URL, E2E_OIDC_BASE_URL and E2E_STATE_DIR (the first
 * app's local state, for `npm run moderation -- … --persist-to` in
 * e2e/moderation.spec.ts).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OAuth2Server } from "oauth2-mock-server";
import { devArgs } from "./lib/dev-args.ts";
import { seedDemo } from "./lib/seed.ts";
import { localD1File, migrateLocal, ROOT, run, toolEnv } from "./lib/tools.ts";

const port = Number(process.env.E2E_PORT ?? "8788");
const baseUrl = `http://127.0.0.1:${port}`;
const oidcBaseUrl = `http://127.0.0.1:${port + 1}`;

/** The person the loopback provider signs in. */
const OIDC_PERSON = { given_name: "Odette", family_name: "Provider", email: "odette@idp.example" };

interface App {
  server: ChildProcess;
  stateDir: string;
  log: () => string;
}

/** A fresh local state directory: migrated and seeded with the demo catalog. */
async function seededState(): Promise<string> {
  const stateDir = mkdtempSync(join(tmpdir(), "fabled-e2e-"));
  await migrateLocal(stateDir);
  seedDemo(localD1File(stateDir)!);
  return stateDir;
}

/** A copy of `stateDir` (no server has it open yet), for a second app. */
function copyOfState(stateDir: string): string {
  const copy = mkdtempSync(join(tmpdir(), "fabled-e2e-"));
  cpSync(stateDir, copy, { recursive: true });
  return copy;
}

/** Starts `wrangler dev` on `appPort` with `stateDir` (waitUntilReady tells when it answers). */
function startApp(stateDir: string, appPort: number, extraVars: Record<string, string> = {}): App {
  // Browser tests switch the visitors' edge cache off (bound 0 s): they check what a visitor sees
  // right after a write, often made straight in D1 where no purge sees it; worker/test/edge-cache.test.ts
  // covers the cache.
  const server = spawn("wrangler", devArgs(String(appPort), stateDir, { EDGE_CACHE_TTL_SECONDS: "0", ...extraVars }), {
    cwd: ROOT,
    env: toolEnv(),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let log = "";
  server.stdout?.on("data", (chunk) => (log += chunk));
  server.stderr?.on("data", (chunk) => (log += chunk));
  return { server, stateDir, log: () => log };
}

async function waitUntilReady(app: App, url: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (app.server.exitCode !== null) throw new Error(`wrangler dev exited:\n${app.log()}`);
    try {
      if ((await fetch(`${url}/api/tags?popular=true`)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`wrangler dev did not start in 120 s:\n${app.log()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function stopApp(app: App): void {
  try {
    process.kill(-app.server.pid!, "SIGTERM");
  } catch {
    // already gone
  }
}

const provider = new OAuth2Server();
await provider.issuer.keys.generate("RS256");
await provider.start(0, "127.0.0.1");
const issuer = `http://127.0.0.1:${provider.address().port}`;
provider.issuer.url = issuer;
provider.service.on("beforeTokenSigning", (token) => {
  Object.assign(token.payload, { sub: "odette-subject", email_verified: true, name: "Odette Provider", ...OIDC_PERSON });
});

const apps: App[] = [];
const stateDirs: string[] = [];
const started = performance.now();
const seconds = (from: number) => ((performance.now() - from) / 1000).toFixed(1);
let failed = false;
try {
  stateDirs.push(await seededState());
  stateDirs.push(copyOfState(stateDirs[0]!));
  // One after the other: two `wrangler dev` starting at the same moment can pick the same free
  // port for an internal socket (miniflare's "direct" entrypoint socket), and one of them then
  // dies with "Address already in use". Once the first answers, its ports are taken.
  apps.push(startApp(stateDirs[0]!, port));
  await waitUntilReady(apps[0]!, baseUrl);
  apps.push(
    startApp(stateDirs[1]!, port + 1, {
      AUTH_ISSUER: issuer,
      AUTH_CLIENT_ID: "fabled-e2e",
      AUTH_CLIENT_SECRET: "e2e-client-secret",
    }),
  );
  await waitUntilReady(apps[1]!, oidcBaseUrl);
  const ready = seconds(started);
  console.log(`e2e: both apps ready in ${ready} s`);
  const testsStarted = performance.now();
  try {
    await run("playwright", ["test", "--config", "e2e/playwright.config.ts", ...process.argv.slice(2)], {
      env: toolEnv({ E2E_BASE_URL: baseUrl, E2E_OIDC_BASE_URL: oidcBaseUrl, E2E_STATE_DIR: apps[0]!.stateDir }),
    });
  } finally {
    console.log(`e2e: the apps took ${ready} s to start, the tests ${seconds(testsStarted)} s`);
  }
} catch (error) {
  failed = true;
  console.error(error instanceof Error ? error.message : error);
} finally {
  apps.forEach(stopApp);
  for (const dir of stateDirs) rmSync(dir, { recursive: true, force: true });
  await provider.stop();
}
process.exit(failed ? 1 : 0);
