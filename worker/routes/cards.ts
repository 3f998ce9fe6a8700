/**
 * Character cards in and out (DESIGN.md "Character cards"; formats in
 * worker/lib/character-card.ts), mounted at /api/characters:
 * - `POST /import`: a card file as the raw body (PNG at most 32 MB, JSON at
 *   most 10 MB, or a `.charx` read as it streams: worker/lib/cards/card-import.ts)
 *   becomes an inactive character of the signed-in person (they review it,
 *   then activate it) → 201 with the character and its `assets`. A PNG's
 *   picture (a .charx's main icon) becomes the avatar. Nothing is
 *   half-created: the avatar and every asset file stored for it are removed
 *   again if the card is refused or cannot be stored.
 * - `GET /:id/card.json`, `GET /:id/card.png`: the character as a V3 card,
 *   its assets named by URL (a PNG's own picture as `ccdefault:`);
 *   `GET /:id/card.charx`: a CharX with every asset inside — for anyone who
 *   may see it (visitors: active characters; the owner: their inactive ones
 *   too).
 */
import { Hono } from "hono";
import type { Character } from "../../schema/api.ts";
import { characterInputSchema } from "../../schema/inputs.ts";
import { deploymentVoices } from "../lib/voices.ts";
import type { AppEnv } from "../env.ts";
import { getCharacter } from "../lib/catalog.ts";
import { writeCard } from "../lib/card-export.ts";
import { avatarFromCardPng, writePngCard } from "../lib/card-png.ts";
import type { Json } from "../lib/card-fields.ts";
import { cardFileKind, parseCardJson, readCard, readPngCard } from "../lib/character-card.ts";
import { AssetStore, assetsByUrl, charxAssetsOf, insertAssetStatements } from "../lib/cards/assets.ts";
import { type CardUpload, readCardUpload, readEmbeddedAssets } from "../lib/cards/card-import.ts";
import { writeCharx } from "../lib/cards/charx.ts";
import { createCharacter, defaultCreator, deleteCharacter } from "../lib/characters.ts";
import { attachmentDisposition } from "../lib/downloads.ts";
import { notFound, validationFailed } from "../lib/errors.ts";
import { parseCharacterId } from "../lib/ids.ts";
import { isVisibleTo } from "../lib/listable.ts";
import { flagCharacter, screenCharacter } from "../lib/screening.ts";
import { assertImageDimensions, newAvatarKey, objectPath, putAvatar } from "../lib/uploads.ts";
import { limitWrites } from "../middleware/rate-limit.ts";
import { requireUser } from "../middleware/session.ts";

/** A character `viewerId` may see (DESIGN.md "Inactive characters"), without counting a view. */
async function findVisible(db: D1Database, id: number, viewerId: string | null): Promise<Character> {
  const character = await getCharacter(db, id);
  if (!character || !isVisibleTo(character, viewerId)) throw notFound("Character not found");
  return character;
}

/** The bytes of a character's avatar when it is a PNG stored by us; null otherwise. */
async function avatarPng(bucket: R2Bucket, avatarUrl: string | null): Promise<Uint8Array | null> {
  const key = /^\/objects\/(avatars\/[\w-]+\/[\w-]+)$/.exec(avatarUrl ?? "")?.[1];
  if (!key) return null;
  const object = await bucket.get(key);
  if (!object) return null;
  if (object.customMetadata?.contentType !== "image/png") {
    await object.body.cancel();
    return null;
  }
  return new Uint8Array(await object.arrayBuffer());
}

/**
 * Header of a card import's answer with something the importer should know
 * (URI-encoded text), the body keeping the character's exact shape.
 */
export const IMPORT_NOTICE_HEADER = "Fabled-Notice";
export const VOICE_FALLBACK_NOTICE = "The card's voice is not offered on this site, so the character uses the default voice.";

export const cardsRoutes = new Hono<AppEnv>()
  .post("/import", requireUser, limitWrites("WRITE_RATE_LIMITER"), async (c) => {
    const user = c.get("user")!;
    const store = new AssetStore(c.env.AVATARS);
    let avatarKey: string | null = null;
    let createdId: number | null = null;
    try {
      const upload = await readCardUpload(c.req.raw, c.req.header("content-type"), store);
      let rawCard = upload.card;
      let kind: "png" | "json" | "charx" = upload.kind;
      let found: Pick<CardUpload, "icon" | "assets"> = upload;
      if (upload.kind !== "charx") {
        kind = cardFileKind(c.req.header("content-type"), upload.bytes);
        rawCard = kind === "png" ? readPngCard(upload.bytes) : parseCardJson(upload.bytes);
        // The card's PNG becomes the character's avatar: the same pixel limit as an upload.
        if (kind === "png") assertImageDimensions(upload.bytes, "card");
      }
      const card = readCard(rawCard);
      const parsed = characterInputSchema.safeParse(card.input);
      if (!parsed.success) throw validationFailed(parsed.error);
      if (kind !== "charx") found = await readEmbeddedAssets(kind as "png" | "json", upload.bytes, rawCard, store);
      // A voice this site does not offer: the default, and the person is told (DESIGN.md "Voices").
      if (parsed.data.voice && !deploymentVoices(c.env).some((voice) => voice.id === parsed.data.voice)) {
        parsed.data.voice = null;
        c.header(IMPORT_NOTICE_HEADER, encodeURIComponent(VOICE_FALLBACK_NOTICE));
      }
      // The card's extensions too: they are stored and given back by card.json (issue 21).
      const verdict = await screenCharacter(c.env, { ...parsed.data, characterBook: parsed.data.characterBook ?? null, extensions: card.extensions }, {
        userId: user.id,
        characterId: null,
      });

      if (kind === "png") {
        avatarKey = newAvatarKey(user.id);
        await putAvatar(c.env.AVATARS, avatarKey, avatarFromCardPng(upload.bytes), "image/png", user.id);
      } else if (found.icon) {
        // A .charx's (or JSON card's) main icon is the avatar: copied to an upload of the importer's own.
        const object = await c.env.AVATARS.get(found.icon.key);
        if (object) {
          avatarKey = newAvatarKey(user.id);
          await putAvatar(c.env.AVATARS, avatarKey, new Uint8Array(await object.arrayBuffer()), found.icon.type, user.id);
        }
      }
      let character = await createCharacter(c.env.DB, {
        ...parsed.data,
        avatarUrl: avatarKey ? objectPath(avatarKey) : null,
        creator: defaultCreator(user.username),
        creatorId: user.id,
        // Review first: an imported character is listed once its creator activates it.
        isActive: false,
        extensions: card.extensions,
      });
      createdId = character.id;
      if (found.assets.length > 0) {
        await c.env.DB.batch(insertAssetStatements(c.env.DB, character.id, found.assets));
        character = { ...character, assets: found.assets.map(({ type, name, url, ext }) => ({ type, name, url, ext })) };
      }
      // Files of the archive no asset named (and the icon, now the avatar) are not kept.
      await store.rollback(c.env.DB);
      if (!verdict.flagged) return c.json(character, 201);
      await flagCharacter(c.env.DB, character, verdict);
      return c.json({ ...character, moderationStatus: "flagged" as const }, 201);
    } catch (err) {
      if (createdId !== null) await deleteCharacter(c.env.DB, createdId);
      if (avatarKey) await c.env.AVATARS.delete(avatarKey);
      await store.rollback(c.env.DB);
      throw err;
    }
  })
  .get("/:id/card.json", async (c) => {
    const character = await findVisible(c.env.DB, parseCharacterId(c.req.param("id")), c.get("user")?.id ?? null);
    c.header("Content-Disposition", attachmentDisposition(character.name, "json"));
    const { v3 } = writeCard(character);
    (v3.data as Json).assets = assetsByUrl(character, new URL(c.req.url).origin, false);
    return c.json(v3, 200);
  })
  .get("/:id/card.png", async (c) => {
    const character = await findVisible(c.env.DB, parseCharacterId(c.req.param("id")), c.get("user")?.id ?? null);
    const card = writeCard(character);
    (card.v3.data as Json).assets = assetsByUrl(character, new URL(c.req.url).origin, true);
    const png = await writePngCard(card, await avatarPng(c.env.AVATARS, character.avatarUrl), character.name);
    return c.body(png, 200, {
      "Content-Type": "image/png",
      "Content-Disposition": attachmentDisposition(character.name, "png"),
    });
  })
  .get("/:id/card.charx", async (c) => {
    const character = await findVisible(c.env.DB, parseCharacterId(c.req.param("id")), c.get("user")?.id ?? null);
    const charx = writeCharx(writeCard(character).v3, await charxAssetsOf(c.env.AVATARS, character, new URL(c.req.url).origin));
    return c.body(charx as Uint8Array<ArrayBuffer>, 200, {
      "Content-Type": "application/zip",
      "Content-Disposition": attachmentDisposition(character.name, "charx"),
    });
  });
