/**
 * Stand-in for offline-speech.ts in a deploy that does not speak offline
 * (scripts/deploy.ts aliases `#offline-speech` here when `SPEECH_PROVIDER`
 * is not `offline`): eSpeak NG's 18 MB `.wasm` stays out of the uploaded
 * Worker (docs/decisions/0022-voices.md). Should the offline synthesizer be
 * reached anyway (a hosted provider's binding or URL missing), every
 * synthesis fails with a SpeechError and the route answers 503.
 */
import { offlineVoiceList } from "./offline-voices.ts";
import { SpeechError, type SpeechAudio, type SpeechSynthesizer, type Voice } from "./speech.ts";

export class OfflineSpeechSynthesizer implements SpeechSynthesizer {
  readonly name = "offline" as const;
  readonly maxChars = 1200;
  readonly voices: readonly Voice[] = offlineVoiceList();

  /** @throws SpeechError always. */
  async synthesize(): Promise<SpeechAudio> {
    throw new SpeechError("offline: the offline synthesizer is not part of this deploy (SPEECH_PROVIDER is not offline)");
  }
}
