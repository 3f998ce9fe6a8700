/**
 * The offline synthesizer: eSpeak NG compiled to WebAssembly (npm
 * `espeak-ng`, GPL-3.0-or-later), run inside the Worker with no network and
 * no downloaded weights (docs/decisions/0022-voices.md). Real, intelligible
 * (if robotic) speech for development, tests and deployments without a
 * hosted speech model.
 *
 * The package is a build of the `espeak-ng` command line with its voice data
 * embedded in the `.wasm` (18 MB). Workers may not compile WebAssembly from
 * bytes, so the `.wasm` is imported (Wrangler and @cloudflare/vitest-plugin
 * hand over a compiled `WebAssembly.Module`) and given to the Emscripten
 * loader through `instantiateWasm`. Each `synthesize` runs the command line
 * once in a fresh instance (`-w /out.wav`, the text read from a file so that
 * no word is taken for an option) and reads the WAV it wrote: 22,050 Hz,
 * mono, 16-bit PCM.
 */
import ESpeakNg from "espeak-ng";
import espeakWasm from "espeak-ng/dist/espeak-ng.wasm";
import { OFFLINE_VOICES, offlineVoiceList } from "./offline-voices.ts";
import { SpeechError, type SpeechAudio, type SpeechSynthesizer, type Voice } from "./speech.ts";

/** Longest text one run speaks, characters: a few paragraphs keep one run well under a second. */
const OFFLINE_MAX_CHARS = 1200;

/**
 * Starts the Emscripten factory as if on a web page. The build knows the web
 * and Node only: workerd has neither `window` nor (under `nodejs_compat`) a
 * Node it can use — the loader would take its Node path (`createRequire`,
 * `fs` reads of the `.wasm`) or refuse the unknown "shell". The environment
 * is decided synchronously when the factory starts, so `window` is lent and
 * `process` hidden for that call only; the web path then reads nothing
 * itself (the `.wasm` comes through `instantiateWasm`).
 */
function startAsWebPage<T>(start: () => T): T {
  const process = Object.getOwnPropertyDescriptor(globalThis, "process");
  const window = Object.getOwnPropertyDescriptor(globalThis, "window");
  if (process && !process.configurable) throw new SpeechError("offline: cannot start eSpeak NG here (process is not configurable)");
  Object.defineProperty(globalThis, "process", { value: undefined, configurable: true, writable: true });
  Object.defineProperty(globalThis, "window", { value: globalThis, configurable: true, writable: true });
  try {
    return start();
  } finally {
    if (process) Object.defineProperty(globalThis, "process", process);
    else delete (globalThis as { process?: unknown }).process;
    if (window) Object.defineProperty(globalThis, "window", window);
    else delete (globalThis as { window?: unknown }).window;
  }
}

export class OfflineSpeechSynthesizer implements SpeechSynthesizer {
  readonly name = "offline" as const;
  readonly maxChars = OFFLINE_MAX_CHARS;
  readonly voices: readonly Voice[] = offlineVoiceList();

  /**
   * @throws SpeechError for an unknown voice, text longer than `maxChars`, or
   *   when eSpeak NG wrote no audio (its messages in the error).
   */
  async synthesize(text: string, voiceId: string): Promise<SpeechAudio> {
    const voice = OFFLINE_VOICES.find((candidate) => candidate.id === voiceId);
    if (!voice) throw new SpeechError(`offline: unknown voice ${voiceId}`);
    if (text.length > this.maxChars) throw new SpeechError(`offline: ${text.length} characters (at most ${this.maxChars})`);
    const messages: string[] = [];
    const args = ["-v", voice.espeakVoice, "-p", String(voice.pitch), "-s", String(voice.wordsPerMinute), "-w", "/out.wav", "-f", "/in.txt"];
    let engine;
    try {
      engine = await startAsWebPage(() =>
        ESpeakNg({
          arguments: args,
          preRun: [(module) => module.FS.writeFile("/in.txt", text)],
          // Never fetched (instantiateWasm hands over the module); without it the loader resolves
          // the file against import.meta.url, which a Wrangler bundle does not have.
          locateFile: (path) => path,
          instantiateWasm: (imports, receive) => {
            void WebAssembly.instantiate(espeakWasm, imports).then((instance) => receive(instance, espeakWasm));
            return {};
          },
          print: (line) => messages.push(line),
          printErr: (line) => messages.push(line),
        }),
      );
    } catch (error) {
      throw new SpeechError(`offline: eSpeak NG failed: ${String(error).slice(0, 300)} ${messages.join(" | ")}`);
    }
    let bytes: Uint8Array;
    try {
      bytes = engine.FS.readFile("/out.wav");
    } catch {
      throw new SpeechError(`offline: eSpeak NG wrote no audio: ${messages.join(" | ").slice(0, 300)}`);
    }
    return { bytes: new Uint8Array(bytes), contentType: "audio/wav" };
  }
}
