/**
 * Home's left column (SPEC.md §2 "Home"): the tag filters (TagFilterPanel)
 * in a sticky card. Hidden below 768 px by the caller, where the Filters
 * sheet (filters-sheet.tsx) offers the same controls.
 *
 * The panel's code loads after the first paint (a first visit's JavaScript
 * budget, docs/decisions/0004): the popular tags are asked for here, so their
 * request and the panel's chunk travel together, and the card shows the same
 * skeleton the panel shows while the tags load.
 */
import { lazy, Suspense } from "react";
import { Skeleton } from "../../../components/ui/skeleton.tsx";
import { useCatalogFilters } from "../../../lib/catalog-filters-context.tsx";
import { cn } from "../../../lib/utils.ts";
import { usePopularTags } from "../api/get-tags.ts";
import type { TagFilterControls } from "./tag-filter-panel.tsx";

const TagFilterPanel = lazy(() => import("./tag-filter-panel.tsx").then((m) => ({ default: m.TagFilterPanel })));

export function TagSidebar({ className, ...controls }: TagFilterControls & { className?: string }) {
  usePopularTags(useCatalogFilters().filters.showNsfw);
  return (
    <aside aria-label="Tag filters" className={cn("w-60 shrink-0", className)}>
      <div className="sticky top-20 max-h-[calc(100dvh-6rem)] overflow-y-auto rounded-2xl border border-border bg-card p-4 [scrollbar-width:thin]">
        <Suspense fallback={<TagPanelSkeleton />}>
          <TagFilterPanel {...controls} />
        </Suspense>
      </div>
    </aside>
  );
}

/** What the card shows until the panel's code arrives: the popular tags' loading rows. */
function TagPanelSkeleton() {
  return (
    <div className="space-y-2" aria-busy="true" aria-label="Loading tags">
      <Skeleton className="mb-3 h-5 w-28" />
      {Array.from({ length: 10 }, (_, i) => (
        <Skeleton key={i} className="h-7 w-full" />
      ))}
    </div>
  );
}
