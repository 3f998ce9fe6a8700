import { QueryClient } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { CharacterListResponse } from "../../../../schema/api.ts";
import { charactersQueryOptions } from "./get-characters.ts";
import { favoriteStatusQueryOptions, seedFavoriteStatuses, toggleFavoriteMutationKey } from "./get-favorite-status.ts";

const status = (client: QueryClient, id: number) => client.getQueryData(favoriteStatusQueryOptions(id).queryKey);

afterEach(() => vi.unstubAllGlobals());

describe("seedFavoriteStatuses", () => {
  it("puts each listed isFavorited into that character's status query", () => {
    const client = new QueryClient();
    seedFavoriteStatuses(client, [
      { id: 1, isFavorited: true },
      { id: 2, isFavorited: false },
    ]);
    expect(status(client, 1)).toEqual({ isFavorited: true });
    expect(status(client, 2)).toEqual({ isFavorited: false });
  });

  it("leaves characters without the field (a visitor's list) unknown", () => {
    const client = new QueryClient();
    seedFavoriteStatuses(client, [{ id: 1 }]);
    expect(status(client, 1)).toBeUndefined();
  });

  it("does not overwrite the optimistic status of a toggle in flight", async () => {
    const client = new QueryClient();
    client.setQueryData(favoriteStatusQueryOptions(1).queryKey, { isFavorited: true });
    let finish!: () => void;
    const toggle = client.getMutationCache().build(client, {
      mutationKey: toggleFavoriteMutationKey(1),
      mutationFn: () => new Promise<void>((resolve) => (finish = resolve)),
    });
    const done = toggle.execute(undefined);
    await vi.waitFor(() => expect(client.isMutating()).toBe(1));

    seedFavoriteStatuses(client, [
      { id: 1, isFavorited: false },
      { id: 2, isFavorited: true },
    ]);
    expect(status(client, 1)).toEqual({ isFavorited: true });
    expect(status(client, 2)).toEqual({ isFavorited: true });

    finish();
    await done;
    seedFavoriteStatuses(client, [{ id: 1, isFavorited: false }]);
    expect(status(client, 1)).toEqual({ isFavorited: false });
  });
});

describe("charactersQueryOptions", () => {
  it("one list request answers every card's favorite status", async () => {
    const page: CharacterListResponse = {
      characters: [
        { id: 7, isFavorited: true },
        { id: 8, isFavorited: false },
      ] as CharacterListResponse["characters"],
      total: 2,
    };
    const fetchMock = vi.fn(async () => Response.json(page));
    vi.stubGlobal("fetch", fetchMock);
    const client = new QueryClient();

    const data = await client.fetchQuery(charactersQueryOptions({ tags: [], search: "", showNsfw: false, sort: "for-you", offset: 0 }));
    expect(data).toEqual(page);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(status(client, 7)).toEqual({ isFavorited: true });
    expect(status(client, 8)).toEqual({ isFavorited: false });
  });
});
