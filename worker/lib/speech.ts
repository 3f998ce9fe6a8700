/**
 * A chat reply read aloud (DESIGN.md "Voices"): its cache key, and the
 * audio — from R2 when this voice already read these words, else made by
 * the deployment's synthesizer, streamed to the listener and stored in R2
 * as it streams.
 *
 * The key, which is also the ETag, is the SHA-256 of the provider, model,
 * voice id and spoken text: an edit, a swipe or another voice is another
 * key. A reply's audio is stored under its conversation and message
 * (durable-objects/room/speech-audio.ts `speechObjectKey`), so the room
 * deletes it when the message's words change or go; a voice preview under
 * `speech/{key}`. The `/objects/*` route serves avatar keys only.
 *
 * Nothing holds a reply's whole audio: pieces are spoken one at a time
 * (ai/speech/synthesizers.ts `startSpeech`), sent as they come, and
 * written to R2 as a multipart upload in parts of 5 MiB (R2's least part
 * size) — at most two parts in memory, the first kept until the end so a
 * WAV's header can be given its true sizes. Only a complete file is
 * stored; a listener who goes away leaves nothing behind.
 */
import { type AudioCaps, wavSizesPatched } from "../../ai/speech/capped-audio.ts";
import { SPEECH_CAPS, type SpeechAudio } from "../../ai/speech/speech.ts";
import { createSpeechSynthesizer, speakWhole, speechProviderName, startSpeech, type SpeechEnv } from "../../ai/speech/synthesizers.ts";

/** A reply's audio: its bytes (or stream) and type. */
export interface ReplyAudio {
  body: ReadableStream | Uint8Array<ArrayBuffer>;
  contentType: string;
  /** Bytes; null while it is still being made (streamed). */
  size: number | null;
}

/** What was made for one request, told when its stream ends (completed, failed or abandoned). */
export interface MadeSpeech {
  /** Audio given out, ms. */
  durationMs: number;
  /** Bytes given out. */
  bytes: number;
  /** The whole file was stored in R2. */
  stored: boolean;
  /** A cap (duration or size) ended the audio before the words did. */
  capped: boolean;
}

/** Hex SHA-256 of what the audio depends on: provider, model, voice and spoken words. */
export async function speechKey(env: SpeechEnv, voiceId: string, text: string): Promise<string> {
  const what = [speechProviderName(env), env.SPEECH_MODEL ?? "", voiceId, text].join("\n");
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(what));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The R2 key of a voice preview's audio `key`. */
export const previewObjectKey = (key: string) => `speech/${key}`;

/** The audio stored under `objectKey`, streamed from R2, or null. */
export async function cachedSpeech(bucket: R2Bucket, objectKey: string): Promise<ReplyAudio | null> {
  const object = await bucket.get(objectKey);
  if (!object) return null;
  return { body: object.body, contentType: object.httpMetadata?.contentType ?? "audio/wav", size: object.size };
}

/**
 * Speaks a short `text` (a voice preview) whole in `voiceId` and stores it
 * under `objectKey`.
 *
 * @throws SpeechError when the engine fails.
 */
export async function makeSpeech(env: Env, objectKey: string, voiceId: string, text: string, signal?: AbortSignal): Promise<ReplyAudio> {
  const synthesizer = await createSpeechSynthesizer(env);
  const audio = await speakWhole(synthesizer, text, voiceId, { signal });
  await env.AVATARS.put(objectKey, audio.bytes, { httpMetadata: { contentType: audio.contentType } });
  return { body: new Uint8Array(audio.bytes), contentType: audio.contentType, size: audio.bytes.length };
}

/** R2 asks every part of a multipart upload but the last to be the same size, at least 5 MiB. */
const PART_BYTES = 5 * 1024 * 1024;

/**
 * An R2 object written as its bytes come (see the module comment). `write`
 * in order, then `finish` (or `abort`). A file smaller than one part is one
 * plain `put`.
 */
class AudioUpload {
  private readonly bucket: R2Bucket;
  private readonly key: string;
  private readonly contentType: string;
  /** Part 1, kept until `finish` (a WAV's header is patched in it). */
  private first: Uint8Array | null = null;
  private buffer: Uint8Array[] = [];
  private buffered = 0;
  private total = 0;
  private upload: R2MultipartUpload | null = null;
  private readonly parts: R2UploadedPart[] = [];

  constructor(bucket: R2Bucket, key: string, contentType: string) {
    this.bucket = bucket;
    this.key = key;
    this.contentType = contentType;
  }

  /** @throws what R2 throws. */
  async write(bytes: Uint8Array): Promise<void> {
    this.buffer.push(bytes);
    this.buffered += bytes.length;
    this.total += bytes.length;
    while (this.buffered >= PART_BYTES) {
      const part = this.take(PART_BYTES);
      if (!this.first) this.first = part;
      else this.parts.push(await (await this.started()).uploadPart(this.parts.length + 2, part));
    }
  }

  /**
   * Stores the file: what is left as the last part, then part 1 with its
   * WAV sizes made true (`wav`). @throws what R2 throws.
   */
  async finish(wav: boolean): Promise<void> {
    const rest = this.take(this.buffered);
    const head = this.first ?? rest;
    if (wav && head.length >= 44) wavSizesPatched(head, this.total);
    if (!this.first) {
      await this.bucket.put(this.key, rest, { httpMetadata: { contentType: this.contentType } });
      return;
    }
    const upload = await this.started();
    if (rest.length > 0) this.parts.push(await upload.uploadPart(this.parts.length + 2, rest));
    this.parts.push(await upload.uploadPart(1, this.first));
    await upload.complete(this.parts.sort((a, b) => a.partNumber - b.partNumber));
  }

  /** Nothing is stored. Never throws. */
  async abort(): Promise<void> {
    this.buffer = [];
    this.first = null;
    await this.upload?.abort().catch(() => {});
  }

  private async started(): Promise<R2MultipartUpload> {
    this.upload ??= await this.bucket.createMultipartUpload(this.key, { httpMetadata: { contentType: this.contentType } });
    return this.upload;
  }

  /** The first `count` buffered bytes, as a copy (what was sent to the listener is never changed). */
  private take(count: number): Uint8Array<ArrayBuffer> {
    const out = new Uint8Array(count);
    let at = 0;
    while (at < count) {
      const head = this.buffer[0]!;
      const used = Math.min(head.length, count - at);
      out.set(head.subarray(0, used), at);
      at += used;
      if (used === head.length) this.buffer.shift();
      else this.buffer[0] = head.subarray(used);
    }
    this.buffered -= count;
    return out;
  }
}

/**
 * Starts speaking `text` in `voiceId` within `caps` and answers the audio
 * as a stream, stored under `objectKey` as it goes (see the module
 * comment). The first piece is spoken before this returns, so an engine
 * that fails throws here, before any byte is sent. `onEnd` is told once
 * what was made: when the stream ends, fails or the listener cancels.
 *
 * @throws SpeechError when the engine fails on the first piece; the abort error when `signal` aborted.
 */
export async function streamSpeech(
  env: Env,
  objectKey: string,
  voiceId: string,
  text: string,
  options: { signal?: AbortSignal; caps?: AudioCaps; onEnd: (made: MadeSpeech) => void },
): Promise<ReplyAudio & { body: ReadableStream<Uint8Array> }> {
  const synthesizer = await createSpeechSynthesizer(env);
  const speech = await startSpeech(synthesizer, text, voiceId, options.caps ?? SPEECH_CAPS, { signal: options.signal });
  const { audio } = speech;
  const upload = new AudioUpload(env.AVATARS, objectKey, audio.contentType);
  let ended = false;
  const end = (stored: boolean) => {
    if (ended) return;
    ended = true;
    options.onEnd({ durationMs: audio.durationMs, bytes: audio.bytes, stored, capped: audio.full });
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const parts = await speech.next();
        if (!parts) {
          await upload.finish(audio.contentType === "audio/wav");
          end(true);
          controller.close();
          return;
        }
        for (const part of parts) {
          await upload.write(part);
          // A copy: the runtime may take over what it is given, and the upload still reads `part`.
          controller.enqueue(part.slice());
        }
      } catch (error) {
        await upload.abort();
        end(false);
        controller.error(error);
      }
    },
    async cancel() {
      await upload.abort();
      end(false);
    },
  });
  return { body, contentType: audio.contentType satisfies SpeechAudio["contentType"], size: null };
}
