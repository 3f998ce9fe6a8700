/**
 * An on/off switch (WAI-ARIA switch pattern): a native button with
 * `role="switch"` and `aria-checked`, so Space and Enter toggle it and a
 * `<label htmlFor>` names it. Written by hand rather than with Radix: Home's
 * NSFW switch is on every first visit, and this keeps Radix's code out of it
 * (docs/decisions/0004-first-visit-budget.md). `data-state` is
 * "checked"/"unchecked" as Radix's, for styles.
 */
import type { ComponentProps } from "react";
import { cn } from "../../lib/utils.ts";

interface SwitchProps extends Omit<ComponentProps<"button">, "onChange" | "value" | "type" | "role"> {
  checked: boolean;
  onCheckedChange?: (checked: boolean) => void;
}

export function Switch({ className, checked, onCheckedChange, onClick, ...props }: SwitchProps) {
  const state = checked ? "checked" : "unchecked";
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      data-state={state}
      className={cn(
        "peer inline-flex h-6 w-11 shrink-0 cursor-pointer items-center rounded-full border-2 border-transparent transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:cursor-not-allowed disabled:opacity-50 data-[state=checked]:bg-accent-pink data-[state=unchecked]:bg-input",
        className,
      )}
      onClick={(event) => {
        onClick?.(event);
        if (!event.defaultPrevented) onCheckedChange?.(!checked);
      }}
      {...props}
    >
      <span
        data-state={state}
        className="pointer-events-none block size-5 rounded-full bg-white shadow-lg ring-0 transition-transform data-[state=checked]:translate-x-5 data-[state=unchecked]:translate-x-0"
      />
    </button>
  );
}
