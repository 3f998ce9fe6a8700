/**
 * `POST /api/personas` `{name, description, avatarUrl, isDefault?}` → 201
 * with the new persona (the person's first becomes the default). Success
 * refreshes the list.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { PersonaInput } from "../../../../schema/inputs.ts";
import { apiSend } from "../../../lib/api-client.ts";
import { personasQueryOptions } from "../../../lib/personas-query.ts";

/** Throws the SPEC.md §8 error: `401`, `400` with the field messages, `409` "You can keep at most 20 personas". */
export function createPersona(input: PersonaInput) {
  return apiSend("post", "/api/personas", { body: input });
}

export function useCreatePersona() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createPersona,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: personasQueryOptions().queryKey }),
  });
}
