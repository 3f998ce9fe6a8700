/**
 * `Server-Timing` of every `/api/*` answer, read by scripts/bench-catalog.ts:
 * `app;dur=MS` (time spent in the Worker, ms; workerd's clock advances across
 * I/O, so this includes the D1 queries) and `d1;desc="reads=N writes=M trips=T"`
 * (the D1 statements the request ran and the round trips they took,
 * worker/lib/d1-counter.ts).
 *
 * It replaces `c.env` with a copy whose `DB` is counted, so it must run before
 * anything that uses `c.env.DB`; a later middleware that swaps `DB` for a
 * Sessions API session (`withSession`) keeps counting, since the session is
 * taken from the counted binding.
 */
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env.ts";
import { countingD1, type D1Counts } from "../lib/d1-counter.ts";

export const serverTiming = createMiddleware<AppEnv>(async (c, next) => {
  const started = performance.now();
  const counts: D1Counts = { reads: 0, writes: 0, trips: 0 };
  c.env = { ...c.env, DB: countingD1(c.env.DB, counts) };
  try {
    await next();
  } finally {
    c.res.headers.set(
      "Server-Timing",
      `app;dur=${(performance.now() - started).toFixed(2)}, d1;desc="reads=${counts.reads} writes=${counts.writes} trips=${counts.trips}"`,
    );
  }
});
