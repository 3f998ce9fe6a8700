/**
 * What the benchmarks (`npm run bench:chat`, `bench:catalog`, `bench:voice`)
 * share: a free port for their own `wrangler dev`, waiting until it answers,
 * a bounded pool of concurrent tasks and a percentile.
 */
import type { ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";

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
