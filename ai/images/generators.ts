/**
 * Image generators (DESIGN.md "Pictures"): one interface
 * (image-generator.ts), three providers, chosen by `IMAGE_PROVIDER` like
 * the embedder by `EMBEDDING_PROVIDER` (../embeddings/embedders.ts):
 *
 * - `workers-ai`: the `AI` binding, FLUX.1 [schnell]
 *   (`@cf/black-forest-labs/flux-1-schnell`, or `IMAGE_MODEL`): `{prompt,
 *   steps}` → `{image}`, a base64 JPEG of 1,024 × 1,024 (Cloudflare's model
 *   page: "response.image is base64 encoded"; no size input); the Stable
 *   Diffusion models there answer the PNG's bytes as a stream. An answer
 *   without an image is the model refusing (its NSFW filter answers an
 *   error or an empty image).
 * - `openai`: any OpenAI-compatible `POST {base}/images/generations`
 *   (`{model, prompt, n: 1, size: "WxH"}` → `{data: [{b64_json} | {url}]}`;
 *   gpt-image-1 always answers `b64_json`, dall-e-2/3 a `url` unless asked
 *   otherwise, so both are read; a `url` is fetched with the same fetch).
 *   The site's endpoint is `OPENAI_BASE_URL` with model `IMAGE_MODEL`
 *   (default `gpt-image-1`); a person's model connection that names an
 *   `imageModel` paints through its own endpoint with the guarded fetch and
 *   the key kept out of every message (`personImageGenerator`). OpenAI's
 *   refusal (`content_policy_violation`, `moderation_blocked`) is an
 *   ImageError with `refused`.
 * - `offline`: the painter inside the Worker (offline-painter.ts).
 *
 * An empty `IMAGE_PROVIDER` follows `AI_PROVIDER`; `workers-ai` without
 * the binding, `openai` without a base URL and unknown names fall back to
 * `offline`: a deployment always answers with a picture.
 *
 * Every request waits at most IMAGE_TIMEOUT_MS (FLUX answers in 2–5 s,
 * gpt-image-1 in 10–40 s).
 */
import { withoutSecret } from "../model-connection.ts";
import { EndpointRefused, type EndpointPolicy, guardedFetch } from "../endpoint-guard.ts";
import { type AiRunner, endpointUrl, type OpenAIEndpoint, postJson, runWorkersAI } from "../endpoints.ts";
import { chosenProvider, type ProviderEnv } from "../provider-choice.ts";
import {
  type AnsweredImageType,
  type GeneratedImage,
  type GenerateOptions,
  ImageError,
  type ImageGenerator,
  type ImageProviderName,
  imageSide,
  MAX_IMAGE_PROMPT_CHARS,
} from "./image-generator.ts";
import { jpegToPng } from "./jpeg-to-png.ts";
import { OfflineImageGenerator } from "./offline-painter.ts";

/** The bindings and variables the providers read (a subset of the Worker's `Env`). */
export interface ImageEnv extends ProviderEnv {
  /** `workers-ai` | `openai` | `offline`; empty: follow AI_PROVIDER. */
  IMAGE_PROVIDER?: string;
  /** Model of the chosen provider; empty: its default. */
  IMAGE_MODEL?: string;
  AI_PROVIDER?: string;
}

export const WORKERS_AI_IMAGE_MODEL = "@cf/black-forest-labs/flux-1-schnell";
export const OPENAI_IMAGE_MODEL = "gpt-image-1";

/** Longest wait for one picture, ms. */
export const IMAGE_TIMEOUT_MS = 60_000;
/** Largest picture read from an endpoint (a 1,536 px PNG is ~5 MB; base64 adds a third), bytes. */
export const MAX_IMAGE_RESPONSE_BYTES = 12 * 1024 * 1024;

/** FLUX.1 [schnell] takes 1–8 steps; 4 is the model's default and its sweet spot. */
const FLUX_STEPS = 4;

/** `signal` joined with the provider's own timeout of `ms`. */
function withTimeout(signal: AbortSignal | undefined, ms: number): AbortSignal {
  const timeout = AbortSignal.timeout(ms);
  return signal ? AbortSignal.any([signal, timeout]) : timeout;
}

const timedOut = (error: unknown) => error instanceof Error && error.name === "TimeoutError";

/** Bytes of base64 text, or an ImageError naming `source`. */
function fromBase64(text: string, source: string): Uint8Array {
  try {
    return Uint8Array.from(atob(text.replace(/^data:[^,]*,/, "")), (char) => char.charCodeAt(0));
  } catch {
    throw new ImageError(`${source} answered an image that is not base64`);
  }
}

const startsWith = (bytes: Uint8Array, prefix: readonly number[], at = 0) => prefix.every((b, i) => bytes[at + i] === b);

/**
 * The type and size of a PNG, JPEG or WebP file from its header (PNG IHDR;
 * JPEG's first SOFn marker; WebP VP8/VP8L/VP8X), or an ImageError naming
 * `source`. Read here rather than with image-size so `ai/` stays free of
 * the Worker's packages; the three formats are what engines answer.
 */
export function imageHeader(bytes: Uint8Array, source: string): { contentType: AnsweredImageType; width: number; height: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const fail = () => new ImageError(`${source} answered something that is not a PNG, JPEG or WebP picture`);
  if (bytes.length >= 24 && startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) {
    return { contentType: "image/png", width: view.getUint32(16), height: view.getUint32(20) };
  }
  if (bytes.length >= 4 && startsWith(bytes, [0xff, 0xd8, 0xff])) {
    for (let at = 2; at + 9 < bytes.length; ) {
      if (bytes[at] !== 0xff) throw fail();
      const marker = bytes[at + 1]!;
      const length = view.getUint16(at + 2);
      // SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC).
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { contentType: "image/jpeg", height: view.getUint16(at + 5), width: view.getUint16(at + 7) };
      }
      at += 2 + length;
    }
    throw fail();
  }
  if (bytes.length >= 30 && startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8)) {
    const chunk = String.fromCharCode(...bytes.subarray(12, 16));
    if (chunk === "VP8X") return { contentType: "image/webp", width: 1 + (view.getUint32(24, true) & 0xffffff), height: 1 + (view.getUint32(27, true) & 0xffffff) };
    if (chunk === "VP8L") {
      const bits = view.getUint32(21, true);
      return { contentType: "image/webp", width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff) };
    }
    if (chunk === "VP8 ") return { contentType: "image/webp", width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff };
  }
  throw fail();
}

/** `bytes` as a GeneratedImage, its type and size read from its header; a JPEG made a PNG (jpeg-to-png.ts). */
function pictureOf(bytes: Uint8Array, source: string): GeneratedImage {
  if (bytes.length === 0) throw new ImageError(`${source} answered an empty image`, { refused: true });
  const header = imageHeader(bytes, source);
  if (header.contentType === "image/jpeg") return { bytes: jpegToPng(bytes, source), contentType: "image/png", width: header.width, height: header.height };
  return { bytes, contentType: header.contentType, width: header.width, height: header.height };
}

/** Workers AI text to image (FLUX.1 [schnell]) through the binding. */
export class WorkersAIImageGenerator implements ImageGenerator {
  readonly name = "workers-ai" as const;
  readonly id: string;
  /** Longest wait for one picture, ms (a seam for tests). */
  timeoutMs = IMAGE_TIMEOUT_MS;
  private readonly ai: AiRunner;
  private readonly model: string;

  constructor(ai: AiRunner, model: string) {
    this.ai = ai;
    this.model = model;
    this.id = `workers-ai:${model}`;
  }

  /** @throws ImageError when the binding fails, times out or answers no image (then `refused`: the model's filter). */
  async generate(prompt: string, { signal }: GenerateOptions = {}): Promise<GeneratedImage> {
    const source = `Workers AI ${this.model}`;
    const joined = withTimeout(signal, this.timeoutMs);
    let result: unknown;
    try {
      result = await runWorkersAI(this.ai, this.model, { prompt: prompt.slice(0, MAX_IMAGE_PROMPT_CHARS), steps: FLUX_STEPS }, joined, (message, status) => new ImageError(message, { status }));
    } catch (error) {
      if (signal?.aborted) throw error;
      if (joined.aborted) throw new ImageError(`${source}: no picture within ${this.timeoutMs} ms`);
      // Workers AI answers a prompt its filter stops with error 3030 ("NSFW content detected").
      if (error instanceof ImageError && /\b3030\b|nsfw/i.test(error.message)) throw new ImageError(error.message, { refused: true });
      throw error;
    }
    // The Stable Diffusion models of Workers AI answer the PNG's bytes as a stream.
    if (result instanceof ReadableStream) return pictureOf(new Uint8Array(await new Response(result).arrayBuffer()), source);
    if (result instanceof Uint8Array) return pictureOf(result, source);
    const image = (result as { image?: unknown } | null)?.image;
    if (typeof image !== "string") throw new ImageError(`${source} answered no image`);
    return pictureOf(fromBase64(image, source), source);
  }
}

/** An OpenAI error body's code and message (`{error: {code, message, type}}`), when the text is one. */
function openAIError(text: string): { code: string; message: string } | null {
  try {
    const error = (JSON.parse(text) as { error?: { code?: unknown; type?: unknown; message?: unknown } })?.error;
    if (!error) return null;
    return { code: String(error.code ?? error.type ?? ""), message: String(error.message ?? "") };
  } catch {
    return null;
  }
}

/** Any OpenAI-compatible `/images/generations` endpoint. */
export class OpenAIImageGenerator implements ImageGenerator {
  readonly name = "openai" as const;
  readonly id: string;
  /** Longest wait for one picture, ms (a seam for tests). */
  timeoutMs = IMAGE_TIMEOUT_MS;
  private readonly endpoint: OpenAIEndpoint;
  private readonly model: string;
  private readonly url: string;

  constructor(endpoint: OpenAIEndpoint, model: string) {
    this.endpoint = endpoint;
    this.model = model;
    this.url = endpointUrl(endpoint.baseUrl, "images/generations");
    this.id = `openai:${endpoint.baseUrl.replace(/\/+$/, "")}:${model}`;
  }

  /**
   * @throws ImageError on a network failure, a timeout, a non-2xx answer
   *   (`refused` for OpenAI's content policy), an answer without a picture;
   *   EndpointRefused when a person's guarded fetch refuses the address.
   */
  async generate(prompt: string, { size, signal }: GenerateOptions = {}): Promise<GeneratedImage> {
    const side = imageSide(size);
    const joined = withTimeout(signal, this.timeoutMs);
    const fail = (message: string, status?: number) => {
      const error = openAIError(message.replace(/^.*? answered \d+: /, ""));
      const refused = /content_policy_violation|moderation_blocked|safety system/i.test(`${error?.code ?? ""} ${error?.message ?? ""}`);
      return new ImageError(message, { status, refused });
    };
    try {
      const response = await postJson(this.endpoint, this.url, { model: this.model, prompt: prompt.slice(0, MAX_IMAGE_PROMPT_CHARS), n: 1, size: `${side}x${side}` }, { accept: "application/json", signal: joined }, fail);
      let body: { data?: { b64_json?: unknown; url?: unknown }[] };
      try {
        body = (await response.json()) as typeof body;
      } catch {
        throw new ImageError(`${this.url} answered something that is not JSON`);
      }
      const first = Array.isArray(body?.data) ? body.data[0] : undefined;
      if (typeof first?.b64_json === "string") return pictureOf(fromBase64(first.b64_json, this.url), this.url);
      if (typeof first?.url === "string") return await this.download(first.url, joined);
      throw new ImageError(`${this.url} answered no image`);
    } catch (error) {
      if (signal?.aborted || error instanceof EndpointRefused) throw error;
      if (joined.aborted || timedOut(error)) throw new ImageError(`${this.url}: no picture within ${this.timeoutMs} ms`);
      throw error;
    }
  }

  /** The picture at `url` (dall-e's answer: a link valid for an hour). */
  private async download(url: string, signal: AbortSignal): Promise<GeneratedImage> {
    let response: Response;
    try {
      response = await (this.endpoint.fetch ?? fetch)(url, { signal });
    } catch (error) {
      if (signal.aborted || error instanceof EndpointRefused) throw error;
      throw new ImageError(`${url}: ${String(error).slice(0, 300)}`);
    }
    if (!response.ok) throw new ImageError(`${url} answered ${response.status}`, { status: response.status });
    return pictureOf(new Uint8Array(await response.arrayBuffer()), url);
  }
}

/** Which provider paints in this deployment (see the module comment for the fallbacks). */
export function imageProviderName(env: ImageEnv): ImageProviderName {
  return chosenProvider(env.IMAGE_PROVIDER || env.AI_PROVIDER, env);
}

/** The image generator of this deployment. */
export function createImageGenerator(env: ImageEnv): ImageGenerator {
  switch (imageProviderName(env)) {
    case "workers-ai":
      return new WorkersAIImageGenerator(env.AI as AiRunner, env.IMAGE_MODEL || WORKERS_AI_IMAGE_MODEL);
    case "openai":
      return new OpenAIImageGenerator({ baseUrl: env.OPENAI_BASE_URL!, apiKey: env.OPENAI_API_KEY }, env.IMAGE_MODEL || OPENAI_IMAGE_MODEL);
    case "offline":
      return new OfflineImageGenerator();
  }
}

/**
 * A person's own image model (their model connection's `imageModel`): the
 * OpenAI-compatible generator over guardedFetch (the same address rules as
 * chat, checked again at every request, redirect and picture link; bodies
 * capped at MAX_IMAGE_RESPONSE_BYTES), every error's message with the key
 * taken out.
 */
export function personImageGenerator(endpoint: { baseUrl: string; apiKey?: string; model: string; policy: EndpointPolicy; fetch?: typeof fetch }): ImageGenerator {
  const inner = new OpenAIImageGenerator(
    { baseUrl: endpoint.baseUrl, apiKey: endpoint.apiKey, fetch: guardedFetch(endpoint.policy, MAX_IMAGE_RESPONSE_BYTES, endpoint.fetch) },
    endpoint.model,
  );
  return {
    name: "openai",
    id: inner.id,
    async generate(prompt, options) {
      try {
        return await inner.generate(prompt, options);
      } catch (error) {
        if (error instanceof ImageError && endpoint.apiKey && error.message.includes(endpoint.apiKey)) {
          throw new ImageError(withoutSecret(error.message, endpoint.apiKey), { status: error.status, refused: error.refused });
        }
        throw error;
      }
    },
  };
}
