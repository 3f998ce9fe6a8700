/**
 * The characters the "Add character" picker offers (DESIGN.md "Group
 * chats"): the catalog's `GET /api/characters?search=` (SFW only, most
 * popular first) with the person's favorites (`GET /api/favorites`) first,
 * each character once.
 */
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { CatalogCharacter } from "../../../../schema/api.ts";
import { apiGet } from "../../../lib/api-client.ts";

/** How many characters the picker lists at most. */
export const CAST_CANDIDATES_LIMIT = 20;

/** A character the picker can add: what its row shows. */
export type CastCandidate = Pick<CatalogCharacter, "id" | "name" | "avatarUrl" | "creator" | "description">;

/**
 * Favorites first (those whose name contains `search`, any case), then the
 * catalog's matches, each id once, at most `limit`.
 */
export function mergeCandidates(
  favorites: readonly CastCandidate[],
  matches: readonly CastCandidate[],
  search: string,
  limit = CAST_CANDIDATES_LIMIT,
): CastCandidate[] {
  const needle = search.trim().toLocaleLowerCase();
  const seen = new Set<number>();
  const out: CastCandidate[] = [];
  for (const c of [...favorites.filter((f) => f.name.toLocaleLowerCase().includes(needle)), ...matches]) {
    if (seen.has(c.id)) continue;
    seen.add(c.id);
    out.push(c);
  }
  return out.slice(0, limit);
}

const pick = ({ id, name, avatarUrl, creator, description }: CastCandidate): CastCandidate => ({ id, name, avatarUrl, creator, description });

/** Throws the SPEC.md §8 error (favorites: a visitor's 401 counts as none). */
export async function searchCastCandidates(search: string, signal?: AbortSignal): Promise<{ favorites: Set<number>; candidates: CastCandidate[] }> {
  const query = new URLSearchParams({ showNsfw: "false", nsfw: "false", limit: String(CAST_CANDIDATES_LIMIT), offset: "0", sort: "popular" });
  if (search.trim()) query.set("search", search.trim());
  const [matches, favorites] = await Promise.all([
    apiGet("/api/characters", { query: query.toString(), fetchImpl: (u, i) => fetch(u, { ...i, signal }) }),
    apiGet("/api/favorites", { query: "showNsfw=false&nsfw=false&limit=50&offset=0", fetchImpl: (u, i) => fetch(u, { ...i, signal }) }).catch(
      () => ({ characters: [] as CastCandidate[] }),
    ),
  ]);
  const favored = favorites.characters.map(pick);
  return { favorites: new Set(favored.map((f) => f.id)), candidates: mergeCandidates(favored, matches.characters.map(pick), search) };
}

export const castCandidatesQueryOptions = (search: string) =>
  queryOptions({
    queryKey: ["cast-candidates", search.trim().toLocaleLowerCase()],
    queryFn: ({ signal }) => searchCastCandidates(search, signal),
    staleTime: 30_000,
  });

/** The picker's list for `search` (debounced by the caller); the previous list stays shown while the next loads. */
export function useCastCandidates(search: string, enabled = true) {
  return useQuery({ ...castCandidatesQueryOptions(search), enabled, placeholderData: keepPreviousData });
}
