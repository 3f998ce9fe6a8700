/**
 * Character cards in and out (DESIGN.md "Character cards"; formats in
 * worker/lib/character-card.ts), mounted at /api/characters:
 * - `POST /import`: a card file as the raw body (PNG or JSON, at most 10 MB)
 *   becomes an inactive character of the signed-in person (they review it,
 *   then activate it) → 201 with the character. A PNG's picture becomes the
 *   avatar. Nothing is half-created: the avatar object is removed again if
 *   the character cannot be stored.
 * - `GET /:id/card.json`, `GET /:id/card.png`: the character as a V3 card,
 *   for anyone who may see it (visitors: active characters; the owner: their
 *   inactive ones too).
 */
import { Hono } from "hono";
import type { Character } from "../../schema/api.ts";
import { characterInputSchema } from "../../schema/inputs.ts";
import { deploymentVoices } from "../lib/voices.ts";
import type { AppEnv } from "../env.ts";
import { getCharacter } from "../lib/catalog.ts";
import { writeCard } from "../lib/card-export.ts";
import { avatarFromCardPng, writePngCard } from "../lib/card-png.ts";
import { cardFileKind, MAX_CARD_BYTES, parseCardJson, readCard, readPngCard } from "../lib/character-card.ts";
import { createCharacter, defaultCreator } from "../lib/characters.ts";
import { attachmentDisposition } from "../lib/downloads.ts";
import { notFound, validationFailed } from "../lib/errors.ts";
import { parseCharacterId } from "../lib/ids.ts";
import { isVisibleTo } from "../lib/listable.ts";
import { flagCharacter, screenCharacter } from "../lib/screening.ts";
import { assertImageDimensions, newAvatarKey, objectPath, putAvatar, readBodyLimited } from "../lib/uploads.ts";
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
    const bytes = await readBodyLimited(c.req.raw, MAX_CARD_BYTES, "The card file");
    const kind = cardFileKind(c.req.header("content-type"), bytes);
    const card = readCard(kind === "png" ? readPngCard(bytes) : parseCardJson(bytes));
    // The card's PNG becomes the character's avatar: the same pixel limit as an upload.
    if (kind === "png") assertImageDimensions(bytes, "card");
    const parsed = characterInputSchema.safeParse(card.input);
    if (!parsed.success) throw validationFailed(parsed.error);
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

    let avatarKey: string | null = null;
    if (kind === "png") {
      const picture = avatarFromCardPng(bytes);
      avatarKey = newAvatarKey(user.id);
      await putAvatar(c.env.AVATARS, avatarKey, picture, "image/png", user.id);
    }
    try {
      const character = await createCharacter(c.env.DB, {
        ...parsed.data,
        avatarUrl: avatarKey ? objectPath(avatarKey) : null,
        creator: defaultCreator(user.username),
        creatorId: user.id,
        // Review first: an imported character is listed once its creator activates it.
        isActive: false,
        extensions: card.extensions,
      });
      if (!verdict.flagged) return c.json(character, 201);
      await flagCharacter(c.env.DB, character, verdict);
      return c.json({ ...character, moderationStatus: "flagged" as const }, 201);
    } catch (err) {
      if (avatarKey) await c.env.AVATARS.delete(avatarKey);
      throw err;
    }
  })
  .get("/:id/card.json", async (c) => {
    const character = await findVisible(c.env.DB, parseCharacterId(c.req.param("id")), c.get("user")?.id ?? null);
    c.header("Content-Disposition", attachmentDisposition(character.name, "json"));
    return c.json(writeCard(character).v3, 200);
  })
  .get("/:id/card.png", async (c) => {
    const character = await findVisible(c.env.DB, parseCharacterId(c.req.param("id")), c.get("user")?.id ?? null);
    const png = await writePngCard(writeCard(character), await avatarPng(c.env.AVATARS, character.avatarUrl), character.name);
    return c.body(png, 200, {
      "Content-Type": "image/png",
      "Content-Disposition": attachmentDisposition(character.name, "png"),
    });
  });
