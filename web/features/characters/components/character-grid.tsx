/**
 * Home's result area (SPEC.md §2 "Home"): "{n} results found", the cards,
 * "Load More Characters", and the loading, empty and error states. The same
 * grid lists a creator's characters, Home's Following tab and Favorites
 * (`pageQuery`, `empty`, `onlyFavorited`).
 */
import { useQueries } from "@tanstack/react-query";
import { CloudOff, SearchX } from "lucide-react";
import type { ReactNode } from "react";
import type { CatalogCharacter, CharacterSummary } from "../../../../schema/api.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Skeleton } from "../../../components/ui/skeleton.tsx";
import { canLoadMore, pageOffsets } from "../../../lib/catalog-filters.ts";
import { type CharacterPageParams, charactersQueryOptions } from "../api/get-characters.ts";
import { useFavoriteStatus } from "../api/get-favorite-status.ts";
import type { favoritesQueryOptions } from "../api/get-favorites.ts";
import { CharacterCard, CharacterCardSkeleton } from "./character-card.tsx";

/** Skeleton cards while the first page loads (SPEC.md §9). */
const SKELETON_COUNT = 8;

// Two columns on phones; beside the tag sidebar (md+) the grid grows from 2 to 5.
const GRID_CLASS =
  "grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4 md:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4 wide:grid-cols-5";

interface CharacterGridProps {
  /** The catalog's filters (`GET /api/characters`); ignored when `pageQuery` is given. */
  filters?: Omit<CharacterPageParams, "offset">;
  /** The query of the page at an offset, for lists other than the catalog (Favorites). */
  pageQuery?: (offset: number) => ReturnType<typeof favoritesQueryOptions>;
  /** What an empty list shows; Home's "No characters found matching your criteria" by default. */
  empty?: ReactNode;
  /** Hide a card as soon as the person unfavorites it (Favorites); it comes back if the toggle fails. */
  onlyFavorited?: boolean;
  /** Offset of the last page to show; every page from 0 up to it is listed. */
  offset: number;
  onLoadMore: () => void;
  /** id of the element labelling the grid (the active tab). */
  labelledBy?: string;
  id?: string;
}

export function CharacterGrid({ filters, pageQuery, empty, onlyFavorited, offset, onLoadMore, labelledBy, id }: CharacterGridProps) {
  const pages = useQueries({
    queries: pageOffsets(offset).map((o) =>
      pageQuery ? pageQuery(o) : charactersQueryOptions({ ...(filters ?? DEFAULT_FILTERS), offset: o }),
    ),
  });
  const first = pages[0];
  const last = pages[pages.length - 1];

  let body;
  if (!first || first.isPending) {
    body = (
      <>
        <Skeleton className="mb-4 h-5 w-36" />
        <div className={GRID_CLASS} role="status" aria-busy="true" aria-label="Loading characters">
          {Array.from({ length: SKELETON_COUNT }, (_, i) => (
            <CharacterCardSkeleton key={i} />
          ))}
        </div>
      </>
    );
  } else if (first.isError) {
    body = (
      <div className="flex flex-col items-center gap-4 rounded-2xl border border-border bg-card px-6 py-16 text-center">
        <CloudOff aria-hidden="true" className="size-10 text-muted-foreground" />
        <div className="space-y-1">
          <p className="text-lg font-semibold">Failed to load characters</p>
          <p className="text-sm text-muted-foreground">Check your connection and try again.</p>
        </div>
        <Button variant="secondary" onClick={() => window.location.reload()}>
          Try Again
        </Button>
      </div>
    );
  } else {
    const characters = dedupe(pages.flatMap((p) => p.data?.characters ?? []));
    const total = first.data.total;
    const loadingMore = pages.some((p) => p.isFetching);
    const moreFailed = last?.isError ?? false;
    body = (
      <>
        <p className="mb-4 text-sm text-muted-foreground" aria-live="polite">
          {total} results found
        </p>
        {characters.length === 0 ? (
          (empty ?? (
            <div className="flex flex-col items-center gap-2 rounded-2xl border border-dashed border-border px-6 py-16 text-center">
              <SearchX aria-hidden="true" className="mb-2 size-10 text-muted-foreground" />
              <p className="text-lg font-semibold">No characters found matching your criteria</p>
              <p className="text-sm text-muted-foreground">Try adjusting your filters or search query</p>
            </div>
          ))
        ) : (
          <ul className={GRID_CLASS}>
            {characters.map((character, index) =>
              onlyFavorited ? (
                <FavoritedItem key={character.id} character={character} priority={index < 5} />
              ) : (
                <li key={character.id} className="grid">
                  <CharacterCard character={character} priority={index < 5} />
                </li>
              ),
            )}
          </ul>
        )}
        {moreFailed && (
          <div role="alert" className="mt-6 flex flex-col items-center gap-3 text-center">
            <p className="text-sm text-orange-300">Failed to load characters</p>
            <Button variant="secondary" size="sm" onClick={() => void last?.refetch()}>
              Try Again
            </Button>
          </div>
        )}
        {(canLoadMore(last?.data) || (loadingMore && offset > 0)) && (
          <div className="mt-8 flex justify-center">
            <Button variant="outline" size="lg" onClick={onLoadMore} disabled={loadingMore} className="min-w-56">
              {loadingMore ? "Loading..." : "Load More Characters"}
            </Button>
          </div>
        )}
      </>
    );
  }

  return (
    <div id={id} role={labelledBy ? "tabpanel" : undefined} aria-labelledby={labelledBy}>
      {body}
    </div>
  );
}

const DEFAULT_FILTERS: Omit<CharacterPageParams, "offset"> = { tags: [], search: "", showNsfw: false, sort: "for-you" };

/**
 * A Favorites card, shown while the person's favorite status says favorited:
 * unfavoriting flips the status at once (optimistic), so the card leaves at
 * once, and a failed toggle rolls the status back, bringing it back.
 */
function FavoritedItem({ character, priority }: { character: CatalogCharacter; priority: boolean }) {
  const status = useFavoriteStatus(character.id, true, character.isFavorited);
  if (status.data?.isFavorited === false) return null;
  return (
    <li className="grid">
      <CharacterCard character={character} priority={priority} />
    </li>
  );
}

/** Pages are stable, but a character can move between pages while one pages on; show it once. */
function dedupe<T extends CharacterSummary>(characters: T[]): T[] {
  const seen = new Set<number>();
  return characters.filter((c) => (seen.has(c.id) ? false : (seen.add(c.id), true)));
}
