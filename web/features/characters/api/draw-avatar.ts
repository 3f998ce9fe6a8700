/**
 * `POST /api/images/avatars` `{description}` (DESIGN.md "Pictures") → 201
 * `{objectPath, url, provider}`: an avatar drawn from a description, the
 * person's own upload (usable as `avatarUrl`; kept once the character is
 * saved with it). Refreshes the day's count of pictures.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiSend } from "../../../lib/api-client.ts";

/** Throws the SPEC.md §8 error: 400 (empty, too long), 422 refused, 429 past the allowance (saying when), 503 the engine failed. */
export function drawAvatar(description: string) {
  return apiSend("post", "/api/images/avatars", { body: { description } });
}

export function useDrawAvatar() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (description: string) => drawAvatar(description),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ["/api/images/usage"] }),
  });
}
