/**
 * Home's left column (SPEC.md §2 "Home"): the tag filters (TagFilterPanel)
 * in a sticky card. Hidden below 768 px by the caller, where the Filters
 * sheet (filters-sheet.tsx) offers the same controls.
 */
import { cn } from "../../../lib/utils.ts";
import { TagFilterPanel, type TagFilterControls } from "./tag-filter-panel.tsx";

export function TagSidebar({ className, ...controls }: TagFilterControls & { className?: string }) {
  return (
    <aside aria-label="Tag filters" className={cn("w-60 shrink-0", className)}>
      <div className="sticky top-20 max-h-[calc(100dvh-6rem)] overflow-y-auto rounded-2xl border border-border bg-card p-4 [scrollbar-width:thin]">
        <TagFilterPanel {...controls} />
      </div>
    </aside>
  );
}
