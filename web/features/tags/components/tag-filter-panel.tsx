/**
 * The tag filters of Home, shared by the sidebar (768 px and up) and the
 * Filters sheet (below): the selected tags and how they combine ("All of" /
 * "Any of", native radio buttons), the hidden tags, and the popular tags (the
 * first 20 with Show More / Show Less, SPEC.md §2). Each popular tag has two
 * buttons: its name selects it (aria-pressed), the eye hides it from every
 * list and search (aria-pressed, "Hide {tag}"). A hidden tag is struck
 * through in red; selecting it shows it again.
 */
import { Check, Eye, EyeOff, Hash, X } from "lucide-react";
import { type ReactNode, useId, useState } from "react";
import type { TagMode } from "../../../../schema/constants.ts";
import { Skeleton } from "../../../components/ui/skeleton.tsx";
import { useCatalogFilters } from "../../../lib/catalog-filters-context.tsx";
import { formatCount } from "../../../lib/format.ts";
import { cn } from "../../../lib/utils.ts";
import { usePopularTags } from "../api/get-tags.ts";

/** Tags listed before "Show More Tags →" (SPEC.md §9). */
export const SIDEBAR_TAG_LIMIT = 20;

export interface TagFilterControls {
  /** Selected tag names, in the order they were selected. */
  selected: string[];
  tagMode: TagMode;
  /** The person's hidden tags. */
  hidden: string[];
  /** Selects a tag, or deselects it; a hidden tag is shown again first. */
  onToggle: (tag: string) => void;
  onRemove: (tag: string) => void;
  onTagModeChange: (tagMode: TagMode) => void;
  /** Hides a tag, or shows a hidden one again. */
  onToggleHidden: (tag: string) => void;
}

const TAG_MODE_OPTIONS: { value: TagMode; label: string }[] = [
  { value: "all", label: "All of" },
  { value: "any", label: "Any of" },
];

const sectionTitle = "mb-2 text-xs font-semibold tracking-wide text-muted-foreground uppercase";

export function TagFilterPanel({ selected, tagMode, hidden, onToggle, onRemove, onTagModeChange, onToggleHidden }: TagFilterControls) {
  // Counts follow the NSFW switch, so a tag's number is what choosing it finds.
  const { tags, isLoading } = usePopularTags(useCatalogFilters().filters.showNsfw);
  const [expanded, setExpanded] = useState(false);
  const shown = expanded ? tags : tags.slice(0, SIDEBAR_TAG_LIMIT);
  const id = useId();

  return (
    <div className="space-y-5">
      {selected.length > 0 && (
        <section aria-labelledby={`${id}-selected`}>
          <h2 id={`${id}-selected`} className={sectionTitle}>
            Selected Filters ({selected.length})
          </h2>
          {selected.length > 1 && (
            <fieldset className="mb-2.5">
              <legend className="mb-1.5 text-xs text-muted-foreground">Characters with</legend>
              <div className="grid grid-cols-2 gap-1 rounded-lg border border-border bg-background/40 p-0.5">
                {TAG_MODE_OPTIONS.map((option) => (
                  <label
                    key={option.value}
                    className={cn(
                      "cursor-pointer rounded-md px-2 py-1 text-center text-xs font-medium transition-colors has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring",
                      tagMode === option.value ? "bg-primary-strong text-white" : "text-muted-foreground hover:bg-surface hover:text-foreground",
                    )}
                  >
                    <input
                      type="radio"
                      name={`${id}-mode`}
                      value={option.value}
                      checked={tagMode === option.value}
                      onChange={() => onTagModeChange(option.value)}
                      className="sr-only"
                    />
                    {option.label}
                  </label>
                ))}
              </div>
              <p className="mt-1.5 text-xs text-muted-foreground">these tags:</p>
            </fieldset>
          )}
          <ul className="flex flex-wrap gap-1.5">
            {selected.map((tag) => (
              <li key={tag}>
                <TagChip tone="selected" action={`Remove ${tag} filter`} onAction={() => onRemove(tag)}>
                  {tag}
                </TagChip>
              </li>
            ))}
          </ul>
        </section>
      )}

      {hidden.length > 0 && (
        <section aria-labelledby={`${id}-hidden`}>
          <h2 id={`${id}-hidden`} className={sectionTitle}>
            Hidden Tags ({hidden.length})
          </h2>
          <p className="mb-2 text-xs text-muted-foreground">Characters with these tags are hidden everywhere.</p>
          <ul className="flex flex-wrap gap-1.5">
            {hidden.map((tag) => (
              <li key={tag}>
                <TagChip tone="hidden" action={`Show ${tag} again`} onAction={() => onToggleHidden(tag)}>
                  <s>{tag}</s>
                </TagChip>
              </li>
            ))}
          </ul>
        </section>
      )}

      <section aria-labelledby={`${id}-popular`}>
        <h2 id={`${id}-popular`} className="mb-2 flex items-center gap-1.5 text-sm font-semibold">
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
              const isHidden = hidden.includes(tag.name);
              return (
                <li key={tag.id} className="flex items-center gap-0.5">
                  <button
                    type="button"
                    aria-pressed={isSelected}
                    onClick={() => onToggle(tag.name)}
                    className={cn(
                      "flex min-w-0 flex-1 cursor-pointer items-center justify-between gap-2 rounded-lg px-2.5 py-1.5 text-left text-sm transition-colors focus-visible:outline-2 focus-visible:outline-ring",
                      isSelected
                        ? "bg-primary/20 font-medium text-violet-100"
                        : isHidden
                          ? "text-red-300 hover:bg-surface"
                          : "text-foreground/85 hover:bg-surface hover:text-foreground",
                    )}
                  >
                    <span className="flex min-w-0 items-center gap-1.5">
                      {isSelected && <Check aria-hidden="true" className="size-3.5 shrink-0 text-pink-300" />}
                      <span className={cn("truncate", isHidden && "line-through decoration-red-400 decoration-2")}>{tag.name}</span>
                      {isHidden && <span className="sr-only">, hidden</span>}
                    </span>
                    <span className="shrink-0 text-xs text-muted-foreground tabular-nums">
                      <span className="sr-only">, </span>
                      {formatCount(tag.count)}
                      <span className="sr-only"> characters</span>
                    </span>
                  </button>
                  <button
                    type="button"
                    aria-pressed={isHidden}
                    aria-label={`Hide ${tag.name}`}
                    title={isHidden ? `Show ${tag.name} again` : `Hide ${tag.name} everywhere`}
                    onClick={() => onToggleHidden(tag.name)}
                    className={cn(
                      "grid size-8 shrink-0 cursor-pointer place-items-center rounded-lg transition-colors focus-visible:outline-2 focus-visible:outline-ring",
                      isHidden ? "bg-red-500/15 text-red-300 hover:bg-red-500/25" : "text-muted-foreground/70 hover:bg-surface hover:text-foreground",
                    )}
                  >
                    {isHidden ? <EyeOff aria-hidden="true" className="size-4" /> : <Eye aria-hidden="true" className="size-4" />}
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
  );
}

const CHIP_TONES = {
  selected: {
    chip: "bg-primary-strong text-white",
    button: "hover:bg-white/20 focus-visible:outline-white",
  },
  hidden: {
    chip: "border border-red-500/50 bg-red-500/10 text-red-300",
    button: "hover:bg-red-500/20 focus-visible:outline-red-300",
  },
} as const;

/**
 * A selected or hidden tag as a chip with one icon button (`action` is its
 * accessible name and tooltip). The tooltip is the native one: Radix's would
 * add its positioning code to Home's first visit.
 */
function TagChip({
  tone,
  action,
  onAction,
  children,
}: {
  tone: keyof typeof CHIP_TONES;
  action: string;
  onAction: () => void;
  children: ReactNode;
}) {
  return (
    <span className={cn("inline-flex items-center gap-1 rounded-full py-0.5 pr-1 pl-2.5 text-xs font-medium", CHIP_TONES[tone].chip)}>
      {children}
      <button
        type="button"
        aria-label={action}
        title={action}
        onClick={onAction}
        className={cn("cursor-pointer rounded-full p-0.5 focus-visible:outline-2", CHIP_TONES[tone].button)}
      >
        <X aria-hidden="true" className="size-3" />
      </button>
    </span>
  );
}
