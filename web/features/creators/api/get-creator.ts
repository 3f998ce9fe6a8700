/**
 * `GET /api/users/{username}`: a creator's public page (issue 16). Any
 * spelling of the name reaches the same cache entry (schema/usernames.ts).
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { usernameKey } from "../../../../schema/usernames.ts";
import { apiGet, errorStatus } from "../../../lib/api-client.ts";

/** Throws the SPEC.md §8 error: `404: …` for a name nobody holds. */
export function getCreator(username: string) {
  return apiGet("/api/users/:username", { params: { username } });
}

export const creatorQueryOptions = (username: string) =>
  queryOptions({
    queryKey: ["/api/users", usernameKey(username)],
    queryFn: () => getCreator(username),
  });

/** The creator's page; 404s are not retried (the page shows Not Found at once). */
export function useCreator(username: string) {
  return useQuery({
    ...creatorQueryOptions(username),
    retry: (failures, error) => errorStatus(error) !== 404 && failures < 2,
  });
}
