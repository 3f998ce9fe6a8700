/** App-wide providers: data cache, tooltips (SPEC.md §9 timing), Home's filters, toasts. */
import { QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, Suspense, lazy, useState } from "react";
import { TooltipProvider } from "../components/ui/tooltip.tsx";
import { CatalogFiltersProvider } from "../lib/catalog-filters-context.tsx";
import { createQueryClient } from "../lib/query-client.ts";

// Toasts only follow user actions, so their code (Radix toast, ~15 KB gzip)
// loads after the first render; `toast()` calls made before it arrives wait
// in the store (components/ui/use-toast.ts).
const Toaster = lazy(() => import("../components/ui/toaster.tsx").then((m) => ({ default: m.Toaster })));

export function AppProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <TooltipProvider>
        <CatalogFiltersProvider>
          {children}
          <Suspense fallback={null}>
            <Toaster />
          </Suspense>
        </CatalogFiltersProvider>
      </TooltipProvider>
    </QueryClientProvider>
  );
}
