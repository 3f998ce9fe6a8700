/** `POST /api/objects/upload`, no body → `{uploadURL}`: where to PUT an avatar file (SPEC.md §7). */
import type { UploadUrlResponse } from "../../../../schema/api.ts";
import { apiRequest } from "../../../lib/api-client.ts";

/** Throws the SPEC.md §8 error (`401: …` signed out, `503: …` when uploads are not configured). */
export async function createUploadUrl(): Promise<UploadUrlResponse> {
  const res = await apiRequest("POST", "/api/objects/upload");
  return (await res.json()) as UploadUrlResponse;
}
