/**
 * Names and avatars of speakers no longer in the cast (DESIGN.md "Group
 * chats": a member removed later stays readable in the history): each id
 * is read with `GET /api/characters/{id}` (the character page's own query,
 * so shared with it). A character that is gone or no longer visible (404)
 * stays unknown, and its replies read "Former member".
 */
import { useQueries } from "@tanstack/react-query";
import { apiGet } from "../../../lib/api-client.ts";
import type { KnownCharacter } from "../lib/cast.ts";

/** The characters with these ids that could be read, by id. */
export function useFormerSpeakers(ids: readonly number[]): Map<number, KnownCharacter> {
  const results = useQueries({
    queries: ids.map((id) => ({
      queryKey: ["/api/characters", String(id)],
      queryFn: () => apiGet("/api/characters/:id", { params: { id: String(id) } }),
      retry: false,
      staleTime: 5 * 60_000,
    })),
  });
  const found = new Map<number, KnownCharacter>();
  for (const { data } of results) if (data) found.set(data.id, { id: data.id, name: data.name, avatarUrl: data.avatarUrl });
  return found;
}
