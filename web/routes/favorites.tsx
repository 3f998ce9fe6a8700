/**
 * `/favorites` — Favorites (issue 16): the characters the person favorited,
 * newest favorite first, in Home's grid and paging, with Home's NSFW setting
 * (its switch is shared). Unfavoriting removes the card at once, and it
 * comes back if the toggle fails. Visitors are asked to sign in.
 */
import { Heart } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { PageSpinner } from "../components/page-spinner.tsx";
import { SignInRequired } from "../components/sign-in-required.tsx";
import { BackHomeLink } from "../components/back-home-link.tsx";
import { Button } from "../components/ui/button.tsx";
import { NsfwSwitch } from "../components/nsfw-switch.tsx";
import { useUser } from "../lib/auth.ts";
import { CATALOG_PAGE_SIZE } from "../lib/catalog-filters.ts";
import { useCatalogFilters } from "../lib/catalog-filters-context.tsx";
import { favoritesQueryOptions } from "../features/characters/api/get-favorites.ts";
import { CharacterGrid } from "../features/characters/components/character-grid.tsx";

export function FavoritesPage() {
  const { user, isLoading } = useUser();
  const { filters, setShowNsfw } = useCatalogFilters();
  const showNsfw = filters.showNsfw;
  // The last loaded page's offset, per NSFW setting (switching starts over at the first page).
  const [paging, setPaging] = useState({ showNsfw, offset: 0 });
  const offset = paging.showNsfw === showNsfw ? paging.offset : 0;

  if (isLoading) return <PageSpinner />;
  if (!user) return <SignInRequired message="Please sign in to see your favorite characters" />;

  return (
    <div className="mx-auto max-w-[1400px] px-4 py-6 md:px-6 md:py-10">
      <title>Favorites — Fabled</title>
      <BackHomeLink />
      <header className="mt-4 mb-8 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-3xl font-bold tracking-tight">Favorites</h1>
          <p className="mt-1 text-muted-foreground">The characters you favorited, newest first.</p>
        </div>
        <NsfwSwitch
          id="favorites-nsfw-toggle"
          checked={showNsfw}
          onCheckedChange={(checked) => setShowNsfw(checked)}
          className="self-start rounded-xl border border-border bg-card px-3 py-2 sm:self-auto"
        />
      </header>
      <CharacterGrid
        pageQuery={(o) => favoritesQueryOptions({ showNsfw, offset: o })}
        offset={offset}
        onLoadMore={() => setPaging({ showNsfw, offset: offset + CATALOG_PAGE_SIZE })}
        onlyFavorited
        empty={<FavoritesEmpty />}
      />
    </div>
  );
}

function FavoritesEmpty() {
  return (
    <div className="flex flex-col items-center gap-2 rounded-2xl border border-dashed border-border px-6 py-16 text-center">
      <Heart aria-hidden="true" className="mb-2 size-10 text-muted-foreground" />
      <p className="text-lg font-semibold">No favorites yet</p>
      <p className="max-w-md text-sm text-muted-foreground">
        Press the heart on any character to keep it here.
      </p>
      <Button asChild variant="outline" className="mt-3">
        <Link to="/">Browse characters</Link>
      </Button>
    </div>
  );
}
