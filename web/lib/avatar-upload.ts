/**
 * The avatar upload flow of SPEC.md §7, independent of the upload panel
 * (web/components/avatar-upload-panel.tsx), shared by characters and personas:
 * 1. `POST /api/objects/upload` → `{uploadURL}` for each file (a presigned R2
 *    PUT in production, a Worker URL with a short-lived token locally);
 * 2. the panel PUTs the raw file there;
 * 3. `PUT /api/character-avatars` `{avatarURL: uploadURL}` → `{objectPath}`,
 *    which becomes the character's or persona's avatarUrl.
 */
import { MAX_UPLOAD_BYTES } from "../../schema/constants.ts";
import { apiSend } from "./api-client.ts";
import type { ApiResponse } from "./api-types.ts";

type UploadUrlResponse = ApiResponse<"/api/objects/upload", "post">;
type AvatarRegistrationResponse = ApiResponse<"/api/character-avatars", "put">;

/** The panel's restrictions (SPEC.md §5, §9): one image of at most 10,485,760 bytes. */
export const AVATAR_RESTRICTIONS = {
  maxNumberOfFiles: 1,
  maxFileSize: MAX_UPLOAD_BYTES,
  allowedFileTypes: ["image/*"],
};

/**
 * Whether a failed PUT is tried again (SPEC.md §8): 408, 409, 418, 423, 429
 * and every 5xx except 501 (Not Implemented) and 505 (HTTP Version Not
 * Supported), which no retry can fix; also status 0, a request that never
 * got an answer (network down, connection reset).
 */
export function isRetryableUploadStatus(status: number): boolean {
  if (status === 0) return true;
  if ([408, 409, 418, 423, 429].includes(status)) return true;
  return status >= 500 && status < 600 && status !== 501 && status !== 505;
}

/**
 * The body of a successful PUT as the uploader wants it (a JSON object): the
 * Worker URL answers JSON, a presigned R2 PUT answers with an empty body or
 * XML, which become `{}`.
 */
export function uploadResponseBody(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * Step 1, `POST /api/objects/upload`, no body → `{uploadURL}`: where to PUT an
 * avatar file. Throws the SPEC.md §8 error (`401: …` signed out, `503: …`
 * when uploads are not configured).
 */
export function createUploadUrl(): Promise<UploadUrlResponse> {
  return apiSend("post", "/api/objects/upload");
}

/**
 * Step 3, `PUT /api/character-avatars` `{avatarURL}` → `{objectPath}`:
 * registers the file just PUT to `avatarURL` (the upload URL) as an avatar.
 * Throws the SPEC.md §8 error: `400` not an image, `403` someone else's
 * upload, `404` nothing uploaded, `413` over 10 MB.
 */
export function registerAvatar(avatarURL: string): Promise<AvatarRegistrationResponse> {
  return apiSend("put", "/api/character-avatars", { body: { avatarURL } });
}

export interface AvatarUploadApi {
  createUploadUrl: () => Promise<UploadUrlResponse>;
  registerAvatar: (avatarURL: string) => Promise<AvatarRegistrationResponse>;
}

/**
 * Remembers which upload URL each file was sent to, so it can be registered
 * once the PUT succeeds. A retried file asks for a fresh URL (the old one may
 * have expired).
 */
export function createAvatarUploadFlow(api: AvatarUploadApi) {
  const uploadUrls = new Map<string, string>();
  return {
    /** Step 1 for `fileId`: where to PUT it. Throws the API client's error. */
    async endpointFor(fileId: string): Promise<string> {
      const { uploadURL } = await api.createUploadUrl();
      uploadUrls.set(fileId, uploadURL);
      return uploadURL;
    },
    /** Step 3 for `fileId`, after its PUT succeeded: the avatar's `/objects/…` path. */
    async register(fileId: string): Promise<string> {
      const uploadURL = uploadUrls.get(fileId);
      if (uploadURL === undefined) throw new Error("This file was not uploaded");
      const { objectPath } = await api.registerAvatar(uploadURL);
      uploadUrls.delete(fileId);
      return objectPath;
    },
    /** Drops what is known about `fileId` (removed from the panel). */
    forget(fileId: string): void {
      uploadUrls.delete(fileId);
    },
  };
}

export type AvatarUploadFlow = ReturnType<typeof createAvatarUploadFlow>;
