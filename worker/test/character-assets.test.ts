/**
 * Cards with everything in them (issue 37, DESIGN.md "Character assets"):
 * `.charx` archives shaped as RisuAI writes them and PNG cards with
 * `chara-ext-asset_:N` chunks import with every asset (each URI form), the
 * files land in R2 once per content, `card.charx` gives every byte back, and
 * every refusal names its file and leaves nothing behind.
 */
import { env } from "cloudflare:workers";
import { encode as encodePng } from "fast-png";
import { strFromU8, strToU8, unzipSync, zipSync, type Zippable } from "fflate";
import encodeChunks from "png-chunks-encode";
import extractChunks from "png-chunks-extract";
import { encode as encodeText } from "png-chunk-text";
import { beforeEach, describe, expect, it } from "vitest";
import type { Character } from "../../schema/api.ts";
import { bucketKeys, call, countRows, json, TINY_PNG } from "./creator-api.ts";
import { clearCatalog, signIn, type TestUser } from "./fixtures.ts";

type Json = Record<string, any>;

/** A real `width` × `height` RGBA PNG filled with one colour (different colours: different bytes). */
const png = (rgb: [number, number, number], width = 4, height = 4) => {
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < data.length; i += 4) data.set([...rgb, 255], i);
  return encodePng({ width, height, data, channels: 4 });
};
const ascii = (text: string) => new TextEncoder().encode(text);
const withHeader = (header: number[], size = 64) => {
  const bytes = new Uint8Array(size);
  bytes.set(header);
  return bytes;
};
/** JPEG headers up to a baseline SOF0 of 2 × 2 (the pixel-size check reads it). */
const JPEG = withHeader([
  ...[0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0],
  ...[0xff, 0xc0, 0x00, 0x0b, 0x08, 0, 2, 0, 2, 0x01, 0x01, 0x11, 0x00, 0xff, 0xd9],
]);
const WEBP = withHeader([...ascii("RIFF"), 0x24, 0, 0, 0, ...ascii("WEBPVP8 "), 0x18, 0, 0, 0, 0x30, 0x01, 0x00, 0x9d, 0x01, 0x2a, 3, 0, 3, 0]);
const GIF = withHeader([...ascii("GIF89a"), 5, 0, 5, 0]);
/** An MP3 as players see it: an ID3v2 tag, then frames. */
const MP3 = withHeader([...ascii("ID3"), 4, 0, 0, 0, 0, 0, 0, 0xff, 0xfb, 0x90, 0x64], 256);

const ICON = png([200, 40, 40]);
const JOY = png([250, 220, 0]);
const SAD = png([30, 60, 200]);

const card = (assets: Json[], name = "Rika") => ({
  spec: "chara_card_v3",
  spec_version: "3.0",
  data: {
    name,
    description: "A cheerful shrine maiden who keeps a mischievous fox spirit as her companion.",
    personality: "Cheerful, teasing and kind.",
    scenario: "",
    first_mes: "*Rika waves.* Welcome to the shrine!",
    mes_example: "",
    creator_notes: "",
    system_prompt: "",
    post_history_instructions: "",
    alternate_greetings: [],
    tags: ["fantasy"],
    creator: "risu_user",
    character_version: "1",
    group_only_greetings: [],
    extensions: {},
    assets,
  },
});

/** A `.charx` as RisuAI writes it: card.json, files under assets/…, its x_meta and module beside them. */
function risuCharx(extra: Json[] = [], files: Zippable = {}): Uint8Array {
  const assets = [
    { type: "icon", uri: "embeded://assets/icon/images/main.png", name: "main", ext: "png" },
    { type: "emotion", uri: "embeded://assets/emotion/images/joy.png", name: "joy", ext: "png" },
    { type: "emotion", uri: "embeded://assets/emotion/images/sadness.png", name: "sadness", ext: "png" },
    { type: "background", uri: "embeded://assets/background/images/shrine.jpg", name: "shrine", ext: "jpg" },
    { type: "x-risu-asset", uri: "embeded://assets/other/audio/theme.mp3", name: "theme", ext: "mp3" },
    { type: "user_icon", uri: "embeded://assets/user_icon/images/me.webp", name: "me", ext: "webp" },
    ...extra,
  ];
  return zipSync({
    "card.json": strToU8(JSON.stringify(card(assets))),
    "module.risum": new Uint8Array([1, 2, 3, 4]),
    "x_meta/1.json": strToU8('{"type":"WEBP"}'),
    "assets/icon/images/main.png": [ICON, { level: 0 }],
    "assets/emotion/images/joy.png": [JOY, { level: 0 }],
    "assets/emotion/images/sadness.png": SAD,
    "assets/background/images/shrine.jpg": JPEG,
    "assets/other/audio/theme.mp3": MP3,
    "assets/user_icon/images/me.webp": WEBP,
    ...files,
  });
}

const importFile = (user: TestUser | null, body: Uint8Array, type = "application/octet-stream") =>
  call("/api/characters/import", { method: "POST", user, body, headers: { "content-type": type } });

async function bytesAt(url: string): Promise<{ bytes: Uint8Array; type: string | null; disposition: string | null }> {
  const res = await call(url);
  expect(res.status, url).toBe(200);
  return { bytes: new Uint8Array(await res.arrayBuffer()), type: res.headers.get("content-type"), disposition: res.headers.get("content-disposition") };
}

const snapshot = async () => ({
  characters: await countRows("characters"),
  assets: await countRows("character_assets"),
  objects: (await bucketKeys()).sort(),
});

beforeEach(async () => {
  await clearCatalog();
  const keys = await bucketKeys();
  if (keys.length > 0) await env.AVATARS.delete(keys);
});

describe("importing a .charx", () => {
  it("keeps every asset of a RisuAI-shaped archive; the main icon becomes the avatar", async () => {
    const mira = await signIn();
    const character = await json<Character>(await importFile(mira, risuCharx()), 201);
    expect(character).toMatchObject({ name: "Rika", isActive: false, avatarUrl: expect.stringMatching(/^\/objects\/avatars\//) });
    expect(character.assets.map(({ type, name, ext }) => ({ type, name, ext }))).toEqual([
      { type: "emotion", name: "joy", ext: "png" },
      { type: "emotion", name: "sadness", ext: "png" },
      { type: "background", name: "shrine", ext: "jpg" },
      { type: "x-risu-asset", name: "theme", ext: "mp3" },
      { type: "user_icon", name: "me", ext: "webp" },
    ]);
    expect((await bytesAt(character.avatarUrl!)).bytes).toEqual(ICON);
    const [joy, sadness, shrine, theme, me] = character.assets;
    expect(await bytesAt(joy!.url)).toMatchObject({ bytes: JOY, type: "image/png", disposition: null });
    expect((await bytesAt(sadness!.url)).bytes).toEqual(SAD);
    expect(await bytesAt(shrine!.url)).toMatchObject({ bytes: JPEG, type: "image/jpeg" });
    expect(await bytesAt(me!.url)).toMatchObject({ bytes: WEBP, type: "image/webp" });
    // Audio is kept (and exported again) but never shown: only a download.
    expect(await bytesAt(theme!.url)).toMatchObject({ bytes: MP3, type: "audio/mpeg", disposition: "attachment" });
    // The character page carries them too.
    const page = await json<Character>(await call(`/api/characters/${character.id}`, { user: mira }), 200);
    expect(page.assets).toEqual(character.assets);
    // Only what an asset names is stored: not the module, not x_meta, not the icon twice.
    const keys = await bucketKeys();
    expect(keys.filter((key) => key.startsWith("assets/"))).toHaveLength(5);
  });

  it("reads data: URIs and keeps outside URLs as they are", async () => {
    const mira = await signIn();
    const dataUri = `data:image/gif;base64,${btoa(String.fromCharCode(...GIF))}`;
    const character = await json<Character>(
      await importFile(
        mira,
        risuCharx([
          { type: "emotion", uri: dataUri, name: "surprise", ext: "gif" },
          { type: "background", uri: "https://cdn.example.com/beach.png", name: "beach", ext: "png" },
          { type: "emotion", uri: "embeded://assets/missing.png", name: "gone", ext: "png" },
          { type: "x_notes", uri: "embeded://assets/x/notes.txt", name: "notes", ext: "txt" },
        ], { "assets/x/notes.txt": strToU8("Fox spirit lore.") }),
      ),
      201,
    );
    const byName = Object.fromEntries(character.assets.map((asset) => [asset.name, asset]));
    expect((await bytesAt(byName.surprise!.url)).bytes).toEqual(GIF);
    expect(byName.beach).toEqual({ type: "background", name: "beach", url: "https://cdn.example.com/beach.png", ext: "png" });
    expect(byName.gone).toBeUndefined();
    expect(await bytesAt(byName.notes!.url)).toMatchObject({ bytes: strToU8("Fox spirit lore."), type: "application/octet-stream", disposition: "attachment" });
  });

  it("stores the same picture once, for two imports and for two people", async () => {
    const mira = await signIn();
    const noor = await signIn();
    const first = await json<Character>(await importFile(mira, risuCharx()), 201);
    const objects = (await bucketKeys()).filter((key) => key.startsWith("assets/"));
    const second = await json<Character>(await importFile(noor, risuCharx()), 201);
    expect(second.assets.map((asset) => asset.url)).toEqual(first.assets.map((asset) => asset.url));
    expect((await bucketKeys()).filter((key) => key.startsWith("assets/"))).toEqual(objects);
    // Deleting one keeps the files the other still names; deleting both removes them.
    expect((await call(`/api/characters/${first.id}`, { method: "DELETE", user: mira })).status).toBe(200);
    await expect.poll(async () => (await bucketKeys()).filter((key) => key.startsWith("assets/"))).toEqual(objects);
    expect((await call(`/api/characters/${second.id}`, { method: "DELETE", user: noor })).status).toBe(200);
    await expect.poll(async () => (await bucketKeys()).filter((key) => key.startsWith("assets/"))).toEqual([]);
  });
});

describe("RisuAI JPEG cards (a JPEG with a .charx appended)", () => {
  const concat = (...parts: Uint8Array[]) => {
    const out = new Uint8Array(parts.reduce((size, part) => size + part.length, 0));
    let at = 0;
    for (const part of parts) {
      out.set(part, at);
      at += part.length;
    }
    return out;
  };

  it("imports the archive after the picture with every asset; its main icon is the avatar", async () => {
    const mira = await signIn();
    const character = await json<Character>(await importFile(mira, concat(JPEG, risuCharx()), "image/jpeg"), 201);
    expect(character).toMatchObject({ name: "Rika", isActive: false });
    expect(character.assets.map(({ type, name }) => `${type}/${name}`)).toEqual(["emotion/joy", "emotion/sadness", "background/shrine", "x-risu-asset/theme", "user_icon/me"]);
    expect((await bytesAt(character.avatarUrl!)).bytes).toEqual(ICON);
    expect((await bytesAt(character.assets[0]!.url)).bytes).toEqual(JOY);
    expect((await bytesAt(character.assets[3]!.url)).bytes).toEqual(MP3);
  });

  it("an archive without an icon: the JPEG itself is the avatar", async () => {
    const mira = await signIn();
    const charx = zipSync({
      "card.json": strToU8(JSON.stringify(card([{ type: "emotion", uri: "embeded://assets/emotion/images/joy.png", name: "joy", ext: "png" }], "Tamsin"))),
      "assets/emotion/images/joy.png": JOY,
    });
    const character = await json<Character>(await importFile(mira, concat(JPEG, charx)), 201);
    expect(character.name).toBe("Tamsin");
    expect(await bytesAt(character.avatarUrl!)).toMatchObject({ bytes: JPEG, type: "image/jpeg" });
    expect(character.assets.map((asset) => asset.name)).toEqual(["joy"]);
    // Only the asset is kept by content; the picture lives on as the avatar upload.
    expect((await bucketKeys()).filter((key) => key.startsWith("assets/"))).toHaveLength(1);
  });

  it("refuses a JPEG with no archive after it (415), and an appended archive's bad file (400), leaving nothing", async () => {
    const mira = await signIn();
    const before = await snapshot();
    expect(await json(await importFile(mira, JPEG, "image/jpeg"), 415)).toMatchObject({
      code: "unsupported_media_type",
      error: expect.stringContaining("This JPEG has no character card in it"),
    });
    const lying = risuCharx([], { "assets/emotion/images/joy.png": strToU8("not a picture") });
    expect(await json(await importFile(mira, concat(JPEG, lying)), 400)).toMatchObject({
      code: "validation_failed",
      error: "assets/emotion/images/joy.png: this is not a PNG image",
    });
    expect(await snapshot()).toEqual(before);
  });
});

describe("card.charx", () => {
  it("gives every asset back byte for byte, as a V3 reader resolves them, and imports again the same", async () => {
    const mira = await signIn();
    const original = await json<Character>(await importFile(mira, risuCharx()), 201);
    const res = await call(`/api/characters/${original.id}/card.charx`, { user: mira });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("content-disposition")).toContain('filename="Rika.charx"');
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const exported = JSON.parse(strFromU8(files["card.json"]!));
    expect(exported).toMatchObject({ spec: "chara_card_v3", data: { name: "Rika" } });
    // Each embeded:// URI names a file of the archive (the specification's reading).
    const resolved = (exported.data.assets as Json[]).map((asset) => {
      expect(asset.uri).toMatch(/^embeded:\/\//);
      return { type: asset.type, name: asset.name, ext: asset.ext, bytes: files[asset.uri.slice("embeded://".length)] };
    });
    expect(resolved).toEqual([
      { type: "icon", name: "main", ext: "png", bytes: ICON },
      { type: "emotion", name: "joy", ext: "png", bytes: JOY },
      { type: "emotion", name: "sadness", ext: "png", bytes: SAD },
      { type: "background", name: "shrine", ext: "jpg", bytes: JPEG },
      { type: "x-risu-asset", name: "theme", ext: "mp3", bytes: MP3 },
      { type: "user_icon", name: "me", ext: "webp", bytes: WEBP },
    ]);
    const before = await bucketKeys();
    const again = await json<Character>(await importFile(mira, zipSync(files)), 201);
    expect(again.assets).toEqual(original.assets);
    // Only the new avatar upload is new: every asset file was there already.
    expect((await bucketKeys()).filter((key) => !before.includes(key))).toEqual([again.avatarUrl!.slice("/objects/".length)]);
  });

  it("is refused for someone else's inactive character (404)", async () => {
    const mira = await signIn();
    const noor = await signIn();
    const character = await json<Character>(await importFile(mira, risuCharx()), 201);
    expect((await call(`/api/characters/${character.id}/card.charx`, { user: noor })).status).toBe(404);
    expect((await call(`/api/characters/${character.id}/card.charx`)).status).toBe(404);
  });

  it("card.json and card.png name the assets by URL", async () => {
    const mira = await signIn();
    const character = await json<Character>(await importFile(mira, risuCharx()), 201);
    const cardJson = await json<Json>(await call(`/api/characters/${character.id}/card.json`, { user: mira }), 200);
    expect(cardJson.data.assets[0]).toEqual({ type: "icon", uri: `http://localhost${character.avatarUrl}`, name: "main", ext: "png" });
    expect(cardJson.data.assets.slice(1)).toEqual(character.assets.map((a) => ({ type: a.type, uri: `http://localhost${a.url}`, name: a.name, ext: a.ext })));
  });
});

describe("PNG cards with chara-ext-asset_ chunks", () => {
  const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
  const pngCard = (assets: Json[], chunks: [string, Uint8Array][]) => {
    const all = extractChunks(TINY_PNG);
    const text = [
      encodeText("ccv3", b64(strToU8(JSON.stringify(card(assets, "Mika"))))),
      ...chunks.map(([key, bytes]) => encodeText(`chara-ext-asset_:${key}`, b64(bytes))),
    ];
    all.splice(all.length - 1, 0, ...text);
    return encodeChunks(all);
  };

  it("reads __asset:N URIs; ccdefault: is the PNG's own picture", async () => {
    const mira = await signIn();
    const body = pngCard(
      [
        { type: "icon", uri: "ccdefault:", name: "main", ext: "png" },
        { type: "emotion", uri: "__asset:0", name: "joy", ext: "png" },
        { type: "emotion", uri: "__asset:1", name: "anger", ext: "jpg" },
      ],
      [["0", JOY], ["1", JPEG]],
    );
    const character = await json<Character>(await importFile(mira, body, "image/png"), 201);
    expect(character.assets.map((a) => [a.type, a.name])).toEqual([["emotion", "joy"], ["emotion", "anger"]]);
    expect((await bytesAt(character.assets[0]!.url)).bytes).toEqual(JOY);
    expect((await bytesAt(character.assets[1]!.url)).bytes).toEqual(JPEG);
    // The avatar is the card's picture without its text chunks.
    expect(extractChunks((await bytesAt(character.avatarUrl!)).bytes).map((c) => c.name)).toEqual(["IHDR", "IDAT", "IEND"]);
  });

  it("refuses a chunk that is not what its extension says, leaving nothing", async () => {
    const mira = await signIn();
    const before = await snapshot();
    const body = pngCard([{ type: "emotion", uri: "__asset:0", name: "joy", ext: "png" }], [["0", ascii("<html><script>alert(1)</script>")]]);
    expect(await json(await importFile(mira, body, "image/png"), 400)).toMatchObject({ error: "emotion/joy.png: this is not a PNG image" });
    expect(await snapshot()).toEqual(before);
  });
});

describe("refusals name the file and leave nothing behind", () => {
  const zeros = (bytes: number) => new Uint8Array(bytes);
  const cases: [string, () => Uint8Array, string][] = [
    [
      "more than 1,000 files",
      () => {
        const files: Zippable = { "card.json": strToU8(JSON.stringify(card([]))) };
        for (let i = 0; i < 1001; i++) files[`assets/x/${i}.txt`] = strToU8(String(i));
        return zipSync(files);
      },
      "assets/x/999.txt: an archive can hold at most 1,000 files",
    ],
    [
      "a file over 32 MB",
      () => risuCharx([], { "assets/background/images/huge.png": zeros(32 * 1_048_576 + 1) }),
      "assets/background/images/huge.png: files can be at most 32 MB",
    ],
    [
      "more than 256 MB unpacked",
      () => {
        const files: Zippable = { "card.json": strToU8(JSON.stringify(card([]))) };
        const block = zeros(30 * 1_048_576);
        for (let i = 0; i < 9; i++) files[`x_data/${i}.bin`] = [block, { level: 1 }];
        return zipSync(files);
      },
      "x_data/8.bin: the archive unpacks to more than 256 MB",
    ],
    ["a path leaving the archive", () => risuCharx([], { "../../escape.png": JOY }), "../../escape.png: this path leaves the archive"],
    ["an absolute path", () => risuCharx([], { "/etc/joy.png": JOY }), "/etc/joy.png: this path leaves the archive"],
    [
      "a file that is not what its extension says",
      () => risuCharx([], { "assets/emotion/images/joy.png": ascii("<!doctype html><script>alert(1)</script>") }),
      "assets/emotion/images/joy.png: this is not a PNG image",
    ],
    [
      "a picture larger than avatars may be",
      () => {
        const chunks = extractChunks(JOY);
        const view = new DataView(chunks[0]!.data.buffer, chunks[0]!.data.byteOffset);
        view.setUint32(0, 5000);
        view.setUint32(4, 5000);
        return risuCharx([], { "assets/emotion/images/joy.png": encodeChunks(chunks) });
      },
      "assets/emotion/images/joy.png: Pictures can be at most 4096 × 4096 pixels (this one is 5000 × 5000)",
    ],
    ["no card.json", () => zipSync({ "assets/emotion/images/joy.png": JOY }), "This .charx has no card.json at its root"],
    ["a damaged archive", () => risuCharx().subarray(0, 300), "This .charx archive is damaged or incomplete"],
  ];

  it.each(cases)("%s → 400", async (_, body, message) => {
    const mira = await signIn();
    // A character of someone else's with some of the same files: their objects must survive the refusal.
    const noor = await signIn();
    await json(await importFile(noor, risuCharx()), 201);
    const before = await snapshot();
    expect(await json(await importFile(mira, body()), 400)).toMatchObject({ code: "validation_failed", error: message });
    expect(await snapshot()).toEqual(before);
    // Building and unpacking the 270 MB archive is most of a minute on a busy 2-core machine: a budget for a hang, not a timing.
  }, 120_000);
});
