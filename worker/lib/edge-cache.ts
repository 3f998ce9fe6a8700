/**
 * The edge cache of visitors' catalog reads (docs/decisions/0010-edge-cache-and-latency.md):
 * the normalised cache key, the Cache-Control policy and its staleness bound,
 * and purging (this data center through the Workers Cache API, every data
 * center through Cloudflare's purge-by-URL API when configured).
 *
 * Free of Hono and of Worker-only globals, so the operator's CLI
 * (scripts/moderation.ts) uses the same tags and the same purge call. The
 * middleware that reads and writes `caches.default` is
 * worker/middleware/edge-cache.ts.
 */
import type { CatalogQuery } from "../../schema/inputs.ts";
import { searchTerms } from "./catalog-search.ts";
import { tagFilterNames } from "./catalog-tag-counts.ts";

/**
 * Default staleness bound, seconds: a visitor anywhere sees a change at most
 * this long after it was made (edge copy and browser copy together, see
 * `cacheControlFor`). Overridden by the `EDGE_CACHE_TTL_SECONDS` env value.
 */
export const DEFAULT_EDGE_CACHE_TTL_SECONDS = 30;

/** Header naming how the edge cache answered: `HIT`, `MISS` or `BYPASS` (like Cloudflare's `CF-Cache-Status`). */
export const EDGE_CACHE_STATUS_HEADER = "X-Edge-Cache";

/** What personal (or uncacheable) answers carry: no shared or browser cache may keep them. */
export const PRIVATE_CACHE_CONTROL = "private, no-store";

/**
 * The staleness bound in seconds from `EDGE_CACHE_TTL_SECONDS` (a whole
 * number 0–3600; 0 switches the edge cache off and every answer is
 * `private, no-store`); anything else, or unset, gives the default.
 */
export function edgeCacheTtl(env: { EDGE_CACHE_TTL_SECONDS?: string }): number {
  const raw = env.EDGE_CACHE_TTL_SECONDS?.trim();
  const n = raw !== undefined && /^\d{1,4}$/.test(raw) ? Number(raw) : NaN;
  return n >= 0 && n <= 3600 ? n : DEFAULT_EDGE_CACHE_TTL_SECONDS;
}

/**
 * `Cache-Control` of a public visitor answer for a staleness bound of `ttl`
 * seconds: `public, max-age=M, s-maxage=ttl, stale-while-revalidate=ttl−M`
 * with M = ⌊ttl/3⌋ (30 → 10 / 30 / 20).
 *
 * Why the bound holds end to end: the edge keeps a copy `ttl` seconds; the
 * answer carries `Age` (seconds since the edge made it), so a browser counts
 * the edge time against its own `max-age` + `stale-while-revalidate` =
 * `ttl` too, and never shows what is older than `ttl` seconds.
 */
export function cacheControlFor(ttl: number): string {
  const maxAge = Math.floor(ttl / 3);
  return `public, max-age=${maxAge}, s-maxage=${ttl}, stale-while-revalidate=${ttl - maxAge}`;
}

/** A validated query value as it goes into a key. */
export type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];

/**
 * The normalised cache key of a visitor read: `origin + path` and, sorted by
 * name, the validated query's parameters (the zod output of the route, so
 * defaults are filled in and every parameter a schema gains is included).
 *
 * Normalisation: parameters in name order; `undefined`, `null`, `""` and
 * empty lists left out (they mean "not given"); lists are sets (a tag filter
 * is "all of these"), so their items are sorted and joined with ","; text is
 * lower-cased with white space collapsed when `caseless` names it (search
 * results do not depend on case or spacing, worker/lib/catalog-search.ts
 * `searchTerms`). The request's own query string, headers and cookies never
 * enter the key.
 *
 * @param origin e.g. "https://fabled.example" (the request's origin).
 * @param path e.g. "/api/characters" (already canonical, ids as numbers).
 */
export function edgeCacheKey(
  origin: string,
  path: string,
  query: Record<string, QueryValue> = {},
  caseless: readonly string[] = [],
): string {
  const params = new URLSearchParams();
  for (const name of Object.keys(query).sort()) {
    const value = query[name];
    if (value === undefined || value === null || value === "") continue;
    let text: string;
    if (Array.isArray(value)) {
      if (value.length === 0) continue;
      text = value.map(String).sort().join(",");
    } else {
      text = String(value);
    }
    if (caseless.includes(name)) text = text.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();
    if (text !== "") params.set(name, text);
  }
  const search = params.toString();
  return `${origin}${path}${search ? `?${search}` : ""}`;
}

/** The search key of a search with no word in it (never a word: words are letters and digits only). */
export const NO_SEARCH_WORDS = "-";

/**
 * The key form of a visitor's catalog query (`GET /api/characters`): the
 * validated query with every difference that cannot change a visitor's
 * answer taken out, so equivalent queries share one copy:
 * - `search` becomes its words as the search uses them (catalog-search.ts
 *   `searchTerms`: letters and digits, lower case, no repeats, stopwords
 *   dropped when others remain, at most 12), sorted — all words are required
 *   and bm25 adds their scores, so their order and punctuation change
 *   nothing; a search without words keeps a key of its own (NO_SEARCH_WORDS);
 * - `sort=for-you` is `trending` (for visitors For You is Trending,
 *   catalog-list.ts ORDERINGS), and a catalog search has no sort at all (it
 *   is ordered by relevance; a creator's or Following search keeps its tab);
 * - `tagMode` only counts with two included tags or more (tagFilterNames).
 * Tag lists are sets (edgeCacheKey sorts them); the rest is as validated.
 */
export function catalogCacheQuery(query: CatalogQuery): Record<string, QueryValue> {
  const { search, sort, tagMode: _mode, ...rest } = query;
  const filter = tagFilterNames(query);
  const scoped = query.creator !== undefined || query.following === "true";
  return {
    ...rest,
    sort: search !== undefined && !scoped ? undefined : sort === "for-you" ? "trending" : sort,
    tagMode: filter && filter.include.length > 1 ? filter.mode : undefined,
    search: search === undefined ? undefined : searchTerms(search).sort().join(" ") || NO_SEARCH_WORDS,
  };
}

/**
 * The keys a change to character `id` makes stale: its page and its comments
 * (their list and the page's `commentCount`). Lists are not purged: they
 * expire within the staleness bound.
 */
export function characterCacheKeys(origin: string, id: number): string[] {
  return [edgeCacheKey(origin, `/api/characters/${id}`), edgeCacheKey(origin, `/api/characters/${id}/comments`)];
}

/**
 * The `Cache-Tag` the stored copies of character `id`'s page and comments
 * carry, so one purge-by-tag call removes both in every data center
 * (Cloudflare cannot purge Cache API entries by URL: see the decision record).
 */
export function characterCacheTag(id: number): string {
  return `fabled-character-${id}`;
}

/** The `Cache-Tag` of share `token`'s stored copies (its API read in both NSFW variants and its page), for one purge-by-tag call. */
export function shareCacheTag(token: string): string {
  return `fabled-share-${token}`;
}

/**
 * The keys of share `token`'s stored copies: `GET /api/shares/{token}` for
 * both values of `showNsfw`, the reading page `GET /s/{token}` (its HTML
 * with the link preview) and its picture `GET /s/{token}/preview.png`
 * (worker/routes/share.ts).
 */
export function shareCacheKeys(origin: string, token: string): string[] {
  return [
    ...["false", "true"].map((showNsfw) => edgeCacheKey(origin, `/api/shares/${token}`, { showNsfw })),
    edgeCacheKey(origin, `/s/${token}`),
    edgeCacheKey(origin, `/s/${token}/preview.png`),
  ];
}

/** Where and how to purge every data center; see `globalPurgeConfig`. */
export interface GlobalPurgeConfig {
  zoneId: string;
  apiToken: string;
  /** Cloudflare API base, default https://api.cloudflare.com/client/v4 (tests point it at a local stub). */
  apiBase: string;
}

/** Default base of Cloudflare's REST API. */
export const CLOUDFLARE_API_BASE = "https://api.cloudflare.com/client/v4";

/**
 * The purge settings from env values (Worker bindings or the CLI's process
 * env): `CACHE_PURGE_ZONE_ID`, `CACHE_PURGE_API_TOKEN` (an API token with the
 * Zone › Cache Purge permission) and optionally `CLOUDFLARE_API_BASE_URL`.
 * Null when the zone id or token is missing: purging is then local only.
 */
export function globalPurgeConfig(env: {
  CACHE_PURGE_ZONE_ID?: string;
  CACHE_PURGE_API_TOKEN?: string;
  CLOUDFLARE_API_BASE_URL?: string;
}): GlobalPurgeConfig | null {
  const zoneId = env.CACHE_PURGE_ZONE_ID?.trim();
  const apiToken = env.CACHE_PURGE_API_TOKEN?.trim();
  if (!zoneId || !apiToken) return null;
  return { zoneId, apiToken, apiBase: (env.CLOUDFLARE_API_BASE_URL?.trim() || CLOUDFLARE_API_BASE).replace(/\/+$/, "") };
}

/** Most tags one purge call carries (Cloudflare accepts up to 100 per call on every plan). */
const PURGE_TAGS_PER_CALL = 100;

/**
 * Purges every copy carrying one of `tags` in every data center with
 * Cloudflare's purge API (`POST /zones/{zone}/purge_cache` with
 * `{"tags": [...]}`), which covers Cache API entries.
 *
 * Throws an Error with Cloudflare's message when the API answers other than
 * 2xx with `success: true` (bad token, unknown zone, rate limit), or when it
 * cannot be reached.
 */
export async function purgeEverywhere(config: GlobalPurgeConfig, tags: readonly string[]): Promise<void> {
  for (let i = 0; i < tags.length; i += PURGE_TAGS_PER_CALL) {
    const res = await fetch(`${config.apiBase}/zones/${encodeURIComponent(config.zoneId)}/purge_cache`, {
      method: "POST",
      headers: { authorization: `Bearer ${config.apiToken}`, "content-type": "application/json" },
      body: JSON.stringify({ tags: tags.slice(i, i + PURGE_TAGS_PER_CALL) }),
    });
    const body = (await res.json().catch(() => null)) as { success?: boolean; errors?: { message?: string }[] } | null;
    if (!res.ok || body?.success !== true) {
      const reason = body?.errors?.map((e) => e.message).filter(Boolean).join("; ") || `HTTP ${res.status}`;
      throw new Error(`Cloudflare cache purge failed: ${reason}`);
    }
  }
}
