/** `GET /api/my-characters`: the signed-in person's own characters, inactive ones included, newest first (SPEC.md §7), each with its moderation status. */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiGet } from "../../../lib/api-client.ts";

/** Throws the SPEC.md §8 error (`401: …` for visitors, who should never ask). */
export function getMyCharacters() {
  return apiGet("/api/my-characters");
}

export const myCharactersQueryOptions = () =>
  queryOptions({
    queryKey: ["/api/my-characters"],
    queryFn: getMyCharacters,
  });

/** The list, asked only when `signedIn` (SPEC.md §7: "signed-in only"). */
export function useMyCharacters(signedIn: boolean) {
  return useQuery({ ...myCharactersQueryOptions(), enabled: signedIn });
}
