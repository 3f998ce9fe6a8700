import { LoaderCircle } from "lucide-react";

/** Shown while a page's code loads. */
export function PageSpinner() {
  return (
    <div className="flex min-h-[50vh] items-center justify-center" role="status">
      <LoaderCircle aria-hidden="true" className="size-8 animate-spin text-primary" />
      <span className="sr-only">Loading…</span>
    </div>
  );
}
