/**
 * The offline synthesizer's voices (offline-speech.ts): eSpeak NG voices and
 * variants with a pitch and pace each. Apart from the engine so that
 * listing them (GET /api/voices, validating a character's voice) does not
 * load the 18 MB `.wasm`.
 */
import type { Voice } from "./speech.ts";

/** An offline voice: a row of GET /api/voices and the eSpeak NG voice and settings it speaks with. */
export interface OfflineVoice extends Voice {
  /** eSpeak NG `-v` argument: language, `+variant`. */
  espeakVoice: string;
  /** `-p`, 0–99 (eSpeak's default 50). */
  pitch: number;
  /** `-s`, words a minute (eSpeak's default 175). */
  wordsPerMinute: number;
}

export const OFFLINE_VOICES: readonly OfflineVoice[] = [
  { id: "offline-en-us-m", name: "Alder (US English, low)", language: "en-US", espeakVoice: "en-us", pitch: 40, wordsPerMinute: 165 },
  { id: "offline-en-us-f", name: "Juniper (US English, bright)", language: "en-US", espeakVoice: "en-us+f3", pitch: 55, wordsPerMinute: 165 },
  { id: "offline-en-gb-m", name: "Rowan (British English)", language: "en-GB", espeakVoice: "en-gb", pitch: 45, wordsPerMinute: 160 },
  { id: "offline-en-gb-f", name: "Hazel (British English)", language: "en-GB", espeakVoice: "en+f4", pitch: 55, wordsPerMinute: 160 },
  { id: "offline-fr-f", name: "Céleste (French)", language: "fr-FR", espeakVoice: "fr+f2", pitch: 55, wordsPerMinute: 160 },
  { id: "offline-de-m", name: "Bruno (German)", language: "de-DE", espeakVoice: "de", pitch: 45, wordsPerMinute: 160 },
  { id: "offline-es-f", name: "Lucía (Spanish)", language: "es-ES", espeakVoice: "es+f3", pitch: 55, wordsPerMinute: 160 },
].map((voice) => ({ ...voice, provider: "offline" as const }));

/** The offline voices as GET /api/voices lists them. */
export function offlineVoiceList(): Voice[] {
  return OFFLINE_VOICES.map(({ id, name, language, provider }) => ({ id, name, language, provider }));
}
