/**
 * The one HTTP client of the web app (SPEC.md §7–§8).
 *
 * - Every call sends the session cookie (`credentials: "include"`); bodies are
 *   JSON with a JSON content type.
 * - Any non-OK answer becomes `Error("<status>: <body text or status text>")`,
 *   e.g. `401: {"error":"Unauthorized","code":"unauthorized"}`.
 *
 * Functions take an optional `fetchImpl` so tests can answer without a network.
 */
import type { QueryFunction, QueryKey } from "@tanstack/react-query";

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

const defaultFetch: FetchLike = (input, init) => fetch(input, init);

/** Throws `Error("<status>: <body text || status text>")` when `res` is not OK. */
export async function throwIfResNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  const text = (await res.text()) || res.statusText;
  throw new Error(`${res.status}: ${text}`);
}

/**
 * Sends `method url` with `data` as a JSON body (none when undefined) and
 * returns the OK response. Throws the SPEC.md §8 error on any non-OK answer.
 */
export async function apiRequest(
  method: string,
  url: string,
  data?: unknown,
  fetchImpl: FetchLike = defaultFetch,
): Promise<Response> {
  const res = await fetchImpl(url, {
    method,
    headers: data === undefined ? {} : { "Content-Type": "application/json" },
    body: data === undefined ? undefined : JSON.stringify(data),
    credentials: "include",
  });
  await throwIfResNotOk(res);
  return res;
}

/** GETs `url` and parses its JSON body; throws the SPEC.md §8 error on any non-OK answer. */
export async function apiGet<T>(url: string, fetchImpl: FetchLike = defaultFetch): Promise<T> {
  const res = await apiRequest("GET", url, undefined, fetchImpl);
  return (await res.json()) as T;
}

/** True for the error of a 401 answer: its message starts "401: " and mentions Unauthorized. */
export function isUnauthorizedError(error: unknown): boolean {
  return error instanceof Error && /^401: .*Unauthorized/.test(error.message);
}

export type UnauthorizedBehavior = "returnNull" | "throw";

/**
 * A React Query `queryFn` for plain reads: the query key's parts joined by "/"
 * are the path (`["/api/characters", 7]` → `/api/characters/7`). With
 * `on401: "returnNull"` a 401 answer resolves to null instead of throwing.
 */
export function getQueryFn<T>(
  { on401 }: { on401: UnauthorizedBehavior },
  fetchImpl: FetchLike = defaultFetch,
): QueryFunction<T | null, QueryKey> {
  return async ({ queryKey }) => {
    const res = await fetchImpl(queryKey.join("/"), { credentials: "include" });
    if (on401 === "returnNull" && res.status === 401) return null;
    await throwIfResNotOk(res);
    return (await res.json()) as T;
  };
}

/** The HTTP status of an error thrown by this client ("409: …" → 409), or null for other errors. */
export function errorStatus(error: unknown): number | null {
  if (!(error instanceof Error)) return null;
  const match = /^(\d{3}): /.exec(error.message);
  return match ? Number(match[1]) : null;
}

/**
 * The `error` sentence of a JSON error body (DESIGN.md "Errors") carried by an
 * error of this client, e.g. `409: {"error":"This username is already taken…"}`
 * → "This username is already taken…"; null when there is none.
 */
export function serverErrorText(error: unknown): string | null {
  if (errorStatus(error) === null) return null;
  const body = (error as Error).message.slice(5);
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === "object" && "error" in parsed && typeof parsed.error === "string" && parsed.error) {
      return parsed.error;
    }
  } catch {
    // Not JSON: a proxy's page or a plain status text, nothing meant for people.
  }
  return null;
}

/**
 * The field `issues` of a JSON error body (DESIGN.md "Errors": a 400
 * `validation_failed` lists `{path, message}` per refused field, e.g.
 * `{path: "description", message: "Description is too long"}`) carried by an
 * error of this client; [] when there are none.
 */
export function serverErrorIssues(error: unknown): { path: string; message: string }[] {
  if (errorStatus(error) === null) return [];
  try {
    const parsed: unknown = JSON.parse((error as Error).message.slice(5));
    const issues = parsed && typeof parsed === "object" && "issues" in parsed ? parsed.issues : null;
    if (!Array.isArray(issues)) return [];
    return issues.filter(
      (i): i is { path: string; message: string } =>
        i !== null && typeof i === "object" && typeof i.path === "string" && typeof i.message === "string",
    );
  } catch {
    return [];
  }
}
