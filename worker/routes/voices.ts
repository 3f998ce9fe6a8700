/**
 * `GET /api/voices` (DESIGN.md "Voices"): the voices this deployment offers,
 * `[{id, name, language, provider}]`, the default first. Open to visitors
 * (the character page may preview a voice in a later turn; the list is no
 * secret).
 *
 * `GET /api/voices/{id}/preview` (signed-in people: the character form's
 * "Preview" button): a short sample sentence in that voice, made once and
 * kept in R2 like a reply's audio (worker/lib/speech.ts); 404 for a voice
 * this site does not offer.
 *
 * The answer also says whether speech to text is available, in the header
 * `Fabled-Transcription: available | unavailable`: the composer shows its
 * microphone button only where it is, and the body keeps the contract's
 * exact shape.
 */
import { Hono } from "hono";
import { SpeechError } from "../../ai/speech/speech.ts";
import { createTranscriber } from "../../ai/speech/transcribers.ts";
import type { AppEnv } from "../env.ts";
import { ApiError, notFound } from "../lib/errors.ts";
import { cachedSpeech, makeSpeech, previewObjectKey, speechKey } from "../lib/speech.ts";
import { deploymentVoices } from "../lib/voices.ts";
import { countAgainstLimit } from "../middleware/rate-limit.ts";
import { requireUser } from "../middleware/session.ts";

/** What a voice preview says, by the voice's language (its first subtag); English otherwise. */
const PREVIEW_TEXT: Record<string, string> = {
  en: "Hello there! This is how I sound when I read your character's replies aloud.",
  fr: "Bonjour ! Voici ma voix quand je lis à voix haute les réponses de votre personnage.",
  de: "Hallo! So klinge ich, wenn ich die Antworten deiner Figur vorlese.",
  es: "¡Hola! Así sueno cuando leo en voz alta las respuestas de tu personaje.",
};

export const TRANSCRIPTION_HEADER = "Fabled-Transcription";

export const voicesRoutes = new Hono<AppEnv>()
  .get("/", (c) => {
    c.header(TRANSCRIPTION_HEADER, createTranscriber(c.env) ? "available" : "unavailable");
    c.header("Cache-Control", "public, max-age=300");
    return c.json(deploymentVoices(c.env), 200);
  })
  .get("/:id/preview", requireUser, async (c) => {
    const voice = deploymentVoices(c.env).find((candidate) => candidate.id === c.req.param("id"));
    if (!voice) throw notFound("Voice not found");
    const text = PREVIEW_TEXT[voice.language.split("-")[0]!.toLowerCase()] ?? PREVIEW_TEXT.en!;
    const key = await speechKey(c.env, voice.id, text);
    const headers: Record<string, string> = { ETag: `"${key}"`, "Cache-Control": "private, max-age=86400" };
    let audio = await cachedSpeech(c.env.AVATARS, previewObjectKey(key));
    if (!audio) {
      await countAgainstLimit(c.env, "SPEECH_RATE_LIMITER", c.get("user")!.id);
      try {
        audio = await makeSpeech(c.env, previewObjectKey(key), voice.id, text, c.req.raw.signal);
      } catch (error) {
        if (!(error instanceof SpeechError)) throw error;
        console.error("voice preview failed", error.message);
        throw new ApiError("unavailable", "This voice cannot be previewed right now. Please try again.");
      }
    }
    if (audio.size !== null) headers["Content-Length"] = String(audio.size);
    return c.body(audio.body, 200, { ...headers, "Content-Type": audio.contentType });
  });
