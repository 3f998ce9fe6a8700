/**
/**
 * `/` — Home: tag sidebar (a Filters sheet below 768 px), hero banner, tabs,
 * NSFW switch and the character grid; tab, search, tags and NSFW are in the
 * address (lib/use-catalog-url.ts). The person's hidden tags apply to every
 * list request (lib/use-hidden-tags.ts). The Following tab lists the newest
 * characters of the creators the person follows; visitors are asked to sign
 * in there.
 */
import { useQuery } from "@tanstack/react-query";
import { SlidersHorizontal, UserPlus, Users } from "lucide-react";
import { Suspense, lazy, useRef, useState } from "react";
import { HeroBanner } from "../components/hero-banner.tsx";
import { Button } from "../components/ui/button.tsx";
import { LOGIN_PATH, useUser } from "../lib/auth.ts";
import { tabQuery } from "../lib/catalog-filters.ts";
import { useCatalogFilters } from "../lib/catalog-filters-context.tsx";
import { useCatalogUrl } from "../lib/use-catalog-url.ts";
import { useDebouncedValue } from "../lib/use-debounced-value.ts";
import { useHiddenTags } from "../lib/use-hidden-tags.ts";
import { charactersQueryOptions } from "../features/characters/api/get-characters.ts";
import { CatalogToolbar, CATALOG_PANEL_ID, catalogTabId } from "../features/characters/components/catalog-toolbar.tsx";
import { CharacterGrid } from "../features/characters/components/character-grid.tsx";
import type { TagFilterControls } from "../features/tags/components/tag-filter-panel.tsx";
import { TagSidebar } from "../features/tags/components/tag-sidebar.tsx";

/** Pause in typing before the search is sent, ms. */
const SEARCH_DEBOUNCE_MS = 300;

// Radix dialog and the sheet load on the first tap of Filters.
const FiltersSheet = lazy(() => import("../features/tags/components/filters-sheet.tsx").then((m) => ({ default: m.FiltersSheet })));

export function HomePage() {
  const { filters, dispatch, setShowNsfw } = useCatalogFilters();
  useCatalogUrl();
  const search = useDebouncedValue(filters.search, SEARCH_DEBOUNCE_MS);
  const { hiddenTags, toggleHiddenTag } = useHiddenTags();
  const [sheetOpen, setSheetOpen] = useState(false);
  const [sheetLoaded, setSheetLoaded] = useState(false);
  const filtersButton = useRef<HTMLButtonElement>(null);

  const listFilters = {
    tags: filters.tags,
    tagMode: filters.tagMode,
    excludeTags: hiddenTags,
    search,
    showNsfw: filters.showNsfw,
    ...tabQuery(filters.tab),
  };
  // The grid's first page (same query, same cache entry): its total for the sheet's button.
  const firstPage = useQuery({ ...charactersQueryOptions({ ...listFilters, offset: 0 }), enabled: sheetOpen });

  const onToggleHidden = (tag: string) => dispatch({ type: "hiddenTagsChanged", hidden: toggleHiddenTag(tag) });
  const controls: TagFilterControls = {
    selected: filters.tags,
    tagMode: filters.tagMode,
    hidden: hiddenTags,
    onToggle: (tag) => {
      if (hiddenTags.includes(tag)) onToggleHidden(tag);
      dispatch({ type: "toggleTag", tag });
    },
    onRemove: (tag) => dispatch({ type: "removeTag", tag }),
    onTagModeChange: (tagMode) => dispatch({ type: "setTagMode", tagMode }),
    onToggleHidden,
  };
  const active = filters.tags.length + hiddenTags.length;
  const onShowNsfwChange = (showNsfw: boolean) => setShowNsfw(showNsfw);
  const { user, isLoading: userLoading } = useUser();
  const following = filters.tab === "following";

  return (
    <div className="mx-auto flex max-w-[1600px] gap-6 px-4 py-6 md:px-6">
      <title>Fabled — AI Roleplay Characters</title>
      <h1 className="sr-only">Browse AI roleplay characters</h1>
      <TagSidebar className="hidden md:block" {...controls} />
      <div className="min-w-0 flex-1 space-y-6">
        <HeroBanner />
        <CatalogToolbar
          tab={filters.tab}
          onTabChange={(tab) => dispatch({ type: "setTab", tab })}
          showNsfw={filters.showNsfw}
          onShowNsfwChange={onShowNsfwChange}
        >
          <Button
            ref={filtersButton}
            variant="outline"
            className="h-auto rounded-xl bg-card px-3 py-2 md:hidden"
            aria-haspopup="dialog"
            aria-expanded={sheetOpen}
            onClick={() => {
              setSheetLoaded(true);
              setSheetOpen(true);
            }}
          >
            <SlidersHorizontal aria-hidden="true" />
            Filters
            {active > 0 && (
              <span className="rounded-full bg-primary-strong px-1.5 text-xs leading-5 text-white">
                {active}
                <span className="sr-only"> active</span>
              </span>
            )}
          </Button>
        </CatalogToolbar>
        {following && !user ? (
          <div id={CATALOG_PANEL_ID} role="tabpanel" aria-labelledby={catalogTabId(filters.tab)} aria-busy={userLoading}>
            {!userLoading && <FollowingSignIn />}
          </div>
        ) : (
          <CharacterGrid
            id={CATALOG_PANEL_ID}
            labelledBy={catalogTabId(filters.tab)}
            filters={listFilters}
            offset={filters.offset}
            onLoadMore={() => dispatch({ type: "loadMore" })}
            empty={following ? <FollowingEmpty /> : undefined}
          />
        )}
      </div>
      {sheetLoaded && (
        <Suspense fallback={null}>
          <FiltersSheet
            open={sheetOpen}
            onOpenChange={setSheetOpen}
            showNsfw={filters.showNsfw}
            onShowNsfwChange={onShowNsfwChange}
            total={firstPage.data?.total ?? null}
            opener={filtersButton}
            {...controls}
          />
        </Suspense>
      )}
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
