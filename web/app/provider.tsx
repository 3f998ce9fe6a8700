/** App-wide providers: data cache, Home's filters, toasts. */
import { QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, Suspense, lazy, useState } from "react";
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
      <CatalogFiltersProvider>
        {children}
        <Suspense fallback={null}>
          <Toaster />
        </Suspense>
      </CatalogFiltersProvider>
    </QueryClientProvider>
  );
}
