/**
 * Embedders (DESIGN.md "Memory"): one interface (embedder.ts), three
 * providers, chosen by `EMBEDDING_PROVIDER` like the chat model by
 * `AI_PROVIDER` (../chat-models.ts):
 *
 * - `workers-ai`: the `AI` binding, `@cf/baai/bge-m3` (multilingual, 1,024
 *   dimensions; or `EMBEDDING_MODEL`): `{text: [...]}` → `{shape, data}`.
 * - `openai`: any OpenAI-compatible `POST {OPENAI_BASE_URL}/embeddings`
 *   (`{model, input: [...]}` → `{data: [{index, embedding}]}`, model
 *   `EMBEDDING_MODEL`, default `text-embedding-3-small`). A person's model
 *   connection that names an `embeddingModel` embeds its chats the same way
 *   through its own endpoint (`OpenAIEmbedder` with the guarded fetch).
 * - `offline`: feature hashing inside the Worker (offline.ts).
 *
 * An empty `EMBEDDING_PROVIDER` follows `AI_PROVIDER`; `workers-ai` without
 * the binding, `openai` without a base URL and unknown names fall back to
 * `offline`: a deployment always remembers.
 */
import { type AiRunner, endpointUrl, type OpenAIEndpoint, postJson, runWorkersAI } from "../endpoints.ts";
import { chosenProvider, type ProviderEnv } from "../provider-choice.ts";
import { type Embedder, EmbeddingError, type EmbeddingProviderName, type EmbedOptions, normalised } from "./embedder.ts";
import { OfflineEmbedder } from "./offline.ts";

/** The bindings and variables the providers read (a subset of the Worker's `Env`). */
export interface EmbeddingEnv extends ProviderEnv {
  /** `workers-ai` | `openai` | `offline`; empty: follow AI_PROVIDER. */
  EMBEDDING_PROVIDER?: string;
  /** Model of the chosen provider; empty: its default. */
  EMBEDDING_MODEL?: string;
  AI_PROVIDER?: string;
}

export const WORKERS_AI_EMBEDDING_MODEL = "@cf/baai/bge-m3";
export const OPENAI_EMBEDDING_MODEL = "text-embedding-3-small";

/** Texts are cut to this many characters before embedding: bge-m3 reads 8,192 tokens, OpenAI's 8,191; a chat message is far shorter. */
export const EMBED_MAX_CHARS = 8000;

const clip = (texts: readonly string[]) => texts.map((text) => text.slice(0, EMBED_MAX_CHARS));

/** Unit-length Float32Arrays of `count` number lists, or an EmbeddingError naming `source`. */
function vectorsOf(lists: unknown, count: number, source: string): Float32Array[] {
  if (!Array.isArray(lists) || lists.length !== count) throw new EmbeddingError(`${source} answered ${Array.isArray(lists) ? lists.length : "no"} vectors for ${count} texts`);
  return lists.map((list) => {
    if (!Array.isArray(list) || list.length === 0 || !list.every((n) => typeof n === "number" && Number.isFinite(n))) {
      throw new EmbeddingError(`${source} answered a vector that is not a list of numbers`);
    }
    return normalised(Float32Array.from(list as number[]));
  });
}

/** Workers AI embeddings (bge-m3) through the binding. */
export class WorkersAIEmbedder implements Embedder {
  readonly name = "workers-ai" as const;
  readonly id: string;
  // bge-m3 takes up to 100 texts a request.
  readonly maxBatch = 100;
  private readonly ai: AiRunner;
  private readonly model: string;

  constructor(ai: AiRunner, model: string) {
    this.ai = ai;
    this.model = model;
    this.id = `workers-ai:${model}`;
  }

  /** @throws EmbeddingError when the binding fails or answers no vectors for every text. */
  async embed(texts: readonly string[], { signal }: EmbedOptions = {}): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const result = await runWorkersAI(this.ai, this.model, { text: clip(texts) }, signal, (message, status) => new EmbeddingError(message, status));
    return vectorsOf((result as { data?: unknown } | null)?.data, texts.length, `Workers AI ${this.model}`);
  }
}

/** Any OpenAI-compatible `/embeddings` endpoint. */
export class OpenAIEmbedder implements Embedder {
  readonly name = "openai" as const;
  readonly id: string;
  // OpenAI takes 2,048 inputs a request; local servers (Ollama, llama.cpp) are happier with fewer.
  readonly maxBatch = 64;
  private readonly endpoint: OpenAIEndpoint;
  private readonly model: string;
  private readonly url: string;

  constructor(endpoint: OpenAIEndpoint, model: string) {
    this.endpoint = endpoint;
    this.model = model;
    this.url = endpointUrl(endpoint.baseUrl, "embeddings");
    this.id = `openai:${endpoint.baseUrl.replace(/\/+$/, "")}:${model}`;
  }

  /** @throws EmbeddingError on a network failure, a non-2xx answer or an answer without a vector for every text. */
  async embed(texts: readonly string[], { signal }: EmbedOptions = {}): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const response = await postJson(
      this.endpoint,
      this.url,
      { model: this.model, input: clip(texts) },
      { accept: "application/json", signal },
      (message, status) => new EmbeddingError(message, status),
    );
    let body: { data?: { index?: number; embedding?: unknown }[] };
    try {
      body = (await response.json()) as typeof body;
    } catch {
      throw new EmbeddingError(`${this.url} answered something that is not JSON`);
    }
    const rows = Array.isArray(body?.data) ? [...body.data] : null;
    // OpenAI answers in input order with `index`; sorted in case a server does not.
    rows?.sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
    return vectorsOf(rows?.map((row) => row?.embedding), texts.length, this.url);
  }
}

/** Which provider embeds in this deployment (see the module comment for the fallbacks). */
export function embeddingProviderName(env: EmbeddingEnv): EmbeddingProviderName {
  return chosenProvider(env.EMBEDDING_PROVIDER || env.AI_PROVIDER, env);
}

/** The embedder of this deployment. */
export function createEmbedder(env: EmbeddingEnv): Embedder {
  switch (embeddingProviderName(env)) {
    case "workers-ai":
      return new WorkersAIEmbedder(env.AI as AiRunner, env.EMBEDDING_MODEL || WORKERS_AI_EMBEDDING_MODEL);
    case "openai":
      return new OpenAIEmbedder({ baseUrl: env.OPENAI_BASE_URL!, apiKey: env.OPENAI_API_KEY }, env.EMBEDDING_MODEL || OPENAI_EMBEDDING_MODEL);
    case "offline":
      return new OfflineEmbedder();
  }
}
