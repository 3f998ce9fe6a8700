/**
 * The current user (SPEC.md §4 "Visitor vs signed-in"): whoever
 * `GET /api/auth/user` returns. A 401 means visitor; so does any other failure
 * (the endpoint may not exist yet), so a broken call never blocks browsing.
 * A suspended account's session answers 403 with the reason (issue "Trust
 * and safety"): that person browses as a visitor and is told why.
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { CurrentUser } from "../../schema/api.ts";
import { apiQueryFn, errorStatus, serverErrorText } from "./api-client.ts";

export type { CurrentUser };

/** Browser navigations that sign in and out (SPEC.md §2). */
export const LOGIN_PATH = "/api/login";
export const LOGOUT_PATH = "/api/logout";

export const userQueryOptions = () =>
  queryOptions({
    queryKey: ["/api/auth/user"],
    queryFn: apiQueryFn("/api/auth/user", { on401: "returnNull" }),
    retry: false,
    // A failed answer (a suspended account's 403) is not asked again by every
    // component that mounts; only an invalidation asks again.
    retryOnMount: false,
  });

/**
 * The sentence of a 403 answer to `GET /api/auth/user` ("Your account has
 * been suspended…"), or null for any other outcome.
 */
export function suspensionText(error: unknown): string | null {
  return errorStatus(error) === 403 ? serverErrorText(error) : null;
}

/**
 * `{ user, isLoading, suspended }`; `user` is null for visitors and on any
 * failure; `suspended` is the server's sentence when the session belongs to
 * a suspended account (`user` is then null too), else null.
 */
export function useUser(): { user: CurrentUser | null; isLoading: boolean; suspended: string | null } {
  const query = useQuery(userQueryOptions());
  const suspended = suspensionText(query.error);
  // A refetch that failed keeps the earlier data: a person suspended mid-session is signed out here.
  return { user: suspended ? null : (query.data ?? null), isLoading: query.isLoading, suspended };
}

/**
 * The sign-in path that brings the person back to `returnTo` (a path on this
 * site, e.g. "/character/12?tab=x#comments") afterwards: `/api/login?returnTo=…`
 * (DESIGN.md "Small contracts of the first hour"); plain `/api/login` for
 * Home or anything that is not a same-origin path (the server checks again).
 */
export function loginPath(returnTo?: string): string {
  if (!returnTo || returnTo === "/" || !returnTo.startsWith("/") || returnTo.startsWith("//")) return LOGIN_PATH;
  return `${LOGIN_PATH}?returnTo=${encodeURIComponent(returnTo)}`;
}

/** Full-page navigation to sign in (a server route, not an SPA route), coming back to the page the person is on. */
export function redirectToLogin(): void {
  const { pathname, search, hash } = window.location;
  window.location.href = loginPath(`${pathname}${search}${hash}`);
}
