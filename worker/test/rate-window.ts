/**
 * Bursts against a rate limiter in tests. The local limiter (miniflare's)
 * counts in fixed windows aligned to the wall clock (`floor(now / period)`),
 * like Cloudflare's: a burst that straddles a minute boundary is counted in
 * two windows and never reaches the limit.
 */

/** Waits, if needed, until the current minute has at least `budgetMs` (ms) left, so a burst lands in one window. */
export async function inOneWindow(budgetMs = 15_000): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < budgetMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}
