/**
 * The "Show NSFW" switch with its label (SPEC.md §1), as Home's toolbar, the
 * Filters sheet and Favorites show it. `id` ties the label to the switch and
 * must be unique on the page; `className` styles the wrapper (Home and
 * Favorites frame it as a card, the sheet does not). Until it is known whose
 * choice it is (the account's, once the session answers), the switch waits:
 * a choice made before would be kept by this browser only.
 */
import { useId } from "react";
import { useCatalogFilters } from "../lib/catalog-filters-context.tsx";
import { cn } from "../lib/utils.ts";
import { Switch } from "./ui/switch.tsx";

export function NsfwSwitch({
  id,
  checked,
  onCheckedChange,
  className,
}: {
  id?: string;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  className?: string;
}) {
  const generated = useId();
  const switchId = id ?? generated;
  const { nsfwSettled } = useCatalogFilters();
  return (
    <div className={cn("flex items-center gap-2.5", className)}>
      <Switch id={switchId} checked={checked} onCheckedChange={onCheckedChange} disabled={!nsfwSettled} />
      <label htmlFor={switchId} className="cursor-pointer text-sm font-medium whitespace-nowrap select-none">
        Show NSFW
      </label>
    </div>
  );
}
