/**
 * The states a settings list shows besides its rows (the person's personas,
 * their model connections): a list that failed to load, with "Try Again",
 * and an empty list that says what happens without one.
 */
import type { LucideIcon } from "lucide-react";
import { CloudOff } from "lucide-react";
import type { ReactNode } from "react";
import { Button } from "./ui/button.tsx";

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
