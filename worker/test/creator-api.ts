/**
 * Requests as a browser or client sends them, for the creator studio tests
 * (characters, uploads, cards): through the Worker's own `fetch`.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { expect } from "vitest";
import app from "../app.ts";
import type { TestUser } from "./fixtures.ts";

export interface Call {
  method?: string;
  user?: TestUser | null;
  /** Bytes as they are; anything else as JSON (a string as it is, for malformed JSON). */
  body?: unknown;
  headers?: Record<string, string>;
}

function request(path: string, { method = "GET", user = null, body, headers = {} }: Call): Request {
  const all: Record<string, string> = { ...headers };
  if (user) all.cookie = user.cookie;
  let payload: BodyInit | undefined;
  if (body instanceof Uint8Array) payload = body;
  else if (body !== undefined) {
    payload = typeof body === "string" ? body : JSON.stringify(body);
    all["content-type"] ??= "application/json";
  }
  const url = path.startsWith("http") ? path : `http://localhost${path}`;
  return new Request(url, { method, headers: all, body: payload });
}

export async function call(path: string, options: Call = {}): Promise<Response> {
  return exports.default.fetch(request(path, options));
}

/**
 * `call`, answered once the work the Worker left for after its answer
 * (`ctx.waitUntil`, worker/lib/after-response.ts: R2 clean-up) has finished
 * too, so a test can look at what that work did — or did not do — right away.
 */
export async function callSettled(path: string, options: Call = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await app.fetch(request(path, options), env, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

/** The JSON body of a response that must have `status`. */
export async function json<T = any>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text().then((t) => t.slice(0, 500))).toBe(status);
  return res.json() as Promise<T>;
}

/** Bytes of a `data:…;base64,` URL (Vite `?inline` imports). */
export function dataUrlBytes(dataUrl: string): Uint8Array {
  const binary = atob(dataUrl.slice(dataUrl.indexOf(",") + 1));
  return Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
}

/** Every key in the avatar bucket. */
export async function bucketKeys(): Promise<string[]> {
  const keys: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await env.AVATARS.list({ cursor });
    keys.push(...page.objects.map((o) => o.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return keys;
}

export async function countRows(table: string, where = "1 = 1", ...params: unknown[]): Promise<number> {
  const row = await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${where}`)
    .bind(...params)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** A tiny valid 1×1 PNG. */
export const TINY_PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="),
  (ch) => ch.charCodeAt(0),
);
