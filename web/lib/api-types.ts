/**
 * The HTTP API's types, read from the Worker's routes themselves: `AppType`
 * (worker/app.ts) is what Hono's typed client `hc<AppType>` reads — honojs
 * website `docs/guides/rpc.md` — and these helpers index the same schema by
 * route path, so `ApiResponse<"/api/characters/:id">` is whatever that
 * route's handler passes to `c.json(body, 200)`, after JSON (dates become
 * strings, `undefined` fields drop out).
 *
 * Types only: nothing of worker/ reaches the bundle (`import type`,
 * dependency-cruiser rule web-no-worker-values). The web project sees the
 * Worker through its declaration output (tsconfig.web.json `references`),
 * so the Worker's globals (D1, R2, Durable Objects) never meet the DOM's.
 */
import type { ExtractSchema } from "hono/types";
import type { SuccessStatusCode } from "hono/utils/http-status";
import type { AppType } from "../../worker/app.ts";

type ApiSchema = ExtractSchema<AppType>;

/** A route path as the Worker declares it, with `:params`, e.g. "/api/characters/:id". */
export type ApiPath = keyof ApiSchema & string;

export type ApiMethod = "get" | "post" | "put" | "patch" | "delete";

/** The route paths that answer `method`. */
export type ApiPathFor<M extends ApiMethod> = {
  [P in ApiPath]: `$${M}` extends keyof ApiSchema[P] ? P : never;
}[ApiPath];

type Endpoint<P extends ApiPath, M extends ApiMethod> = `$${M}` extends keyof ApiSchema[P]
  ? ApiSchema[P][`$${M}`]
  : never;

/** The JSON body of an OK (2xx) answer to `method path`. */
export type ApiResponse<P extends ApiPath, M extends ApiMethod = "get"> =
  Endpoint<P, M> extends infer E
    ? E extends { output: infer O; status: infer S }
      ? S extends SuccessStatusCode
        ? O
        : never
      : never
    : never;

/** The JSON body the route's validator takes (`undefined` when it reads none). */
export type ApiJsonBody<P extends ApiPath, M extends ApiMethod> =
  Endpoint<P, M> extends { input: { json: infer J } } ? J : undefined;

/** The `:param` names of a route path: "/api/characters/:id/comments" → "id". */
export type ApiPathParamNames<P extends string> = P extends `${string}/:${infer Name}/${infer Rest}`
  ? Name | ApiPathParamNames<`/${Rest}`>
  : P extends `${string}/:${infer Name}`
    ? Name
    : never;

/** The values of a route path's `:params`; numbers are written in decimal. */
export type ApiPathParams<P extends string> = { [Name in ApiPathParamNames<P>]: string | number };
