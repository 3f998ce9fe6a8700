/**
 * A person's model connection at work (DESIGN.md "Your own model (turn 3)",
 * docs/decisions/0018): the chat model it stands for, the list of an
 * endpoint's models ("Test connection"), the site's allow-list of models,
 * and the words a person reads when their endpoint fails.
 *
 * Shared by the Worker (test, validation of `site` models) and the
 * conversation room (replies), so it lives in `ai/`.
 */
import type { ModelSettings } from "../schema/model-connections.ts";
import type { ChatModel, ChatModelOptions, PromptMessage, Sampling } from "./chat-model.ts";
import { ChatModelError, type ChatModelEnv, chatModelName, OpenAIChatModel } from "./chat-models.ts";
import { endpointUrl, failureDetail } from "./endpoints.ts";
import { EndpointRefused, type EndpointPolicy, guardedFetch } from "./endpoint-guard.ts";
import { ModelKeysUnavailable } from "./model-keys.ts";
import { ChatStreamError } from "./stream-parsers.ts";
import { type Embedder, EmbeddingError, type EmbedOptions } from "./embeddings/embedder.ts";
import { OpenAIEmbedder } from "./embeddings/embedders.ts";

/** How long "Test connection" waits for `/models`, ms. */
export const MODEL_LIST_TIMEOUT_MS = 10_000;
/** Largest `/models` answer read, bytes (OpenRouter's list of ~300 models is ~1 MB). */
export const MODEL_LIST_MAX_BYTES = 2 * 1024 * 1024;

/** The sampling part of a connection's settings (what goes to the endpoint besides max_tokens). */
export function samplingOf(settings: ModelSettings): Sampling {
  const { temperature, topP, frequencyPenalty, stop } = settings;
  return { temperature, topP, frequencyPenalty, stop };
}

/**
 * The operator's models a `site` connection may name: `AI_MODELS`
 * (comma-separated) when set, else the one `AI_MODEL`; with the offline
 * provider just "offline". The first is the default.
 */
export function siteModels(env: ChatModelEnv & { AI_MODELS?: string }): string[] {
  if (chatModelName(env) === "offline") return ["offline"];
  const listed = (env.AI_MODELS ?? "")
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  const fallback = env.AI_MODEL || "@cf/mistralai/mistral-small-3.1-24b-instruct";
  return listed.length > 0 ? listed : [fallback];
}

/** `text` with every occurrence of `secret` replaced, so an endpoint echoing the key never puts it in a log. */
export function withoutSecret(text: string, secret: string | undefined): string {
  return secret && secret.length >= 4 ? text.split(secret).join("[key]") : text;
}

/** The same error with the key taken out of its message (class and status kept). */
function scrubbed(error: unknown, apiKey: string | undefined): unknown {
  if (!apiKey || !(error instanceof Error) || !error.message.includes(apiKey)) return error;
  if (error instanceof ChatModelError) return new ChatModelError(withoutSecret(error.message, apiKey), error.status);
  if (error instanceof ChatStreamError) return new ChatStreamError(withoutSecret(error.message, apiKey));
  return new Error(withoutSecret(error.message, apiKey));
}

/** An OpenAI-compatible endpoint of a person: guarded fetch (endpoint-guard.ts), key never in an error. */
export interface PersonEndpoint {
  baseUrl: string;
  apiKey?: string;
  model: string;
  policy: EndpointPolicy;
  /** The outside world (tests pass none: the global fetch). */
  fetch?: typeof fetch;
}

/**
 * A person's `/embeddings` (their connection's `embeddingModel`, DESIGN.md
 * "Memory"): OpenAIEmbedder over guardedFetch (the chat's address rules at
 * each request and redirect), errors without the key.
 */
export class PersonEmbedder implements Embedder {
  readonly name = "openai" as const;
  readonly id: string;
  readonly maxBatch: number;
  private readonly inner: OpenAIEmbedder;
  private readonly apiKey: string | undefined;

  constructor(endpoint: PersonEndpoint) {
    this.apiKey = endpoint.apiKey;
    this.inner = new OpenAIEmbedder({ baseUrl: endpoint.baseUrl, apiKey: endpoint.apiKey, fetch: guardedFetch(endpoint.policy, undefined, endpoint.fetch) }, endpoint.model);
    this.id = this.inner.id;
    this.maxBatch = this.inner.maxBatch;
  }

  /** @throws EmbeddingError (the key never in its message), EndpointRefused for an address the rules refuse. */
  async embed(texts: readonly string[], options?: EmbedOptions): Promise<Float32Array[]> {
    try {
      return await this.inner.embed(texts, options);
    } catch (error) {
      if (error instanceof EmbeddingError && this.apiKey && error.message.includes(this.apiKey)) {
        throw new EmbeddingError(withoutSecret(error.message, this.apiKey), error.status);
      }
      throw error;
    }
  }
}

/** A person's OpenAI-compatible model: OpenAIChatModel over guardedFetch, errors without the key. */
export class PersonChatModel implements ChatModel {
  readonly name = "openai" as const;
  private readonly inner: OpenAIChatModel;
  private readonly apiKey: string | undefined;

  constructor(endpoint: PersonEndpoint) {
    this.apiKey = endpoint.apiKey;
    this.inner = new OpenAIChatModel({
      baseUrl: endpoint.baseUrl,
      apiKey: endpoint.apiKey,
      model: endpoint.model,
      fetch: guardedFetch(endpoint.policy, undefined, endpoint.fetch),
    });
  }

  async *stream(prompt: PromptMessage[], options: ChatModelOptions): AsyncGenerator<string> {
    try {
      yield* this.inner.stream(prompt, options);
    } catch (error) {
      throw scrubbed(error, this.apiKey);
    }
  }
}

/**
 * The model ids an endpoint lists at `GET {baseUrl}/models` (OpenAI's
 * `{data: [{id}]}`; Ollama's and llama.cpp's OpenAI-compatible servers
 * answer the same), sorted, at most 1,000. Waits MODEL_LIST_TIMEOUT_MS.
 *
 * @throws EndpointRefused (the URL or a redirect is refused),
 *   ChatModelError (network failure, timeout, non-2xx status with `status`),
 *   ChatStreamError (an answer that is not such a list). Messages never hold the key.
 */
export async function listEndpointModels(endpoint: Omit<PersonEndpoint, "model">): Promise<string[]> {
  const url = endpointUrl(endpoint.baseUrl, "models");
  const doFetch = guardedFetch(endpoint.policy, MODEL_LIST_MAX_BYTES, endpoint.fetch);
  const headers: Record<string, string> = { accept: "application/json" };
  if (endpoint.apiKey) headers.authorization = `Bearer ${endpoint.apiKey}`;
  let text: string;
  let status: number;
  try {
    const response = await doFetch(url, { headers, signal: AbortSignal.timeout(MODEL_LIST_TIMEOUT_MS) });
    status = response.status;
    text = await response.text();
  } catch (error) {
    if (error instanceof EndpointRefused) throw error;
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    throw scrubbed(new ChatModelError(timedOut ? `no answer within ${MODEL_LIST_TIMEOUT_MS} ms` : `${url}: ${failureDetail(error)}`), endpoint.apiKey);
  }
  if (status < 200 || status > 299) throw scrubbed(new ChatModelError(`${url} answered ${status}: ${text.slice(0, 300)}`, status), endpoint.apiKey);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ChatStreamError(`${url} did not answer JSON`);
  }
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) throw new ChatStreamError(`${url} answered without a data list`);
  const ids = data.flatMap((item) => (typeof (item as { id?: unknown })?.id === "string" ? [(item as { id: string }).id] : []));
  return [...new Set(ids)].sort().slice(0, 1000);
}

/**
 * What a person reads when their own endpoint failed (a reply's error frame,
 * "Test connection"): the status and what to check, never the key or the
 * endpoint's own text. Null for an error that is not the endpoint's (a D1
 * failure, a bug): the caller says its usual line.
 */
export function endpointFailureText(error: unknown): string | null {
  if (error instanceof EndpointRefused) return `${error.message} — change it in Settings → Models.`;
  if (error instanceof ModelKeysUnavailable) return "Your model's API key could not be read — enter it again in Settings → Models.";
  if (error instanceof ChatStreamError) return "Your model endpoint sent an answer Fabled could not read — check that it is OpenAI-compatible.";
  if (error instanceof ChatModelError) {
    const status = error.status;
    if (status === 401 || status === 403) return `Your model endpoint answered ${status} — check the key in Settings → Models.`;
    if (status === 404) return "Your model endpoint answered 404 — check the base URL and the model in Settings → Models.";
    if (status === 429) return "Your model endpoint answered 429 (too many requests, or out of credit) — try again later.";
    if (status !== undefined) return `Your model endpoint answered ${status} — try again, or check it in Settings → Models.`;
    if (/^no (token|answer) within/.test(error.message)) return "Your model endpoint did not answer in time — is it running?";
    return "Fabled could not reach your model endpoint — is it running, and is the base URL right?";
  }
  return null;
}
