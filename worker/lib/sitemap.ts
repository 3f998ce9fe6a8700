/**
 * `robots.txt` and the sitemaps (https://www.sitemaps.org/protocol.html) of
 * the shareable pages (issue "Finding and following", "Shareable pages").
 *
 * Layout, for a catalog of any size (10^6 characters and more):
 * - `/sitemap.xml` is a sitemap index: `/sitemaps/pages.xml` (Home) and one
 *   `/sitemaps/characters-{n}.xml` per block of SITEMAP_PAGE_SIZE character
 *   ids — page n holds the listed characters with ids
 *   ((n−1)·SIZE, n·SIZE], so a page never exceeds the protocol's 50,000 URLs,
 *   the index needs only `max(id)` (O(1) on the rowid) and each page is one
 *   rowid range scan. A block whose characters are all gone is an empty
 *   `<urlset>`, which is valid.
 * - Listed (worker/lib/listable.ts: active, hence not removed by moderation) and not NSFW — the characters a
 *   visitor sees by default. NSFW pages only ever show crawlers a neutral
 *   preview (worker/lib/share-meta.ts), so they are left out.
 * - `<lastmod>` is the character's `updated_at` (W3C datetime, UTC).
 *
 * XML values are escaped (escapeXml); the only data in them are the origin,
 * integer ids and ISO dates.
 */
import { listedSql } from "./listable.ts";

/**
 * Character ids per sitemap page. The protocol allows 50,000 URLs (and 50 MB)
 * per file; 10,000 keeps one page to ~1 MB of XML and 10,000 D1 rows read,
 * well inside a Worker request's CPU time, at 100 pages for 10^6 characters.
 */
export const SITEMAP_PAGE_SIZE = 10_000;

/** Most sitemaps one index may list (protocol limit). */
const MAX_SITEMAPS_PER_INDEX = 50_000;

/** Cache-Control of robots.txt and the sitemaps: crawlers may keep them an hour. */
export const CRAWLER_FILES_CACHE_CONTROL = "public, max-age=3600";

/** `value` with the five XML special characters as entities. */
export function escapeXml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => `&${{ "&": "amp", "<": "lt", ">": "gt", '"': "quot", "'": "apos" }[ch]};`);
}

/**
 * robots.txt: the whole site may be crawled except the API and people's own
 * pages; of the API, the public reads the SPA needs to render a character
 * page (`/api/characters`, `/api/tags`) stay open so a crawler that runs
 * JavaScript sees the page. Longest match wins (RFC 9309 §2.2.2), so the
 * `Allow` lines beat `Disallow: /api/`.
 */
export function robotsTxt(origin: string): string {
  return [
    "User-agent: *",
    "Allow: /",
    "Allow: /api/characters",
    "Allow: /api/tags",
    "Disallow: /api/",
    "Disallow: /ws",
    "Disallow: /chat/",
    "Disallow: /chats",
    "Disallow: /profile",
    "Disallow: /favorites",
    "Disallow: /my-characters",
    "Disallow: /create-character",
    "Disallow: /edit-character/",
    "",
    `Sitemap: ${origin}/sitemap.xml`,
    "",
  ].join("\n");
}

const XML_HEADER = '<?xml version="1.0" encoding="UTF-8"?>';
const SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9";

/** How many character pages the index lists: one per started block of SITEMAP_PAGE_SIZE ids. */
export async function characterSitemapCount(db: D1Database): Promise<number> {
  const row = await db.prepare("SELECT max(id) AS maxId FROM characters").first<{ maxId: number | null }>();
  const pages = Math.ceil(Number(row?.maxId ?? 0) / SITEMAP_PAGE_SIZE);
  // One slot of the index is pages.xml.
  return Math.min(pages, MAX_SITEMAPS_PER_INDEX - 1);
}

/** `/sitemap.xml`: the sitemap index. */
export async function sitemapIndex(db: D1Database, origin: string): Promise<string> {
  const base = escapeXml(origin);
  const pages = await characterSitemapCount(db);
  const entries = [`<sitemap><loc>${base}/sitemaps/pages.xml</loc></sitemap>`];
  for (let n = 1; n <= pages; n++) entries.push(`<sitemap><loc>${base}/sitemaps/characters-${n}.xml</loc></sitemap>`);
  return `${XML_HEADER}\n<sitemapindex xmlns="${SITEMAP_NS}">\n${entries.join("\n")}\n</sitemapindex>\n`;
}

/** `/sitemaps/pages.xml`: the site's own pages (Home). */
export function pagesSitemap(origin: string): string {
  return `${XML_HEADER}\n<urlset xmlns="${SITEMAP_NS}">\n<url><loc>${escapeXml(origin)}/</loc></url>\n</urlset>\n`;
}

/**
 * `/sitemaps/characters-{page}.xml`: the listed characters of block `page`
 * (1-based), by id; null when the index does not list that page.
 */
export async function charactersSitemap(db: D1Database, origin: string, page: number): Promise<string | null> {
  if (!Number.isSafeInteger(page) || page < 1 || page > (await characterSitemapCount(db))) return null;
  const { results } = await db
    .prepare(
      `SELECT id, updated_at AS updatedAt FROM characters
       WHERE id > ? AND id <= ? AND ${listedSql("", { showNsfw: false })}
       ORDER BY id`,
    )
    .bind((page - 1) * SITEMAP_PAGE_SIZE, page * SITEMAP_PAGE_SIZE)
    .all<{ id: number; updatedAt: number }>();
  const base = escapeXml(origin);
  const urls = results.map(
    (row) => `<url><loc>${base}/character/${row.id}</loc><lastmod>${new Date(row.updatedAt).toISOString()}</lastmod></url>`,
  );
  return `${XML_HEADER}\n<urlset xmlns="${SITEMAP_NS}">\n${urls.join("\n")}${urls.length ? "\n" : ""}</urlset>\n`;
}
