/**
 * Requests as a browser or client sends them, for the creator studio tests
 * (characters, uploads, cards): through the Worker's own `fetch`.
 */
import { env, exports } from "cloudflare:workers";
import { expect } from "vitest";
import type { TestUser } from "./fixtures.ts";

export interface Call {
  method?: string;
  user?: TestUser | null;
  /** Bytes as they are; anything else as JSON (a string as it is, for malformed JSON). */
  body?: unknown;
  headers?: Record<string, string>;
}

export async function call(path: string, { method = "GET", user = null, body, headers = {} }: Call = {}): Promise<Response> {
  const all: Record<string, string> = { ...headers };
  if (user) all.cookie = user.cookie;
  let payload: BodyInit | undefined;
  if (body instanceof Uint8Array) payload = body;
  else if (body !== undefined) {
    payload = typeof body === "string" ? body : JSON.stringify(body);
    all["content-type"] ??= "application/json";
  }
  const url = path.startsWith("http") ? path : `http://localhost${path}`;
  return exports.default.fetch(url, { method, headers: all, body: payload });
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
