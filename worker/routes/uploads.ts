/**
 * Avatar uploads (SPEC.md §7; flow and storage rules in worker/lib/uploads.ts):
 * - mounted at /api: `POST /objects/upload` → `{uploadURL}`,
 *   `PUT /objects/upload/<key>?token=…` (the Worker upload URL when R2
 *   presigning is not configured), `PUT /character-avatars` `{avatarURL}` →
 *   `{objectPath}`;
 * - mounted at the root: `GET /objects/<key>` serves registered avatars.
 */
import { Hono } from "hono";
import type { AvatarRegistrationResponse, UploadUrlResponse } from "../../schema/api.ts";
import { avatarRegistrationSchema } from "../../schema/inputs.ts";
import type { AppEnv } from "../env.ts";
import { serveAsset } from "../lib/cards/assets.ts";
import { isRemovedMessage } from "../lib/conversations.ts";
import { ApiError, forbidden, notFound } from "../lib/errors.ts";
import {
  createUploadUrl,
  keyFromAvatarUrl,
  MAX_AVATAR_BYTES,
  readBodyLimited,
  registerAvatar,
  serveAvatar,
  verifyUploadToken,
} from "../lib/uploads.ts";
import { servesSharePicture, SHARE_PICTURE_KEY } from "../lib/share-pictures.ts";
import { validate } from "../lib/validate.ts";
import { limitWrites } from "../middleware/rate-limit.ts";
import { requireUser } from "../middleware/session.ts";

export const uploadsRoutes = new Hono<AppEnv>()
  .post("/objects/upload", requireUser, limitWrites("WRITE_RATE_LIMITER"), async (c) => {
    const uploadURL = await createUploadUrl(c.env, new URL(c.req.url).origin, c.get("user")!.id);
    return c.json({ uploadURL } satisfies UploadUrlResponse, 200);
  })
  // The token is the authority here (like a presigned URL), not the session.
  .put("/objects/upload/:key{.+}", async (c) => {
    const key = c.req.param("key");
    const token = c.req.query("token");
    if (!token) throw forbidden("This upload link is not valid");
    const uploaderId = await verifyUploadToken(c.env, c.req.url, token, key);
    const bytes = await readBodyLimited(c.req.raw, MAX_AVATAR_BYTES, "The avatar");
    if (bytes.length === 0) throw new ApiError("validation_failed", "The file is empty");
    await c.env.AVATARS.put(key, bytes, { customMetadata: { uploaderId } });
    return c.json({ key, size: bytes.length }, 200);
  })
  .put("/character-avatars", requireUser, limitWrites("WRITE_RATE_LIMITER"), validate("json", avatarRegistrationSchema), async (c) => {
    const { avatarURL } = c.req.valid("json");
    const key = keyFromAvatarUrl(c.env, avatarURL);
    if (key === null) {
      throw new ApiError("validation_failed", "This is not an avatar upload", {
        issues: [{ path: "avatarURL", message: "This is not an avatar upload" }],
      });
    }
    const objectPath = await registerAvatar(c.env.AVATARS, key, c.get("user")!.id);
    return c.json({ objectPath } satisfies AvatarRegistrationResponse, 200);
  });

export const objectsRoutes = new Hono<AppEnv>().get("/:key{.+}", async (c) => {
  const key = c.req.param("key");
  // Character assets (worker/lib/cards/assets.ts) live beside the avatars, by content hash.
  if (key.startsWith("assets/")) return serveAsset(c.env.AVATARS, key, c.req.raw.headers);
  // A chat's picture an operator removed is gone at once, before its room deletes the object (worker/lib/moderation-actions.ts).
  const picture = /^pictures\/([\w-]{1,64})\/([\w-]{1,64})$/.exec(key);
  if (picture && (await isRemovedMessage(c.env.DB, picture[1]!, picture[2]!))) throw notFound("Not found");
  // A share's copy of a picture: only while the share exists and the operator has not removed the picture (worker/lib/share-pictures.ts).
  const shared = SHARE_PICTURE_KEY.exec(key);
  if (shared && !(await servesSharePicture(c.env.DB, shared[1]!, Number(shared[2])))) throw notFound("Not found");
  return serveAvatar(c.env.AVATARS, key, c.req.raw.headers);
});
