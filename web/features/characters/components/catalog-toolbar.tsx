/**
 * Home's tabs (For You, Trending, New, Popular, Following) and the NSFW
 * switch; a creator page passes its own tabs. Tabs follow the WAI-ARIA tabs
 * pattern: one tab stop, arrow keys move between tabs and select them.
 */
import { Clock, Flame, Sparkles, Star, UserCheck } from "lucide-react";
import { type KeyboardEvent, type ReactNode, useRef } from "react";
import { NsfwSwitch } from "../../../components/nsfw-switch.tsx";
import type { HomeTab } from "../../../lib/catalog-filters.ts";
import { cn } from "../../../lib/utils.ts";

export interface CatalogTab<T extends HomeTab = HomeTab> {
  value: T;
  label: string;
  icon: typeof Flame;
}

export const CATALOG_TABS: CatalogTab[] = [
  { value: "for-you", label: "For You", icon: Sparkles },
  { value: "trending", label: "Trending", icon: Flame },
  { value: "new", label: "New", icon: Clock },
  { value: "popular", label: "Popular", icon: Star },
  { value: "following", label: "Following", icon: UserCheck },
];

/** id of a tab element, for the panel's aria-labelledby. */
export const catalogTabId = (tab: HomeTab) => `catalog-tab-${tab}`;
export const CATALOG_PANEL_ID = "catalog-results";

interface CatalogToolbarProps<T extends HomeTab> {
  tab: T;
  onTabChange: (tab: T) => void;
  showNsfw: boolean;
  onShowNsfwChange: (showNsfw: boolean) => void;
  /** The tabs shown; Home's by default. */
  tabs?: CatalogTab<T>[];
  /** Controls shown before the NSFW switch (Home's Filters button on phones). */
  children?: ReactNode;
}

export function CatalogToolbar<T extends HomeTab>({
  tab,
  onTabChange,
  showNsfw,
  onShowNsfwChange,
  tabs = CATALOG_TABS as CatalogTab<T>[],
  children,
}: CatalogToolbarProps<T>) {
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const current = tabs.findIndex((t) => t.value === tab);
    let next: number | null = null;
    if (event.key === "ArrowRight") next = (current + 1) % tabs.length;
    else if (event.key === "ArrowLeft") next = (current - 1 + tabs.length) % tabs.length;
    else if (event.key === "Home") next = 0;
    else if (event.key === "End") next = tabs.length - 1;
    if (next === null) return;
    event.preventDefault();
    onTabChange(tabs[next]!.value);
    tabRefs.current[next]?.focus();
  };

  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <div
        role="tablist"
        aria-label="Sort characters"
        onKeyDown={onKeyDown}
        className="flex w-full gap-1 overflow-x-auto rounded-xl border border-border bg-card p-1 [scrollbar-width:none] sm:w-auto"
      >
        {tabs.map(({ value, label, icon: Icon }, index) => {
          const selected = value === tab;
          return (
            <button
              key={value}
              ref={(el) => {
                tabRefs.current[index] = el;
              }}
              id={catalogTabId(value)}
              type="button"
              role="tab"
              aria-selected={selected}
              aria-controls={CATALOG_PANEL_ID}
              tabIndex={selected ? 0 : -1}
              onClick={() => onTabChange(value)}
              className={cn(
                "inline-flex flex-1 shrink-0 cursor-pointer items-center justify-center gap-1.5 rounded-lg px-2 py-1.5 text-[13px] sm:flex-none sm:px-3 sm:text-sm font-medium whitespace-nowrap transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring",
                selected
                  ? "bg-gradient-to-r from-primary-strong to-accent-pink text-white shadow"
                  : "text-muted-foreground hover:bg-surface hover:text-foreground",
              )}
            >
              <Icon aria-hidden="true" className="hidden size-4 sm:block" />
              {label}
            </button>
          );
        })}
      </div>
      <div className="flex items-center gap-2">
        {children}
        <NsfwSwitch
          id="nsfw-toggle"
          checked={showNsfw}
          onCheckedChange={onShowNsfwChange}
          className="rounded-xl border border-border bg-card px-3 py-2"
        />
      </div>
    </div>
  );
}
