/**
 * Chat models (DESIGN.md "Chat models"): one interface, three providers,
 * chosen by `AI_PROVIDER`.
 *
 * - `workers-ai`: the `AI` binding, model `AI_MODEL`; its SSE stream comes in
 *   two shapes, both read by stream-parsers.ts; its last event reports the
 *   tokens used (`usage`).
 * - `openai`: any OpenAI-compatible server (Ollama, llama.cpp server, vLLM,
 *   OpenRouter…): `POST {OPENAI_BASE_URL}/chat/completions` with
 *   `stream: true` and `stream_options: {include_usage: true}` (the tokens
 *   used come in a last chunk), key in the secret `OPENAI_API_KEY`, model
 *   `AI_MODEL`. A server that refuses `stream_options` (400) is asked again
 *   without it, and not asked with it again (STREAM_OPTIONS_REFUSED).
 * - `offline`: deterministic and local (offline-model.ts), for development
 *   and tests; the UI says plainly when it answers.
 *
 * The interface they implement is in chat-model.ts; the binding and HTTP
 * plumbing they share with the moderators is endpoints.ts.
 */
import type { ChatModelName, ReplyUsage } from "../schema/chat.ts";
import type { ChatModel, ChatModelOptions, PromptMessage, Sampling } from "./chat-model.ts";
import { OfflineChatModel, type OfflineCharacter } from "./offline-model.ts";
import { type AiRunner, endpointUrl, type OpenAIEndpoint, postJson, runWorkersAI } from "./endpoints.ts";
import { ChatStreamError, textOfEventStream, usageOf } from "./stream-parsers.ts";

export type { AiRunner } from "./endpoints.ts";

/** A provider refused or failed the request. The message is for logs, not people. */
export class ChatModelError extends Error {
  override readonly name = "ChatModelError";
  /** HTTP status of the provider's answer, when there was one. */
  readonly status?: number;

  constructor(message: string, status?: number) {
    super(message);
    this.status = status;
  }
}

/**
 * The chat-completions parameters of `maxTokens` (tokens) and `sampling`:
 * `max_tokens`, `temperature`, `top_p`, `frequency_penalty`, `stop` (OpenAI
 * API reference, "Create chat completion"; Workers AI takes the same names).
 * Settings left out are left out.
 */
export function completionParameters(maxTokens: number, sampling: Sampling = {}): Record<string, unknown> {
  const params: Record<string, unknown> = { max_tokens: maxTokens };
  if (sampling.temperature !== undefined) params.temperature = sampling.temperature;
  if (sampling.topP !== undefined) params.top_p = sampling.topP;
  if (sampling.frequencyPenalty !== undefined) params.frequency_penalty = sampling.frequencyPenalty;
  if (sampling.stop && sampling.stop.length > 0) params.stop = sampling.stop;
  return params;
}

/** Hands `onUsage` the tokens a whole (non-streamed) answer reports, if any. */
function reportUsage(answer: unknown, onUsage: ((usage: ReplyUsage) => void) | undefined): void {
  const usage = usageOf(answer);
  if (usage) onUsage?.(usage);
}

/**
 * Endpoints — `{model} {baseUrl}/chat/completions`, as a connection names
 * them — that answered 400 to `stream_options` and then answered without
 * it: this isolate does not send it to them again. At most
 * STREAM_OPTIONS_REFUSED_MAX, oldest forgotten first (a Set keeps insertion
 * order). Never a key.
 */
const STREAM_OPTIONS_REFUSED = new Set<string>();
const STREAM_OPTIONS_REFUSED_MAX = 256;

function rememberStreamOptionsRefused(endpoint: string): void {
  STREAM_OPTIONS_REFUSED.add(endpoint);
  if (STREAM_OPTIONS_REFUSED.size > STREAM_OPTIONS_REFUSED_MAX) STREAM_OPTIONS_REFUSED.delete(STREAM_OPTIONS_REFUSED.values().next().value!);
}

/** Workers AI through its binding. */
export class WorkersAIChatModel implements ChatModel {
  readonly name = "workers-ai" as const;
  private readonly ai: AiRunner;
  private readonly model: string;

  constructor(ai: AiRunner, model: string) {
    this.ai = ai;
    this.model = model;
  }

  async *stream(prompt: PromptMessage[], { maxTokens, signal, sampling, onUsage }: ChatModelOptions): AsyncGenerator<string> {
    // Workers AI text models take max_tokens, temperature, top_p and frequency_penalty, not `stop`.
    const params = completionParameters(maxTokens, { ...sampling, stop: undefined });
    const result = await runWorkersAI(
      this.ai,
      this.model,
      { messages: prompt, stream: true, ...params },
      signal,
      (message, status) => new ChatModelError(message, status),
    );
    if (result instanceof ReadableStream) {
      yield* textOfEventStream(result as ReadableStream<Uint8Array>, onUsage);
      return;
    }
    const response = (result as { response?: unknown } | null)?.response;
    if (typeof response === "string") {
      reportUsage(result, onUsage);
      if (response !== "") yield response;
      return;
    }
    throw new ChatStreamError(`Workers AI ${this.model} answered neither a stream nor a response`);
  }
}

/** Any OpenAI-compatible chat completions endpoint, streamed (SSE). */
export interface OpenAIConfig extends OpenAIEndpoint {
  /** e.g. `https://openrouter.ai/api/v1` or `http://127.0.0.1:11434/v1`; `/chat/completions` is appended. */
  baseUrl: string;
  model: string;
}

export class OpenAIChatModel implements ChatModel {
  readonly name = "openai" as const;
  private readonly config: OpenAIConfig;
  private readonly url: string;

  constructor(config: OpenAIConfig) {
    this.config = config;
    this.url = endpointUrl(config.baseUrl, "chat/completions");
  }

  /**
   * Streams the reply; `onUsage` gets the tokens the server reports. Asks
   * for them with `stream_options: {include_usage: true}` (OpenAI API
   * reference, "Create chat completion"; OpenRouter, llama.cpp server, vLLM
   * and Ollama's `/v1` accept it). A server that answers 400 to it is asked
   * once more without it; if that answers, the endpoint and model are
   * remembered (STREAM_OPTIONS_REFUSED) and the reply has no token count.
   * A 400 the second time is thrown as usual.
   */
  async *stream(prompt: PromptMessage[], { maxTokens, signal, sampling, onUsage }: ChatModelOptions): AsyncGenerator<string> {
    const body = { model: this.config.model, messages: prompt, stream: true, ...completionParameters(maxTokens, sampling) };
    const post = (withUsage: boolean) =>
      postJson(
        this.config,
        this.url,
        withUsage ? { ...body, stream_options: { include_usage: true } } : body,
        { accept: "text/event-stream", signal },
        (message, status) => new ChatModelError(message, status),
      );
    const endpoint = `${this.config.model} ${this.url}`;
    let response: Response;
    if (STREAM_OPTIONS_REFUSED.has(endpoint)) {
      response = await post(false);
    } else {
      try {
        response = await post(true);
      } catch (error) {
        if (!(error instanceof ChatModelError) || error.status !== 400) throw error;
        response = await post(false);
        rememberStreamOptionsRefused(endpoint);
      }
    }
    if (!response.body) throw new ChatModelError(`${this.url} answered ${response.status}: `, response.status);
    const type = response.headers.get("content-type") ?? "";
    if (type.includes("application/json")) {
      // A server that ignores `stream: true` answers one completion.
      const answer = (await response.json().catch(() => null)) as { choices?: { message?: { content?: unknown } }[] } | null;
      const content = answer?.choices?.[0]?.message?.content;
      if (typeof content !== "string") throw new ChatStreamError(`${this.url} answered JSON without a message`);
      reportUsage(answer, onUsage);
      if (content !== "") yield content;
      return;
    }
    yield* textOfEventStream(response.body, onUsage);
  }
}

/** The bindings and variables the providers read. */
export interface ChatModelEnv {
  AI_PROVIDER?: string;
  AI_MODEL?: string;
  OPENAI_BASE_URL?: string;
  OPENAI_API_KEY?: string;
  /** Offline model's pause between words, ms (default OFFLINE_WORD_DELAY_MS_DEFAULT). */
  OFFLINE_WORD_DELAY_MS?: string;
  AI?: unknown;
}

/** The offline model's default pace: ~40 words a second, like a fast hosted model. */
export const OFFLINE_WORD_DELAY_MS_DEFAULT = 25;

/**
 * Which provider answers in this deployment. `openai` without a base URL and
 * unknown names fall back to `offline` (and the UI says so), never to a
 * silent failure on every message.
 */
export function chatModelName(env: ChatModelEnv): ChatModelName {
  const provider = (env.AI_PROVIDER ?? "").trim().toLowerCase();
  if (provider === "workers-ai" && env.AI) return "workers-ai";
  if (provider === "openai" && env.OPENAI_BASE_URL) return "openai";
  return "offline";
}

/**
 * The chat model for one reply. `character` and `userName` are what the
 * offline model speaks from; the others read only the prompt.
 */
export function createChatModel(env: ChatModelEnv, character: OfflineCharacter, userName: string): ChatModel {
  switch (chatModelName(env)) {
    case "workers-ai":
      return new WorkersAIChatModel(env.AI as AiRunner, env.AI_MODEL || "@cf/mistralai/mistral-small-3.1-24b-instruct");
    case "openai":
      return new OpenAIChatModel({ baseUrl: env.OPENAI_BASE_URL!, apiKey: env.OPENAI_API_KEY, model: env.AI_MODEL ?? "" });
    case "offline": {
      const delay = Number(env.OFFLINE_WORD_DELAY_MS);
      return new OfflineChatModel(character, userName, {
        wordDelayMs: Number.isFinite(delay) && delay >= 0 ? delay : OFFLINE_WORD_DELAY_MS_DEFAULT,
      });
    }
  }
}

/**
 * Reads a model's stream with a watchdog: if no piece arrives within
 * `tokenTimeoutMs` (the first one included), `onTimeout` is called (the caller
 * aborts the request) and ChatModelError("timeout") is thrown. One timer per
 * stream, re-armed when it fires early, rather than one per piece: thousands
 * of replies stream at once.
 */
export async function* withTokenTimeout<T>(
  source: AsyncIterable<T>,
  tokenTimeoutMs: number,
  onTimeout: () => void = () => {},
): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]();
  let waitingSince: number | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // Ends the wait for the current piece. Not a race with one promise that lives as long as the
  // stream: every race would leave it a reaction, kept until the stream ends.
  let giveUp: ((timeout: "timeout") => void) | null = null;
  const arm = (ms: number) => {
    timer = setTimeout(() => {
      const waited = waitingSince === null ? 0 : Date.now() - waitingSince;
      if (waited >= tokenTimeoutMs) giveUp?.("timeout");
      else arm(tokenTimeoutMs - waited);
    }, ms);
  };
  arm(tokenTimeoutMs);
  let finished = false;
  try {
    for (;;) {
      waitingSince = Date.now();
      const next = await new Promise<IteratorResult<T> | "timeout">((resolve, reject) => {
        giveUp = resolve;
        iterator.next().then(resolve, reject);
      });
      giveUp = null;
      waitingSince = null;
      if (next === "timeout") {
        onTimeout();
        throw new ChatModelError(`no token within ${tokenTimeoutMs} ms`);
      }
      if (next.done) {
        finished = true;
        return;
      }
      yield next.value;
    }
  } finally {
    clearTimeout(timer);
    // A consumer that stops early, or a timeout: the source is closed in the background.
    if (!finished) iterator.return?.()?.catch(() => {});
  }
}
