/** `/` — Home: tag sidebar, hero banner, tabs, NSFW switch and the character grid. */
import { HeroBanner } from "../components/hero-banner.tsx";
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
        <CharacterGrid
          id={CATALOG_PANEL_ID}
          labelledBy={catalogTabId(filters.tab)}
          filters={{ tags: filters.tags, search, showNsfw: filters.showNsfw, sort: filters.tab }}
          offset={filters.offset}
          onLoadMore={() => dispatch({ type: "loadMore" })}
        />
      </div>
    </div>
  );
}
