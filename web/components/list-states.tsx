/**
 * The states a settings list shows besides its rows (the person's personas,
 * their model connections, devices, blocked people, notifications): a list
 * still loading, a list that failed to load, with "Try Again", and an empty
 * list that says what happens without one.
 */
import type { LucideIcon } from "lucide-react";
import { CloudOff } from "lucide-react";
import type { ReactNode } from "react";
import { cn } from "../lib/utils.ts";
import { Button } from "./ui/button.tsx";
import { Skeleton } from "./ui/skeleton.tsx";

/**
 * A list still loading: `rows` placeholder rows shaped by `rowClassName`
 * (their height and corners, e.g. "h-16 rounded-xl"), announced to screen
 * readers as `label` ("Loading your devices").
 */
export function ListLoading({ label, rowClassName, rows = 2 }: { label: string; rowClassName: string; rows?: number }) {
  return (
    <div className="space-y-3" role="status" aria-busy="true" aria-label={label}>
      {Array.from({ length: rows }, (_, index) => (
        <Skeleton key={index} className={cn("w-full", rowClassName)} />
      ))}
    </div>
  );
}

/** "Failed to load …" with a button that asks again (`onRetry`, e.g. the query's refetch). */
export function ListLoadFailed({ title, onRetry }: { title: string; onRetry: () => void }) {
  return (
    <div className="flex flex-col items-center gap-3 rounded-xl border border-border px-6 py-8 text-center">
      <CloudOff aria-hidden="true" className="size-8 text-muted-foreground" />
      <p className="font-semibold">{title}</p>
      <Button variant="secondary" onClick={onRetry}>
        Try Again
      </Button>
    </div>
  );
}

/** An empty list: an icon, "No … yet", and a sentence on what happens meanwhile. */
export function ListEmpty({ icon: Icon, title, children }: { icon: LucideIcon; title: string; children: ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-2 rounded-xl border border-dashed border-border px-6 py-8 text-center">
      <Icon aria-hidden="true" className="size-8 text-muted-foreground" />
      <p className="font-semibold">{title}</p>
      <p className="max-w-sm text-sm text-muted-foreground">{children}</p>
    </div>
  );
}
