/**
 * The app's QueryClient with the data-reading defaults of SPEC.md §7: data
 * never goes stale, no refetch on focus, no polling, no retries; unused data
 * is dropped after 5 minutes (SPEC.md §9).
 */
import { QueryClient } from "@tanstack/react-query";
import { getQueryFn } from "./api-client.ts";

/** How long unused query data stays in the cache, ms (SPEC.md §9). */
export const QUERY_GC_TIME_MS = 5 * 60 * 1000;

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: "throw" }),
        staleTime: Infinity,
        gcTime: QUERY_GC_TIME_MS,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        retry: false,
      },
      mutations: {
        retry: false,
      },
    },
  });
}
