/**
 * `PUT /api/personas/{id}` with any of name, description, avatarUrl and
 * isDefault → the updated persona. `isDefault: true` moves the default here
 * (the previous default loses it), so success refreshes the whole list.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { PersonaUpdate } from "../../../../schema/inputs.ts";
import { apiSend } from "../../../lib/api-client.ts";
import { personasQueryOptions } from "../../../lib/personas-query.ts";

/** Throws the SPEC.md §8 error: `401`, `404` "Persona not found", `400` with the field messages. */
export function updatePersona(id: string, input: PersonaUpdate) {
  return apiSend("put", "/api/personas/:id", { params: { id }, body: input });
}

export function useUpdatePersona() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: PersonaUpdate }) => updatePersona(id, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: personasQueryOptions().queryKey }),
  });
}
