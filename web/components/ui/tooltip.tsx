import * as TooltipPrimitive from "@radix-ui/react-tooltip";
import type { ComponentProps, ReactElement, ReactNode } from "react";
import { cn } from "../../lib/utils.ts";

/** Tooltip timing of SPEC.md §9: 700 ms before the first, 300 ms to skip between neighbours. */
export function TooltipProvider(props: ComponentProps<typeof TooltipPrimitive.Provider>) {
  return <TooltipPrimitive.Provider delayDuration={700} skipDelayDuration={300} {...props} />;
}

/**
 * A tooltip with its own provider, so no app-wide provider is needed: an
 * app-wide one would put Radix's positioning engine (popper, floating-ui,
 * ~20 KB gzip) into every first visit. For a group of neighbouring tooltips
 * (a toolbar), use `TooltipGroupItem`s inside one `TooltipProvider` to get the
 * 300 ms skip delay between them.
 */
export function Tooltip(props: ComponentProps<typeof TooltipPrimitive.Root>) {
  return (
    <TooltipProvider>
      <TooltipPrimitive.Root {...props} />
    </TooltipProvider>
  );
}

/** A tooltip inside a surrounding `TooltipProvider` (see Tooltip). */
export const TooltipGroupItem = TooltipPrimitive.Root;
export const TooltipTrigger = TooltipPrimitive.Trigger;

export function TooltipContent({ className, sideOffset = 6, ...props }: ComponentProps<typeof TooltipPrimitive.Content>) {
  return (
    <TooltipPrimitive.Portal>
      <TooltipPrimitive.Content
        sideOffset={sideOffset}
        className={cn(
          "z-50 rounded-md border border-border bg-popover px-2.5 py-1.5 text-xs text-foreground shadow-md animate-fade-in",
          className,
        )}
        {...props}
      />
    </TooltipPrimitive.Portal>
  );
}

/**
 * Names an icon-only control on hover and keyboard focus: `label` as the
 * tooltip of `children` (one element: the button or link, which keeps its
 * own `aria-label`; the tooltip repeats it, or says a little more, for
 * sighted people). `grouped`: inside a surrounding `TooltipProvider` (a
 * toolbar), for its 300 ms skip delay; otherwise with its own provider.
 */
export function IconTooltip({
  label,
  side,
  grouped = false,
  children,
}: {
  label: ReactNode;
  side?: ComponentProps<typeof TooltipPrimitive.Content>["side"];
  grouped?: boolean;
  children: ReactElement;
}) {
  const Root = grouped ? TooltipGroupItem : Tooltip;
  return (
    <Root>
      <TooltipTrigger asChild>{children}</TooltipTrigger>
      <TooltipContent side={side}>{label}</TooltipContent>
    </Root>
  );
}
