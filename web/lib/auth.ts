/**
 * The current user (SPEC.md §4 "Visitor vs signed-in"): whoever
 * `GET /api/auth/user` returns. A 401 means visitor; so does any other failure
 * (the endpoint may not exist yet), so a broken call never blocks browsing.
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { CurrentUser } from "../../schema/api.ts";
import { getQueryFn } from "./api-client.ts";

export type { CurrentUser };

/** Browser navigations that sign in and out (SPEC.md §2). */
export const LOGIN_PATH = "/api/login";
export const LOGOUT_PATH = "/api/logout";

export const userQueryOptions = () =>
  queryOptions({
    queryKey: ["/api/auth/user"],
    queryFn: getQueryFn<CurrentUser>({ on401: "returnNull" }),
    retry: false,
  });

/** `{ user, isLoading }`; `user` is null for visitors and on any failure. */
export function useUser(): { user: CurrentUser | null; isLoading: boolean } {
  const query = useQuery(userQueryOptions());
  return { user: query.data ?? null, isLoading: query.isLoading };
}

/** Full-page navigation to sign in (a server route, not an SPA route). */
export function redirectToLogin(): void {
  window.location.href = LOGIN_PATH;
}
