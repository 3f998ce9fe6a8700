/**
 * The optimistic side of a favorite toggle (SPEC.md §4 "Favorite"): the count
 * moves at once, +1 when not yet favorited, −1 when favorited, never below 0.
 */
import type { Character, CharacterListResponse } from "../../../../schema/api.ts";

/** The count after toggling: `count + 1`, or `count − 1` floored at 0 (SPEC.md §9). */
export function nextFavoriteCount(count: number, wasFavorited: boolean): number {
  return wasFavorited ? Math.max(0, count - 1) : count + 1;
}

function isListResponse(data: unknown): data is CharacterListResponse {
  return typeof data === "object" && data !== null && Array.isArray((data as CharacterListResponse).characters);
}

function isCharacter(data: unknown): data is Pick<Character, "id" | "favoriteCount"> {
  return (
    typeof data === "object" &&
    data !== null &&
    typeof (data as Character).id === "number" &&
    typeof (data as Character).favoriteCount === "number"
  );
}

/**
 * Cached data under `/api/characters…` with character `characterId`'s
 * favorite count toggled: list pages and the single character are rewritten
 * (new objects), anything else (favorite status, comments) comes back as it
 * was, so this can be applied to every query with that prefix. A list item
 * that carries `isFavorited` (a signed-in person's list) gets `!wasFavorited`.
 */
export function withToggledFavoriteCount<T>(data: T, characterId: number, wasFavorited: boolean): T {
  if (isListResponse(data)) {
    if (!data.characters.some((c) => c.id === characterId)) return data;
    return {
      ...data,
      characters: data.characters.map((c) => {
        if (c.id !== characterId) return c;
        const toggled = { ...c, favoriteCount: nextFavoriteCount(c.favoriteCount, wasFavorited) };
        if (typeof c.isFavorited === "boolean") toggled.isFavorited = !wasFavorited;
        return toggled;
      }),
    };
  }
  if (isCharacter(data) && data.id === characterId) {
    return { ...data, favoriteCount: nextFavoriteCount(data.favoriteCount, wasFavorited) };
  }
  return data;
}
