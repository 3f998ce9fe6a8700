/**
 * The edge cache of visitors' catalog reads (worker/lib/edge-cache.ts,
 * docs/decisions/0010-edge-cache-and-latency.md) as route middleware, and the
 * `/api/*` default that keeps everything else out of shared caches.
 */
import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env.ts";
import { afterResponse } from "../lib/after-response.ts";
import {
  cacheControlFor,
  characterCacheKeys,
  characterCacheTag,
  EDGE_CACHE_STATUS_HEADER,
  edgeCacheKey,
  edgeCacheTtl,
  globalPurgeConfig,
  PRIVATE_CACHE_CONTROL,
  purgeEverywhere,
  type QueryValue,
  shareCacheKeys,
  shareCacheTag,
} from "../lib/edge-cache.ts";
import { parseCharacterId } from "../lib/ids.ts";
import { readSessionCookie } from "../lib/sessions.ts";
import { BOOKMARK_COOKIE, BOOKMARK_HEADER } from "./d1-session.ts";

/** Stored copies only: when the edge made the answer (epoch ms), for `Age`. */
const CACHED_AT_HEADER = "X-Edge-Cached-At";

/** Headers of a stored copy that a visitor is never sent. */
const STORED_ONLY_HEADERS = [CACHED_AT_HEADER, "Cache-Tag", "CF-Cache-Status", "Age"];

/**
 * Whether the answer may depend on who asks: the request carries a session
 * cookie (valid, expired or suspended alike) or a D1 bookmark (worker/middleware/d1-session.ts;
 * even a malformed one: it asks to read its own writes). Such requests
 * never read or fill the shared cache, and their answers are `private, no-store`.
 */
export function isPersonalRequest(c: Context<AppEnv>): boolean {
  return (
    readSessionCookie(c) !== undefined || getCookie(c, BOOKMARK_COOKIE) !== undefined || c.req.header(BOOKMARK_HEADER) !== undefined
  );
}

/** What names a cacheable answer; null when this request is not cacheable (e.g. an id that names nothing). */
export interface EdgeCacheTarget {
  /** Canonical path, ids as numbers, e.g. "/api/characters/12". */
  path: string;
  /** Tag for purging every data center (worker/lib/edge-cache.ts characterCacheTag). */
  tag?: string;
}

/**
 * The target of a character's page (`suffix` "") or of one of its
 * sub-resources (e.g. "/comments"), from the `:id` path parameter; null
 * when the id names nothing (the route then answers its 404).
 */
export function characterTarget(c: Context<AppEnv>, suffix: string): EdgeCacheTarget | null {
  let id: number;
  try {
    id = parseCharacterId(c.req.param("id") ?? "");
  } catch {
    return null;
  }
  return { path: `/api/characters/${id}${suffix}`, tag: characterCacheTag(id) };
}

/**
 * Deletes `keys` from this data center's cache (`caches.default`; the Workers
 * Cache API is per data center). Returns how many were there.
 */
export async function purgeHere(keys: readonly string[]): Promise<number> {
  const deleted = await Promise.all(keys.map((key) => caches.default.delete(key)));
  return deleted.filter(Boolean).length;
}

/**
 * After a change to character `id` (owner's edit, (de)activation, deletion,
 * a comment posted or deleted): its cached page and comments are deleted
 * from this data center's cache before the answer, so the next visitor read
 * here is fresh; with `CACHE_PURGE_ZONE_ID`/`CACHE_PURGE_API_TOKEN` every
 * data center is purged by tag after the answer (a failure is logged; the
 * copies then expire within the bound).
 */
export async function purgeCharacterCache(
  c: { readonly req: { url: string }; readonly env: Env; readonly executionCtx: Pick<ExecutionContext, "waitUntil"> },
  id: number,
): Promise<void> {
  await purgeHere(characterCacheKeys(new URL(c.req.url).origin, id));
  const global = globalPurgeConfig(c.env);
  if (global) {
    await afterResponse(
      c,
      purgeEverywhere(global, [characterCacheTag(id)]).catch((error: unknown) =>
        console.error("edge cache: global purge failed", id, error),
      ),
    );
  }
}

/**
 * After shares `tokens` are gone (revoked, their chat or its owner's account
 * deleted): their cached reads and pages are deleted from this data
 * center's cache before the answer, and with `CACHE_PURGE_ZONE_ID`/`CACHE_PURGE_API_TOKEN`
 * from every data center by tag after it (a failure is logged; the copies
 * then expire within the bound).
 */
export async function purgeShareCache(
  c: { readonly req: { url: string }; readonly env: Env; readonly executionCtx: Pick<ExecutionContext, "waitUntil"> },
  tokens: readonly string[],
): Promise<void> {
  if (tokens.length === 0) return;
  const origin = new URL(c.req.url).origin;
  await purgeHere(tokens.flatMap((token) => shareCacheKeys(origin, token)));
  const global = globalPurgeConfig(c.env);
  if (global) {
    await afterResponse(
      c,
      purgeEverywhere(global, tokens.map(shareCacheTag)).catch((error: unknown) => console.error("edge cache: share purge failed", String(error))),
    );
  }
}

export interface EdgeCacheOptions {
  target: (c: Context<AppEnv>) => EdgeCacheTarget | null;
  /**
   * Put the route's validated query (its zod output: defaults filled in,
   * every parameter the schema knows) into the key. The middleware must then
   * come after `validate("query", …)`.
   */
  validatedQuery?: boolean;
  /** Query parameters whose case and spacing do not change the answer (e.g. a creator's username). */
  caseless?: readonly string[];
  /**
   * Maps the validated query to its key form, taking out differences that
   * cannot change the answer (e.g. worker/lib/edge-cache.ts catalogCacheQuery).
   */
  keyQuery?: (query: never) => Record<string, QueryValue>;
  /** Work a cache hit still owes (e.g. counting a character page view); runs after the answer. */
  onHit?: (c: Context<AppEnv>) => Promise<unknown>;
}

/**
 * Route middleware: a visitor's GET is answered from `caches.default` under
 * the normalised key when a copy is there (`X-Edge-Cache: HIT`, `Age`),
 * otherwise by the route, whose 200 answer without `Set-Cookie` or `no-store` is stored
 * for the staleness bound (`MISS`). Personal requests (`isPersonalRequest`),
 * and every request while the bound is 0 s, pass straight to the route and
 * get `private, no-store` (`BYPASS`).
 */
export function edgeCache(options: EdgeCacheOptions) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const ttl = edgeCacheTtl(c.env);
    const target = ttl > 0 && c.req.method === "GET" && !isPersonalRequest(c) ? options.target(c) : null;
    if (!target) {
      await next();
      c.res.headers.set("Cache-Control", PRIVATE_CACHE_CONTROL);
      c.res.headers.set(EDGE_CACHE_STATUS_HEADER, "BYPASS");
      return;
    }
    const query = options.validatedQuery ? (c.req.valid as (t: "query") => Record<string, never>)("query") : {};
    // The route's validator produced the query, so it has the shape `keyQuery` takes.
    const keyed = options.keyQuery ? options.keyQuery(query as never) : query;
    const key = edgeCacheKey(new URL(c.req.url).origin, target.path, keyed, options.caseless);
    const cache = caches.default;

    const hit = await cache.match(key);
    if (hit) {
      const headers = new Headers(hit.headers);
      const cachedAt = Number(headers.get(CACHED_AT_HEADER));
      for (const name of STORED_ONLY_HEADERS) headers.delete(name);
      headers.set("Cache-Control", cacheControlFor(ttl));
      headers.set("Age", String(Number.isFinite(cachedAt) ? Math.max(0, Math.floor((Date.now() - cachedAt) / 1000)) : 0));
      headers.set(EDGE_CACHE_STATUS_HEADER, "HIT");
      if (options.onHit) await afterResponse(c, options.onHit(c));
      return new Response(hit.body, { status: hit.status, headers });
    }

    await next();
    const res = c.res;
    // A route marks an answer it must not have kept (e.g. a page without its preview while D1 fails) `no-store`.
    if (res.status !== 200 || res.headers.has("Set-Cookie") || c.get("user") || /(^|[\s,])no-store([\s,]|$)/i.test(res.headers.get("Cache-Control") ?? "")) {
      res.headers.set("Cache-Control", PRIVATE_CACHE_CONTROL);
      res.headers.set(EDGE_CACHE_STATUS_HEADER, "BYPASS");
      return;
    }
    res.headers.set("Cache-Control", cacheControlFor(ttl));
    res.headers.set("Age", "0");
    res.headers.set(EDGE_CACHE_STATUS_HEADER, "MISS");
    const stored = new Response(res.clone().body, res);
    stored.headers.delete(EDGE_CACHE_STATUS_HEADER);
    stored.headers.delete("Age");
    // The edge keeps its copy for the whole bound (browsers get the split of cacheControlFor).
    stored.headers.set("Cache-Control", `public, max-age=${ttl}`);
    stored.headers.set(CACHED_AT_HEADER, String(Date.now()));
    if (target.tag) stored.headers.set("Cache-Tag", target.tag);
    await afterResponse(c, cache.put(key, stored));
  });
}

/**
 * `/api/*` default: an answer that says nothing about caching, or sets a
 * cookie without already forbidding shared caches (`private` / `no-store`),
 * is `private, no-store` — only what `edgeCache` marks public may be kept by
 * a shared cache or a browser, and never with a cookie.
 */
export const privateByDefault = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  const cacheControl = c.res.headers.get("Cache-Control");
  if (!cacheControl || (c.res.headers.has("Set-Cookie") && !/(^|[\s,])(private|no-store)([\s,]|$)/i.test(cacheControl))) {
    c.res.headers.set("Cache-Control", PRIVATE_CACHE_CONTROL);
  }
});
