/**
 * The app's QueryClient with the data-reading defaults of SPEC.md §7: data
 * never goes stale, no refetch on focus, no polling, no retries; unused data
 * is dropped after 5 minutes (SPEC.md §9).
 *
 * A write refused with 403 asks again who this is: a person suspended while
 * signed in then sees the suspension notice (`useUser().suspended`) instead
 * of only a failed action.
 */
import { MutationCache, QueryClient } from "@tanstack/react-query";
import { errorStatus, getQueryFn } from "./api-client.ts";
import { userQueryOptions } from "./auth.ts";

/** How long unused query data stays in the cache, ms (SPEC.md §9). */
export const QUERY_GC_TIME_MS = 5 * 60 * 1000;

export function createQueryClient(): QueryClient {
  const client: QueryClient = new QueryClient({
    mutationCache: new MutationCache({
      onError: (error) => {
        if (errorStatus(error) === 403) void client.invalidateQueries({ queryKey: userQueryOptions().queryKey });
      },
    }),
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
  return client;
}
