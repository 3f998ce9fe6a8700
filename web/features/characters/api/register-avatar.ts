/**
 * `PUT /api/character-avatars` `{avatarURL}` → `{objectPath}` (SPEC.md §7):
 * registers the file just PUT to `avatarURL` (the upload URL) as an avatar;
 * `objectPath` becomes the character's avatarUrl.
 */
import type { AvatarRegistrationResponse } from "../../../../schema/api.ts";
import { apiRequest } from "../../../lib/api-client.ts";

/** Throws the SPEC.md §8 error: `400` not an image, `403` someone else's upload, `404` nothing uploaded, `413` over 10 MB. */
export async function registerAvatar(avatarURL: string): Promise<AvatarRegistrationResponse> {
  const res = await apiRequest("PUT", "/api/character-avatars", { avatarURL });
  return (await res.json()) as AvatarRegistrationResponse;
}
