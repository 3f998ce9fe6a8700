/**
 * `/` — Home: tag sidebar, hero banner, tabs, NSFW switch and the character
 * grid. The Following tab lists the newest characters of the creators the
 * person follows; visitors are asked to sign in there.
 */
import { UserPlus, Users } from "lucide-react";
import { HeroBanner } from "../components/hero-banner.tsx";
import { Button } from "../components/ui/button.tsx";
import { LOGIN_PATH, useUser } from "../lib/auth.ts";
import { tabQuery } from "../lib/catalog-filters.ts";
import { useCatalogFilters } from "../lib/catalog-filters-context.tsx";
import { useDebouncedValue } from "../lib/use-debounced-value.ts";
import { CatalogToolbar, CATALOG_PANEL_ID, catalogTabId } from "../features/characters/components/catalog-toolbar.tsx";
import { CharacterGrid } from "../features/characters/components/character-grid.tsx";
import { TagSidebar } from "../features/tags/components/tag-sidebar.tsx";

/** Pause in typing before the search is sent, ms. */
const SEARCH_DEBOUNCE_MS = 300;

export function HomePage() {
  const { filters, dispatch } = useCatalogFilters();
  const search = useDebouncedValue(filters.search, SEARCH_DEBOUNCE_MS);
  const { user, isLoading: userLoading } = useUser();
  const following = filters.tab === "following";

  return (
    <div className="mx-auto flex max-w-[1600px] gap-6 px-4 py-6 md:px-6">
      <title>Fabled — AI Roleplay Characters</title>
      <h1 className="sr-only">Browse AI roleplay characters</h1>
      <TagSidebar
        className="hidden md:block"
        selected={filters.tags}
        onToggle={(tag) => dispatch({ type: "toggleTag", tag })}
        onRemove={(tag) => dispatch({ type: "removeTag", tag })}
      />
      <div className="min-w-0 flex-1 space-y-6">
        <HeroBanner />
        <CatalogToolbar
          tab={filters.tab}
          onTabChange={(tab) => dispatch({ type: "setTab", tab })}
          showNsfw={filters.showNsfw}
          onShowNsfwChange={(showNsfw) => dispatch({ type: "setShowNsfw", showNsfw })}
        />
        {following && !user ? (
          <div id={CATALOG_PANEL_ID} role="tabpanel" aria-labelledby={catalogTabId(filters.tab)} aria-busy={userLoading}>
            {!userLoading && <FollowingSignIn />}
          </div>
        ) : (
          <CharacterGrid
            id={CATALOG_PANEL_ID}
            labelledBy={catalogTabId(filters.tab)}
            filters={{ tags: filters.tags, search, showNsfw: filters.showNsfw, ...tabQuery(filters.tab) }}
            offset={filters.offset}
            onLoadMore={() => dispatch({ type: "loadMore" })}
            empty={following ? <FollowingEmpty /> : undefined}
          />
        )}
      </div>
    </div>
  );
}

/** The Following tab for a visitor: what it is, and Sign In (as other signed-in features ask). */
function FollowingSignIn() {
  return (
    <div className="flex flex-col items-center gap-3 rounded-2xl border border-dashed border-border px-6 py-16 text-center">
      <Users aria-hidden="true" className="mb-1 size-10 text-muted-foreground" />
      <p className="text-lg font-semibold">Sign in to follow creators</p>
      <p className="max-w-md text-sm text-muted-foreground">
        Follow the creators you like and their new characters show up here.
      </p>
      <Button asChild variant="gradient" className="mt-2">
        <a href={LOGIN_PATH}>Sign In</a>
      </Button>
    </div>
  );
}

/** The Following tab with nothing to show: following nobody yet, or nothing new matching the filters. */
function FollowingEmpty() {
  return (
    <div className="flex flex-col items-center gap-2 rounded-2xl border border-dashed border-border px-6 py-16 text-center">
      <UserPlus aria-hidden="true" className="mb-2 size-10 text-muted-foreground" />
      <p className="text-lg font-semibold">No characters from creators you follow</p>
      <p className="max-w-md text-sm text-muted-foreground">
        Open a creator's page from the @name under any character and press Follow: their new characters appear here.
      </p>
    </div>
  );
}
