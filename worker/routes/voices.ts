/**
 * `GET /api/voices` (DESIGN.md "Voices"): the voices this deployment offers,
 * `[{id, name, language, provider}]`, the default first. Open to visitors
 * (the character page may preview a voice in a later turn; the list is no
 * secret).
 *
 * The answer also says whether speech to text is available, in the header
 * `Fabled-Transcription: available | unavailable`: the composer shows its
 * microphone button only where it is, and the body keeps the contract's
 * exact shape.
 */
import { Hono } from "hono";
import { createTranscriber } from "../../ai/speech/transcribers.ts";
import type { AppEnv } from "../env.ts";
import { deploymentVoices } from "../lib/voices.ts";

export const TRANSCRIPTION_HEADER = "Fabled-Transcription";

export const voicesRoutes = new Hono<AppEnv>().get("/", (c) => {
  c.header(TRANSCRIPTION_HEADER, createTranscriber(c.env) ? "available" : "unavailable");
  c.header("Cache-Control", "public, max-age=300");
  return c.json(deploymentVoices(c.env), 200);
});
