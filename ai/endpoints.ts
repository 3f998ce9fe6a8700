/**
 * How Fabled reaches a model, written once for every model it calls (chat
 * models in chat-models.ts, moderators in moderation/): the Workers AI
 * binding, and the HTTP plumbing of an OpenAI-compatible server — the URL of
 * an endpoint under a base URL, the headers (JSON body, `Authorization:
 * Bearer …` when there is a key) and the failures (network, non-2xx status),
 * each turned into the caller's own error class with the same message shape:
 *
 * - network failure: `"{url}: {error}"` (no status);
 * - non-2xx answer: `"{url} answered {status}: {body}"` (with `status`);
 * - Workers AI binding failure: `"Workers AI {model}: {error}"`.
 *
 * Details are cut to 300 characters (messages are for logs, not people). A
 * request aborted by its `signal` rejects with the abort error itself, never
 * with the caller's error: an abort is the caller's decision, not a failure.
 *
 * No timeout is set here: a chat reply is watched token by token by its
 * caller (chat-models.ts `withTokenTimeout`), a moderation by its caller's
 * `signal`.
 */

import { EndpointRefused } from "./endpoint-guard.ts";

/**
 * The part of the Workers AI binding Fabled uses: `run(model, inputs,
 * options)`. For a chat model with `inputs.stream = true` it resolves to a
 * ReadableStream of server-sent events (or, for a model that does not
 * stream, an object with `response`); for Llama Guard to `{ response }`.
 * Tests pass a stub of it.
 */
export interface AiRunner {
  run(model: string, inputs: Record<string, unknown>, options?: Record<string, unknown>): Promise<unknown>;
}

/** Makes the caller's error (ChatModelError, ModerationError) from a message and, for an HTTP answer, its status. */
export type ErrorMaker = (message: string, status?: number) => Error;

/** How long an error detail (a body, an exception's text) may be in a message, characters. */
const DETAIL_CHARS = 300;

/**
 * Runs `model` on the Workers AI binding.
 *
 * @throws the abort error when `signal` aborted; else `fail("Workers AI {model}: …")` for whatever the binding threw.
 */
export async function runWorkersAI(
  ai: AiRunner,
  model: string,
  inputs: Record<string, unknown>,
  signal: AbortSignal | undefined,
  fail: ErrorMaker,
): Promise<unknown> {
  try {
    return await ai.run(model, inputs, signal ? { signal } : {});
  } catch (error) {
    if (signal?.aborted) throw error;
    throw fail(`Workers AI ${model}: ${String(error).slice(0, DETAIL_CHARS)}`);
  }
}

/** An OpenAI-compatible server. */
export interface OpenAIEndpoint {
  /** e.g. `https://api.openai.com/v1`, `http://127.0.0.1:11434/v1`; trailing slashes are ignored. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …` when set. */
  apiKey?: string;
  /** The outside world; Workers and tests use the global fetch. */
  fetch?: typeof fetch;
}

/** `{baseUrl}/{path}` with exactly one slash between them (`path` without a leading slash, e.g. `chat/completions`). */
export function endpointUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, "")}/${path}`;
}

/** The detail of a failed request for its message: the exception's text, cut. */
export function failureDetail(error: unknown): string {
  return String(error).slice(0, DETAIL_CHARS);
}

/**
 * `POST url` with `body` as JSON, `accept` as the Accept header and the
 * endpoint's key. Resolves to the response when its status is 2xx.
 *
 * @throws as `postBody`.
 */
export function postJson(
  endpoint: OpenAIEndpoint,
  url: string,
  body: unknown,
  options: { accept: string; signal?: AbortSignal },
  fail: ErrorMaker,
): Promise<Response> {
  return postBody(endpoint, url, JSON.stringify(body), { ...options, contentType: "application/json" }, fail);
}

/**
 * `POST url` with `body` as it is (JSON text, or a FormData whose multipart
 * boundary fetch writes into the Content-Type itself when `contentType` is
 * left out), `accept` as the Accept header and the endpoint's key. Resolves
 * to the response when its status is 2xx.
 *
 * @throws the abort error when `signal` aborted; EndpointRefused for a
 *   refused redirect (endpoint-guard.ts); `fail("{url}: …")` on a network
 *   failure; `fail("{url} answered {status}: {body}", status)` on any other
 *   status.
 */
export async function postBody(
  endpoint: OpenAIEndpoint,
  url: string,
  body: BodyInit,
  { accept, contentType, signal }: { accept: string; contentType?: string; signal?: AbortSignal },
  fail: ErrorMaker,
): Promise<Response> {
  const headers: Record<string, string> = { accept };
  if (contentType) headers["content-type"] = contentType;
  if (endpoint.apiKey) headers.authorization = `Bearer ${endpoint.apiKey}`;
  const doFetch = endpoint.fetch ?? fetch;
  let response: Response;
  try {
    response = await doFetch(url, { method: "POST", headers, body, signal });
  } catch (error) {
    // An abort is the caller's; a refused redirect (endpoint-guard.ts) says so itself.
    if (signal?.aborted || error instanceof EndpointRefused) throw error;
    throw fail(`${url}: ${failureDetail(error)}`);
  }
  if (!response.ok) {
    const detail = await response.text().catch(() => "");
    throw fail(`${url} answered ${response.status}: ${detail.slice(0, DETAIL_CHARS)}`, response.status);
  }
  return response;
}
