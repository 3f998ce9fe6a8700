/**
 * What every speech engine is, apart from any provider (DESIGN.md "Voices"):
 * a voice, the audio a synthesizer answers, the `SpeechSynthesizer` (text to
 * speech) and `Transcriber` (speech to text) interfaces and their error.
 * Types only, with the error class, imported by the providers
 * (synthesizers.ts, offline-speech.ts, transcribers.ts) and by the Worker's
 * speech routes, so none of them imports another for a type.
 */

/**
 * How much of a message is read aloud (DESIGN.md "Voices": at most 5
 * minutes of audio and 16 MB, counted after macros are expanded).
 * `maxChars` cuts the spoken words first (spoken-text.ts `cutAtSentence`):
 * 4,000 characters are about 4½ minutes at 150 words a minute, so the
 * duration and size caps (capped-audio.ts) end only audio that runs slower
 * than words usually do (long numbers read out, a slow voice).
 */
export const SPEECH_CAPS = {
  /** Duration, ms. */
  maxMs: 5 * 60 * 1000,
  /** Bytes (16 MB). */
  maxBytes: 16 * 1024 * 1024,
  /** Spoken characters. */
  maxChars: 4000,
} as const;

/** Which engine a voice belongs to (`SPEECH_PROVIDER`). */
export type SpeechProviderName = "workers-ai" | "openai" | "offline";

/** One voice a deployment offers: the row of `GET /api/voices`. */
export interface Voice {
  /** Stable id stored on characters, e.g. `offline-en-us-f`, `workers-ai-aura-asteria`. */
  id: string;
  /** What people see in the picker, e.g. "Juniper (US English, bright)". */
  name: string;
  /** BCP 47 language tag of the voice, e.g. `en-US`. */
  language: string;
  provider: SpeechProviderName;
}

/** Audio a synthesizer made: the encoded file, whole. */
export interface SpeechAudio {
  bytes: Uint8Array;
  /** `audio/wav`, `audio/mpeg` or `audio/ogg`. */
  contentType: "audio/wav" | "audio/mpeg" | "audio/ogg";
}

export interface SynthesizeOptions {
  /** Aborts the request (the listener went away). */
  signal?: AbortSignal;
}

/**
 * Text to speech. `synthesize` speaks at most `maxChars` characters in one
 * call (the engine's limit); the caller cuts longer text (spoken-text.ts
 * `speechChunks`) and joins the pieces (capped-audio.ts `CappedAudio`).
 */
export interface SpeechSynthesizer {
  readonly name: SpeechProviderName;
  /** Longest text one `synthesize` call accepts, characters. */
  readonly maxChars: number;
  /** The voices this synthesizer speaks in; the first is the default. Never fewer than two. */
  readonly voices: readonly Voice[];
  /**
   * Speaks `text` (plain words, 1..maxChars characters) in the voice `voiceId`
   * (one of `voices`).
   *
   * @throws SpeechError when the engine fails or refuses; the abort error when `signal` aborted.
   */
  synthesize(text: string, voiceId: string, options?: SynthesizeOptions): Promise<SpeechAudio>;
}

/** Speech to text. */
export interface Transcriber {
  readonly name: "workers-ai" | "openai";
  /**
   * The words spoken in `audio` (a file as a browser's MediaRecorder makes it:
   * WebM/Opus, Ogg/Opus, MP4/AAC, WAV), trimmed; "" for silence.
   *
   * @throws SpeechError when the engine fails or refuses; the abort error when `signal` aborted.
   */
  transcribe(audio: Uint8Array, contentType: string, options?: SynthesizeOptions): Promise<string>;
}

/** A speech engine refused or failed. The message is for logs, not people. */
export class SpeechError extends Error {
  override readonly name = "SpeechError";
  /** HTTP status of the provider's answer, when there was one. */
  readonly status?: number;

  constructor(message: string, status?: number) {
    super(message);
    this.status = status;
  }
}
