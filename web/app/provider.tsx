/** App-wide providers: data cache, Home's filters, toasts. */
import { QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, Suspense, lazy, useState } from "react";
import { useToastsWanted } from "../components/ui/use-toast.ts";
import { CatalogFiltersProvider } from "../lib/catalog-filters-context.tsx";
import { createQueryClient } from "../lib/query-client.ts";

// Toasts only follow what a person does, so their code (Radix toast, ~11 KB
// gzip) loads with the first toast, not on every first visit; `toast()` calls
// made before it arrives wait in the store (components/ui/use-toast.ts).
const Toaster = lazy(() => import("../components/ui/toaster.tsx").then((m) => ({ default: m.Toaster })));

/** The Toaster, mounted once a toast has been given. */
function ToasterOnDemand() {
  const wanted = useToastsWanted();
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}

export function AppProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <CatalogFiltersProvider>
        {children}
        <ToasterOnDemand />
      </CatalogFiltersProvider>
    </QueryClientProvider>
  );
}
