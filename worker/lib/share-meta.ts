/**
 * Link previews of shareable pages (issue "Finding and following",
 * "Shareable pages"): what a chat app, a social network or a search engine
 * sees in the raw HTML of `/character/{id}` and `/u/{username}` without
 * running JavaScript — `<title>`, `<meta name="description">`, Open Graph
 * (https://ogp.me) and Twitter card tags
 * (https://developer.x.com/en/docs/x-for-websites/cards/overview/markup) and
 * `<link rel="canonical">`, written into the SPA shell (the static assets'
 * index.html) at the edge with HTMLRewriter.
 *
 * Rules:
 * - Every URL is absolute, on the request's origin (a preview is read away
 *   from the page, so relative URLs mean nothing there).
 * - An NSFW character gets a neutral preview: no picture, no name, no
 *   description — a link pasted into a group chat must not show adult content.
 * - A character that does not exist, is inactive or was removed by moderation
 *   gets a neutral "not found" preview and status 404, without a canonical URL;
 *   the SPA still boots and shows its own 404 (or, for the owner of an
 *   inactive character, the character — the SPA decides from the API).
 * - A creator page names the person, their "@" username and how many
 *   characters they have listed; an unknown name gets the "not found" preview.
 *
 * Escaping: values never become HTML text by hand. The shell's own tags are
 * changed with `setAttribute`/`setInnerContent`; new tags are appended as a
 * constant skeleton (keys only, no values) and a second HTMLRewriter pass
 * fills each one's value with `setAttribute`. `setInnerContent` escapes
 * `<`, `>` and `&`; `setAttribute` escapes only `"` (all a double-quoted
 * value needs to stay one value), so attribute values get `&`, `<` and `>`
 * escaped first (attributeValue): a text containing "&amp;" reads back as
 * written, and no "<tag" of a name ever appears in the raw HTML, even for
 * scrapers that do not parse attributes properly.
 */
import { replaceMacros } from "../../schema/macros.ts";
import type { ShareImageInput } from "./share-image/picture.ts";
import { listedSql } from "./listable.ts";

/** The site's name in titles and `og:site_name`. */
export const SITE_NAME = "Fabled";

/** Longest description in a preview, characters (before "…"); longer texts are cut at a word. */
export const MAX_PREVIEW_DESCRIPTION = 200;

/** A `<meta>` keyed by `property` (Open Graph) or `name` (Twitter, robots). */
interface MetaTag {
  kind: "meta";
  attribute: "property" | "name";
  key: string;
  content: string;
}

/** `<link rel="canonical" href>`. */
interface CanonicalLink {
  kind: "canonical";
  href: string;
}

/** What a shareable page's HTML says about it. */
export interface SharePreview {
  /** HTTP status of the page: 404 for a character or person that cannot be shown. */
  status: 200 | 404;
  /** `<title>` text. */
  title: string;
  /** `<meta name="description">`, `og:description` and `twitter:description`. */
  description: string;
  /** `og:title` and `twitter:title`. */
  headline: string;
  /** `og:type`: "profile" for a person, "article" for a shared story, "website" otherwise. */
  type: "website" | "profile" | "article";
  /** Absolute canonical URL (`<link rel="canonical">`, `og:url`); null on a 404. */
  url: string | null;
  /** Absolute picture URL and its text alternative; null for none (NSFW, no avatar, 404). */
  image: { url: string; alt: string } | null;
  /** `profile:username` (without "@") of a person's page. */
  username?: string;
  /** Keep it out of search engines (`<meta name="robots" content="noindex">`): unlisted pages, e.g. a shared chat. */
  noindex?: boolean;
}

/** The tags a preview adds to the shell's `<head>`, in order. */
export function previewTags(preview: SharePreview): (MetaTag | CanonicalLink)[] {
  const og = (key: string, content: string): MetaTag => ({ kind: "meta", attribute: "property", key, content });
  const named = (key: string, content: string): MetaTag => ({ kind: "meta", attribute: "name", key, content });
  const tags: (MetaTag | CanonicalLink)[] = [];
  if (preview.url) tags.push({ kind: "canonical", href: preview.url });
  tags.push(og("og:site_name", SITE_NAME), og("og:type", preview.type), og("og:title", preview.headline));
  tags.push(og("og:description", preview.description));
  if (preview.url) tags.push(og("og:url", preview.url));
  if (preview.username) tags.push(og("profile:username", preview.username));
  if (preview.image) tags.push(og("og:image", preview.image.url), og("og:image:alt", preview.image.alt));
  tags.push(named("twitter:card", preview.image ? "summary_large_image" : "summary"));
  tags.push(named("twitter:title", preview.headline), named("twitter:description", preview.description));
  if (preview.image) tags.push(named("twitter:image", preview.image.url), named("twitter:image:alt", preview.image.alt));
  // A 404 is not indexed anyway; said for crawlers that read only the HTML.
  if (preview.status === 404 || preview.noindex) tags.push(named("robots", "noindex"));
  return tags;
}

/** `value` for `setAttribute`, which escapes only `"`: `&`, `<` and `>` as entities. */
function attributeValue(value: string): string {
  return value.replace(/[&<>]/g, (ch) => (ch === "&" ? "&amp;" : ch === "<" ? "&lt;" : "&gt;"));
}

/** Marks the appended skeleton tags until the second pass has filled them. */
const SLOT_ATTRIBUTE = "data-fabled-share";

/** The shell's own tags a preview replaces (so a default in index.html is never doubled). */
const REPLACED_TAGS = 'meta[property^="og:"], meta[property^="profile:"], meta[name^="twitter:"], meta[name="robots"], link[rel="canonical"]';

/**
 * Writes `preview` into the SPA shell `shell` (the static assets' index.html)
 * and returns the page: the preview's status, the shell's headers without its
 * validators (the body differs from the file's), and `Cache-Control` public
 * for a minute (the preview is the same for everyone; a short life keeps a
 * renamed or deactivated character's old preview from lingering).
 */
export function renderPreview(shell: Response, preview: SharePreview): Response {
  const tags = previewTags(preview);
  // Keys come from previewTags (constants of this module), never from data.
  const skeleton = tags
    .map((tag, index) =>
      tag.kind === "canonical"
        ? `<link rel="canonical" ${SLOT_ATTRIBUTE}="${index}" />`
        : `<meta ${tag.attribute}="${tag.key}" ${SLOT_ATTRIBUTE}="${index}" />`,
    )
    .join("\n    ");

  const replaceDefaults = new HTMLRewriter()
    .on(REPLACED_TAGS, {
      element(element) {
        element.remove();
      },
    })
    .on("head > title", {
      element(element) {
        element.setInnerContent(preview.title);
      },
    })
    .on('meta[name="description"]', {
      element(element) {
        element.setAttribute("content", attributeValue(preview.description));
      },
    })
    .on("head", {
      element(element) {
        element.append(`  ${skeleton}\n  `, { html: true });
      },
    });

  const fillSlots = new HTMLRewriter().on(`[${SLOT_ATTRIBUTE}]`, {
    element(element) {
      const tag = tags[Number(element.getAttribute(SLOT_ATTRIBUTE))];
      element.removeAttribute(SLOT_ATTRIBUTE);
      if (!tag) element.remove();
      else if (tag.kind === "canonical") element.setAttribute("href", attributeValue(tag.href));
      else element.setAttribute("content", attributeValue(tag.content));
    },
  });

  const page = fillSlots.transform(replaceDefaults.transform(shell));
  const headers = new Headers(page.headers);
  for (const name of ["ETag", "Last-Modified", "Content-Length"]) headers.delete(name);
  headers.set("Cache-Control", "public, max-age=60");
  return new Response(page.body, { status: preview.status, headers });
}

/** `text` on one line: whitespace folded, roleplay asterisks dropped, cut at a word to `max` characters plus "…". */
export function previewText(text: string, max = MAX_PREVIEW_DESCRIPTION): string {
  const flat = text.replace(/\*+/g, "").replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const atWord = cut.replace(/\s+\S*$/, "");
  return `${(atWord.length >= max / 2 ? atWord : cut).replace(/[\s,.;:!?-]+$/, "")}…`;
}

/** `value` as an absolute http(s) URL on `origin` (relative paths resolve there); null otherwise. */
export function absoluteUrl(value: string | null | undefined, origin: string): string | null {
  if (!value) return null;
  try {
    const url = new URL(value, origin);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}

/** Where the demo characters' pictures are served (web/public/avatars/demo/, scripts/generate-demo-avatars.ts). */
const DEMO_AVATAR_SVG = /^\/avatars\/demo\/([a-z0-9-]+)\.svg$/;

/**
 * A picture URL that link previews can show (`og:image`): absoluteUrl, but
 * an SVG — which Facebook, X, Slack, Discord and iMessage do not render —
 * becomes the PNG preview beside a demo avatar (`/avatars/demo/<slug>.png`),
 * and any other SVG no picture (null).
 */
export function previewImageUrl(value: string | null | undefined, origin: string): string | null {
  const absolute = absoluteUrl(value, origin);
  if (!absolute) return null;
  const url = new URL(absolute);
  if (!url.pathname.toLowerCase().endsWith(".svg")) return absolute;
  const demo = url.origin === origin ? DEMO_AVATAR_SVG.exec(url.pathname) : null;
  return demo ? `${origin}/avatars/demo/${demo[1]}.png` : null;
}

/** The neutral preview of a page that cannot be shown (404). */
export function notFoundPreview(what: "Character" | "Creator" | "Story"): SharePreview {
  const description =
    what === "Character"
      ? "This character does not exist or is no longer available on Fabled."
      : what === "Story"
        ? "This shared story does not exist or was removed on Fabled."
        : "There is no creator with this name on Fabled.";
  return {
    status: 404,
    title: `${what} not found — ${SITE_NAME}`,
    headline: `${what} not found`,
    description,
    type: "website",
    url: null,
    image: null,
  };
}

/** The neutral preview of an NSFW character: nothing of it but that it is for adults. */
export const NSFW_DESCRIPTION = "A character for adults (18+) on Fabled, the AI roleplay platform. Open the link to see it.";

/**
 * The preview of `/character/{id}` for the character `rawId` names: only a
 * character anyone may see (active, not removed by moderation); NSFW ones
 * neutral. `origin` is the request's, e.g. "https://fabled.example".
 */
export async function characterPreview(db: D1Database, rawId: string, origin: string): Promise<SharePreview> {
  if (!/^[1-9]\d{0,15}$/.test(rawId)) return notFoundPreview("Character");
  const character = await db
    .prepare(
      `SELECT id, name, description, creator, avatar_url AS avatarUrl, is_nsfw AS isNsfw FROM characters
       WHERE id = ? AND ${listedSql("")}`,
    )
    .bind(Number(rawId))
    .first<{ id: number; name: string; description: string; creator: string; avatarUrl: string | null; isNsfw: number }>();
  if (!character) return notFoundPreview("Character");
  const url = `${origin}/character/${character.id}`;
  if (character.isNsfw) {
    return {
      status: 200,
      title: `Adult character — ${SITE_NAME}`,
      headline: "Adult character (18+)",
      description: NSFW_DESCRIPTION,
      type: "website",
      url,
      image: null,
    };
  }
  const image = previewImageUrl(character.avatarUrl, origin);
  return {
    status: 200,
    title: `${character.name} — ${SITE_NAME}`,
    headline: `${character.name} by @${character.creator}`,
    // {{char}}/{{user}} read as on the character page (web/features/characters/lib/macros.ts).
    description: previewText(replaceMacros(character.description, character.name, "User")),
    type: "website",
    url,
    image: image ? { url: image, alt: `${character.name}, a character on ${SITE_NAME}` } : null,
  };
}

/** A username in a `/u/{username}` path, without its one optional leading "@": letters, digits, "_" (SPEC.md §5). */
const USERNAME_IN_PATH = /^@?([A-Za-z0-9_]{1,29})$/;

/**
 * The preview of `/u/{username}` (the creator page). The path names the
 * person with or without "@" in any letter case; usernames are stored with a
 * leading "@" (older rows without it also match). When two rows match (a
 * seeded "name" and a chosen "@name" from before usernames had one form),
 * the older account wins. The canonical URL is `/u/{username without "@"}`
 * as the person wrote it. The count is of their listed characters (active,
 * not removed), NSFW included.
 */
export async function creatorPreview(db: D1Database, rawName: string, origin: string): Promise<SharePreview> {
  const bare = USERNAME_IN_PATH.exec(rawName)?.[1];
  if (!bare) return notFoundPreview("Creator");
  const person = await db
    .prepare(
      `SELECT u.username, u.name, u.first_name AS firstName, u.profile_image_url AS profileImageUrl,
         (SELECT count(*) FROM characters c
          WHERE c.creator_id = u.id AND ${listedSql("c")}) AS characterCount
       FROM users u WHERE lower(u.username) IN (lower(?1), lower('@' || ?1))
       ORDER BY u.created_at, u.id LIMIT 1`,
    )
    .bind(bare)
    .first<{ username: string; name: string | null; firstName: string | null; profileImageUrl: string | null; characterCount: number }>();
  if (!person) return notFoundPreview("Creator");
  const handle = person.username.replace(/^@+/, "");
  const displayName = person.name?.trim() || person.firstName?.trim() || handle;
  const count = Number(person.characterCount);
  const characters = `${count.toLocaleString("en-US")} ${count === 1 ? "character" : "characters"}`;
  const image = previewImageUrl(person.profileImageUrl, origin);
  return {
    status: 200,
    title: `${displayName} (@${handle}) — ${SITE_NAME}`,
    headline: `${displayName} (@${handle})`,
    description: `${characters} by @${handle} on ${SITE_NAME}. Browse and chat with their AI roleplay characters.`,
    type: "profile",
    url: `${origin}/u/${encodeURIComponent(handle)}`,
    image: image ? { url: image, alt: `${displayName}'s profile picture` } : null,
    username: handle,
  };
}

/** The neutral description of an NSFW shared story: nothing of it but that it is for adults. */
export const NSFW_STORY_DESCRIPTION = "A story for adults (18+) shared on Fabled, the AI roleplay platform. Open the link to read it.";

/**
 * The preview of `/s/{token}` (a shared chat, DESIGN.md "Sharing and
 * forks"): always `noindex` (a share is unlisted, and not in the sitemap);
 * the title and cast as `og:title`, its first lines as the description
 * ("Name: text", after the greeting when there is more), the first cast
 * member's picture. An NSFW share is neutral, as an NSFW character's page;
 * an unknown or revoked token the "not found" preview (404).
 */
/** The path of share `token`'s picture (its `og:image`). */
export function shareImagePath(token: string): string {
  return `/s/${token}/preview.png`;
}

/** Largest avatar file read for a share picture, bytes (a larger one gets the monogram). */
const MAX_SHARE_AVATAR_BYTES = 5 * 1024 * 1024;

/**
 * What share `token`'s picture shows (worker/lib/share-image/picture.ts):
 * title, cast, the first lines (after the greeting when there are more) and
 * the first member's avatar file when it is one of ours (`/objects/…` in
 * R2; a URL elsewhere is never fetched). Null for an unknown or malformed
 * token and for an NSFW share (its preview has no picture).
 */
export async function storyImageSource(env: { DB: D1Database; AVATARS: R2Bucket }, token: string): Promise<ShareImageInput | null> {
  if (!/^[A-Za-z0-9_-]{22}$/.test(token)) return null;
  const share = await env.DB.prepare(
    `SELECT s.title, s.characters, s.is_nsfw AS isNsfw,
       (SELECT json_group_array(json_array(m.author_name, m.content)) FROM
          (SELECT author_name, content FROM share_messages WHERE share_token = s.token AND kind = 'text' ORDER BY position LIMIT 4) m) AS lines
     FROM shares s WHERE s.token = ?`,
  )
    .bind(token)
    .first<{ title: string; characters: string; isNsfw: number; lines: string }>();
  if (!share || share.isNsfw) return null;
  const cast = JSON.parse(share.characters) as { name: string; avatarUrl: string | null }[];
  const lines = JSON.parse(share.lines) as [string, string][];
  const shown = lines.length > 1 ? lines.slice(1) : lines;
  let avatar: Uint8Array | null = null;
  const url = cast[0]?.avatarUrl;
  if (url?.startsWith("/objects/")) {
    try {
      const object = await env.AVATARS.get(decodeURIComponent(url.slice("/objects/".length)));
      if (object && object.size <= MAX_SHARE_AVATAR_BYTES) avatar = new Uint8Array(await object.arrayBuffer());
    } catch (error) {
      console.warn("share picture: avatar unreadable", String(error));
    }
  }
  return { title: share.title, cast: cast.map((member) => member.name), lines: shown.map(([name, text]) => ({ name, text })), avatar };
}

export async function storyPreview(db: D1Database, token: string, origin: string): Promise<SharePreview> {
  if (!/^[A-Za-z0-9_-]{22}$/.test(token)) return { ...notFoundPreview("Story"), noindex: true };
  const share = await db
    .prepare(
      `SELECT s.title, s.characters, s.shared_by AS sharedBy, s.is_nsfw AS isNsfw,
         (SELECT json_group_array(json_array(m.author_name, m.content)) FROM
            (SELECT author_name, content FROM share_messages WHERE share_token = s.token AND kind = 'text' ORDER BY position LIMIT 4) m) AS lines
       FROM shares s WHERE s.token = ?`,
    )
    .bind(token)
    .first<{ title: string; characters: string; sharedBy: string; isNsfw: number; lines: string }>();
  if (!share) return { ...notFoundPreview("Story"), noindex: true };
  const url = `${origin}/s/${token}`;
  if (share.isNsfw) {
    return { status: 200, title: `Adult story — ${SITE_NAME}`, headline: "Adult story (18+)", description: NSFW_STORY_DESCRIPTION, type: "article", url, image: null, noindex: true };
  }
  const cast = JSON.parse(share.characters) as { name: string; avatarUrl: string | null }[];
  const lines = JSON.parse(share.lines) as [string, string][];
  // The greeting alone rarely says what happened: start after it when the story has more.
  const shown = lines.length > 1 ? lines.slice(1) : lines;
  const description = previewText(shown.map(([name, text]) => `${name}: ${text}`).join(" "));
  const names = cast.map((member) => member.name);
  return {
    status: 200,
    title: `${share.title} — ${SITE_NAME}`,
    headline: `${share.title} · a story with ${names.join(", ")}`,
    description: description || `A story with ${names.join(", ")} shared by ${share.sharedBy} on ${SITE_NAME}.`,
    type: "article",
    url,
    // The story's own picture: the character and the first lines, 1200×630 (storyImageSource).
    image: { url: `${origin}${shareImagePath(token)}`, alt: `${share.title}: a story with ${names.join(", ")} on ${SITE_NAME}` },
    noindex: true,
  };
}
