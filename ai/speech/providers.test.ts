/**
 * The hosted speech providers against the outside world's stand-ins: the
 * OpenAI-compatible synthesizer and transcriber against the loopback server
 * of worker/test/openai-server.ts, the Workers AI ones against a stub of the
 * `AI` binding; the provider choice by configuration; a long text spoken
 * whole; what of a reply is spoken.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { AiRunner } from "../endpoints.ts";
import { SpeechError, type SpeechAudio, type SpeechSynthesizer } from "./speech.ts";
import { spokenText, speechChunks } from "./spoken-text.ts";
import { OpenAISpeechSynthesizer, speakWhole, speechProviderName, speechVoices, WorkersAISpeechSynthesizer } from "./synthesizers.ts";
import { createTranscriber, OpenAITranscriber, WorkersAITranscriber } from "./transcribers.ts";
import { readWav, wavDurationMs, writeWav } from "./wav.ts";

const endpoint = () => ({ baseUrl: env.OPENAI_BASE_URL, apiKey: env.OPENAI_API_KEY });

/** A stub of the AI binding that records its calls and answers `answer(model, inputs)`. */
function stubAi(answer: (model: string, inputs: Record<string, unknown>) => unknown) {
  const calls: { model: string; inputs: Record<string, unknown>; options?: Record<string, unknown> }[] = [];
  const ai: AiRunner = {
    async run(model, inputs, options) {
      calls.push({ model, inputs, options });
      return answer(model, inputs);
    },
  };
  return { ai, calls };
}

describe("OpenAI-compatible synthesizer", () => {
  it("POSTs {model, input, voice, response_format: mp3} to /audio/speech and answers the MP3", async () => {
    const synthesizer = new OpenAISpeechSynthesizer(endpoint(), "tts-test");
    const audio = await synthesizer.synthesize("Hello there.", "openai-nova");
    expect(audio.contentType).toBe("audio/mpeg");
    const text = new TextDecoder().decode(audio.bytes);
    expect(text.slice(0, 3)).toBe("ID3");
    expect(JSON.parse(text.slice(3))).toEqual({ model: "tts-test", input: "Hello there.", voice: "nova", response_format: "mp3" });
  });

  it("a failing endpoint and an unknown voice are SpeechErrors", async () => {
    const failing = new OpenAISpeechSynthesizer(endpoint(), "error-500");
    await expect(failing.synthesize("Hello.", "openai-nova")).rejects.toMatchObject({ name: "SpeechError", status: 500 });
    await expect(failing.synthesize("Hello.", "offline-en-us-f")).rejects.toBeInstanceOf(SpeechError);
  });
});

describe("Workers AI synthesizer", () => {
  it("runs Aura 2 with {text, speaker, encoding: mp3} and answers the raw response's bytes", async () => {
    const { ai, calls } = stubAi(() => new Response(new Uint8Array([0xff, 0xf3, 1, 2]), { headers: { "content-type": "audio/mpeg" } }));
    const audio = await new WorkersAISpeechSynthesizer(ai, "@cf/deepgram/aura-2-en").synthesize("Good evening.", "workers-ai-luna");
    expect(audio).toEqual({ bytes: new Uint8Array([0xff, 0xf3, 1, 2]), contentType: "audio/mpeg" });
    expect(calls).toEqual([
      { model: "@cf/deepgram/aura-2-en", inputs: { text: "Good evening.", speaker: "luna", encoding: "mp3" }, options: { returnRawResponse: true } },
    ]);
  });

  it("a binding failure or an error response is a SpeechError", async () => {
    const throwing = stubAi(() => {
      throw new Error("3040: capacity");
    });
    await expect(new WorkersAISpeechSynthesizer(throwing.ai, "m").synthesize("Hi.", "workers-ai-luna")).rejects.toThrow(/Workers AI m: Error: 3040/);
    const refusing = stubAi(() => new Response("bad", { status: 400 }));
    await expect(new WorkersAISpeechSynthesizer(refusing.ai, "m").synthesize("Hi.", "workers-ai-luna")).rejects.toMatchObject({ status: 400 });
  });
});

describe("transcribers", () => {
  it("OpenAI-compatible: multipart file + model to /audio/transcriptions, the text trimmed", async () => {
    const text = await new OpenAITranscriber(endpoint(), "whisper-test").transcribe(new Uint8Array(7), "audio/ogg");
    expect(text).toBe("Heard 7 bytes of speech.ogg (audio/ogg) with whisper-test.");
    await expect(new OpenAITranscriber(endpoint(), "error-500").transcribe(new Uint8Array(7), "audio/ogg")).rejects.toMatchObject({ status: 500 });
  });

  it("Workers AI: Whisper with the audio base64-encoded, the text trimmed", async () => {
    const { ai, calls } = stubAi(() => ({ text: "  Hello world. ", word_count: 2 }));
    const text = await new WorkersAITranscriber(ai, "@cf/openai/whisper-large-v3-turbo").transcribe(new Uint8Array([104, 105]), "audio/webm");
    expect(text).toBe("Hello world.");
    expect(calls[0]).toMatchObject({ model: "@cf/openai/whisper-large-v3-turbo", inputs: { audio: btoa("hi"), task: "transcribe" } });
    const silent = stubAi(() => ({ nothing: true }));
    await expect(new WorkersAITranscriber(silent.ai, "m").transcribe(new Uint8Array(1), "audio/webm")).rejects.toBeInstanceOf(SpeechError);
  });

  it("are chosen by TRANSCRIPTION_PROVIDER; empty, unknown or unconfigured is none", () => {
    expect(createTranscriber({ TRANSCRIPTION_PROVIDER: "" })).toBeNull();
    expect(createTranscriber({ TRANSCRIPTION_PROVIDER: "whisper.cpp", OPENAI_BASE_URL: "http://x" })).toBeNull();
    expect(createTranscriber({ TRANSCRIPTION_PROVIDER: "workers-ai" })).toBeNull();
    expect(createTranscriber({ TRANSCRIPTION_PROVIDER: "openai", OPENAI_BASE_URL: "http://x" })?.name).toBe("openai");
    expect(createTranscriber({ TRANSCRIPTION_PROVIDER: "workers-ai", AI: {} })?.name).toBe("workers-ai");
  });
});

describe("choosing a synthesizer", () => {
  it("follows SPEECH_PROVIDER; without its binding or base URL, offline; every configuration offers two voices or more", () => {
    expect(speechProviderName({ SPEECH_PROVIDER: "workers-ai", AI: {} })).toBe("workers-ai");
    expect(speechProviderName({ SPEECH_PROVIDER: "workers-ai" })).toBe("offline");
    expect(speechProviderName({ SPEECH_PROVIDER: "openai", OPENAI_BASE_URL: "http://x" })).toBe("openai");
    expect(speechProviderName({ SPEECH_PROVIDER: "openai" })).toBe("offline");
    expect(speechProviderName({})).toBe("offline");
    for (const config of [{ SPEECH_PROVIDER: "workers-ai", AI: {} }, { SPEECH_PROVIDER: "openai", OPENAI_BASE_URL: "http://x" }, {}]) {
      expect(speechVoices(config).length).toBeGreaterThanOrEqual(2);
    }
  });
});

describe("speaking a long reply whole", () => {
  /** A synthesizer of 100-character pieces answering one second of WAV per piece, recording the pieces. */
  function recordingSynthesizer(contentType: SpeechAudio["contentType"]) {
    const pieces: string[] = [];
    const synthesizer: SpeechSynthesizer = {
      name: "offline",
      maxChars: 100,
      voices: [],
      async synthesize(text) {
        pieces.push(text);
        const bytes = contentType === "audio/wav" ? writeWav({ sampleRate: 8000, channels: 1, bitsPerSample: 16, data: new Uint8Array(16000) }) : new TextEncoder().encode(`[${pieces.length}]`);
        return { bytes, contentType };
      },
    };
    return { synthesizer, pieces };
  }

  const sentences = Array.from({ length: 9 }, (_, i) => `This is sentence number ${i + 1} of the reply.`).join(" ");

  it("cuts at sentences within the engine's limit and joins WAV pieces into one file with pauses", async () => {
    const { synthesizer, pieces } = recordingSynthesizer("audio/wav");
    const audio = await speakWhole(synthesizer, sentences, "v");
    expect(pieces.length).toBe(5);
    expect(pieces.every((piece) => piece.length <= 100 && /\.$/.test(piece))).toBe(true);
    expect(pieces.join(" ")).toBe(sentences);
    // Five seconds of speech and four 250 ms pauses.
    expect(wavDurationMs(readWav(audio.bytes))).toBe(6000);
  });

  it("puts MP3 pieces one after another", async () => {
    const { synthesizer } = recordingSynthesizer("audio/mpeg");
    const audio = await speakWhole(synthesizer, sentences, "v");
    expect(new TextDecoder().decode(audio.bytes)).toBe("[1][2][3][4][5]");
  });

  it("cuts a sentence longer than the limit at commas, then spaces", () => {
    const long = `${"word ".repeat(30).trim()}, and then ${"more ".repeat(20).trim()}.`;
    const chunks = speechChunks(long, 100);
    expect(chunks.every((chunk) => chunk.length <= 100)).toBe(true);
    expect(chunks.join(" ")).toBe(long);
  });
});

describe("what of a reply is spoken", () => {
  it("skips *actions* and markdown marks, reads link words, drops code and images", () => {
    expect(spokenText("*She smiles.* Hello, **traveller**! See [the map](https://x.test/map).")).toBe("Hello, traveller! See the map.");
    expect(spokenText("# Chapter one\n\n- first\n- second\n\n```js\nlet x = 1;\n```\n![a picture](p.png) > end")).toBe("Chapter one.\nfirst.\nsecond.\nend.");
  });

  it("reads the actions when a reply is nothing but actions", () => {
    expect(spokenText("*nods slowly*")).toBe("nods slowly.");
  });

  it("has no words for punctuation and markup alone", () => {
    expect(spokenText("*...*  ---  `")).toBe("");
  });
});
