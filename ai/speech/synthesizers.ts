/**
 * Speech synthesizers (DESIGN.md "Voices"): one interface (speech.ts), three
 * providers, chosen by `SPEECH_PROVIDER` like the chat model by
 * `AI_PROVIDER` (../chat-models.ts):
 *
 * - `workers-ai`: the `AI` binding, Deepgram Aura 2 (`@cf/deepgram/aura-2-en`,
 *   or `SPEECH_MODEL`); MP3, at most 2,000 characters a request.
 * - `openai`: any OpenAI-compatible `POST {OPENAI_BASE_URL}/audio/speech`
 *   (`{model, input, voice, response_format: "mp3"}`, model `SPEECH_MODEL`,
 *   default `gpt-4o-mini-tts`); MP3, at most 4,096 characters.
 * - `offline`: eSpeak NG inside the Worker (offline-speech.ts); WAV.
 *
 * `workers-ai` without the binding, `openai` without a base URL and unknown
 * names fall back to `offline`: a deployment always speaks.
 */
import { type AiRunner, endpointUrl, type OpenAIEndpoint, postJson, runWorkersAI } from "../endpoints.ts";
import { chosenProvider, type ProviderEnv } from "../provider-choice.ts";
import { offlineVoiceList } from "./offline-voices.ts";
import { speechChunks } from "./spoken-text.ts";
import { type AudioCaps, CappedAudio, wavSizesPatched } from "./capped-audio.ts";
import {
  SPEECH_CAPS,
  SpeechError,
  type SpeechAudio,
  type SpeechProviderName,
  type SpeechSynthesizer,
  type SynthesizeOptions,
  type Voice,
} from "./speech.ts";

/** The bindings and variables the providers read (a subset of the Worker's `Env`). */
export interface SpeechEnv extends ProviderEnv {
  /** `workers-ai` | `openai` | `offline`. */
  SPEECH_PROVIDER?: string;
  /** Model of the chosen provider; empty: its default. */
  SPEECH_MODEL?: string;
}

export const WORKERS_AI_SPEECH_MODEL = "@cf/deepgram/aura-2-en";
export const OPENAI_SPEECH_MODEL = "gpt-4o-mini-tts";

/** Aura 2 English speakers offered (Workers AI model page lists 40; these are a varied few). */
const AURA_SPEAKERS: readonly { speaker: string; name: string }[] = [
  { speaker: "asteria", name: "Asteria (warm)" },
  { speaker: "orion", name: "Orion (calm)" },
  { speaker: "luna", name: "Luna (soft)" },
  { speaker: "zeus", name: "Zeus (deep)" },
  { speaker: "athena", name: "Athena (clear)" },
  { speaker: "apollo", name: "Apollo (bright)" },
  { speaker: "helena", name: "Helena (gentle)" },
  { speaker: "arcas", name: "Arcas (steady)" },
];

/** OpenAI's built-in voices (`/v1/audio/speech` `voice`). */
const OPENAI_VOICES: readonly { voice: string; name: string }[] = [
  { voice: "alloy", name: "Alloy" },
  { voice: "ash", name: "Ash" },
  { voice: "coral", name: "Coral" },
  { voice: "echo", name: "Echo" },
  { voice: "fable", name: "Fable" },
  { voice: "nova", name: "Nova" },
  { voice: "onyx", name: "Onyx" },
  { voice: "sage", name: "Sage" },
  { voice: "shimmer", name: "Shimmer" },
];

const auraVoices = (): Voice[] =>
  AURA_SPEAKERS.map(({ speaker, name }) => ({ id: `workers-ai-${speaker}`, name, language: "en-US", provider: "workers-ai" }));

const openAIVoices = (): Voice[] =>
  OPENAI_VOICES.map(({ voice, name }) => ({ id: `openai-${voice}`, name, language: "en-US", provider: "openai" }));

/** The part after `{provider}-` of a voice id of this provider, or throws. */
function providerVoice(voices: readonly Voice[], voiceId: string, prefix: string): string {
  if (!voices.some((voice) => voice.id === voiceId)) throw new SpeechError(`unknown voice ${voiceId}`);
  return voiceId.slice(prefix.length);
}

/** Bytes of whatever the binding answered for an audio model: a Response (`returnRawResponse`), a stream, bytes or base64. */
async function audioBytes(result: unknown): Promise<Uint8Array> {
  if (result instanceof Response) return new Uint8Array(await result.arrayBuffer());
  if (result instanceof ReadableStream) return new Uint8Array(await new Response(result).arrayBuffer());
  if (result instanceof Uint8Array) return result;
  if (result instanceof ArrayBuffer) return new Uint8Array(result);
  const base64 = typeof result === "string" ? result : (result as { audio?: unknown } | null)?.audio;
  if (typeof base64 === "string") return Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
  throw new SpeechError("Workers AI answered no audio");
}

/** Workers AI text to speech (Deepgram Aura 2) through the binding. */
export class WorkersAISpeechSynthesizer implements SpeechSynthesizer {
  readonly name = "workers-ai" as const;
  // Deepgram's limit per request is 2,000 characters.
  readonly maxChars = 1900;
  readonly voices: readonly Voice[] = auraVoices();
  private readonly ai: AiRunner;
  private readonly model: string;

  constructor(ai: AiRunner, model: string) {
    this.ai = ai;
    this.model = model;
  }

  /** @throws SpeechError when the binding fails, answers a non-2xx Response or no audio. */
  async synthesize(text: string, voiceId: string, { signal }: SynthesizeOptions = {}): Promise<SpeechAudio> {
    const speaker = providerVoice(this.voices, voiceId, "workers-ai-");
    const result = await runWorkersAI(
      { run: (model, inputs) => this.ai.run(model, inputs, { returnRawResponse: true, ...(signal ? { signal } : {}) }) },
      this.model,
      { text, speaker, encoding: "mp3" },
      signal,
      (message, status) => new SpeechError(message, status),
    );
    if (result instanceof Response && !result.ok) {
      throw new SpeechError(`Workers AI ${this.model} answered ${result.status}: ${(await result.text()).slice(0, 300)}`, result.status);
    }
    return { bytes: await audioBytes(result), contentType: "audio/mpeg" };
  }
}

/** Any OpenAI-compatible `/audio/speech` endpoint. */
export class OpenAISpeechSynthesizer implements SpeechSynthesizer {
  readonly name = "openai" as const;
  // OpenAI's limit per request is 4,096 characters.
  readonly maxChars = 4000;
  readonly voices: readonly Voice[] = openAIVoices();
  private readonly endpoint: OpenAIEndpoint;
  private readonly model: string;
  private readonly url: string;

  constructor(endpoint: OpenAIEndpoint, model: string) {
    this.endpoint = endpoint;
    this.model = model;
    this.url = endpointUrl(endpoint.baseUrl, "audio/speech");
  }

  /** @throws SpeechError on a network failure or a non-2xx answer. */
  async synthesize(text: string, voiceId: string, { signal }: SynthesizeOptions = {}): Promise<SpeechAudio> {
    const voice = providerVoice(this.voices, voiceId, "openai-");
    const response = await postJson(
      this.endpoint,
      this.url,
      { model: this.model, input: text, voice, response_format: "mp3" },
      { accept: "audio/mpeg", signal },
      (message, status) => new SpeechError(message, status),
    );
    return { bytes: new Uint8Array(await response.arrayBuffer()), contentType: "audio/mpeg" };
  }
}

/** Which provider speaks in this deployment (see the module comment for the fallbacks). */
export function speechProviderName(env: SpeechEnv): SpeechProviderName {
  return chosenProvider(env.SPEECH_PROVIDER, env);
}

/** The voices this deployment offers (GET /api/voices), the default first, without loading any engine. */
export function speechVoices(env: SpeechEnv): Voice[] {
  switch (speechProviderName(env)) {
    case "workers-ai":
      return auraVoices();
    case "openai":
      return openAIVoices();
    case "offline":
      return offlineVoiceList();
  }
}

/**
 * The synthesizer of this deployment. The offline one is loaded on first
 * use (its module brings the 18 MB eSpeak NG `.wasm`).
 */
export async function createSpeechSynthesizer(env: SpeechEnv): Promise<SpeechSynthesizer> {
  switch (speechProviderName(env)) {
    case "workers-ai":
      return new WorkersAISpeechSynthesizer(env.AI as AiRunner, env.SPEECH_MODEL || WORKERS_AI_SPEECH_MODEL);
    case "openai":
      return new OpenAISpeechSynthesizer({ baseUrl: env.OPENAI_BASE_URL!, apiKey: env.OPENAI_API_KEY }, env.SPEECH_MODEL || OPENAI_SPEECH_MODEL);
    case "offline": {
      // Through package.json "imports", so a deploy can alias it away (scripts/deploy.ts).
      const { OfflineSpeechSynthesizer } = await import("#offline-speech");
      return new OfflineSpeechSynthesizer();
    }
  }
}

/** A reply being spoken piece by piece into one capped file (capped-audio.ts). */
export interface SpeechStream {
  /** The file so far: its type, duration and size given out, whether a cap ended it. */
  readonly audio: CappedAudio;
  /**
   * The bytes to send next (the next piece spoken, cut at the caps); null
   * when the reply is all spoken or a cap was reached.
   *
   * @throws SpeechError when a piece fails; the abort error when the signal aborted.
   */
  next(): Promise<Uint8Array[] | null>;
}

/**
 * Starts speaking `text` in `voiceId`: cut to the engine's limit
 * (spoken-text.ts `speechChunks`), the first piece synthesized now (so a
 * failing engine fails before anything is sent, and the file's type is
 * known), each next piece when `next` is called — one piece in memory at a
 * time — and the pieces joined into one file within `caps`
 * (capped-audio.ts: WAV samples under one header with a short pause
 * between pieces, MP3 frames one after another).
 *
 * @throws SpeechError when `text` has no words or the first piece fails; the abort error when `signal` aborted.
 */
export async function startSpeech(
  synthesizer: SpeechSynthesizer,
  text: string,
  voiceId: string,
  caps: AudioCaps,
  options: SynthesizeOptions = {},
): Promise<SpeechStream> {
  const chunks = speechChunks(text, synthesizer.maxChars);
  if (chunks.length === 0) throw new SpeechError("nothing to speak");
  let pending: SpeechAudio | null = await synthesizer.synthesize(chunks[0]!, voiceId, options);
  const audio = new CappedAudio(pending.contentType, caps);
  let index = 1;
  return {
    audio,
    async next() {
      if (pending) {
        const piece = pending;
        pending = null;
        return audio.add(piece);
      }
      if (audio.full || index >= chunks.length) return null;
      return audio.add(await synthesizer.synthesize(chunks[index++]!, voiceId, options));
    },
  };
}

/**
 * Speaks `text` whole into one file within `caps` (startSpeech, every
 * piece collected; a WAV's header then says its true length). For short
 * texts (voice previews) and tests; a reply is streamed.
 *
 * @throws SpeechError when `text` has no words or a piece fails; the abort error when `signal` aborted.
 */
export async function speakWhole(
  synthesizer: SpeechSynthesizer,
  text: string,
  voiceId: string,
  options: SynthesizeOptions = {},
  caps: AudioCaps = SPEECH_CAPS,
): Promise<SpeechAudio> {
  const speech = await startSpeech(synthesizer, text, voiceId, caps, options);
  const parts: Uint8Array[] = [];
  for (let next = await speech.next(); next; next = await speech.next()) parts.push(...next);
  const bytes = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  if (speech.audio.contentType === "audio/wav") wavSizesPatched(bytes, bytes.length);
  return { bytes, contentType: speech.audio.contentType };
}
