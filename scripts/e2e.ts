/**
 * `npm run test:e2e`: the browser tests (Playwright driving Chromium, e2e/).
 *
 * Starts, side by side, each on a fresh local state seeded with the demo
 * catalog (migrated and seeded once, then copied):
 * - the app as `npm start` runs it (development, local sign-in), once per
 *   shard: on E2E_PORT, and E2E_PORT + 2 for the second shard;
 * - the app configured for OpenID Connect against a real identity provider
 *   on loopback (oauth2-mock-server, which signs ID tokens with its own RS256
 *   key and approves every authorization request) on E2E_PORT + 1, for
 *   e2e/oidc.spec.ts. It must be a separate app: with a provider configured the
 *   local sign-in does not exist, and every other spec signs in with it. It
 *   starts once the shards' apps answer, beside the tests (the spec waits for
 *   it): only its two tests need it.
 *
 * Shards: the spec files are split into E2E_SHARDS (default 2) groups of
 * about equal length (SPEC_SECONDS, longest first), and each group runs in its
 * own Playwright process (one test at a time, as before) against its own app
 * and state, at the same time as the other: neither sees the other's writes
 * (the catalog counts a test reads stay its own), and the browser tests take
 * about half as long. Each shard's lines are prefixed with `[shard N]`.
 * With arguments (spec files, `-g …`), one shard runs and the arguments go
 * to `playwright test`.
 *
 * Needs the web build (`npm run build`; `npm test` does it first). Prints
 * how long the apps took to start and the tests to run.
 *
 * Env: E2E_PORT (default 8788), E2E_SHARDS (default 2), CHROMIUM_PATH
 * (default /usr/bin/chromium). Each shard's tests get E2E_BASE_URL,
 * E2E_OIDC_BASE_URL, E2E_STATE_DIR (its app's local state, for `npm run
 * moderation -- … --persist-to` in e2e/moderation.spec.ts) and
 * E2E_OUTPUT_DIR (its own test-results folder).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OAuth2Server } from "oauth2-mock-server";
import { devArgs } from "./lib/dev-args.ts";
import { seedDemo } from "./lib/seed.ts";
import { localD1File, migrateLocal, ROOT, runByLine, toolEnv } from "./lib/tools.ts";

const port = Number(process.env.E2E_PORT ?? "8788");
const oidcBaseUrl = `http://127.0.0.1:${port + 1}`;
const playwrightArgs = process.argv.slice(2);
const shardCount = playwrightArgs.length > 0 ? 1 : Math.max(1, Number(process.env.E2E_SHARDS ?? "2"));
/** Shard `i`'s app port: E2E_PORT, then E2E_PORT + 2, + 3… (E2E_PORT + 1 is the OIDC app's). */
const shardPort = (i: number) => (i === 0 ? port : port + 1 + i);

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

/**
 * Seconds each spec file's tests took in a full `npm test` with two shards
 * (2026-11-27, this 2-core machine, beside vitest: the sum of Playwright's
 * per-test times), to balance the shards; a spec not
 * listed is estimated from its length (SPEC_BYTES_PER_SECOND). Refresh from
 * a run's per-test times when a spec grows a lot.
 */
const SPEC_SECONDS: Record<string, number> = {
  account: 50,
  accounts: 95,
  blocking: 75,
  catalog: 151,
  chat: 214,
  "chat-steering": 182,
  community: 101,
  creator: 86,
  creators: 118,
  "dead-ends": 120,
  dialogs: 62,
  "first-hour": 208,
  "first-hour-chats": 167,
  "group-chat": 178,
  memory: 66,
  "model-connections": 66,
  moderation: 98,
  navigation: 20,
  oidc: 16,
  personas: 39,
  refusals: 24,
  share: 64,
  "shared-room": 105,
  "tag-filters": 68,
  voices: 76,
  // Specs of turn 4: seconds seen in single-shard runs on a loaded machine (load average 12–18), scaled to a quiet one.
  "check-ins": 60,
  expressions: 60,
  forks: 80,
  installable: 40,
  "lorebooks-attach": 150,
  lorebooks: 90,
  newcomer: 420,
  notifications: 70,
  pictures: 100,
  shares: 120,
};
/** For a spec not in SPEC_SECONDS: the suite's bytes per second of that run (250 KB in 855 s). */
const SPEC_BYTES_PER_SECOND = 290;

/**
 * The spec files (e2e/*.spec.ts) in `count` groups of about equal length
 * (SPEC_SECONDS): the longest spec first, each into the group with the least
 * so far. Paths relative to the repository, in name order within a group.
 */
function specShards(count: number): string[][] {
  const dir = join(ROOT, "e2e");
  const specs = readdirSync(dir)
    .filter((name) => name.endsWith(".spec.ts"))
    .map((name) => {
      const known = SPEC_SECONDS[name.slice(0, -".spec.ts".length)];
      return { path: `e2e/${name}`, seconds: known ?? statSync(join(dir, name)).size / SPEC_BYTES_PER_SECOND };
    })
    .sort((a, b) => b.seconds - a.seconds || a.path.localeCompare(b.path));
  const shards = Array.from({ length: count }, () => ({ paths: [] as string[], seconds: 0 }));
  for (const spec of specs) {
    const shortest = shards.reduce((min, shard) => (shard.seconds < min.seconds ? shard : min));
    shortest.paths.push(spec.path);
    shortest.seconds += spec.seconds;
  }
  return shards.map((shard) => shard.paths.sort());
}

/**
 * Runs `playwright test` with `args` and `env`, its lines prefixed with
 * `prefix` (none when empty); resolves with whether it passed.
 */
async function runPlaywright(args: string[], env: Record<string, string>, prefix: string): Promise<boolean> {
  const print = (line: string) => console.log(prefix ? `${prefix} ${line}` : line);
  const end = await runByLine("playwright", ["test", "--config", "e2e/playwright.config.ts", ...args], print, env);
  if (!end.started) console.error(`${prefix} playwright could not start: ${end.detail}`);
  return end.passed;
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
  for (let i = 0; i < shardCount; i++) stateDirs.push(copyOfState(stateDirs[0]!));
  // One after the other: two `wrangler dev` starting at the same moment can pick the same free
  // port for an internal socket (miniflare's "direct" entrypoint socket), and one of them then
  // dies with "Address already in use". Once one answers, its ports are taken.
  // stateDirs[0] is the OIDC app's; stateDirs[1 + i] shard i's.
  const shardApps: App[] = [];
  for (let i = 0; i < shardCount; i++) {
    const app = startApp(stateDirs[1 + i]!, shardPort(i));
    apps.push(app);
    shardApps.push(app);
    await waitUntilReady(app, `http://127.0.0.1:${shardPort(i)}`);
  }
  // The OIDC app starts beside the tests (e2e/oidc.spec.ts waits until it answers): only two tests use it.
  const oidcApp = startApp(stateDirs[0]!, port + 1, {
    AUTH_ISSUER: issuer,
    AUTH_CLIENT_ID: "fabled-e2e",
    AUTH_CLIENT_SECRET: "e2e-client-secret",
  });
  apps.push(oidcApp);
  void waitUntilReady(oidcApp, oidcBaseUrl).catch((error: unknown) => console.error(`e2e: the OIDC app did not start: ${error instanceof Error ? error.message : error}`));
  const ready = seconds(started);
  console.log(`e2e: ${shardApps.length === 1 ? "the app" : `${shardApps.length} apps`} ready in ${ready} s (the OIDC app starting)`);
  const testsStarted = performance.now();
  try {
    const shards = shardCount === 1 ? [playwrightArgs] : specShards(shardCount);
    const passed = await Promise.all(
      shards.map((args, i) => {
        const prefix = shardCount === 1 ? "" : `[shard ${i + 1}]`;
        if (prefix) console.log(`${prefix} ${args.join(" ")}`);
        return runPlaywright(args, {
          E2E_BASE_URL: `http://127.0.0.1:${shardPort(i)}`,
          E2E_OIDC_BASE_URL: oidcBaseUrl,
          E2E_STATE_DIR: shardApps[i]!.stateDir,
          E2E_OUTPUT_DIR: join(ROOT, shardCount === 1 ? "test-results" : `test-results/shard-${i + 1}`),
        }, prefix);
      }),
    );
    if (!passed.every(Boolean)) throw new Error(`browser tests failed in shard ${passed.flatMap((ok, i) => (ok ? [] : [i + 1])).join(", ")}`);
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
