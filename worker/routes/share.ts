/**
 * The pages the Worker answers outside /api for crawlers and link previews
 * (issue "Finding and following", "Shareable pages"; wrangler.toml
 * `run_worker_first` sends these paths here before the static assets):
 * - `GET /character/{id}` and `GET /u/{username}`: the SPA shell (the static
 *   assets' index.html) with the page's preview written into its `<head>`
 *   (worker/lib/share-meta.ts); 404 with the same shell when there is nothing
 *   to show, so the SPA still boots and renders its own 404;
 * - `GET /s/{token}` (a shared chat, worker/routes/shares.ts): the same, and
 *   always `noindex` (share links are unlisted); a visitor's page answered
 *   from the edge cache within its staleness bound, as `/api/shares/{token}`
 *   is (worker/middleware/edge-cache.ts; purged when the share is revoked,
 *   removed or deleted with its chat or account);
 * - `GET /s/{token}/preview.png`: the story's `og:image`, 1200×630 PNG
 *   (worker/lib/share-image/picture.ts), edge-cached and purged with the page;
 *   404 for an NSFW share (its preview is neutral, without a picture);
 * - `GET /robots.txt`, `GET /sitemap.xml` (an index), `GET /sitemaps/pages.xml`
 *   and `GET /sitemaps/characters-{n}.xml` (worker/lib/sitemap.ts).
 * The security headers of worker/app.ts apply to all of them. HEAD works as
 * GET without a body (Hono).
 */
import { Hono, type Context } from "hono";
import { SHARE_TOKEN_PATTERN, shareUrl } from "../../schema/shares.ts";
import type { AppEnv } from "../env.ts";
import { shareCacheTag } from "../lib/edge-cache.ts";
import { renderShareImage } from "../lib/share-image/picture.ts";
import { characterPreview, creatorPreview, renderPreview, shareImagePath, storyImageSource, storyPreview, type SharePreview } from "../lib/share-meta.ts";
import {
  CRAWLER_FILES_CACHE_CONTROL,
  charactersSitemap,
  pagesSitemap,
  robotsTxt,
  sitemapIndex,
} from "../lib/sitemap.ts";
import { notFound } from "../lib/errors.ts";
import { edgeCache } from "../middleware/edge-cache.ts";

/** The SPA shell, as the static assets serve it for any path of the app (headers made writable). */
async function plainShell(c: Context<AppEnv>): Promise<Response> {
  const shell = await c.env.ASSETS.fetch(new Request(new URL("/", c.req.url), { method: "GET" }));
  return new Response(shell.body, shell);
}

/**
 * The SPA shell with `preview` written in. The shell is fetched fresh from the
 * assets (no conditional headers, so never a bodiless 304). When the preview
 * cannot be looked up (D1 failing), the plain shell is served: the page still
 * works, only its preview is generic.
 */
async function sharePage(c: Context<AppEnv>, lookUp: (origin: string) => Promise<SharePreview>): Promise<Response> {
  const origin = new URL(c.req.url).origin;
  const shell = await plainShell(c);
  const isHtml = shell.headers.get("Content-Type")?.startsWith("text/html") ?? false;
  if (!shell.ok || !isHtml) return shell;
  let preview: SharePreview;
  try {
    preview = await lookUp(origin);
  } catch (err) {
    console.error("share preview failed", c.req.path, err);
    // Served, never kept by the edge cache: the next visitor gets the preview once D1 answers.
    shell.headers.set("Cache-Control", "no-store");
    return shell;
  }
  return renderPreview(shell, preview);
}

function xml(c: Context<AppEnv>, body: string): Response {
  c.header("Content-Type", "application/xml; charset=utf-8");
  c.header("Cache-Control", CRAWLER_FILES_CACHE_CONTROL);
  return c.body(body, 200);
}

/**
 * The one path segment after `prefix` (a trailing "/" allowed, as the SPA's
 * router allows it), percent-decoded; null for a deeper path (the SPA's to
 * decide) or a malformed escape.
 */
function pageSegment(c: Context<AppEnv>, prefix: string): string | null {
  const rest = new URL(c.req.url).pathname.slice(prefix.length).replace(/\/$/, "");
  if (rest.includes("/")) return null;
  try {
    return decodeURIComponent(rest);
  } catch {
    return null;
  }
}

/** A shareable page `prefix` + one segment: its preview; a deeper path gets the plain shell. */
function shareRoute(prefix: string, preview: (db: D1Database, segment: string, origin: string) => Promise<SharePreview>) {
  return (c: Context<AppEnv>) => {
    const segment = pageSegment(c, prefix);
    if (segment === null) return plainShell(c);
    return sharePage(c, (origin) => preview(c.env.DB, segment, origin));
  };
}

/** A visitor's `/s/{token}` page (a well-formed token, no deeper path) is kept by the edge cache under its share's tag. */
const cachedStory = edgeCache({
  target: (c) => {
    const token = pageSegment(c, "/s/");
    return token !== null && SHARE_TOKEN_PATTERN.test(token) ? { path: shareUrl(token), tag: shareCacheTag(token) } : null;
  },
});

/** A visitor's share picture is kept by the edge cache under its share's tag, like the page. */
const cachedStoryImage = edgeCache({
  target: (c) => {
    const token = c.req.param("token") ?? "";
    return SHARE_TOKEN_PATTERN.test(token) ? { path: shareImagePath(token), tag: shareCacheTag(token) } : null;
  },
});

export const shareRoutes = new Hono<AppEnv>()
  .get("/character/*", shareRoute("/character/", characterPreview))
  .get("/u/*", shareRoute("/u/", creatorPreview))
  // Before "/s/*": the share's og:image (worker/lib/share-image/).
  .get("/s/:token/preview.png", cachedStoryImage, async (c) => {
    const source = await storyImageSource(c.env, c.req.param("token"));
    if (!source) throw notFound("This share link does not exist or was removed");
    return c.body(renderShareImage(source), 200, { "Content-Type": "image/png" });
  })
  .get("/s/*", cachedStory, shareRoute("/s/", storyPreview))
  .get("/robots.txt", (c) => {
    c.header("Cache-Control", CRAWLER_FILES_CACHE_CONTROL);
    return c.text(robotsTxt(new URL(c.req.url).origin), 200);
  })
  .get("/sitemap.xml", async (c) => xml(c, await sitemapIndex(c.env.DB, new URL(c.req.url).origin)))
  .get("/sitemaps/:file", async (c) => {
    const origin = new URL(c.req.url).origin;
    const file = c.req.param("file");
    if (file === "pages.xml") return xml(c, pagesSitemap(origin));
    const page = /^characters-([1-9]\d{0,8})\.xml$/.exec(file)?.[1];
    const body = page ? await charactersSitemap(c.env.DB, origin, Number(page)) : null;
    if (body === null) throw notFound("Sitemap not found");
    return xml(c, body);
  });
