/**
 * The browser's side of signing in, for the auth tests: requests to the
 * Worker with a cookie jar, the loopback OpenID provider's authorize step
 * and its test instructions (worker/test/oidc-server.ts), a person's claims,
 * and what a refused callback answers.
 */
import { env, exports } from "cloudflare:workers";
import { expect } from "vitest";
import { CookieJar, setCookie } from "./cookies.ts";

export const ORIGIN = "http://localhost";
export const SESSION_COOKIE = "fabled_session";
export const OAUTH_COOKIES = ["fabled_oauth_state", "fabled_oauth_nonce", "fabled_oauth_verifier"];

export type IdTokenMode =
  | "valid"
  | "expired"
  | "wrong-signature"
  | "unsigned"
  | "wrong-audience"
  | "wrong-nonce"
  | "wrong-issuer"
  | "no-id-token"
  | "invalid-grant";

export function worker(path: string, init: RequestInit = {}, jar?: CookieJar): Promise<Response> {
  const headers = new Headers(init.headers);
  if (jar && jar.cookies.size > 0) headers.set("Cookie", jar.header());
  return exports.default.fetch(new URL(path, ORIGIN), { ...init, headers, redirect: "manual" });
}

/** A name with a username stem nobody else in this file has (letters only). */
export function uniqueFirstName(prefix = "Mira"): string {
  const letters = [...crypto.getRandomValues(new Uint8Array(8))].map((b) => String.fromCharCode(97 + (b % 26))).join("");
  return `${prefix}${letters}`;
}

export interface Flow {
  jar: CookieJar;
  login: Response;
  authorizeUrl: URL;
  callbackUrl: URL;
  code: string;
}

/** `/api/login` and the provider's authorize redirect, up to (not including) the callback. */
export async function startSignIn(returnTo?: string): Promise<Flow> {
  const jar = new CookieJar();
  const login = await worker(`/api/login${returnTo === undefined ? "" : `?returnTo=${encodeURIComponent(returnTo)}`}`);
  expect(login.status, await login.clone().text()).toBe(302);
  jar.apply(login);
  const authorizeUrl = new URL(login.headers.get("Location")!);
  const atProvider = await fetch(authorizeUrl, { redirect: "manual" });
  expect(atProvider.status).toBe(302);
  const callbackUrl = new URL(atProvider.headers.get("Location")!);
  return { jar, login, authorizeUrl, callbackUrl, code: callbackUrl.searchParams.get("code")! };
}

/** Tells the provider what the ID token for `code` must look like (worker/test/oidc-server.ts). */
export async function instructProvider(code: string, claims: Record<string, unknown>, mode: IdTokenMode = "valid"): Promise<void> {
  const res = await fetch(`${env.AUTH_ISSUER}/__test/id-token`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code, claims, mode }),
  });
  expect(res.status).toBe(200);
}

export function personClaims(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const first = uniqueFirstName();
  return {
    sub: crypto.randomUUID(),
    email: `${first.toLowerCase()}@example.test`,
    email_verified: true,
    given_name: first,
    family_name: "Kowalski",
    name: `${first} Kowalski`,
    picture: "https://images.example.test/mira.png",
    ...overrides,
  };
}

/** The whole flow; returns the callback's response and the browser's cookies after it. */
export async function signInThroughProvider(
  options: { claims?: Record<string, unknown>; mode?: IdTokenMode; returnTo?: string } = {},
): Promise<{ flow: Flow; callback: Response; jar: CookieJar; claims: Record<string, unknown> }> {
  const claims = options.claims ?? personClaims();
  const flow = await startSignIn(options.returnTo);
  await instructProvider(flow.code, claims, options.mode);
  const callback = await worker(flow.callbackUrl.pathname + flow.callbackUrl.search, {}, flow.jar);
  const jar = flow.jar.clone().apply(callback);
  return { flow, callback, jar, claims };
}

export async function count(table: "users" | "sessions"): Promise<number> {
  const row = await env.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>();
  return row!.n;
}

export async function currentUser(jar: CookieJar): Promise<Response> {
  return worker("/api/auth/user", {}, jar);
}

export async function expectSignInFailed(res: Response, mentions?: RegExp): Promise<void> {
  expect(res.status).toBe(400);
  const body = (await res.json()) as { error: string; code: string };
  expect(body.code).toBe("validation_failed");
  expect(body.error).toMatch(/^Sign-in failed: /);
  if (mentions) expect(body.error).toMatch(mentions);
  expect(setCookie(res, SESSION_COOKIE)?.cleared ?? true).toBe(true);
}
