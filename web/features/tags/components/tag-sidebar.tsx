/**
 * Home's left column of popular tags (SPEC.md §2 "Home"): the first 20 with a
 * Show More / Show Less toggle, selection by click, and the selected tags as
 * removable "Selected Filters (N)". Hidden below 768 px by the caller.
 */
import { Check, Hash, X } from "lucide-react";
import { useState } from "react";
import { Skeleton } from "../../../components/ui/skeleton.tsx";
import { formatCount } from "../../../lib/format.ts";
import { cn } from "../../../lib/utils.ts";
import { usePopularTags } from "../api/get-tags.ts";

/** Tags listed before "Show More Tags →" (SPEC.md §9). */
export const SIDEBAR_TAG_LIMIT = 20;

interface TagSidebarProps {
  selected: string[];
  onToggle: (tag: string) => void;
  onRemove: (tag: string) => void;
  className?: string;
}

export function TagSidebar({ selected, onToggle, onRemove, className }: TagSidebarProps) {
  const { tags, isLoading } = usePopularTags();
  const [expanded, setExpanded] = useState(false);
  const shown = expanded ? tags : tags.slice(0, SIDEBAR_TAG_LIMIT);

  return (
    <aside aria-labelledby="tag-sidebar-title" className={cn("w-60 shrink-0", className)}>
      <div className="sticky top-20 max-h-[calc(100dvh-6rem)] space-y-5 overflow-y-auto rounded-2xl border border-border bg-card p-4 [scrollbar-width:thin]">
        {selected.length > 0 && (
          <section aria-labelledby="selected-filters-title">
            <h2 id="selected-filters-title" className="mb-2 text-xs font-semibold tracking-wide text-muted-foreground uppercase">
              Selected Filters ({selected.length})
            </h2>
            <ul className="flex flex-wrap gap-1.5">
              {selected.map((tag) => (
                <li key={tag}>
                  <span className="inline-flex items-center gap-1 rounded-full bg-primary-strong py-0.5 pr-1 pl-2.5 text-xs font-medium text-white">
                    {tag}
                    <button
                      type="button"
                      aria-label={`Remove ${tag} filter`}
                      onClick={() => onRemove(tag)}
                      className="cursor-pointer rounded-full p-0.5 hover:bg-white/20 focus-visible:outline-2 focus-visible:outline-white"
                    >
                      <X aria-hidden="true" className="size-3" />
                    </button>
                  </span>
                </li>
              ))}
            </ul>
          </section>
        )}

        <section>
          <h2 id="tag-sidebar-title" className="mb-2 flex items-center gap-1.5 text-sm font-semibold">
            <Hash aria-hidden="true" className="size-4 text-pink-400" /> Popular Tags
          </h2>
          {isLoading ? (
            <div className="space-y-2" aria-hidden="true">
              {Array.from({ length: 10 }, (_, i) => (
                <Skeleton key={i} className="h-7 w-full" />
              ))}
            </div>
          ) : tags.length === 0 ? (
            <p className="text-sm text-muted-foreground">No tags yet.</p>
          ) : (
            <ul className="space-y-0.5">
              {shown.map((tag) => {
                const isSelected = selected.includes(tag.name);
                return (
                  <li key={tag.id}>
                    <button
                      type="button"
                      aria-pressed={isSelected}
                      onClick={() => onToggle(tag.name)}
                      className={cn(
                        "flex w-full cursor-pointer items-center justify-between gap-2 rounded-lg px-2.5 py-1.5 text-left text-sm transition-colors focus-visible:outline-2 focus-visible:outline-ring",
                        isSelected
                          ? "bg-primary/20 font-medium text-violet-100"
                          : "text-foreground/85 hover:bg-surface hover:text-foreground",
                      )}
                    >
                      <span className="flex min-w-0 items-center gap-1.5">
                        {isSelected && <Check aria-hidden="true" className="size-3.5 shrink-0 text-pink-300" />}
                        <span className="truncate">{tag.name}</span>
                      </span>
                      <span className="shrink-0 text-xs text-muted-foreground tabular-nums">
                        <span className="sr-only">, </span>
                        {formatCount(tag.count)}
                        <span className="sr-only"> characters</span>
                      </span>
                    </button>
                  </li>
                );
              })}
            </ul>
          )}
          {tags.length > SIDEBAR_TAG_LIMIT && (
            <button
              type="button"
              aria-expanded={expanded}
              onClick={() => setExpanded((v) => !v)}
              className="mt-2 w-full cursor-pointer rounded-lg px-2.5 py-1.5 text-left text-sm font-medium text-violet-300 hover:bg-surface hover:text-violet-200 focus-visible:outline-2 focus-visible:outline-ring"
            >
              {expanded ? "Show Less Tags ↑" : "Show More Tags →"}
            </button>
          )}
        </section>
      </div>
    </aside>
  );
}
