/**
 * What the benchmarks (`npm run bench:chat`, `bench:catalog`, `bench:voice`,
 * `bench:images`, `bench:lorebook`, `bench:memory`, `bench:expressions`)
 * share: a free port for their own `wrangler dev`, waiting until it answers,
 * fresh local state with a signed-in person and JSON calls as them, a
 * bounded pool of concurrent tasks, timing, a percentile, and the workerd
 * processes under wrangler dev (/proc). Their seeded random generator is
 * schema/seeded-random.ts `mulberry32`.
 */
import type { ChildProcess } from "node:child_process";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { DatabaseSync } from "node:sqlite";
import { localD1File, migrateLocal } from "./tools.ts";

/** A port nobody listens on now (other local servers, e.g. browser-test runs, must not answer for the bench). */
export async function freePort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return String(port);
}

/**
 * Resolves once `url` answers 2xx, polling every 500 ms.
 *
 * @throws when `child` (the `wrangler dev` serving it) exits first, or after 120 s.
 */
export async function waitForServer(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error("wrangler dev exited early");
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("wrangler dev did not start within 120 s");
}

/** Runs `task` over `items` with at most `limit` at a time; the results in the items' order. */
export async function pool<T, R>(items: T[], limit: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await task(items[i]!, i);
      }
    }),
  );
  return results;
}

/** The `p`th percentile (0–100) of ascending `sorted` by the nearest-rank method; NaN when empty. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** Milliseconds `fn` took (performance.now()). */
export function timed(fn: () => unknown): number {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

/**
 * Fresh local state in `stateDir` for a bench's own `wrangler dev`: wiped
 * (only an empty folder or an earlier run's state, wrangler's `v3/`, never
 * anything else), then the D1 migrations applied. The local D1 file's path.
 *
 * @throws when `stateDir` holds other files.
 */
export async function freshState(stateDir: string): Promise<string> {
  if (existsSync(stateDir) && readdirSync(stateDir).some((name) => name !== "v3")) {
    throw new Error(`--state-dir ${stateDir} holds other files; give an empty or new folder`);
  }
  rmSync(stateDir, { recursive: true, force: true });
  mkdirSync(stateDir, { recursive: true });
  await migrateLocal(stateDir);
  return localD1File(stateDir)!;
}

/**
 * Fresh state (freshState) with one person, `bench-{handle}@bench.fabled.local`
 * (username `@bench_{handle}`), signed in for a day; their session cookie.
 */
export async function freshStateWithPerson(stateDir: string, handle: string): Promise<string> {
  const db = new DatabaseSync(await freshState(stateDir));
  const id = randomUUID();
  const token = randomBytes(32).toString("base64url");
  db.prepare("INSERT INTO users (id, email, first_name, name, username) VALUES (?, ?, ?, ?, ?)").run(id, `bench-${handle}@bench.fabled.local`, "Bench", "Bench", `@bench_${handle}`);
  db.prepare("INSERT INTO sessions (sid, sess, expire) VALUES (?, ?, ?)").run(
    createHash("sha256").update(token).digest("hex"),
    JSON.stringify({ userId: id }),
    Date.now() + 24 * 60 * 60 * 1000,
  );
  db.close();
  return `fabled_session=${token}`;
}

/**
 * JSON calls to the bench's server at `base` as the person of `cookie`: a GET
 * without `body`, else a POST of it as JSON; the parsed answer.
 *
 * @throws when the answer is not 2xx (its status and text in the message).
 */
export function jsonApi(base: string, cookie: string): <T>(path: string, body?: unknown) => Promise<T> {
  return async <T>(path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${base}${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { cookie, origin: base, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as T;
  };
}

/** The parent of process `pid` by Linux's /proc; null once it is gone. */
function parentPid(pid: string): string | null {
  try {
    // /proc/PID/stat: "pid (comm) state ppid ..."; comm may hold spaces, so read after its ")".
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1] ?? null;
  } catch {
    return null;
  }
}

/** The command line of process `pid` (its arguments joined by NUL), by /proc; "" once it is gone. */
function commandLine(pid: string): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch {
    return "";
  }
}

/**
 * The workerd processes started under process `wranglerPid` (at any depth:
 * wrangler dev's dev proxy and the app's own, not another run's), found from
 * Linux's /proc. Throws where there is no /proc.
 */
export function workerdPids(wranglerPid: number): string[] {
  const underWrangler = (pid: string): boolean => {
    for (let at: string | null = pid, hops = 0; at && at !== "0" && hops < 16; at = parentPid(at), hops++) {
      if (at === String(wranglerPid)) return true;
    }
    return false;
  };
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => commandLine(pid).includes("workerd") && underWrangler(pid));
}

/**
 * The port of the app's own workerd behind `wrangler dev`, found from
 * Linux's /proc: wrangler dev runs two workerd processes, a dev proxy on the
 * port it was given (it forwards every request and WebSocket frame, and is
 * not there in production) and the app's on a port of the system's choice
 * (`--socket-addr=entry=127.0.0.1:0`). Of the latter's listening ports (the
 * workerd started under process `wranglerPid`: workerdPids), the one where
 * `probePath` answers 2xx. Null when it cannot be found (another layout of
 * wrangler's); throws where there is no /proc.
 */
export async function innerEntryPort(wranglerPid: number, probePath: string): Promise<string | null> {
  const appPids = workerdPids(wranglerPid).filter((pid) => commandLine(pid).includes("--socket-addr=entry=127.0.0.1:0"));
  for (const pid of appPids) {
    const inodes = new Set<string>();
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      try {
        const link = readlinkSync(`/proc/${pid}/fd/${fd}`);
        const inode = /^socket:\[(\d+)\]$/.exec(link)?.[1];
        if (inode) inodes.add(inode);
      } catch {
        // closed meanwhile
      }
    }
    // /proc/net/tcp: "sl local_address rem_address st ... inode"; st 0A is LISTEN, the port is hex.
    const ports = readFileSync(`/proc/${pid}/net/tcp`, "utf8")
      .split("\n")
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      .filter((fields) => fields[3] === "0A" && inodes.has(fields[9] ?? ""))
      .map((fields) => String(Number.parseInt(fields[1]!.split(":")[1]!, 16)));
    for (const port of ports) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}${probePath}`, { signal: AbortSignal.timeout(2_000) });
        await res.body?.cancel();
        if (res.ok) return port;
      } catch {
        // not an HTTP port of the app
      }
    }
  }
  return null;
}
