/**
 * Character cards in and out, with the community's own cards
 * (test-fixtures/cards/: SillyTavern's defaults, a contest winner with a large
 * lorebook, and RisuAI's V1 sample with its 3.5 MB `risuai` chunk): every
 * card imports right, exports as V3 (JSON and PNG), round-trips with every
 * field, and broken input creates nothing.
 */
import { env } from "cloudflare:workers";
import encodeChunks from "png-chunks-encode";
import extractChunks from "png-chunks-extract";
import { encode as encodeText } from "png-chunk-text";
import { beforeEach, describe, expect, it } from "vitest";
import sakanaUrl from "../../test-fixtures/cards/contest_Assistant_Sakana.png?inline";
import senseiUrl from "../../test-fixtures/cards/default_CodingSensei.png?inline";
import seraphinaUrl from "../../test-fixtures/cards/default_Seraphina.png?inline";
import rikaUrl from "../../test-fixtures/cards/risu_rika.png?inline";
import type { Character } from "../../schema/api.ts";
import { PRESERVED_KEY, shortenDescription } from "../lib/card-fields.ts";
import { pngTextKeywords, readPngTextJson } from "../lib/card-png.ts";
import { bucketKeys, call, countRows, dataUrlBytes, json, TINY_PNG } from "./creator-api.ts";
import { clearCatalog, signIn, type TestUser, viewCountOnceCounted } from "./fixtures.ts";

type Json = Record<string, any>;

const CARDS = {
  seraphina: dataUrlBytes(seraphinaUrl),
  sakana: dataUrlBytes(sakanaUrl),
  sensei: dataUrlBytes(senseiUrl),
  rika: dataUrlBytes(rikaUrl),
};

/** The card JSON inside one of the shared PNGs, read independently of the import. */
const cardOf = (png: Uint8Array) => readPngTextJson(png, "chara") as Json;
/** Card fields whether V1 (top level) or V2 (`data`). */
const fieldsOf = (card: Json): Json => card.data ?? card;

const importCard = (user: TestUser | null, body: Uint8Array | string, type?: string) =>
  call("/api/characters/import", {
    method: "POST",
    user,
    body: typeof body === "string" ? new TextEncoder().encode(body) : body,
    headers: type ? { "content-type": type } : {},
  });

async function imported(user: TestUser, body: Uint8Array | string, type = "image/png"): Promise<Character> {
  return json<Character>(await importCard(user, body, type), 201);
}

const exportJson = async (id: number, user: TestUser | null = null) =>
  json<Json>(await call(`/api/characters/${id}/card.json`, { user }), 200);

async function exportPng(id: number, user: TestUser | null = null): Promise<Uint8Array> {
  const res = await call(`/api/characters/${id}/card.png`, { user });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("image/png");
  return new Uint8Array(await res.arrayBuffer());
}

/** A PNG made of `chunks` on the picture of `base` (its text chunks removed). */
function pngWith(base: Uint8Array, ...text: { name: string; data: Uint8Array }[]): Uint8Array {
  const chunks = extractChunks(base).filter((c) => c.name !== "tEXt");
  chunks.splice(chunks.length - 1, 0, ...text);
  return encodeChunks(chunks);
}
/** `base` declaring `width` × `height` pixels in its IHDR (CRC recomputed; the picture data unchanged). */
function pngSized(base: Uint8Array, width: number, height: number): Uint8Array {
  const chunks = extractChunks(base);
  const ihdr = chunks.find((c) => c.name === "IHDR")!;
  const view = new DataView(ihdr.data.buffer, ihdr.data.byteOffset, ihdr.data.byteLength);
  view.setUint32(0, width);
  view.setUint32(4, height);
  return encodeChunks(chunks);
}
const b64 = (text: string) => {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
};
const cardChunk = (keyword: string, card: unknown) => encodeText(keyword, b64(JSON.stringify(card)));

/** The public fields of a character that a round trip must keep. */
function kept(character: Character): Json {
  const { id: _id, createdAt: _c, updatedAt: _u, avatarUrl: _a, viewCount: _v, extensions, ...rest } = character;
  const { [PRESERVED_KEY]: _preserved, ...cardExtensions } = extensions;
  return { ...rest, extensions: cardExtensions };
}
/**
 * A card without what differs between two copies of one character: its
 * modification date and the URL its avatar is named by (each copy has its
 * own upload; DESIGN.md "Character assets": cards name assets by URL).
 */
const withoutModificationDate = (card: Json) => ({
  ...card,
  data: {
    ...card.data,
    modification_date: 0,
    assets: card.data.assets?.map((asset: Json) => (asset.type === "icon" && asset.name === "main" ? { ...asset, uri: "<avatar>" } : asset)),
  },
});

/** The concatenated IDAT data of a PNG: its compressed pixels, however they are split into chunks. */
function imageData(png: Uint8Array): Uint8Array<ArrayBuffer> {
  const parts = extractChunks(png).filter((c) => c.name === "IDAT");
  const out = new Uint8Array(parts.reduce((n, c) => n + c.data.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part.data, offset);
    offset += part.data.length;
  }
  return out;
}
const sha256 = async (bytes: Uint8Array<ArrayBuffer>) =>
  [...new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))].map((b) => b.toString(16).padStart(2, "0")).join("");

const V1_FIELDS = ["name", "description", "personality", "scenario", "first_mes", "mes_example"];

const snapshot = async () => ({ characters: await countRows("characters"), objects: (await bucketKeys()).length });

beforeEach(async () => {
  await clearCatalog();
  await env.DB.prepare("DELETE FROM users").run();
  for (const key of await bucketKeys()) await env.AVATARS.delete(key);
});

describe("importing the community's cards", () => {
  it("Seraphina (V2, lorebook, long greeting): every field where it belongs", async () => {
    const mira = await signIn({ username: "@mira" });
    const card = fieldsOf(cardOf(CARDS.seraphina));
    const character = await imported(mira, CARDS.seraphina);
    expect(character).toMatchObject({
      name: "Seraphina",
      creator: "mira",
      creatorId: mira.id,
      isActive: false,
      isNsfw: false,
      tags: [],
      greeting: card.first_mes,
      exampleConversation: null,
      scenario: null,
      creatorNotes: "ST Default Bot contest winner: roleplay bots category",
      alternateGreetings: [],
      characterBook: card.character_book,
    });
    expect(character.greeting).toMatch(/^\*You wake with a start/);
    expect(character.greeting!.length).toBeGreaterThan(700);
    // The 2,941-character card description: shortened for ours, whole in longDescription.
    expect(card.description.length).toBeGreaterThan(300);
    expect(character.longDescription).toBe(card.description);
    expect(character.description).toBe(shortenDescription(card.description.trim()));
    expect(character.description.length).toBeLessThanOrEqual(300);
    expect(character.description.endsWith("…")).toBe(true);
    // Its personality is empty, so ours is the description (SPEC.md §5 needs 10 characters).
    expect(character.personality).toBe(card.description.trim());
    expect(character.characterBook!.entries).toHaveLength(card.character_book.entries.length);
    expect((character.characterBook!.entries as Json[])[0]!.keys).toEqual(["eldoria", "wood", "forest", "magical forest"]);
    expect(character.extensions).toMatchObject({ talkativeness: "0.5", fav: false, world: "Eldoria" });
  });

  it("Assistant Sakana (V2, 37 KB with a large lorebook)", async () => {
    const mira = await signIn();
    const card = fieldsOf(cardOf(CARDS.sakana));
    const character = await imported(mira, CARDS.sakana);
    expect(character).toMatchObject({ name: "Sakana", greeting: card.first_mes, exampleConversation: null, tags: [] });
    expect(character.characterBook).toEqual(card.character_book);
    expect(JSON.stringify(character.characterBook).length).toBeGreaterThan(15_000);
    expect(character.longDescription).toBe(card.description);
    expect(character.extensions).toMatchObject({ world: "Sakana-WI", depth_prompt: { prompt: "", depth: 4, role: "system" } });
  });

  it("Coding Sensei (V2 with tags)", async () => {
    const mira = await signIn();
    const card = fieldsOf(cardOf(CARDS.sensei));
    const character = await imported(mira, CARDS.sensei);
    expect(character).toMatchObject({
      name: "Coding Sensei",
      tags: ["coding", "utility", "assistant"],
      greeting: card.first_mes,
      description: card.description,
      longDescription: null,
      characterBook: null,
    });
    expect(character.greeting).toContain("\r\n```js\r\n");
    // Listed in the tag counts once its creator activates it.
    expect(await json(await call("/api/tags?popular=true"), 200)).toEqual([]);
    await json(await call(`/api/characters/${character.id}/toggle-active`, { method: "PATCH", user: mira }), 200);
    const tags = await json<{ name: string; count: number }[]>(await call("/api/tags?popular=true"), 200);
    expect(tags.map((t) => [t.name, t.count]).sort()).toEqual([
      ["assistant", 1],
      ["coding", 1],
      ["utility", 1],
    ]);
  });

  it("Rika (V1, a 4 MB file whose 3.5 MB risuai chunk is skipped)", async () => {
    const mira = await signIn();
    expect(CARDS.rika.length).toBeGreaterThan(4_000_000);
    expect(pngTextKeywords(CARDS.rika)).toEqual(["chara", "risuai"]);
    const card = cardOf(CARDS.rika);
    expect(card.spec).toBeUndefined();
    const character = await imported(mira, CARDS.rika);
    expect(character).toMatchObject({
      name: "Rika",
      greeting: card.first_mes,
      exampleConversation: "<START>",
      scenario: null,
      tags: [],
      characterBook: null,
    });
    expect(character.greeting).toMatch(/^"Oh my gosh, \{\{user\}\}!/);
    expect(character.longDescription).toBe(card.description);
  });

  it.each(Object.entries(CARDS))("%s: the picture becomes a registered PNG avatar without the card chunks", async (_, png) => {
    const mira = await signIn();
    const character = await imported(mira, png);
    expect(character.avatarUrl).toMatch(new RegExp(`^/objects/avatars/${mira.id}/[0-9a-f-]{36}$`));
    const served = await call(character.avatarUrl!);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    const avatar = new Uint8Array(await served.arrayBuffer());
    expect(pngTextKeywords(avatar)).toEqual([]);
    const original = extractChunks(png);
    expect(extractChunks(avatar)[0]).toEqual(original[0]); // same IHDR: same size and format
    expect(await sha256(imageData(avatar))).toBe(await sha256(imageData(png))); // same pixels
    expect(avatar.length).toBeLessThan(png.length * 1.02 + 1024);
  });
});

describe("exporting", () => {
  it("card.json is a V3 card with every V2 field, V3 fields and dates in seconds", async () => {
    const mira = await signIn();
    const character = await imported(mira, CARDS.seraphina);
    const card = await exportJson(character.id, mira);
    expect(card.spec).toBe("chara_card_v3");
    expect(card.spec_version).toBe("3.0");
    for (const field of [
      "name",
      "description",
      "personality",
      "scenario",
      "first_mes",
      "mes_example",
      "creator_notes",
      "system_prompt",
      "post_history_instructions",
      "alternate_greetings",
      "tags",
      "creator",
      "character_version",
      "extensions",
      "character_book",
      "group_only_greetings",
      "creation_date",
      "modification_date",
    ]) {
      expect(card.data, field).toHaveProperty(field);
    }
    expect(card.data.group_only_greetings).toEqual([]);
    const nowSeconds = Date.now() / 1000;
    expect(Math.abs(card.data.creation_date - nowSeconds)).toBeLessThan(120);
    expect(Math.abs(card.data.modification_date - nowSeconds)).toBeLessThan(120);
    expect(card.data.extensions.fabled).toEqual({ description: character.description, is_nsfw: false });
  });

  it("keeps every field of the original card, unknown ones and extensions included", async () => {
    const mira = await signIn();
    for (const [name, png] of Object.entries(CARDS)) {
      const original = cardOf(png);
      const character = await imported(mira, png);
      const card = await exportJson(character.id, mira);
      const fields: Json = original.data ?? Object.fromEntries(V1_FIELDS.map((key) => [key, original[key]]));
      for (const [key, value] of Object.entries(fields)) {
        if (key === "extensions") expect(card.data.extensions, `${name} extensions`).toMatchObject(value);
        else expect(card.data[key], `${name} data.${key}`).toEqual(value);
      }
      if (original.data) {
        // Unknown top-level fields (V1-era extras such as chat, create_date, creatorcomment) come back too.
        for (const [key, value] of Object.entries(original)) {
          if (["spec", "spec_version", "data", ...V1_FIELDS].includes(key)) continue;
          expect(card[key], `${name} ${key}`).toEqual(value);
        }
      } else {
        for (const key of ["avatar", "chat", "create_date", "talkativeness"]) expect(card[key], `${name} ${key}`).toEqual(original[key]);
      }
    }
  });

  it("card.png carries ccv3 and a V2-readable chara on the avatar picture", async () => {
    const mira = await signIn();
    const character = await imported(mira, CARDS.sensei);
    const res = await call(`/api/characters/${character.id}/card.png`, { user: mira });
    expect(res.headers.get("content-disposition")).toBe(
      `attachment; filename="Coding Sensei.png"; filename*=UTF-8''Coding%20Sensei.png`,
    );
    const png = new Uint8Array(await res.arrayBuffer());
    expect(pngTextKeywords(png)).toEqual(["chara", "ccv3"]);
    const v3 = readPngTextJson(png, "ccv3") as Json;
    // The same card, except that in a PNG the main icon is the PNG's own picture (V3's `ccdefault:`).
    const cardJson = await exportJson(character.id, mira);
    expect(cardJson.data.assets).toEqual([{ type: "icon", uri: `http://localhost${character.avatarUrl}`, name: "main", ext: "png" }]);
    expect(v3.data.assets).toEqual([{ type: "icon", uri: "ccdefault:", name: "main", ext: "png" }]);
    expect({ ...v3, data: { ...v3.data, assets: null } }).toEqual({ ...cardJson, data: { ...cardJson.data, assets: null } });
    const v2 = readPngTextJson(png, "chara") as Json;
    expect(v2).toMatchObject({
      spec: "chara_card_v2",
      spec_version: "2.0",
      name: "Coding Sensei",
      first_mes: character.greeting,
      description: character.description,
      data: { name: "Coding Sensei", tags: ["coding", "utility", "assistant"], first_mes: character.greeting },
    });
    expect(v2.data).not.toHaveProperty("group_only_greetings");
    expect(extractChunks(png)[0]).toEqual(extractChunks(CARDS.sensei)[0]);
  });

  it("a character without a PNG avatar gets a generated picture", async () => {
    const mira = await signIn();
    const created = await json<Character>(
      await call("/api/characters", {
        method: "POST",
        user: mira,
        body: {
          name: "Zoë «Quill» Ng",
          description: "A poet who speaks only in rhymes.",
          personality: "Lyrical, theatrical, warm.",
          avatarUrl: "https://example.com/zoe.jpg",
        },
      }),
      201,
    );
    const res = await call(`/api/characters/${created.id}/card.png`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe(
      `attachment; filename="Zo_ _Quill_ Ng.png"; filename*=UTF-8''${encodeURIComponent("Zoë «Quill» Ng.png")}`,
    );
    const png = new Uint8Array(await res.arrayBuffer());
    const [ihdr] = extractChunks(png);
    expect(ihdr!.name).toBe("IHDR");
    expect([...ihdr!.data.subarray(0, 10)]).toEqual([0, 0, 1, 0, 0, 0, 1, 0, 8, 2]); // 256×256, 8-bit RGB
    expect((readPngTextJson(png, "ccv3") as Json).data.name).toBe("Zoë «Quill» Ng");
    expect(png.length).toBeLessThan(20_000);
    // The generated picture decodes: its IDAT inflates to 256 rows of 1 + 256×3 bytes.
    const raw = await new Response(new Blob([imageData(png)]).stream().pipeThrough(new DecompressionStream("deflate"))).arrayBuffer();
    expect(raw.byteLength).toBe(256 * (1 + 256 * 3));
  });

  it("anyone who may see the character may download it; nobody else", async () => {
    const owner = await signIn();
    const other = await signIn();
    const { id } = await imported(owner, CARDS.sensei);
    for (const suffix of ["card.json", "card.png"]) {
      expect((await call(`/api/characters/${id}/${suffix}`, { user: owner })).status).toBe(200);
      expect((await call(`/api/characters/${id}/${suffix}`)).status).toBe(404);
      expect((await call(`/api/characters/${id}/${suffix}`, { user: other })).status).toBe(404);
      expect((await call(`/api/characters/999999/${suffix}`, { user: owner })).status).toBe(404);
      expect((await call(`/api/characters/abc/${suffix}`, { user: owner })).status).toBe(404);
    }
    await json(await call(`/api/characters/${id}/toggle-active`, { method: "PATCH", user: owner }), 200);
    expect((await call(`/api/characters/${id}/card.json`)).status).toBe(200);
    expect((await call(`/api/characters/${id}/card.png`, { user: other })).status).toBe(200);
    // Downloading is not a view: once the one page view is counted, the count is 1.
    expect(await json(await call(`/api/characters/${id}`), 200)).toMatchObject({ viewCount: 0 });
    expect(await viewCountOnceCounted(id, 1)).toBe(1);
  });
});

describe("round trips", () => {
  it.each(Object.entries(CARDS))("%s: PNG → character → card.png → character keeps every field", async (_, png) => {
    const mira = await signIn();
    const first = await imported(mira, png);
    const exported = await exportPng(first.id, mira);
    const second = await imported(mira, exported);
    expect(kept(second)).toEqual(kept(first));
    const [a, b] = [await exportJson(first.id, mira), await exportJson(second.id, mira)];
    expect(withoutModificationDate(b)).toEqual(withoutModificationDate(a));
    // And once more through JSON.
    const third = await imported(mira, JSON.stringify(b), "application/json");
    expect(kept(third)).toEqual(kept(first));
  });

  it("a character made in Fabled keeps every field through its card", async () => {
    const mira = await signIn();
    const created = await json<Character>(
      await call("/api/characters", {
        method: "POST",
        user: mira,
        body: {
          name: "Captain Vale",
          description: "A sky-pirate captain with a soft spot for stowaways.",
          longDescription: "Vale commands the airship Kestrel.\n\nShe owes money to half the ports in the sky.",
          personality: "Bold, sardonic, secretly sentimental.",
          scenario: "Aboard the Kestrel, above the cloud sea.",
          exampleConversation: "{{user}}: Where are we headed?\n{{char}}: *grins* Wherever the wind owes me money.",
          tags: ["adventure", "pirates", "Fantasy"],
          isNsfw: true,
          greeting: "*A boot nudges you awake.* Stowaway, eh?",
          alternateGreetings: ["*She tosses you a rope.* Climb!", "You again?"],
          systemPrompt: "Write vivid, concise prose.",
          postHistoryInstructions: "Stay in character as {{char}}.",
          creatorNotes: "Best with a playful {{user}}.",
          characterBook: { name: "Skyways", entries: [{ keys: ["kestrel"], content: "An old airship.", extensions: {} }] },
        },
      }),
      201,
    );
    await json(
      await call(`/api/characters/${created.id}`, { method: "PUT", user: mira, body: { creator: "vale_writes" } }),
      200,
    );
    const card = await exportJson(created.id, mira);
    expect(card.data).toMatchObject({
      creator: "vale_writes",
      description: "Vale commands the airship Kestrel.\n\nShe owes money to half the ports in the sky.",
      first_mes: "*A boot nudges you awake.* Stowaway, eh?",
      extensions: { fabled: { description: "A sky-pirate captain with a soft spot for stowaways.", is_nsfw: true } },
    });
    const again = await imported(mira, JSON.stringify(card), "application/json");
    const { creator: _c1, isActive: _a1, ...original } = kept({ ...created, isActive: true });
    const { creator: _c2, isActive: _a2, ...copy } = kept(again);
    expect(copy).toEqual(original);
    expect(again.isActive).toBe(false);
  });

  it("JSON cards V1, V2 and V3 import, and unknown fields and extensions come back", async () => {
    const mira = await signIn();
    const v3 = {
      spec: "chara_card_v3",
      spec_version: "3.0",
      x_exporter: { app: "SomeTool", version: 7 },
      data: {
        name: "  Nyx  ",
        description: "Goddess of night, bored of eternity and curious about mortals.",
        personality: "",
        scenario: "\n",
        first_mes: "*Stars flicker.* Hello, little mortal.",
        mes_example: "",
        creator_notes: "V3 test card",
        creator_notes_multilingual: { fr: "Carte de test" },
        system_prompt: "",
        post_history_instructions: "",
        alternate_greetings: ["Again?", 42, "Hush."],
        group_only_greetings: ["*Nyx nods at the group.*"],
        tags: ["Mythology", "mythology", "x", "NSFW", "a-very-long-tag-name-over-24", "Goddess"],
        creator: "someone_else",
        character_version: "2.1",
        nickname: "Night",
        source: ["https://example.com/nyx"],
        assets: [{ type: "icon", uri: "ccdefault:", name: "main", ext: "png" }],
        creation_date: 1700000000,
        modification_date: 1700000500,
        character_book: { entries: [{ keys: ["stars"], content: "She made them.", use_regex: false }] },
        extensions: { depth_prompt: { prompt: "Be mysterious.", depth: 4 }, "other/app": { x: 1 } },
        x_custom_field: [1, { two: 2 }],
      },
    };
    const nyx = await imported(mira, JSON.stringify(v3), "application/json");
    expect(nyx).toMatchObject({
      name: "Nyx",
      personality: v3.data.description,
      scenario: null,
      alternateGreetings: ["Again?", "Hush."],
      tags: ["mythology", "nsfw", "goddess"],
      isNsfw: true,
      creatorNotes: "V3 test card",
      avatarUrl: null,
    });
    expect(nyx.extensions).toMatchObject({ depth_prompt: { prompt: "Be mysterious.", depth: 4 }, "other/app": { x: 1 } });
    const out = await exportJson(nyx.id, mira);
    const { fabled, ...extensions } = out.data.extensions;
    expect(fabled).toEqual({ description: nyx.description, is_nsfw: true });
    expect(extensions).toEqual(v3.data.extensions);
    expect({ ...out, data: { ...out.data, extensions: v3.data.extensions, modification_date: 1700000500 } }).toEqual(v3);

    const v2 = {
      spec: "chara_card_v2",
      spec_version: "2.0",
      data: {
        name: "Bram",
        description: "A gruff blacksmith with a gentle heart.",
        personality: "Gruff but kind",
        scenario: "",
        first_mes: "*Clang.* What do you need?",
        mes_example: "",
        creator_notes: "",
        post_history_instructions: "",
        tags: ["Fantasy"],
        creator: "smith",
        character_version: "1",
        extensions: {},
        // Wrong types where ours is absent: kept as the card had them.
        character_book: null,
        system_prompt: null,
        alternate_greetings: "none",
      },
    };
    const bram = await imported(mira, JSON.stringify(v2), "application/json; charset=utf-8");
    expect(bram).toMatchObject({
      name: "Bram",
      personality: "Gruff but kind",
      tags: ["fantasy"],
      isNsfw: false,
      characterBook: null,
      systemPrompt: null,
      alternateGreetings: [],
    });
    const bramOut = await exportJson(bram.id, mira);
    expect(bramOut.data).toMatchObject({ ...v2.data, extensions: {} });
    expect(bramOut.data.character_book).toBeNull();

    const v1 = {
      name: "Old Tom",
      description: "A retired lighthouse keeper full of sea stories.",
      personality: "Wistful, chatty",
      scenario: "The lighthouse at dusk.",
      first_mes: "Ahoy there.",
      mes_example: "<START>\n{{char}}: Ahoy.",
      pipe: "briar",
    };
    // No Content-Type: sniffed as JSON.
    const tom = await imported(mira, JSON.stringify(v1), "");
    expect(tom).toMatchObject({ name: "Old Tom", personality: "Wistful, chatty", scenario: "The lighthouse at dusk." });
    const tomOut = await exportJson(tom.id, mira);
    expect(tomOut.pipe).toBe("briar");
    expect(tomOut.data).toMatchObject({ name: "Old Tom", personality: "Wistful, chatty", mes_example: v1.mes_example });
  });

  it("ccv3 wins over chara; other chunks are skipped", async () => {
    const mira = await signIn();
    const v2 = { spec: "chara_card_v2", spec_version: "2.0", data: { name: "From chara", description: "The V2 copy of the card." } };
    const v3 = { spec: "chara_card_v3", spec_version: "3.0", data: { name: "From ccv3", description: "The V3 copy of the card." } };
    const png = pngWith(
      CARDS.sensei,
      encodeText("risuai", "not json at all"),
      cardChunk("chara", v2),
      cardChunk("ccv3", v3),
      encodeText("comment", "hello"),
    );
    expect((await imported(mira, png, "application/octet-stream")).name).toBe("From ccv3");
    const onlyChara = pngWith(CARDS.sensei, cardChunk("chara", v2));
    expect((await imported(mira, onlyChara)).name).toBe("From chara");
  });
});

describe("broken input creates nothing", () => {
  const sensei = () => CARDS.sensei;
  const validV2 = { spec: "chara_card_v2", spec_version: "2.0", data: { name: "Valid", description: "A perfectly valid card." } };
  const cases: [string, number, () => Uint8Array | string, string, string][] = [
    ["text sent as a PNG", 400, () => "definitely not a png", "image/png", "This file is not a PNG image"],
    ["a truncated PNG", 400, () => sensei().subarray(0, 100_000), "image/png", "This PNG file is damaged or incomplete"],
    ["a PNG with a corrupted chunk", 400, () => {
      const bytes = sensei().slice();
      bytes[100] = bytes[100]! ^ 0xff;
      return bytes;
    }, "image/png", "This PNG file is damaged or incomplete"],
    ["a PNG without a card", 400, () => pngWith(sensei()), "image/png", "This PNG has no character card in it"],
    ["a PNG without a card, only a risuai chunk", 400, () => pngWith(sensei(), encodeText("risuai", "x".repeat(100_000))), "image/png", "This PNG has no character card in it"],
    ["bad base64", 400, () => pngWith(sensei(), encodeText("chara", "!!!not base64!!!")), "image/png", "The character card in this PNG is not valid base64"],
    ["base64 of something that is not JSON", 400, () => pngWith(sensei(), encodeText("chara", b64("name: yaml?"))), "image/png", "The character card is not valid JSON"],
    ["base64 of JSON that is not a card", 400, () => pngWith(sensei(), cardChunk("chara", [1, 2, 3])), "image/png", "This file is not a character card"],
    ["a card without a name", 400, () => pngWith(sensei(), cardChunk("chara", { ...validV2, data: { description: "No name here, sadly." } })), "image/png", "Character name is required"],
    ["a card whose name is not text", 400, () => JSON.stringify({ ...validV2, data: { ...validV2.data, name: 42 } }), "application/json", "Character name is required"],
    ["a card with a short description", 400, () => JSON.stringify({ ...validV2, data: { name: "Shorty", description: "Tiny" } }), "application/json", "Description must be at least 10 characters"],
    ["a card with an unknown spec", 400, () => JSON.stringify({ ...validV2, spec: "chara_card_v9" }), "application/json", 'Unsupported character card format: "chara_card_v9"'],
    ["a V2 card without data", 400, () => JSON.stringify({ spec: "chara_card_v2", name: "Lost" }), "application/json", "The character card has no data"],
    ["bad JSON", 400, () => '{"name": "Broken",', "application/json", "The character card is not valid JSON"],
    ["JSON that is not a card", 400, () => '{"hello": "world"}', "application/json", "This file is not a character card"],
    ["a JSON array", 400, () => "[1, 2]", "application/json", "This file is not a character card"],
    ["an empty body", 400, () => "", "application/json", "The character card is not valid JSON"],
    ["neither PNG nor JSON", 415, () => "GIF89a....", "image/gif", "Import a character card: a PNG image or a JSON file"],
    ["plain text", 415, () => "Name: Bob", "text/plain", "Import a character card: a PNG image or a JSON file"],
    ["a card whose picture claims 50,000 × 50,000 pixels", 400, () => pngSized(sensei(), 50_000, 50_000), "image/png", "Pictures can be at most 4096 × 4096 pixels (this one is 50000 × 50000)"],
    ["a card whose picture is 4,097 pixels high", 400, () => pngSized(sensei(), 400, 4097), "image/png", "Pictures can be at most 4096 × 4096 pixels (this one is 400 × 4097)"],
    ["a lorebook over the limit", 400, () => pngWith(sensei(), cardChunk("chara", { ...validV2, data: { ...validV2.data, character_book: { entries: ["x".repeat(600_000)] } } })), "image/png", "The lorebook is too large"],
  ];
  it.each(cases)("%s → %i", async (_, status, body, type, message) => {
    const mira = await signIn();
    const before = await snapshot();
    const res = await importCard(mira, body(), type);
    expect(await json(res, status)).toMatchObject({ error: message });
    expect(await snapshot()).toEqual(before);
  });

  it("a PNG over 32 MB → 413", async () => {
    const mira = await signIn();
    const big = new Uint8Array(32 * 1_048_576 + 1);
    big.set(CARDS.sensei);
    const before = await snapshot();
    expect(await json(await importCard(mira, big, "image/png"), 413)).toMatchObject({ code: "payload_too_large" });
    expect(await snapshot()).toEqual(before);
  });

  it("a card too large for the database leaves no avatar behind", async () => {
    const mira = await signIn();
    const huge = { ...validV2, data: { ...validV2.data, alternate_greetings: Array(50).fill("€".repeat(20_000)) } };
    const before = await snapshot();
    const res = await importCard(mira, pngWith(CARDS.sensei, cardChunk("chara", huge)), "image/png");
    expect(await json(res, 413)).toMatchObject({ code: "payload_too_large" });
    expect(await snapshot()).toEqual(before);
  });

  it("visitors cannot import (401)", async () => {
    expect(await json(await importCard(null, CARDS.sensei, "image/png"), 401)).toMatchObject({ code: "unauthorized" });
    expect(await snapshot()).toEqual({ characters: 0, objects: 0 });
  });

  it("a tiny PNG with a card is a valid import too", async () => {
    const mira = await signIn();
    const character = await imported(mira, pngWith(TINY_PNG, cardChunk("chara", validV2)));
    expect(character).toMatchObject({ name: "Valid", isActive: false });
  });
});
