/** `GET /api/profile/check-username/{username}` → `{available}` (SPEC.md §7). */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiGet } from "../../../lib/api-client.ts";


/** `username` with its "@". Throws the SPEC.md §8 error. */
export function checkUsername(username: string) {
  return apiGet("/api/profile/check-username/:username", { params: { username } });
}

export const usernameCheckQueryOptions = (username: string) =>
  queryOptions({
    queryKey: ["/api/profile/check-username", username],
    queryFn: async () => {
      try {
        return await checkUsername(username);
      } catch (error) {
        // SPEC.md §8: a failed check is only logged; the indicator goes back to unknown.
        console.error("Username check failed:", error);
        throw error;
      }
    },
    // Someone may take a name at any moment: ask again rather than trust an old answer.
    staleTime: 0,
  });

/** The check of `username`, asked only when `enabled`. */
export function useUsernameCheck(username: string, enabled: boolean) {
  return useQuery({ ...usernameCheckQueryOptions(username), enabled });
}
