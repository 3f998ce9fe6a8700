/**
 * The studio's expressions and backgrounds (DESIGN.md "Character assets"),
 * mounted at /api/characters; the creator only (someone else's character:
 * 403, or 404 while it is inactive, as every studio write):
 * - `POST /:id/assets` `{type, name, objectPath}`: an uploaded picture (the
 *   avatar upload flow: `POST /api/objects/upload`, PUT, `PUT
 *   /api/character-avatars`) becomes the asset `type`/`name` → 201
 *   `{type, name, url, ext}`. The same type and name replaces the picture.
 *   The file is checked like an imported one (worker/lib/cards/assets.ts),
 *   stored by content hash, and the upload itself removed once nothing
 *   uses it.
 * - `DELETE /:id/assets/:type/:name` → 204; 404 when there is no such asset.
 * - `PUT /:id/neutral-expression` `{name}` → 200 `{type: "emotion", name:
 *   "neutral", url, ext}`: the expression `name`'s picture becomes the
 *   neutral one too (the face a reply shows when its label has no picture;
 *   the chat and the classifier find it by the name `neutral`). Files are
 *   stored by content, so this is one more row naming the same object, and
 *   `name` keeps its picture; a former neutral picture is replaced (its
 *   object removed once nothing names it), as uploading `neutral` would.
 *   404 when `name` is none of the character's expressions
 *   (docs/decisions/0039-character-assets.md).
 */
import { Hono } from "hono";
import type { CharacterAsset } from "../../schema/api.ts";
import { characterAssetInputSchema, neutralExpressionInputSchema } from "../../schema/inputs.ts";
import type { AppEnv } from "../env.ts";
import { afterResponse } from "../lib/after-response.ts";
import { AssetStore, checkAssetBytes, deleteUnusedAssetObjects, insertAssetStatements } from "../lib/cards/assets.ts";
import { findOwnCharacter } from "../lib/characters.ts";
import { ApiError, notFound } from "../lib/errors.ts";
import { parseCharacterId } from "../lib/ids.ts";
import { deleteUnusedAvatar, keyFromAvatarUrl, registerAvatar } from "../lib/uploads.ts";
import { validate } from "../lib/validate.ts";
import { purgeCharacterCache } from "../middleware/edge-cache.ts";
import { limitWrites } from "../middleware/rate-limit.ts";
import { requireUser } from "../middleware/session.ts";

/** Most assets one character may list (an archive's file limit). */
export const MAX_CHARACTER_ASSETS = 1000;

/** The label of the neutral face (SillyTavern's, and the one the chat falls back to). */
const NEUTRAL = "neutral";

const EXT_OF_TYPE: Record<string, string> = { "image/png": "png", "image/jpeg": "jpg", "image/webp": "webp", "image/gif": "gif" };

export const characterAssetsRoutes = new Hono<AppEnv>()
  .post("/:id/assets", requireUser, limitWrites("WRITE_RATE_LIMITER"), validate("json", characterAssetInputSchema), async (c) => {
    const user = c.get("user")!;
    const character = await findOwnCharacter(c.env.DB, parseCharacterId(c.req.param("id")), user.id);
    const { type, name, objectPath: uploaded } = c.req.valid("json");
    const key = keyFromAvatarUrl(c.env, uploaded);
    if (key === null) {
      throw new ApiError("validation_failed", "This is not an upload", { issues: [{ path: "objectPath", message: "This is not an upload" }] });
    }
    // Checks owner, size, type and pixels as for an avatar (400/403/404/413).
    const path = await registerAvatar(c.env.AVATARS, key, user.id);
    const replaced = character.assets.find((asset) => asset.type === type && asset.name === name);
    if (!replaced && character.assets.length >= MAX_CHARACTER_ASSETS) {
      throw new ApiError("validation_failed", `A character can have at most ${MAX_CHARACTER_ASSETS.toLocaleString("en")} pictures`);
    }
    const object = await c.env.AVATARS.get(key);
    if (!object) throw notFound("Upload not found. Please upload the file again.");
    const bytes = new Uint8Array(await object.arrayBuffer());
    const ext = EXT_OF_TYPE[object.customMetadata?.contentType ?? ""] ?? "png";
    const contentType = checkAssetBytes(`${type}/${name}.${ext}`, ext, bytes);
    const store = new AssetStore(c.env.AVATARS);
    const stored = await store.put(bytes, contentType);
    const position = replaced ? character.assets.indexOf(replaced) : character.assets.length;
    try {
      await c.env.DB.batch(
        insertAssetStatements(c.env.DB, character.id, [{ type, name, ext, url: stored.url, objectKey: stored.key, size: stored.size }], position),
      );
    } catch (error) {
      await store.rollback(c.env.DB);
      throw error;
    }
    await purgeCharacterCache(c, character.id);
    await afterResponse(
      c,
      Promise.all([
        // The upload was only the way in; the asset is stored by content now.
        deleteUnusedAvatar(c.env, path, user.id),
        replaced ? deleteUnusedAssetObjects(c.env, [replaced.url.replace(/^\/objects\//, "")]) : Promise.resolve(),
      ]),
    );
    return c.json({ type, name, url: stored.url, ext } satisfies CharacterAsset, 201);
  })
  .delete("/:id/assets/:type/:name", requireUser, limitWrites("WRITE_RATE_LIMITER"), async (c) => {
    const user = c.get("user")!;
    const character = await findOwnCharacter(c.env.DB, parseCharacterId(c.req.param("id")), user.id);
    const type = c.req.param("type");
    const name = c.req.param("name");
    const asset = character.assets.find((a) => a.type === type && a.name === name);
    if (!asset) throw notFound("This picture is not one of the character's");
    await c.env.DB.prepare("DELETE FROM character_assets WHERE character_id = ? AND type = ? AND name = ?").bind(character.id, type, name).run();
    await purgeCharacterCache(c, character.id);
    await afterResponse(c, deleteUnusedAssetObjects(c.env, [asset.url.replace(/^\/objects\//, "")]));
    return c.body(null, 204);
  })
  .put("/:id/neutral-expression", requireUser, limitWrites("WRITE_RATE_LIMITER"), validate("json", neutralExpressionInputSchema), async (c) => {
    const user = c.get("user")!;
    const character = await findOwnCharacter(c.env.DB, parseCharacterId(c.req.param("id")), user.id);
    const { name } = c.req.valid("json");
    const expressions = character.assets.filter((asset) => asset.type === "emotion");
    const chosen = expressions.find((asset) => asset.name === name);
    if (!chosen) throw notFound("This expression is not one of the character's");
    // The chat matches the name in any case (an imported "Neutral" keeps its spelling).
    const former = expressions.find((asset) => asset.name.toLowerCase() === NEUTRAL);
    const neutralName = former?.name ?? NEUTRAL;
    if (chosen === former) return c.json(chosen, 200);
    const source = await c.env.DB.prepare(
      "SELECT ext, url, object_key AS objectKey, size FROM character_assets WHERE character_id = ? AND type = 'emotion' AND name = ?",
    )
      .bind(character.id, name)
      .first<{ ext: string; url: string; objectKey: string | null; size: number | null }>();
    if (!source) throw notFound("This expression is not one of the character's");
    const position = former ? character.assets.indexOf(former) : character.assets.length;
    await c.env.DB.batch(insertAssetStatements(c.env.DB, character.id, [{ type: "emotion", name: neutralName, ...source }], position));
    await purgeCharacterCache(c, character.id);
    if (former && former.url !== source.url) await afterResponse(c, deleteUnusedAssetObjects(c.env, [former.url.replace(/^\/objects\//, "")]));
    return c.json({ type: "emotion", name: neutralName, url: source.url, ext: source.ext } satisfies CharacterAsset, 200);
  });
