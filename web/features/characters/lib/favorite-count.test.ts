import { describe, expect, it } from "vitest";
import type { CharacterListResponse } from "../../../../schema/api.ts";
import { nextFavoriteCount, withToggledFavoriteCount } from "./favorite-count.ts";

describe("nextFavoriteCount", () => {
  it("adds one when not yet favorited", () => {
    expect(nextFavoriteCount(0, false)).toBe(1);
    expect(nextFavoriteCount(41, false)).toBe(42);
  });

  it("takes one away when favorited, never below 0", () => {
    expect(nextFavoriteCount(42, true)).toBe(41);
    expect(nextFavoriteCount(1, true)).toBe(0);
    expect(nextFavoriteCount(0, true)).toBe(0);
  });
});

describe("withToggledFavoriteCount", () => {
  const list = {
    characters: [
      { id: 1, favoriteCount: 5 },
      { id: 2, favoriteCount: 0 },
    ],
    total: 2,
  } as unknown as CharacterListResponse;

  it("changes only that character in a list page", () => {
    const next = withToggledFavoriteCount(list, 2, false);
    expect(next.characters.map((c) => c.favoriteCount)).toEqual([5, 1]);
    expect(next.characters[0]).toBe(list.characters[0]);
    expect(list.characters[1]!.favoriteCount).toBe(0);
    expect(next.total).toBe(2);
  });

  it("flips isFavorited of a signed-in person's list item with the count", () => {
    const mine = {
      characters: [
        { id: 1, favoriteCount: 5, isFavorited: true },
        { id: 2, favoriteCount: 0, isFavorited: false },
      ],
      total: 2,
    } as unknown as CharacterListResponse;
    expect(withToggledFavoriteCount(mine, 1, true).characters[0]).toEqual({ id: 1, favoriteCount: 4, isFavorited: false });
    expect(withToggledFavoriteCount(mine, 2, false).characters[1]).toEqual({ id: 2, favoriteCount: 1, isFavorited: true });
    // A visitor's list item has no isFavorited and gets none.
    expect(withToggledFavoriteCount(list, 1, false).characters[0]).toEqual({ id: 1, favoriteCount: 6 });
  });

  it("returns a page without the character unchanged", () => {
    expect(withToggledFavoriteCount(list, 9, false)).toBe(list);
  });

  it("changes the single character", () => {
    expect(withToggledFavoriteCount({ id: 1, favoriteCount: 5, name: "A" }, 1, true)).toEqual({
      id: 1,
      favoriteCount: 4,
      name: "A",
    });
    expect(withToggledFavoriteCount({ id: 1, favoriteCount: 0 }, 1, true).favoriteCount).toBe(0);
  });

  it("leaves other cached data alone", () => {
    const status = { isFavorited: true };
    const comments = [{ id: 1, votes: 2 }];
    expect(withToggledFavoriteCount(status, 1, true)).toBe(status);
    expect(withToggledFavoriteCount(comments, 1, true)).toBe(comments);
    expect(withToggledFavoriteCount(undefined, 1, true)).toBeUndefined();
    expect(withToggledFavoriteCount({ id: 7, favoriteCount: 3 }, 1, true)).toEqual({ id: 7, favoriteCount: 3 });
  });
});
