/**
 * The one HTTP client of the web app (SPEC.md §7–§8).
 *
 * - Every call sends the session cookie (`credentials: "include"`); bodies are
 *   JSON with a JSON content type.
 * - Any non-OK answer becomes `Error("<status>: <body text or status text>")`,
 *   e.g. `401: {"error":"Unauthorized","code":"unauthorized"}`.
 *
 * Calls name the Worker's route path (`"/api/characters/:id"`) and take
 * their answer's type from that route (web/lib/api-types.ts, Hono's
 * `AppType`), so no call site states a response type by hand.
 *
 * Functions take an optional `fetchImpl` so tests can answer without a network.
 */
import type { QueryFunction, QueryKey } from "@tanstack/react-query";
import type {
  ApiJsonBody,
  ApiMethod,
  ApiPath,
  ApiPathFor,
  ApiPathParamNames,
  ApiPathParams,
  ApiResponse,
} from "./api-types.ts";

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

/** Where a call goes: the route's `:params` (required when it has any), a query string, a test's fetch. */
export type ApiTarget<P extends string> = ([ApiPathParamNames<P>] extends [never]
  ? { params?: undefined }
  : { params: ApiPathParams<P> }) & {
  /** The query string without "?", e.g. `limit=20&offset=0`; none when empty or left out. */
  query?: string;
  fetchImpl?: FetchLike;
};

/** The target argument: optional for a path without `:params`. */
type TargetArgs<P extends string> = [ApiPathParamNames<P>] extends [never]
  ? [target?: ApiTarget<P>]
  : [target: ApiTarget<P>];

/**
 * The URL of route `path` with each `:param` replaced by its value, URI
 * encoded (`encodeURIComponent`), then `?query` when one is given:
 * `apiUrl("/api/characters/:id/comments", { params: { id: 7 } })` → `/api/characters/7/comments`.
 * Throws for a `:param` without a value (a typed call cannot leave one out).
 */
export function apiUrl<P extends ApiPath>(path: P, ...[target]: TargetArgs<P>): string {
  return fillPath(path, target);
}

/** What every target is at run time, whatever its route. */
interface AnyTarget {
  params?: Record<string, string | number>;
  query?: string;
  body?: unknown;
  fetchImpl?: FetchLike;
}

function fillPath(path: string, target: AnyTarget | undefined): string {
  const params = target?.params ?? {};
  const filled = path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`No value for :${name} of ${path}`);
    return encodeURIComponent(String(value));
  });
  return target?.query ? `${filled}?${target.query}` : filled;
}

/**
 * GETs route `path` (see `apiUrl`) and parses its JSON body, typed as that
 * route answers (`ApiResponse`). Throws the SPEC.md §8 error on any non-OK answer.
 */
export async function apiGet<P extends ApiPathFor<"get">>(path: P, ...args: TargetArgs<P>): Promise<ApiResponse<P>> {
  const target: AnyTarget | undefined = args[0];
  const res = await apiRequest("GET", fillPath(path, target), undefined, target?.fetchImpl);
  return (await res.json()) as ApiResponse<P>;
}

/** A write's target: `ApiTarget` plus the JSON body the route validates (none for a route that reads none). */
export type ApiSendTarget<P extends ApiPath, M extends ApiMethod> = ApiTarget<P> & { body?: ApiJsonBody<P, M> };

type SendArgs<P extends ApiPath, M extends ApiMethod> = [ApiPathParamNames<P>] extends [never]
  ? [target?: ApiSendTarget<P, M>]
  : [target: ApiSendTarget<P, M>];

/**
 * Sends `method path` (see `apiUrl`) with `body` as JSON (none when left
 * out) and parses the JSON of the OK answer, typed as that route answers.
 * Throws the SPEC.md §8 error on any non-OK answer.
 */
export async function apiSend<M extends Exclude<ApiMethod, "get">, P extends ApiPathFor<M>>(
  method: M,
  path: P,
  ...args: SendArgs<P, M>
): Promise<ApiResponse<P, M>> {
  const res = await send(method, path, args[0]);
  return (await res.json()) as ApiResponse<P, M>;
}

/**
 * `apiSend` for a write whose answer the app does not use (a delete, a
 * toggle the caller refetches after): resolves once the answer is OK, without
 * reading its body. Throws the SPEC.md §8 error on any non-OK answer.
 */
export async function apiSendUnread<M extends Exclude<ApiMethod, "get">, P extends ApiPathFor<M>>(
  method: M,
  path: P,
  ...args: SendArgs<P, M>
): Promise<void> {
  await send(method, path, args[0]);
}

function send(method: ApiMethod, path: string, target: AnyTarget | undefined): Promise<Response> {
  return apiRequest(method.toUpperCase(), fillPath(path, target), target?.body, target?.fetchImpl);
}

/**
 * The JSON body of `res`, an OK answer of `method path` sent some other way
 * (a raw file body, an abortable read), typed as that route answers;
 * `method` and `path` only name the route.
 */
export async function apiJson<P extends ApiPath, M extends ApiMethod>(res: Response, _method: M, _path: P): Promise<ApiResponse<P, M>> {
  return (await res.json()) as ApiResponse<P, M>;
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
export function getQueryFn(
  { on401 }: { on401: UnauthorizedBehavior },
  fetchImpl: FetchLike = defaultFetch,
): QueryFunction<unknown, QueryKey> {
  return ({ queryKey }) => getJsonOrNull(queryKey.join("/"), on401, fetchImpl);
}

async function getJsonOrNull(url: string, on401: UnauthorizedBehavior, fetchImpl: FetchLike): Promise<unknown> {
  const res = await fetchImpl(url, { credentials: "include" });
  if (on401 === "returnNull" && res.status === 401) return null;
  await throwIfResNotOk(res);
  return res.json();
}

/**
 * A React Query `queryFn` that GETs route `path` (no `:params`; the same
 * request as `getQueryFn` with the key `[path]`), typed as that route
 * answers. With `on401: "returnNull"` a 401 answer resolves to null.
 */
export function apiQueryFn<P extends ApiPathFor<"get">>(
  path: [ApiPathParamNames<P>] extends [never] ? P : never,
  { on401 }: { on401: UnauthorizedBehavior },
  fetchImpl: FetchLike = defaultFetch,
): QueryFunction<ApiResponse<P> | null, QueryKey> {
  return () => getJsonOrNull(path, on401, fetchImpl) as Promise<ApiResponse<P> | null>;
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
