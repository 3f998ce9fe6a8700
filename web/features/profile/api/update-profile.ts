/**
 * `PUT /api/profile` with `{name, username, profileImageUrl, bio}` → the updated
 * person (SPEC.md §7; the bio: issue 26). Success refreshes the current-user
 * data (§4), so the header shows the new name at once, and the person's page.
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
      // The person's page (the creators feature's `["/api/users", name]`) shows the name, picture and bio.
      void queryClient.invalidateQueries({ queryKey: ["/api/users"] });
      return queryClient.invalidateQueries({ queryKey });
    },
  });
}
