/**
 * `DELETE /api/profile` `{confirm: "<username>"}` → 204: the account is
 * deleted and this browser signed out (DESIGN.md turn 4 "Your account,
 * your data"). Success forgets everything cached about the person.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiSendUnread } from "../../../lib/api-client.ts";
import { userQueryOptions } from "../../../lib/auth.ts";

/** Throws the SPEC.md §8 error: `400` when `confirm` is not the username. */
export async function deleteAccount(confirm: string): Promise<void> {
  await apiSendUnread("delete", "/api/profile", { body: { confirm } });
}

export function useDeleteAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAccount,
    onSuccess: () => {
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== userQueryOptions().queryKey[0] });
      queryClient.setQueryData(userQueryOptions().queryKey, null);
    },
  });
}
