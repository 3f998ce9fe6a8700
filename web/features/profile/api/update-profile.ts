/**
 * `PUT /api/profile` with `{name, username, profileImageUrl}` → the updated
 * person (SPEC.md §7). Success refreshes the current-user data (§4).
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ProfileInput } from "../../../../schema/inputs.ts";
import { apiSend } from "../../../lib/api-client.ts";
import { userQueryOptions } from "../../../lib/auth.ts";

/** Throws the SPEC.md §8 error: `409: …` for a taken username, `400: …` with the §5 messages. */
export function updateProfile(input: ProfileInput) {
  return apiSend("put", "/api/profile", { body: input });
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (user) => {
      const { queryKey } = userQueryOptions();
      queryClient.setQueryData(queryKey, user);
      return queryClient.invalidateQueries({ queryKey });
    },
  });
}
