/**
 * A chat reply read aloud (DESIGN.md "Voices"): the words spoken
 * (ai/speech/spoken-text.ts), their cache key, and the audio — from R2 when
 * this voice already read these words, else made by the deployment's
 * synthesizer and stored.
 *
 * Audio is stored in the AVATARS bucket under `speech/<sha256>` (the
 * `/objects/*` route serves avatar keys only). The key, which is also the
 * ETag, is the SHA-256 of the provider, model, voice id and spoken text:
 * the same words in the same voice are made once, for everyone; an edit, a
 * swipe or another voice is another key.
 */
import { createSpeechSynthesizer, speakWhole, type SpeechEnv } from "../../ai/speech/synthesizers.ts";
import { speechProviderName } from "../../ai/speech/synthesizers.ts";

/** A reply's audio: its bytes (or stream) and type. */
export interface ReplyAudio {
  body: ReadableStream | Uint8Array<ArrayBuffer>;
  contentType: string;
  /** Bytes. */
  size: number;
}

/** Hex SHA-256 of what the audio depends on: provider, model, voice and spoken words. */
export async function speechKey(env: SpeechEnv, voiceId: string, text: string): Promise<string> {
  const what = [speechProviderName(env), env.SPEECH_MODEL ?? "", voiceId, text].join("\n");
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(what));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

const objectKey = (key: string) => `speech/${key}`;

/** The stored audio of `key`, or null. */
export async function cachedSpeech(bucket: R2Bucket, key: string): Promise<ReplyAudio | null> {
  const object = await bucket.get(objectKey(key));
  if (!object) return null;
  return { body: object.body, contentType: object.httpMetadata?.contentType ?? "audio/wav", size: object.size };
}

/**
 * Speaks `text` in `voiceId` with this deployment's synthesizer and stores
 * the audio under `key`.
 *
 * @throws SpeechError when the engine fails.
 */
export async function makeSpeech(env: Env, key: string, voiceId: string, text: string, signal?: AbortSignal): Promise<ReplyAudio> {
  const synthesizer = await createSpeechSynthesizer(env);
  const audio = await speakWhole(synthesizer, text, voiceId, { signal });
  await env.AVATARS.put(objectKey(key), audio.bytes, { httpMetadata: { contentType: audio.contentType } });
  return { body: new Uint8Array(audio.bytes), contentType: audio.contentType, size: audio.bytes.length };
}
