import type { ComponentProps } from "react";
import { cn } from "../../lib/utils.ts";

/** A pulsing placeholder block; hidden from assistive technology. */
export function Skeleton({ className, ...props }: ComponentProps<"div">) {
  return <div aria-hidden="true" className={cn("animate-pulse rounded-md bg-surface", className)} {...props} />;
}
