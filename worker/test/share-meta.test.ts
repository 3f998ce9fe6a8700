/**
 * Shareable pages as a link preview or a crawler reads them: the raw HTML of
 * `/character/{id}` and `/u/{username}` (the SPA shell, web/index.html, with
 * the page's title, description, Open Graph and Twitter tags and canonical
 * URL written in), the neutral previews (NSFW, not found), and robots.txt
 * and the sitemaps. The tags are read back with HTMLRewriter, a real HTML
 * parser, and their values entity-decoded as a browser would.
 */
import { env, exports } from "cloudflare:workers";
import { decode as decodePng, encode as encodePng } from "fast-png";
import { encode as encodeJpeg } from "jpeg-js";
import { beforeAll, describe, expect, it } from "vitest";
import { fontText, wrapRuns } from "../lib/share-image/picture.ts";
import { SITEMAP_PAGE_SIZE } from "../lib/sitemap.ts";
import { join } from "./chat-client.ts";
import { call, json } from "./creator-api.ts";
import { clearCatalog, insertCharacter, signIn } from "./fixtures.ts";
import { startChat } from "./room-chat.ts";

const ORIGIN = "http://localhost";

function get(path: string, init: RequestInit = {}): Promise<Response> {
  return exports.default.fetch(new URL(path, ORIGIN), init);
}

/** The character references a browser decodes in the values we write. */
function decode(text: string): string {
  return text.replace(/&(quot|amp|lt|gt|#39|apos);/g, (_, name: string) =>
    ({ quot: '"', amp: "&", lt: "<", gt: ">", "#39": "'", apos: "'" })[name]!,
  );
}

interface Head {
  html: string;
  titles: string[];
  /** `property` or `name` → every `content` with that key, decoded. */
  meta: Map<string, string[]>;
  canonical: string[];
  hasRoot: boolean;
  scripts: string[];
  /** Names of every element in the document, in order. */
  elements: string[];
}

/** Parses a page the way a link preview does (no JavaScript). */
async function readPage(res: Response): Promise<Head> {
  const html = await res.text();
  const head: Head = { html, titles: [], meta: new Map(), canonical: [], hasRoot: false, scripts: [], elements: [] };
  let title: string | null = null;
  await new HTMLRewriter()
    .on("*", { element: (element) => void head.elements.push(element.tagName) })
    .on("meta", {
      element(element) {
        const key = element.getAttribute("property") ?? element.getAttribute("name");
        const content = element.getAttribute("content");
        if (key === null || content === null) return;
        head.meta.set(key, [...(head.meta.get(key) ?? []), decode(content)]);
      },
    })
    .on("title", {
      element(element) {
        title = "";
        element.onEndTag(() => {
          head.titles.push(decode(title!));
          title = null;
        });
      },
      text(chunk) {
        title += chunk.text;
      },
    })
    .on('link[rel="canonical"]', { element: (element) => void head.canonical.push(decode(element.getAttribute("href") ?? "")) })
    .on("div#root", { element: () => void (head.hasRoot = true) })
    .on("script[src]", { element: (element) => void head.scripts.push(element.getAttribute("src")!) })
    .transform(new Response(html))
    .text();
  return head;
}

/** The one value of a meta tag (fails on none or several). */
function one(head: Head, key: string): string {
  const values = head.meta.get(key) ?? [];
  expect(values, `${key} once`).toHaveLength(1);
  return values[0]!;
}

async function setCharacter(id: number, columns: Record<string, string | number | null>): Promise<void> {
  const names = Object.keys(columns);
  await env.DB.prepare(`UPDATE characters SET ${names.map((n) => `${n} = ?`).join(", ")} WHERE id = ?`)
    .bind(...Object.values(columns), id)
    .run();
}

async function insertUser(user: {
  username: string;
  name?: string | null;
  firstName?: string | null;
  profileImageUrl?: string | null;
  createdAt?: number;
}): Promise<string> {
  const id = crypto.randomUUID();
  await env.DB.prepare(
    "INSERT INTO users (id, email, first_name, name, username, profile_image_url, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
  )
    .bind(id, `${id}@example.test`, user.firstName ?? null, user.name ?? null, user.username, user.profileImageUrl ?? null, user.createdAt ?? Date.now())
    .run();
  return id;
}

beforeAll(async () => {
  await clearCatalog();
});

describe("GET /character/{id}", () => {
  it("writes the character's preview into the SPA shell, with absolute URLs", async () => {
    const id = await insertCharacter({ name: "Mira Vale", description: "A lighthouse keeper who collects   the\nsea's secrets.", creator: "inkwell" });
    await setCharacter(id, { avatar_url: "/objects/avatars/someone/portrait" });

    const res = await get(`/character/${id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/html/);
    const head = await readPage(res);

    expect(head.titles).toEqual(["Mira Vale — Fabled"]);
    expect(one(head, "description")).toBe("A lighthouse keeper who collects the sea's secrets.");
    expect(one(head, "og:title")).toBe("Mira Vale by @inkwell");
    expect(one(head, "og:description")).toBe("A lighthouse keeper who collects the sea's secrets.");
    expect(one(head, "og:type")).toBe("website");
    expect(one(head, "og:site_name")).toBe("Fabled");
    expect(one(head, "og:url")).toBe(`${ORIGIN}/character/${id}`);
    expect(one(head, "og:image")).toBe(`${ORIGIN}/objects/avatars/someone/portrait`);
    expect(one(head, "og:image:alt")).toBe("Mira Vale, a character on Fabled");
    expect(one(head, "twitter:card")).toBe("summary_large_image");
    expect(one(head, "twitter:title")).toBe("Mira Vale by @inkwell");
    expect(one(head, "twitter:description")).toBe("A lighthouse keeper who collects the sea's secrets.");
    expect(one(head, "twitter:image")).toBe(`${ORIGIN}/objects/avatars/someone/portrait`);
    expect(head.canonical).toEqual([`${ORIGIN}/character/${id}`]);
    expect(head.meta.has("robots")).toBe(false);
  });

  it("keeps the shell booting and its security headers", async () => {
    const id = await insertCharacter({ name: "Shell Check" });
    const res = await get(`/character/${id}`);
    expect(res.headers.get("Content-Security-Policy")).toContain("script-src 'self'");
    expect(res.headers.get("X-Frame-Options")).toBe("DENY");
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=60");
    // The body is not the file's: no validator of the file may describe it.
    expect(res.headers.get("ETag")).toBeNull();
    const head = await readPage(res);
    expect(head.hasRoot).toBe(true);
    expect(head.scripts).toEqual(["/main.tsx"]);
    // The shell's own viewport and color-scheme stay.
    expect(one(head, "viewport")).toContain("width=device-width");
    expect(one(head, "color-scheme")).toBe("dark");
  });

  it("escapes a name and description with quotes, angle brackets and ampersands", async () => {
    const name = `Evil "Twin" <script>alert(1)</script> & 'Co' &amp;`;
    const id = await insertCharacter({ name, description: `Says "hi" <b>loudly</b> & leaves; {{char}} never <img src=x onerror=alert(1)>.` });
    const head = await readPage(await get(`/character/${id}`));

    // No element came from the data, and its markup never appears raw.
    expect(head.elements.filter((name) => ["script", "img", "b"].includes(name))).toEqual(["script"]);
    expect(head.html).not.toContain("<script>alert");
    expect(head.html).not.toContain("<img src=x");
    expect(head.html).not.toContain("<b>");
    expect(head.titles).toEqual([`${name} — Fabled`]);
    expect(one(head, "og:title")).toBe(`${name} by @tester`);
    expect(one(head, "description")).toBe(`Says "hi" <b>loudly</b> & leaves; ${name} never <img src=x onerror=alert(1)>.`);
    expect(one(head, "og:description")).toBe(one(head, "description"));
    // Nothing was split into extra elements or attributes.
    expect(head.scripts).toEqual(["/main.tsx"]);
  });

  it("cuts a long description at a word and drops roleplay asterisks", async () => {
    const words = Array.from({ length: 80 }, (_, i) => `word${i}`).join(" ");
    const id = await insertCharacter({ description: `*smiles* ${words}` });
    const description = one(await readPage(await get(`/character/${id}`)), "description");
    expect(description.startsWith("smiles word0 word1")).toBe(true);
    expect(description.endsWith("…")).toBe(true);
    expect(description.length).toBeLessThanOrEqual(201);
    expect(description).not.toContain("*");
    // Cut between words, not inside one.
    expect(description.slice(0, -1)).toMatch(/word\d+$/);
    expect(words).toContain(description.slice("smiles ".length, -1));
  });

  it("keeps an outside https avatar and shows no image without one", async () => {
    const outside = await insertCharacter({ name: "Outside" });
    await setCharacter(outside, { avatar_url: "https://images.example/a.png?size=2&x=1" });
    expect(one(await readPage(await get(`/character/${outside}`)), "og:image")).toBe("https://images.example/a.png?size=2&x=1");

    const bare = await insertCharacter({ name: "No Picture" });
    const head = await readPage(await get(`/character/${bare}`));
    expect(head.meta.has("og:image")).toBe(false);
    expect(head.meta.has("twitter:image")).toBe(false);
    expect(one(head, "twitter:card")).toBe("summary");
    expect(one(head, "og:title")).toBe("No Picture by @tester");
  });

  it("a demo character's SVG avatar is previewed by its PNG beside it; another SVG gives no picture (previews do not render SVG)", async () => {
    const demo = await insertCharacter({ name: "Caelum" });
    await setCharacter(demo, { avatar_url: "/avatars/demo/caelum-nocturne.svg" });
    const head = await readPage(await get(`/character/${demo}`));
    expect(one(head, "og:image")).toBe(`${ORIGIN}/avatars/demo/caelum-nocturne.png`);
    expect(one(head, "twitter:image")).toBe(`${ORIGIN}/avatars/demo/caelum-nocturne.png`);
    expect(one(head, "twitter:card")).toBe("summary_large_image");

    const elsewhere = await insertCharacter({ name: "Vector" });
    await setCharacter(elsewhere, { avatar_url: "https://images.example/vector.SVG" });
    const other = await readPage(await get(`/character/${elsewhere}`));
    expect(other.meta.has("og:image")).toBe(false);
    expect(one(other, "twitter:card")).toBe("summary");
  });

  it("gives an NSFW character a neutral preview without its picture, name or description", async () => {
    const id = await insertCharacter({ name: "Velvet Sin", description: "Explicit things happen in this description.", isNsfw: true });
    await setCharacter(id, { avatar_url: "/objects/avatars/someone/explicit" });
    const res = await get(`/character/${id}`);
    expect(res.status).toBe(200);
    const head = await readPage(res);

    expect(head.meta.has("og:image")).toBe(false);
    expect(head.meta.has("twitter:image")).toBe(false);
    expect(one(head, "twitter:card")).toBe("summary");
    expect(head.titles).toEqual(["Adult character — Fabled"]);
    expect(one(head, "og:title")).toBe("Adult character (18+)");
    expect(one(head, "description")).toBe("A character for adults (18+) on Fabled, the AI roleplay platform. Open the link to see it.");
    expect(one(head, "og:description")).toBe(one(head, "description"));
    expect(head.html).not.toContain("Velvet");
    expect(head.html).not.toContain("Explicit");
    expect(head.html).not.toContain("/objects/avatars/someone/explicit");
    // The page itself is still the character's.
    expect(head.canonical).toEqual([`${ORIGIN}/character/${id}`]);
  });

  it("answers 404 with a neutral preview for unknown, inactive, removed and malformed ids", async () => {
    const inactive = await insertCharacter({ name: "Sleeping Beauty", isActive: false });
    const removed = await insertCharacter({ name: "Removed Rogue" });
    await setCharacter(removed, { moderation_status: "removed" });
    const paths = [`/character/987654321`, `/character/${inactive}`, `/character/${removed}`, "/character/abc", "/character/0", "/character/"];
    for (const path of paths) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get("Content-Type"), path).toMatch(/^text\/html/);
      const head = await readPage(res);
      expect(head.titles, path).toEqual(["Character not found — Fabled"]);
      expect(one(head, "og:title")).toBe("Character not found");
      expect(one(head, "description")).toBe("This character does not exist or is no longer available on Fabled.");
      expect(one(head, "robots")).toBe("noindex");
      expect(head.canonical, path).toEqual([]);
      expect(head.meta.has("og:url")).toBe(false);
      expect(head.meta.has("og:image")).toBe(false);
      // The SPA still boots and shows its own "Character not found".
      expect(head.hasRoot, path).toBe(true);
      expect(head.html).not.toContain("Sleeping");
      expect(head.html).not.toContain("Rogue");
    }
  });

  it("accepts a trailing slash, leaves deeper paths to the SPA, and answers HEAD without a body", async () => {
    const id = await insertCharacter({ name: "Slash Friendly" });
    const slash = await readPage(await get(`/character/${id}/`));
    expect(slash.titles).toEqual(["Slash Friendly — Fabled"]);

    const deeper = await get(`/character/${id}/unknown`);
    expect(deeper.status).toBe(200);
    const plain = await readPage(deeper);
    expect(plain.hasRoot).toBe(true);
    expect(plain.titles).toEqual(["Fabled — AI Roleplay Characters"]);
    expect(plain.meta.has("og:title")).toBe(false);

    const head = await get(`/character/${id}`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });
});

describe("GET /u/{username}", () => {
  // Unique: other test files share the database, and one of them takes "@nightowl" itself.
  const owl = `nightowl${Array.from({ length: 6 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join("")}`;
  let nightowlId: string;

  beforeAll(async () => {
    // Seeded creators were stored without "@" (scripts/lib/seed.ts); chosen names have it.
    nightowlId = await insertUser({ username: owl, name: "Noor Alvi", firstName: "Noor", profileImageUrl: "/objects/avatars/noor/me" });
    await insertCharacter({ creatorId: nightowlId, creator: owl, name: "Owl One" });
    await insertCharacter({ creatorId: nightowlId, creator: owl, name: "Owl Two", isNsfw: true });
    await insertCharacter({ creatorId: nightowlId, creator: owl, name: "Owl Hidden", isActive: false });
    const removed = await insertCharacter({ creatorId: nightowlId, creator: owl, name: "Owl Removed" });
    await setCharacter(removed, { moderation_status: "removed", is_active: 0 });
  });

  it("names the creator and counts their listed characters, with and without the @, in any case", async () => {
    for (const path of [`/u/${owl}`, `/u/@${owl}`, `/u/%40${owl[0]!.toUpperCase()}${owl.slice(1)}`, `/u/${owl.toUpperCase()}/`]) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      const head = await readPage(res);
      expect(head.titles, path).toEqual([`Noor Alvi (@${owl}) — Fabled`]);
      expect(one(head, "og:title")).toBe(`Noor Alvi (@${owl})`);
      expect(one(head, "twitter:title")).toBe(`Noor Alvi (@${owl})`);
      // Active and not removed: Owl One and Owl Two.
      expect(one(head, "description")).toBe(`2 characters by @${owl} on Fabled. Browse and chat with their AI roleplay characters.`);
      expect(one(head, "og:description")).toBe(one(head, "description"));
      expect(one(head, "og:type")).toBe("profile");
      expect(one(head, "profile:username")).toBe(owl);
      expect(one(head, "og:url")).toBe(`${ORIGIN}/u/${owl}`);
      expect(head.canonical).toEqual([`${ORIGIN}/u/${owl}`]);
      expect(one(head, "og:image")).toBe(`${ORIGIN}/objects/avatars/noor/me`);
      expect(one(head, "twitter:image")).toBe(`${ORIGIN}/objects/avatars/noor/me`);
    }
  });

  it("finds a username stored with its @, and falls back to the first name and then the handle", async () => {
    await insertUser({ username: "@Quill_Fox", name: null, firstName: "Felix" });
    const head = await readPage(await get("/u/quill_fox"));
    expect(head.titles).toEqual(["Felix (@Quill_Fox) — Fabled"]);
    expect(one(head, "description")).toBe("0 characters by @Quill_Fox on Fabled. Browse and chat with their AI roleplay characters.");
    expect(head.canonical).toEqual([`${ORIGIN}/u/Quill_Fox`]);
    expect(head.meta.has("og:image")).toBe(false);
    expect(one(head, "twitter:card")).toBe("summary");

    const solo = await insertUser({ username: "@lonely_one", name: " ", firstName: null });
    await insertCharacter({ creatorId: solo, creator: "lonely_one" });
    const lonely = await readPage(await get("/u/@lonely_one"));
    expect(lonely.titles).toEqual(["lonely_one (@lonely_one) — Fabled"]);
    expect(one(lonely, "description")).toMatch(/^1 character by @lonely_one /);
  });

  it("shows the older account when a bare and an @ spelling both exist", async () => {
    await insertUser({ username: "twinname", name: "The Original", createdAt: Date.now() - 86_400_000 });
    await insertUser({ username: "@twinname", name: "The Impostor" });
    for (const path of ["/u/twinname", "/u/@twinname"]) {
      const head = await readPage(await get(path));
      expect(head.titles, path).toEqual(["The Original (@twinname) — Fabled"]);
      expect(head.html).not.toContain("Impostor");
    }
  });

  it("escapes a display name with quotes and angle brackets", async () => {
    await insertUser({ username: "@markup_fan", name: `"Bold" <b>Me</b> & you` });
    const head = await readPage(await get("/u/markup_fan"));
    expect(head.elements).not.toContain("b");
    expect(head.html).not.toContain("<b>");
    expect(head.titles).toEqual([`"Bold" <b>Me</b> & you (@markup_fan) — Fabled`]);
    expect(one(head, "og:title")).toBe(`"Bold" <b>Me</b> & you (@markup_fan)`);
  });

  it("answers 404 with a neutral preview for unknown and impossible names", async () => {
    for (const path of ["/u/nobody_here_at_all", "/u/@", "/u/bad-name!", "/u/@@nightowl", `/u/${"a".repeat(40)}`]) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      const head = await readPage(res);
      expect(head.titles, path).toEqual(["Creator not found — Fabled"]);
      expect(one(head, "description")).toBe("There is no creator with this name on Fabled.");
      expect(head.canonical).toEqual([]);
      expect(head.meta.has("og:image")).toBe(false);
      expect(head.hasRoot).toBe(true);
    }
  });
});

describe("GET /s/{token}", () => {
  /** A share of a chat with `characterId` where the person said `line`; returns its token. */
  async function sharedStory(characterId: number, line: string): Promise<string> {
    const mira = await signIn({ firstName: "Mira" });
    const chat = await startChat(mira, characterId);
    const { socket } = await join(mira, chat.id);
    await socket.chat(chat.id, line);
    socket.close();
    return (await json<{ token: string }>(await call(`/api/conversations/${chat.id}/shares`, { method: "POST", user: mira, body: {} }), 201)).token;
  }

  it("previews the story (title, cast, first lines after the greeting, the character's picture), never indexed", async () => {
    const id = await insertCharacter({ name: "Wren Hale" });
    await setCharacter(id, { avatar_url: "/objects/avatars/someone/wren" });
    const token = await sharedStory(id, "We sail at dawn, <captain> & crew.");
    const res = await get(`/s/${token}`);
    expect(res.status).toBe(200);
    // The page is kept by the edge cache, which this test project runs switched off (shares.test.ts turns it on).
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");
    const head = await readPage(res);
    expect(head.hasRoot).toBe(true);
    expect(head.titles).toEqual(["Chat with Wren Hale — Fabled"]);
    expect(one(head, "og:title")).toBe("Chat with Wren Hale · a story with Wren Hale");
    expect(one(head, "og:description")).toMatch(/^Mira: We sail at dawn, <captain> & crew\. Wren Hale: /);
    expect(one(head, "og:type")).toBe("article");
    expect(one(head, "og:url")).toBe(`${ORIGIN}/s/${token}`);
    expect(one(head, "og:image")).toBe(`${ORIGIN}/s/${token}/preview.png`);
    expect(one(head, "og:image:alt")).toBe("Chat with Wren Hale: a story with Wren Hale on Fabled");
    expect(one(head, "twitter:card")).toBe("summary_large_image");
    expect(one(head, "robots")).toBe("noindex");
    expect(head.html).not.toContain("<captain>");
  });

  it("draws the story's picture: 1200×630 PNG, the character's avatar (PNG or JPEG) in its circle and the first lines beside it", async () => {
    const id = await insertCharacter({ name: "Wren Hale" });
    const key = `avatars/someone/${crypto.randomUUID()}`;
    // A solid teal avatar, so the circle's middle must be teal.
    const teal = new Uint8Array(64 * 64 * 3).map((_, i) => [20, 160, 150][i % 3]!);
    await env.AVATARS.put(key, encodePng({ width: 64, height: 64, data: teal, channels: 3, depth: 8 }));
    await setCharacter(id, { avatar_url: `/objects/${key}` });
    const token = await sharedStory(id, "We sail at dawn, captain.");
    const res = await get(`/s/${token}/preview.png`);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("image/png");
    const png = decodePng(new Uint8Array(await res.arrayBuffer()));
    expect({ width: png.width, height: png.height }).toEqual({ width: 1200, height: 630 });
    const pixel = (x: number, y: number) => Array.from(png.data.slice((y * png.width + x) * png.channels, (y * png.width + x) * png.channels + 3));
    expect(pixel(230, 315)).toEqual([20, 160, 150]);
    // Text is drawn in light colours on the dark right-hand side; the left edge is plain background.
    const light = (x0: number, x1: number, y0: number, y1: number) => {
      let n = 0;
      for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if (pixel(x, y).every((v) => v > 200)) n++;
      return n;
    };
    expect(light(440, 1140, 110, 200)).toBeGreaterThan(1000);
    expect(light(440, 1140, 260, 600)).toBeGreaterThan(1000);
    expect(light(0, 60, 20, 600)).toBe(0);

    // A JPEG avatar is drawn too (lossy: within a few steps of the colour).
    const jpegId = await insertCharacter({ name: "Moss Vale" });
    const jpegKey = `avatars/someone/${crypto.randomUUID()}`;
    const amber = new Uint8Array(64 * 64 * 4).map((_, i) => [230, 150, 40, 255][i % 4]!);
    await env.AVATARS.put(jpegKey, encodeJpeg({ width: 64, height: 64, data: amber }, 90).data);
    await setCharacter(jpegId, { avatar_url: `/objects/${jpegKey}` });
    const jpegShot = await get(`/s/${await sharedStory(jpegId, "Moss on the stones.")}/preview.png`);
    expect(jpegShot.status).toBe(200);
    const drawn = decodePng(new Uint8Array(await jpegShot.arrayBuffer()));
    const at = (315 * drawn.width + 230) * drawn.channels;
    const middle = Array.from(drawn.data.slice(at, at + 3));
    [230, 150, 40].forEach((value, c) => expect(Math.abs(middle[c]! - value)).toBeLessThanOrEqual(6));

    // Without a PNG or JPEG avatar: a monogram, still a picture.
    const plain = await insertCharacter({ name: "Quill" });
    const plainToken = await sharedStory(plain, "Ink and paper.");
    const monogram = await get(`/s/${plainToken}/preview.png`);
    expect(monogram.status).toBe(200);
    expect(decodePng(new Uint8Array(await monogram.arrayBuffer())).width).toBe(1200);
  });

  it("keeps an NSFW story neutral, and answers 404 (noindex) for an unknown or malformed token", async () => {
    const id = await insertCharacter({ name: "Velvet Noir", isNsfw: true });
    const token = await sharedStory(id, "A line for adults only.");
    const head = await readPage(await get(`/s/${token}`));
    expect(one(head, "og:title")).toBe("Adult story (18+)");
    expect(head.html).not.toContain("Velvet Noir");
    expect(head.html).not.toContain("adults only");
    expect(head.meta.has("og:image")).toBe(false);
    expect((await get(`/s/${token}/preview.png`)).status).toBe(404);
    for (const path of [`/s/${"A".repeat(22)}/preview.png`, "/s/nope/preview.png"]) expect((await get(path)).status).toBe(404);
    for (const path of [`/s/${"A".repeat(22)}`, "/s/nope"]) {
      const res = await get(path);
      expect(res.status).toBe(404);
      const missing = await readPage(res);
      expect(one(missing, "robots")).toBe("noindex");
      expect(missing.hasRoot).toBe(true);
    }
  });
});

describe("the share picture's text", () => {
  it("folds what the 8×8 font lacks to ASCII: accents dropped, typographic marks plain, asterisks gone, other scripts \"?\"", () => {
    expect(fontText("  *Café*  \u201cnaïve\u201d \u2014 it\u2019s\u2026 \n ok ")).toBe('Cafe "naive" - it\'s... ok');
    expect(fontText("雪 Yuki")).toBe("? Yuki");
  });

  it("wraps at spaces into at most the lines given, ending with \"...\" when text is left over", () => {
    const white = [255, 255, 255] as const;
    const text = (lines: { text: string }[][]) => lines.map((line) => line.map((run) => run.text).join(""));
    expect(text(wrapRuns([{ text: "the lamp is lit tonight", color: white }], 10, 3))).toEqual(["the lamp", "is lit", "tonight"]);
    const cut = text(wrapRuns([{ text: "the lamp is lit tonight again", color: white }], 10, 2));
    expect(cut).toEqual(["the lamp", "is lit..."]);
    expect(cut.every((line) => line.length <= 10)).toBe(true);
    expect(text(wrapRuns([{ text: "Supercalifragilistic", color: white }], 8, 1))).toEqual(["Super..."]);
    expect(text(wrapRuns([{ text: "Supercalifragilistic", color: white }], 8, 3))).toEqual(["Supercal", "ifragili", "stic"]);
  });
});

describe("robots.txt and sitemaps", () => {
  it("robots.txt allows the site, keeps crawlers out of the API but its public reads, and names the sitemap", async () => {
    const res = await get("/robots.txt");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/plain/);
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=3600");
    const lines = (await res.text()).split("\n");
    expect(lines[0]).toBe("User-agent: *");
    expect(lines).toEqual(
      expect.arrayContaining(["Allow: /", "Disallow: /api/", "Allow: /api/characters", "Allow: /api/tags", "Disallow: /chat/", "Disallow: /my-characters"]),
    );
    expect(lines).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`);
  });

  describe("sitemaps", () => {
    let listed: number;
    let nsfw: number;
    let inactive: number;
    let removed: number;
    let far: number;

    beforeAll(async () => {
      listed = await insertCharacter({ name: "Mapped" });
      await setCharacter(listed, { updated_at: Date.UTC(2026, 0, 2, 3, 4, 5) });
      nsfw = await insertCharacter({ isNsfw: true });
      inactive = await insertCharacter({ isActive: false });
      removed = await insertCharacter();
      await setCharacter(removed, { moderation_status: "removed" });
      // A character in the third block of ids: pages 1–3 exist, page 2 may be empty.
      far = 2 * SITEMAP_PAGE_SIZE + 17;
      await env.DB.prepare(
        "INSERT INTO characters (id, name, description, creator, personality, updated_at) VALUES (?, 'Far Away', 'A character far along the ids.', 'tester', 'Calm.', ?)",
      )
        .bind(far, Date.UTC(2026, 1, 3))
        .run();
    });

    async function xml(path: string): Promise<string> {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("Content-Type")).toBe("application/xml; charset=utf-8");
      expect(res.headers.get("Cache-Control")).toBe("public, max-age=3600");
      return res.text();
    }

    const locs = (body: string) => [...body.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]);

    it("sitemap.xml is an index of Home's sitemap and one page per block of ids", async () => {
      const { maxId } = (await env.DB.prepare("SELECT max(id) AS maxId FROM characters").first<{ maxId: number }>())!;
      const body = await xml("/sitemap.xml");
      expect(body).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<sitemapindex xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/);
      const pages = Math.ceil(maxId / SITEMAP_PAGE_SIZE);
      expect(pages).toBeGreaterThanOrEqual(3);
      expect(locs(body)).toEqual([
        `${ORIGIN}/sitemaps/pages.xml`,
        ...Array.from({ length: pages }, (_, i) => `${ORIGIN}/sitemaps/characters-${i + 1}.xml`),
      ]);
    });

    it("lists Home", async () => {
      expect(locs(await xml("/sitemaps/pages.xml"))).toEqual([`${ORIGIN}/`]);
    });

    it("a page lists its block's active, SFW, non-removed characters with lastmod", async () => {
      const first = await xml("/sitemaps/characters-1.xml");
      expect(first).toContain(`<url><loc>${ORIGIN}/character/${listed}</loc><lastmod>2026-01-02T03:04:05.000Z</lastmod></url>`);
      const firstLocs = locs(first);
      expect(firstLocs).not.toContain(`${ORIGIN}/character/${nsfw}`);
      expect(firstLocs).not.toContain(`${ORIGIN}/character/${inactive}`);
      expect(firstLocs).not.toContain(`${ORIGIN}/character/${removed}`);
      expect(firstLocs).not.toContain(`${ORIGIN}/character/${far}`);
      // Every listed character of the block, nothing else.
      const { results } = await env.DB.prepare(
        "SELECT id FROM characters WHERE id <= ? AND is_active = 1 AND is_nsfw = 0 AND moderation_status != 'removed' ORDER BY id",
      )
        .bind(SITEMAP_PAGE_SIZE)
        .all<{ id: number }>();
      expect(firstLocs).toEqual(results.map((row) => `${ORIGIN}/character/${row.id}`));

      expect(locs(await xml("/sitemaps/characters-2.xml"))).toEqual([]);
      expect(await xml("/sitemaps/characters-3.xml")).toContain(
        `<url><loc>${ORIGIN}/character/${far}</loc><lastmod>2026-02-03T00:00:00.000Z</lastmod></url>`,
      );
    });

    it("answers 404 for pages the index does not list", async () => {
      const { maxId } = (await env.DB.prepare("SELECT max(id) AS maxId FROM characters").first<{ maxId: number }>())!;
      const beyond = Math.ceil(maxId / SITEMAP_PAGE_SIZE) + 1;
      for (const path of [`/sitemaps/characters-${beyond}.xml`, "/sitemaps/characters-0.xml", "/sitemaps/characters-x.xml", "/sitemaps/other.xml"]) {
        const res = await get(path);
        expect(res.status, path).toBe(404);
        expect(await res.json()).toEqual({ error: "Sitemap not found", code: "not_found" });
      }
    });
  });
});
