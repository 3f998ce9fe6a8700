/**
 * Pictures outside a chat (DESIGN.md "Pictures"), mounted at /api:
 *
 * - `POST /images/avatars` `{description}` (signed in) → 201 `{objectPath,
 *   url, provider}`: an avatar drawn from the description, stored as the
 *   person's own upload (`avatars/{userId}/{uuid}`, registered like an
 *   uploaded one), so `objectPath` works as a character's or persona's
 *   `avatarUrl` and the usual save keeps it. The description is screened
 *   (422 `content_refused`; sexual content is refused too: an avatar is
 *   shown in the public catalogue), counts against the person's allowance
 *   of pictures (429 with Retry-After), and is drawn by the person's
 *   default model connection when it names an `imageModel`, else by the
 *   site's generator (IMAGE_PROVIDER). The engine failing → 503
 *   `unavailable`; the engine refusing → 422 `content_refused`.
 * - `GET /images/usage` (signed in) → 200 `{used, limit, perMinute,
 *   provider}`: the pictures made today (UTC) and the limits.
 */
import { Hono } from "hono";
import { createImageGenerator, imageProviderName, personImageGenerator } from "../../ai/images/generators.ts";
import { ImageError, type ImageGenerator } from "../../ai/images/image-generator.ts";
import { decryptApiKey, isDevelopment } from "../../ai/model-keys.ts";
import { imageLimits, imagesToday, releaseImage, reserveImage } from "../../durable-objects/room/image-quota.ts";
import { logScreening } from "../../durable-objects/room/d1-sync.ts";
import type { DrawnAvatarResponse, ImageUsageResponse } from "../../schema/api.ts";
import { avatarDrawingSchema } from "../../schema/inputs.ts";
import type { AppEnv } from "../env.ts";
import { ApiError } from "../lib/errors.ts";
import { screenWrite } from "../lib/screening.ts";
import { newAvatarKey, objectPath, putAvatar } from "../lib/uploads.ts";
import { validate } from "../lib/validate.ts";
import { limitWrites } from "../middleware/rate-limit.ts";
import { requireUser } from "../middleware/session.ts";

/** What an avatar's description becomes as a prompt: a portrait, one person, facing the viewer. */
export const avatarPrompt = (description: string) => `Character portrait for an avatar, head and shoulders, one person facing the viewer, plain background. ${description}`;

/** The words of a refused avatar (422). */
const AVATAR_REFUSED = "This avatar can't be drawn: its description breaks the content rules. Describe the character another way.";

/** The person's default connection's image model, or the site's generator. */
async function generatorFor(env: Env, userId: string): Promise<ImageGenerator> {
  const row = await env.DB.prepare(
    `SELECT id, base_url AS baseUrl, image_model AS imageModel, api_key_encrypted AS sealed FROM model_connections
     WHERE user_id = ? AND is_default = 1 AND kind = 'openai' AND image_model IS NOT NULL AND base_url IS NOT NULL`,
  )
    .bind(userId)
    .first<{ id: string; baseUrl: string; imageModel: string; sealed: string | null }>();
  if (!row) return createImageGenerator(env);
  const apiKey = row.sealed ? await decryptApiKey(env, { connectionId: row.id, userId }, row.sealed) : undefined;
  return personImageGenerator({ baseUrl: row.baseUrl, apiKey, model: row.imageModel, policy: { development: isDevelopment(env), siteHost: null } });
}

export const imagesRoutes = new Hono<AppEnv>()
  .post("/avatars", requireUser, limitWrites("WRITE_RATE_LIMITER"), validate("json", avatarDrawingSchema), async (c) => {
    const user = c.get("user")!;
    const { description } = c.req.valid("json");
    const who = { userId: user.id };
    const verdict = await screenWrite(c.env, { subjectType: "image", text: description, nsfw: false, who, refusedMessage: AVATAR_REFUSED });
    if (verdict.categories.includes("S3") || verdict.categories.includes("S12")) {
      await logScreening(c.env.DB, {
        subjectType: "image",
        subjectId: null,
        userId: user.id,
        characterId: null,
        conversationId: null,
        outcome: "refused",
        categories: verdict.categories,
        provider: verdict.provider,
        content: description,
      });
      throw new ApiError("content_refused", AVATAR_REFUSED, { issues: [{ path: "description", message: AVATAR_REFUSED }] });
    }
    const admission = await reserveImage(c.env.DB, c.env, user.id);
    if (!admission.ok) throw new ApiError("rate_limited", admission.message, { retryAfter: Math.ceil(admission.retryAfterMs / 1000) });
    let generator: ImageGenerator | null = null;
    try {
      generator = await generatorFor(c.env, user.id);
      const picture = await generator.generate(avatarPrompt(description), { size: 768 });
      const key = newAvatarKey(user.id);
      await putAvatar(c.env.AVATARS, key, picture.bytes, picture.contentType, user.id);
      const path = objectPath(key);
      const body: DrawnAvatarResponse = { objectPath: path, url: new URL(path, c.req.url).href, provider: generator.name };
      return c.json(body, 201);
    } catch (error) {
      await releaseImage(c.env.DB, admission.reservation);
      if (error instanceof ApiError) throw error;
      console.warn("drawing an avatar failed", generator?.id, String(error));
      if (error instanceof ImageError && error.refused) throw new ApiError("content_refused", "The image model refused to draw this. Describe the character another way.");
      if (error instanceof Error && error.name === "EndpointRefused") throw new ApiError("unavailable", `${error.message} — change it in Settings → Models.`);
      throw new ApiError("unavailable", "The avatar could not be drawn just now. Please try again.", { retryAfter: 10 });
    }
  })
  .get("/usage", requireUser, async (c) => {
    const user = c.get("user")!;
    const { used, limit } = await imagesToday(c.env.DB, c.env, user.id);
    const body: ImageUsageResponse = { used, limit, perMinute: imageLimits(c.env).perMinute, provider: imageProviderName(c.env) };
    c.header("Cache-Control", "private, no-store");
    return c.json(body, 200);
  });
