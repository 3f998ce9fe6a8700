/**
 * `GET /api/personas`: the signed-in person's personas, the default first,
 * then oldest first. Shared: /profile manages them (features/personas) and
 * the chat header picks one (features/chat).
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiGet } from "./api-client.ts";

/** Throws the SPEC.md §8 error (`401: …` for visitors, who should never ask). */
export function getPersonas() {
  return apiGet("/api/personas");
}

export const personasQueryOptions = () =>
  queryOptions({
    queryKey: ["/api/personas"],
    queryFn: getPersonas,
  });

/** The list, asked only when `signedIn`. */
export function usePersonas(signedIn: boolean) {
  return useQuery({ ...personasQueryOptions(), enabled: signedIn });
}
