/**
 * Avatars in R2 (binding AVATARS; SPEC.md §7 upload calls, DESIGN.md "Shape").
 *
 * Flow: `POST /api/objects/upload` hands out an upload URL for a fresh key
 * `avatars/<userId>/<uuid>`; the browser PUTs the file there; `PUT
 * /api/character-avatars` registers it (owner, size and magic bytes checked,
 * the sniffed content type stored) and returns `/objects/<key>`, which
 * `GET /objects/<key>` serves.
 *
 * The upload URL is a SigV4 presigned PUT straight to R2's S3-compatible API
 * when `R2_S3_ENDPOINT` and the R2 API token secrets are configured (the
 * bytes never pass through the Worker). wrangler's local R2 has no S3
 * endpoint, so otherwise (local development, tests) it is a Worker URL
 * `/api/objects/upload/<key>?token=<JWT>` whose short-lived HS256 token names
 * the uploader and the key.
 *
 * Only registered objects are served: registration stores the sniffed type
 * in `customMetadata.contentType`, and an object without it (never
 * registered, or overwritten through its upload URL afterwards) answers 404.
 * The served Content-Type therefore always comes from our allow-list.
 */
import { AwsClient } from "aws4fetch";
import { imageSize } from "image-size";
import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import { ApiError, forbidden, notFound } from "./errors.ts";
import { isLoopbackUrl } from "./loopback.ts";
import { SHARE_PICTURE_KEY } from "./share-pictures.ts";

/** Largest avatar, bytes (SPEC.md §5, §9: 10 MB). */
export const MAX_AVATAR_BYTES = 10_485_760;
/**
 * Largest picture side, pixels: an avatar, a profile image or a card's
 * picture is at most 4096 × 4096. Pictures are shown at most a few hundred
 * pixels wide; a small file can declare a huge canvas (a 50,000 × 50,000
 * PNG compresses to kilobytes) that a browser would have to decode.
 */
export const MAX_IMAGE_SIDE = 4096;
/** Lifetime of an upload URL, seconds. */
export const UPLOAD_URL_TTL_SECONDS = 600;

/** `avatars/<userId>/<id>`: the only keys that are uploaded and registered. */
const AVATAR_KEY = /^avatars\/([\w-]{1,64})\/([\w-]{1,64})$/;

/**
 * `pictures/<conversationId>/<id>`: pictures imagined in a chat
 * (durable-objects/room/images.ts), written by the room itself and served
 * like avatars. Both ids are random UUIDs: the path is the capability, as a
 * conversation's id is.
 */
const PICTURE_KEY = /^pictures\/[\w-]{1,64}\/[\w-]{1,64}$/;

export const IMAGE_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];

const isImageType = (value: unknown): value is ImageType => IMAGE_TYPES.includes(value as ImageType);

const startsWith = (bytes: Uint8Array, prefix: number[], offset = 0) =>
  bytes.length >= offset + prefix.length && prefix.every((b, i) => bytes[offset + i] === b);

const ascii = (text: string) => [...text].map((ch) => ch.charCodeAt(0));

/**
 * The image type named by a file's first bytes (its "magic number"), or null
 * for anything else — SVG, HTML, text, a renamed file. PNG: `89 50 4E 47 0D
 * 0A 1A 0A`; JPEG: `FF D8 FF`; GIF: `GIF87a`/`GIF89a`; WebP: `RIFF` + 4 bytes
 * + `WEBP` (the WHATWG MIME Sniffing standard's image signatures).
 */
export function sniffImageType(bytes: Uint8Array): ImageType | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))) return "image/gif";
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "image/webp";
  return null;
}

/**
 * Checks an image's pixel dimensions from its header (image-size: PNG IHDR,
 * JPEG SOF, GIF screen, WebP VP8/VP8L/VP8X; the largest frame of a
 * multi-image file). Throws 400 `validation_failed` with one issue at
 * `field` when the header cannot be read or a side exceeds MAX_IMAGE_SIDE.
 */
export function assertImageDimensions(bytes: Uint8Array, field: string): { width: number; height: number } {
  let size: { width?: number; height?: number };
  try {
    size = imageSize(bytes);
  } catch {
    size = {};
  }
  const { width, height } = size;
  if (!width || !height) {
    const message = "The picture's size could not be read; the file may be damaged";
    throw new ApiError("validation_failed", message, { issues: [{ path: field, message }] });
  }
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE) {
    const message = `Pictures can be at most ${MAX_IMAGE_SIDE} × ${MAX_IMAGE_SIDE} pixels (this one is ${width} × ${height})`;
    throw new ApiError("validation_failed", message, { issues: [{ path: field, message }] });
  }
  return { width, height };
}

/** A new avatar key for `userId`. */
export const newAvatarKey = (userId: string) => `avatars/${userId}/${crypto.randomUUID()}`;

/** The owner of an avatar key, or null when the key is not an avatar key. */
export function avatarKeyOwner(key: string): string | null {
  return AVATAR_KEY.exec(key)?.[1] ?? null;
}

/**
 * Refuses a picture that is someone else's upload: `url` (a character's or
 * persona's `avatarUrl`, a profile image) names an `/objects/avatars/<ownerId>/…`
 * object — as a path, or as an absolute URL with that path on any host (our
 * site may be served under several names) — and `ownerId` is not `userId`.
 * Outside http(s) URLs (also ones whose path merely starts with `/objects/`),
 * the demo artwork, null and this person's own uploads pass; the input
 * schemas have already checked the URL's form.
 * Throws 400 `validation_failed` with one issue at `field`.
 */
export function assertOwnPicture(url: string | null | undefined, userId: string, field: string): void {
  if (!url) return;
  let path: string;
  try {
    path = new URL(url, "https://relative.invalid").pathname;
    path = decodeURIComponent(path);
  } catch {
    // Not a URL, or not percent-decodable (then no object of ours either): the schema's business.
    return;
  }
  if (!path.startsWith("/objects/")) return;
  const owner = avatarKeyOwner(path.slice("/objects/".length));
  if (owner === null || owner === userId) return;
  const message = "This picture is someone else's upload. Upload your own image instead.";
  throw new ApiError("validation_failed", message, { issues: [{ path: field, message }] });
}

/** The public path of a stored object, which becomes a character's `avatarUrl`. */
export const objectPath = (key: string) => `/objects/${key}`;

type UploadEnv = Pick<
  Env,
  "AVATARS" | "ENVIRONMENT" | "R2_S3_ENDPOINT" | "R2_BUCKET_NAME" | "R2_ACCESS_KEY_ID" | "R2_SECRET_ACCESS_KEY" | "UPLOAD_TOKEN_SECRET"
>;

/** True when upload URLs are presigned R2 URLs rather than Worker URLs. */
export function presignedUploadsConfigured(env: UploadEnv): boolean {
  return Boolean(env.R2_S3_ENDPOINT && env.R2_BUCKET_NAME && env.R2_ACCESS_KEY_ID && env.R2_SECRET_ACCESS_KEY);
}

/**
 * A presigned SigV4 `PUT` URL for `key` on R2's S3-compatible API
 * (path style: `<endpoint>/<bucket>/<key>`, region `auto`), valid for
 * UPLOAD_URL_TTL_SECONDS. Only `host` is signed, so the browser may send any
 * Content-Type; registration sniffs the bytes anyway.
 */
export async function presignAvatarPut(env: UploadEnv, key: string): Promise<string> {
  const client = new AwsClient({
    accessKeyId: env.R2_ACCESS_KEY_ID!,
    secretAccessKey: env.R2_SECRET_ACCESS_KEY!,
    service: "s3",
    region: "auto",
  });
  const url = new URL(`${env.R2_S3_ENDPOINT.replace(/\/+$/, "")}/${env.R2_BUCKET_NAME}/${key}`);
  url.searchParams.set("X-Amz-Expires", String(UPLOAD_URL_TTL_SECONDS));
  const signed = await client.sign(url.href, { method: "PUT", aws: { signQuery: true } });
  return signed.url;
}

/**
 * Local development and test runs may sign upload tokens with this fixed,
 * public secret — only when `ENVIRONMENT` is `development` or `test` AND the
 * request is to a loopback host. A deployment that says "development" (a
 * staging copy, a misconfigured var) is still reached under its own domain
 * and so never uses it: anyone could forge its tokens.
 */
const DEV_UPLOAD_TOKEN_SECRET = "fabled-development-upload-token-secret";
const TOKEN_AUDIENCE = "fabled:avatar-upload";

/**
 * The HS256 key of upload tokens for a request to `requestUrl`: HKDF-SHA-256
 * of `UPLOAD_TOKEN_SECRET` (info "fabled upload token v1"), so the secret
 * itself is never a JWT key and could be shared with other uses. Without the
 * secret, DEV_UPLOAD_TOKEN_SECRET on a local run; anywhere else throws 503
 * `unavailable`.
 */
async function uploadTokenKey(env: UploadEnv, requestUrl: string): Promise<Uint8Array> {
  const localRun = (env.ENVIRONMENT === "development" || env.ENVIRONMENT === "test") && isLoopbackUrl(requestUrl);
  const secret = env.UPLOAD_TOKEN_SECRET || (localRun ? DEV_UPLOAD_TOKEN_SECRET : null);
  if (!secret) throw new ApiError("unavailable", "Avatar uploads are not configured on this server");
  const encoder = new TextEncoder();
  const base = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits(
    { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: encoder.encode("fabled upload token v1") },
    base,
    256,
  );
  return new Uint8Array(bits);
}

/**
 * A token allowing `userId` to PUT `key` through the Worker at `origin` (the
 * request's, e.g. `https://fabled.example`) until `now` +
 * UPLOAD_URL_TTL_SECONDS (ms clock). Throws 503 when no key may be used
 * there (uploadTokenKey).
 */
export async function signUploadToken(env: UploadEnv, origin: string, userId: string, key: string, now = Date.now()): Promise<string> {
  const issuedAt = Math.floor(now / 1000);
  return new SignJWT({ key })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(userId)
    .setAudience(TOKEN_AUDIENCE)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + UPLOAD_URL_TTL_SECONDS)
    .sign(await uploadTokenKey(env, origin));
}

/**
 * Checks an upload token for `key` on a request to `requestUrl`; returns the
 * uploader's id. Throws 403 `forbidden` when it is expired, tampered with, or
 * for another key; 503 when no key may be used there (uploadTokenKey).
 */
export async function verifyUploadToken(env: UploadEnv, requestUrl: string, token: string, key: string): Promise<string> {
  const secretKey = await uploadTokenKey(env, requestUrl);
  let payload;
  try {
    ({ payload } = await jwtVerify(token, secretKey, {
      algorithms: ["HS256"],
      audience: TOKEN_AUDIENCE,
    }));
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired) throw forbidden("This upload link has expired. Please upload the file again.");
    throw forbidden("This upload link is not valid");
  }
  if (payload.key !== key || typeof payload.sub !== "string" || avatarKeyOwner(key) !== payload.sub) {
    throw forbidden("This upload link is not valid");
  }
  return payload.sub;
}

/**
 * `POST /api/objects/upload`: a fresh avatar key for `userId` and the URL to
 * PUT the file to — presigned R2 when configured, else the Worker's own
 * upload URL on `origin`.
 */
export async function createUploadUrl(env: UploadEnv, origin: string, userId: string): Promise<string> {
  const key = newAvatarKey(userId);
  if (presignedUploadsConfigured(env)) return presignAvatarPut(env, key);
  const url = new URL(`/api/objects/upload/${key}`, origin);
  url.searchParams.set("token", await signUploadToken(env, origin, userId, key));
  return url.href;
}

/**
 * Reads a request body of at most `maxBytes` bytes. Throws 413
 * `payload_too_large` as soon as it is known to be larger (from
 * Content-Length, or while reading a body without one).
 */
export async function readBodyLimited(request: Request, maxBytes: number, what = "The file"): Promise<Uint8Array> {
  const tooLarge = () =>
    new ApiError("payload_too_large", `${what} is too large (at most ${(maxBytes / 1_048_576).toFixed(0)} MB)`);
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (declared > maxBytes) throw tooLarge();
  if (!request.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * The object key an `avatarURL` names: the upload URL the client used (the
 * Worker's `/api/objects/upload/<key>?token=…` or a presigned R2
 * `<endpoint>/<bucket>/<key>?X-Amz-…`) or an `/objects/<key>` path. Null when
 * it names none.
 */
export function keyFromAvatarUrl(env: UploadEnv, avatarUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(avatarUrl, "http://relative.invalid");
  } catch {
    return null;
  }
  const prefixes = ["/objects/", "/api/objects/upload/"];
  if (env.R2_S3_ENDPOINT && env.R2_BUCKET_NAME) {
    try {
      if (url.host === new URL(env.R2_S3_ENDPOINT).host) prefixes.push(`/${env.R2_BUCKET_NAME}/`);
    } catch {
      // A malformed R2_S3_ENDPOINT names no host.
    }
  }
  const prefix = prefixes.find((p) => url.pathname.startsWith(p));
  if (!prefix) return null;
  try {
    return decodeURIComponent(url.pathname.slice(prefix.length));
  } catch {
    return null;
  }
}

/**
 * Deletes a former avatar (`/objects/avatars/<ownerId>/<uuid>`) of a
 * character or persona from R2 once nothing of its owner uses it any more:
 * called after the character or persona was deleted or its avatar replaced.
 * Other pictures (https URLs, the demo artwork, someone else's uploads) are
 * never touched, and an object still named by one of the owner's characters
 * or personas or by their profile picture is kept. Never throws (a failure
 * leaves an unused object behind). Returns true when the object was deleted.
 */
export async function deleteUnusedAvatar(
  env: { DB: D1Database; AVATARS: R2Bucket },
  avatarUrl: string | null,
  ownerId: string,
): Promise<boolean> {
  const key = /^\/objects\/(avatars\/[\w-]+\/[\w-]+)$/.exec(avatarUrl ?? "")?.[1];
  if (!key || avatarKeyOwner(key) !== ownerId) return false;
  try {
    const used = await env.DB.prepare(
      `SELECT EXISTS (SELECT 1 FROM characters WHERE creator_id = ?1 AND avatar_url = ?2)
           OR EXISTS (SELECT 1 FROM personas WHERE user_id = ?1 AND avatar_url = ?2)
           OR EXISTS (SELECT 1 FROM users WHERE id = ?1 AND substr(profile_image_url, -length(?2)) = ?2) AS used`,
    )
      .bind(ownerId, avatarUrl)
      .first<{ used: number }>("used");
    if (used) return false;
    await env.AVATARS.delete(key);
    return true;
  } catch (error) {
    console.warn("could not delete an unused avatar", key, String(error));
    return false;
  }
}

/**
 * Stores avatar bytes already known to be an image of `type` as a registered
 * object (card imports use this directly).
 */
export async function putAvatar(bucket: R2Bucket, key: string, bytes: Uint8Array, type: ImageType, userId: string): Promise<void> {
  await bucket.put(key, bytes, {
    httpMetadata: { contentType: type },
    customMetadata: { uploaderId: userId, contentType: type },
  });
}

/**
 * `PUT /api/character-avatars`: registers this person's upload at `key` and
 * returns its `/objects/<key>` path. The object must exist, be under
 * `avatars/<userId>/`, be at most MAX_AVATAR_BYTES, start with PNG, JPEG,
 * WebP or GIF magic bytes and be at most MAX_IMAGE_SIDE pixels a side (its
 * header, read from the bytes registration reads anyway: the browser
 * uploaded straight to R2); a refused object is deleted. An object already
 * registered (and not overwritten since: an upload clears the mark) is
 * answered from its metadata alone, without reading or rewriting it.
 * Throws 400 (not an avatar key, not an image), 403 (someone else's upload),
 * 404 (nothing uploaded there), 413 (too large).
 */
export async function registerAvatar(bucket: R2Bucket, key: string, userId: string): Promise<string> {
  const owner = avatarKeyOwner(key);
  if (owner === null) {
    throw new ApiError("validation_failed", "This is not an avatar upload", {
      issues: [{ path: "avatarURL", message: "This is not an avatar upload" }],
    });
  }
  if (owner !== userId) throw forbidden("This upload belongs to someone else");
  const missing = () => notFound("Upload not found. Please upload the file again.");
  const head = await bucket.head(key);
  if (!head) throw missing();
  if (head.customMetadata?.uploaderId && head.customMetadata.uploaderId !== userId) {
    throw forbidden("This upload belongs to someone else");
  }
  // Registered already (putAvatar's mark; any later PUT to the key replaces the metadata without it).
  if (isImageType(head.customMetadata?.contentType) && head.size <= MAX_AVATAR_BYTES) return objectPath(key);
  if (head.size > MAX_AVATAR_BYTES) {
    await bucket.delete(key);
    throw new ApiError("payload_too_large", "Avatars can be at most 10 MB");
  }
  const object = await bucket.get(key);
  if (!object) throw missing();
  const bytes = new Uint8Array(await object.arrayBuffer());
  if (bytes.length > MAX_AVATAR_BYTES) {
    // Replaced by a larger file since the check above.
    await bucket.delete(key);
    throw new ApiError("payload_too_large", "Avatars can be at most 10 MB");
  }
  const type = sniffImageType(bytes);
  if (!type) {
    await bucket.delete(key);
    const message = "Avatars must be PNG, JPEG, WebP or GIF images";
    throw new ApiError("validation_failed", message, { issues: [{ path: "avatarURL", message }] });
  }
  try {
    assertImageDimensions(bytes, "avatarURL");
  } catch (error) {
    await bucket.delete(key);
    throw error;
  }
  await putAvatar(bucket, key, bytes, type, userId);
  return objectPath(key);
}

/** Response headers of a served object (immutable: keys are never reused for other content). */
function objectHeaders(object: R2Object, type: ImageType): Headers {
  return new Headers({
    ETag: object.httpEtag,
    "Cache-Control": "public, max-age=31536000, immutable",
    "Content-Type": type,
    "X-Content-Type-Options": "nosniff",
  });
}

/**
 * `GET /objects/<key>`: a registered avatar, a chat's picture or a share's copy of one with its
 * ETag, or 304 when the request's `If-None-Match` (or `If-Modified-Since`)
 * says the client has it. Throws 404 for other keys, missing and
 * unregistered objects (a deleted picture included).
 */
export async function serveAvatar(bucket: R2Bucket, key: string, requestHeaders: Headers): Promise<Response> {
  if (avatarKeyOwner(key) === null && !PICTURE_KEY.test(key) && !SHARE_PICTURE_KEY.test(key)) throw notFound("Not found");
  const object = await bucket.get(key, { onlyIf: requestHeaders });
  if (!object) throw notFound("Not found");
  const type = object.customMetadata?.contentType;
  if (!isImageType(type)) {
    if ("body" in object) await object.body.cancel();
    throw notFound("Not found");
  }
  const headers = objectHeaders(object, type);
  if (!("body" in object)) return new Response(null, { status: 304, headers });
  headers.set("Content-Length", String(object.size));
  return new Response(object.body, { status: 200, headers });
}
