/**
 * `POST /api/transcriptions` (DESIGN.md "Voices"): a recording (the body,
 * as the browser's MediaRecorder made it: `audio/webm`, `audio/ogg`,
 * `audio/mp4`, `audio/wav`…) → 200 `{text}`.
 *
 * - 401 visitors; 429 past SPEECH_RATE_LIMITER;
 * - 503 `unavailable` where no speech-to-text provider is configured
 *   (`TRANSCRIPTION_PROVIDER` empty), before the body is read;
 * - 415 for a body that is not audio; 413 over 10 MB;
 * - 400 for a recording longer than 2 minutes, where its length can be read
 *   from the file (WAV); the web app stops recording at 2 minutes for every format.
 */
import { Hono } from "hono";
import { SpeechError } from "../../ai/speech/speech.ts";
import { createTranscriber } from "../../ai/speech/transcribers.ts";
import { readWav, wavDurationMs } from "../../ai/speech/wav.ts";
import type { AppEnv } from "../env.ts";
import { ApiError } from "../lib/errors.ts";
import { readBodyLimited } from "../lib/uploads.ts";
import { countAgainstLimit } from "../middleware/rate-limit.ts";
import { requireUser } from "../middleware/session.ts";

/** Largest recording, bytes. */
export const MAX_TRANSCRIPTION_BYTES = 10 * 1024 * 1024;
/** Longest recording, ms. */
export const MAX_TRANSCRIPTION_MS = 2 * 60 * 1000;

const AUDIO_TYPE = /^(audio\/[\w.+-]+|video\/webm)(\s*;.*)?$/i;

export const transcriptionsRoutes = new Hono<AppEnv>().post("/", requireUser, async (c) => {
  const transcriber = createTranscriber(c.env);
  if (!transcriber) throw new ApiError("unavailable", "Speech to text is not available on this site");
  await countAgainstLimit(c.env, "SPEECH_RATE_LIMITER", c.get("user")!.id);
  const contentType = c.req.header("content-type") ?? "";
  if (!AUDIO_TYPE.test(contentType)) throw new ApiError("unsupported_media_type", "Send the recording as audio (for example audio/webm)");
  const audio = await readBodyLimited(c.req.raw, MAX_TRANSCRIPTION_BYTES, "The recording");
  if (audio.length === 0) throw new ApiError("validation_failed", "The recording is empty");
  if (/wav/i.test(contentType)) {
    let durationMs: number;
    try {
      durationMs = wavDurationMs(readWav(audio));
    } catch {
      throw new ApiError("validation_failed", "The recording is not a WAV file");
    }
    if (durationMs > MAX_TRANSCRIPTION_MS) throw new ApiError("validation_failed", "The recording is longer than 2 minutes");
  }
  try {
    return c.json({ text: await transcriber.transcribe(audio, contentType.split(";")[0]!.trim(), { signal: c.req.raw.signal }) }, 200);
  } catch (error) {
    if (!(error instanceof SpeechError)) throw error;
    console.error("transcription failed", error.message);
    throw new ApiError("unavailable", "The recording could not be turned into text right now. Please try again.");
  }
});
