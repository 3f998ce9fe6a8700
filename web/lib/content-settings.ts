/**
 * The signed-in person's content settings (`GET`/`PUT /api/profile/content`,
 * issue 26): NSFW shown, and when they confirmed being 18 or older.
 */
import { queryOptions } from "@tanstack/react-query";
import { apiQueryFn, apiSend } from "./api-client.ts";
import type { ApiResponse } from "./api-types.ts";

export type ContentSettings = ApiResponse<"/api/profile/content">;

export const contentSettingsQueryOptions = () =>
  queryOptions({
    queryKey: ["/api/profile/content"],
    queryFn: apiQueryFn("/api/profile/content", { on401: "returnNull" }),
  });

/**
 * Saves `showNsfw`; `confirmAdult` records the 18+ confirmation. Resolves to
 * the settings as stored; throws the SPEC.md §8 error (400 when NSFW is
 * turned on without any confirmation).
 */
export function saveContentSettings(body: { showNsfw: boolean; confirmAdult?: true }): Promise<ContentSettings> {
  return apiSend("put", "/api/profile/content", { body });
}
