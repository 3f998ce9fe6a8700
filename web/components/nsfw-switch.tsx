/**
 * The "Show NSFW" switch with its label (SPEC.md §1), as Home's toolbar, the
 * Filters sheet and Favorites show it. `id` ties the label to the switch and
 * must be unique on the page; `className` styles the wrapper (Home and
 * Favorites frame it as a card, the sheet does not).
 */
import { useId } from "react";
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
  return (
    <div className={cn("flex items-center gap-2.5", className)}>
      <Switch id={switchId} checked={checked} onCheckedChange={onCheckedChange} />
      <label htmlFor={switchId} className="cursor-pointer text-sm font-medium whitespace-nowrap select-none">
        Show NSFW
      </label>
    </div>
  );
}
