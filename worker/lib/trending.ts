/**
 * Trending score: engagement with exponential time decay, half-life 3 days
 * (DESIGN.md "Tabs"), stored so it never needs rewriting as time passes.
 *
 * An event of weight w at time t contributes w · 2^(−(now − t)/H) to the
 * decayed engagement. Ordering by Σ w_i · 2^(−(now − t_i)/H) is the same as
 * ordering by S = log2(Σ w_i · 2^(t_i/H)), because the factor 2^(−now/H) is the
 * same for every character. S is time-invariant and indexable; adding an event
 * is S' = log2(2^S + w · 2^(t/H)), computed stably as
 * max(S, x) + log2(1 + 2^(−|S − x|)) with x = log2(w) + t/H.
 * (The same construction as the "hot" rankings of news aggregators, made exact.)
 *
 * D1 applies the formula in one place, the `trending_events` view of
 * migrations/0005_trending_one_definition.sql: every writer (the favorite and
 * comment triggers, the chat's counters) inserts an event there, and its
 * constant `trending_constants.half_life_ms` is TRENDING_HALF_LIFE_MS
 * (worker/test/trending.test.ts checks that SQL and these functions agree).
 * The functions here compute the same score in TypeScript, for the seeders.
 */

/** Half-life of engagement, in ms (3 days); `trending_constants.half_life_ms` in D1. */
export const TRENDING_HALF_LIFE_MS = 3 * 24 * 60 * 60 * 1000;

/** Score of a single event of `weight` at `atMs` (ms since the epoch). */
export function trendingEventScore(atMs: number, weight = 1): number {
  return Math.log2(weight) + atMs / TRENDING_HALF_LIFE_MS;
}

/** Adds an event of `weight` at `atMs` to an existing score. */
export function trendingAdd(score: number, atMs: number, weight = 1): number {
  const x = trendingEventScore(atMs, weight);
  const hi = Math.max(score, x);
  return hi + Math.log2(1 + 2 ** -Math.abs(score - x));
}

/**
 * A starting score for a character created at `createdAtMs` that already has
 * `engagement` (views/10 + favorites + messages + comments, say) spread over
 * its life up to `nowMs`: treated as one event at the midpoint of its life,
 * plus its creation. Used by the seeders.
 */
export function trendingSeedScore(createdAtMs: number, engagement: number, nowMs: number): number {
  const created = trendingEventScore(createdAtMs, 1);
  if (engagement <= 0) return created;
  return trendingAdd(created, (createdAtMs + nowMs) / 2, engagement);
}
