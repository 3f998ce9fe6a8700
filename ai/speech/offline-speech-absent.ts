/**
 * Stand-in for the eSpeak NG package in a deploy that does not speak
 * offline (scripts/deploy.ts aliases `espeak-ng` and its `.wasm` here when
 * `SPEECH_PROVIDER` is not `offline`): the 18 MB `.wasm` stays out of the
 * uploaded Worker (docs/decisions/0022-voices.md). Should the offline
 * synthesizer be reached anyway (a hosted provider's binding or URL
 * missing), synthesis fails with a SpeechError and the route answers 503.
 */
const absent = async (): Promise<never> => {
  throw new Error("the offline synthesizer is not part of this deploy (SPEECH_PROVIDER is not offline)");
};

export default absent;
