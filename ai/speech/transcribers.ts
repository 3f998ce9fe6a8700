/**
 * Speech to text (DESIGN.md "Voices"), chosen by `TRANSCRIPTION_PROVIDER`:
 *
 * - `workers-ai`: the `AI` binding, Whisper (`@cf/openai/whisper-large-v3-turbo`,
 *   or `TRANSCRIPTION_MODEL`), the audio sent base64-encoded; answers `{text}`.
 * - `openai`: any OpenAI-compatible `POST {OPENAI_BASE_URL}/audio/transcriptions`
 *   (multipart: `file`, `model` — `TRANSCRIPTION_MODEL`, default `whisper-1` —
 *   `response_format=json`); answers `{text}`.
 * - empty, unknown, or a provider without its binding or base URL: none
 *   (`createTranscriber` answers null, the route 503 `unavailable`).
 */
import { type AiRunner, endpointUrl, type OpenAIEndpoint, postBody, runWorkersAI } from "../endpoints.ts";
import { chosenProvider, type ProviderEnv } from "../provider-choice.ts";
import { SpeechError, type SynthesizeOptions, type Transcriber } from "./speech.ts";

export interface TranscriptionEnv extends ProviderEnv {
  /** `workers-ai` | `openai` | empty for none. */
  TRANSCRIPTION_PROVIDER?: string;
  /** Model of the chosen provider; empty: its default. */
  TRANSCRIPTION_MODEL?: string;
}

export const WORKERS_AI_TRANSCRIPTION_MODEL = "@cf/openai/whisper-large-v3-turbo";
export const OPENAI_TRANSCRIPTION_MODEL = "whisper-1";

/** Base64 of `bytes`, in slices (String.fromCharCode takes a bounded number of arguments). */
function base64(bytes: Uint8Array): string {
  let binary = "";
  for (let at = 0; at < bytes.length; at += 0x8000) binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return btoa(binary);
}

/** The `text` of a `{text}` answer, trimmed, or throws. */
function textOf(body: unknown, source: string): string {
  const text = (body as { text?: unknown } | null)?.text;
  if (typeof text !== "string") throw new SpeechError(`${source} answered without text`);
  return text.trim();
}

export class WorkersAITranscriber implements Transcriber {
  readonly name = "workers-ai" as const;
  private readonly ai: AiRunner;
  private readonly model: string;

  constructor(ai: AiRunner, model: string) {
    this.ai = ai;
    this.model = model;
  }

  /** @throws SpeechError when the binding fails or answers without text. */
  async transcribe(audio: Uint8Array, _contentType: string, { signal }: SynthesizeOptions = {}): Promise<string> {
    const result = await runWorkersAI(
      this.ai,
      this.model,
      { audio: base64(audio), task: "transcribe", vad_filter: true },
      signal,
      (message, status) => new SpeechError(message, status),
    );
    return textOf(result, `Workers AI ${this.model}`);
  }
}

export class OpenAITranscriber implements Transcriber {
  readonly name = "openai" as const;
  private readonly endpoint: OpenAIEndpoint;
  private readonly model: string;
  private readonly url: string;

  constructor(endpoint: OpenAIEndpoint, model: string) {
    this.endpoint = endpoint;
    this.model = model;
    this.url = endpointUrl(endpoint.baseUrl, "audio/transcriptions");
  }

  /** @throws SpeechError on a network failure, a non-2xx answer or one without text. */
  async transcribe(audio: Uint8Array, contentType: string, { signal }: SynthesizeOptions = {}): Promise<string> {
    const form = new FormData();
    // The server guesses the format from the file name's extension.
    const extension = /ogg/.test(contentType) ? "ogg" : /mp4|m4a|aac/.test(contentType) ? "m4a" : /wav/.test(contentType) ? "wav" : /mpeg|mp3/.test(contentType) ? "mp3" : "webm";
    form.append("file", new Blob([audio], { type: contentType || "application/octet-stream" }), `speech.${extension}`);
    form.append("model", this.model);
    form.append("response_format", "json");
    const response = await postBody(this.endpoint, this.url, form, { accept: "application/json", signal }, (message, status) => new SpeechError(message, status));
    return textOf(await response.json().catch(() => null), this.url);
  }
}

/** The transcriber of this deployment, or null where none is configured. */
export function createTranscriber(env: TranscriptionEnv): Transcriber | null {
  switch (chosenProvider(env.TRANSCRIPTION_PROVIDER, env)) {
    case "workers-ai":
      return new WorkersAITranscriber(env.AI as AiRunner, env.TRANSCRIPTION_MODEL || WORKERS_AI_TRANSCRIPTION_MODEL);
    case "openai":
      return new OpenAITranscriber({ baseUrl: env.OPENAI_BASE_URL!, apiKey: env.OPENAI_API_KEY }, env.TRANSCRIPTION_MODEL || OPENAI_TRANSCRIPTION_MODEL);
    case "offline":
      // No speech to text runs inside the Worker: none configured.
      return null;
  }
}
