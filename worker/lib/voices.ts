/**
 * The voices of this deployment (DESIGN.md "Voices"): the list of
 * `GET /api/voices`, a character's voice checked against it, and the voice a
 * reply is read in.
 */
import { speechVoices } from "../../ai/speech/synthesizers.ts";
import type { Voice } from "../../ai/speech/speech.ts";
import { validationFailed } from "./errors.ts";

export const UNKNOWN_VOICE = "Unknown voice: pick one of this site's voices";

/** The voices offered, the default first (GET /api/voices). */
export function deploymentVoices(env: Env): Voice[] {
  return speechVoices(env);
}

/**
 * Throws 400 `validation_failed` (issue at `path`) when `voice` is neither
 * null nor one of this deployment's voice ids.
 */
export function assertKnownVoice(env: Env, voice: string | null | undefined, path = "voice"): void {
  if (voice === null || voice === undefined) return;
  if (!deploymentVoices(env).some((candidate) => candidate.id === voice)) {
    throw validationFailed({ issues: [{ path: [path], message: UNKNOWN_VOICE }] });
  }
}

/** `voice` when this deployment offers it, else its default (a character's voice from another configuration reads in the default). */
export function voiceOrDefault(env: Env, voice: string | null): Voice {
  const voices = deploymentVoices(env);
  return voices.find((candidate) => candidate.id === voice) ?? voices[0]!;
}
