/**
 * The caps of a reply read aloud (DESIGN.md "Voices": 5 minutes, 16 MB,
 * counted after macros): the words cut at a sentence, the audio cut at its
 * duration (WAV samples, MP3 frames) and size, no piece spoken past a cap,
 * and a whole file's WAV header telling its true length.
 */
import { describe, expect, it } from "vitest";
import { CappedAudio, mp3Frame } from "./capped-audio.ts";
import { SPEECH_CAPS, type SpeechAudio, type SpeechSynthesizer } from "./speech.ts";
import { cutAtSentence } from "./spoken-text.ts";
import { speakWhole, startSpeech } from "./synthesizers.ts";
import { readWav, wavDurationMs, writeWav } from "./wav.ts";

/** A synthesizer of 100-character pieces answering `seconds` of 8 kHz WAV each, counting its calls. */
function wavSynthesizer(seconds: number) {
  let calls = 0;
  const synthesizer: SpeechSynthesizer = {
    name: "offline",
    maxChars: 100,
    voices: [],
    async synthesize() {
      calls += 1;
      return { bytes: writeWav({ sampleRate: 8000, channels: 1, bitsPerSample: 16, data: new Uint8Array(seconds * 16000).fill(1) }), contentType: "audio/wav" };
    },
  };
  return { synthesizer, calls: () => calls };
}

const sentences = (count: number) => Array.from({ length: count }, (_, i) => `This is sentence number ${i + 1} of a very long reply indeed, friend.`).join(" ");

/** Every byte a stream gives out, joined. */
async function drain(speech: Awaited<ReturnType<typeof startSpeech>>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for (let next = await speech.next(); next; next = await speech.next()) parts.push(...next);
  const out = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

describe("the words read", () => {
  it("are cut at the last sentence that fits, else at a space; short text is kept whole", () => {
    expect(cutAtSentence("One. Two.", 100)).toEqual({ text: "One. Two.", cut: false });
    expect(cutAtSentence("First sentence here. Second one! Third sentence is long.", 40)).toEqual({ text: "First sentence here. Second one!", cut: true });
    expect(cutAtSentence("Line one\nLine two goes on and on", 20)).toEqual({ text: "Line one", cut: true });
    const name = "Aurelia Thistlewood ".repeat(300);
    const cut = cutAtSentence(name, SPEECH_CAPS.maxChars);
    expect(cut.cut).toBe(true);
    expect(cut.text.length).toBeLessThanOrEqual(SPEECH_CAPS.maxChars);
    expect(cut.text.endsWith("Thistlewood")).toBe(true);
    expect(cutAtSentence("x".repeat(50), 10)).toEqual({ text: "x".repeat(10), cut: true });
  });
});

describe("a WAV reply", () => {
  it("ends at 5 minutes, and no piece is spoken after the cap", async () => {
    const { synthesizer, calls } = wavSynthesizer(60);
    const speech = await startSpeech(synthesizer, sentences(40), "v", SPEECH_CAPS);
    const bytes = await drain(speech);
    expect(wavDurationMs(readWav(bytes))).toBe(SPEECH_CAPS.maxMs);
    expect(speech.audio.full).toBe(true);
    expect(speech.audio.durationMs).toBe(SPEECH_CAPS.maxMs);
    expect(speech.audio.bytes).toBe(bytes.length);
    // Five minutes of one-minute pieces with pauses between them: the fifth is cut, a sixth never made.
    expect(calls()).toBe(5);
    // Sent before its length is known: the header says "to the end".
    expect(new DataView(bytes.buffer).getUint32(40, true)).toBe(0x7fffffff);
  });

  it("ends at its size cap on a whole sample", async () => {
    const { synthesizer } = wavSynthesizer(2);
    const speech = await startSpeech(synthesizer, sentences(10), "v", { maxMs: SPEECH_CAPS.maxMs, maxBytes: 50_001 });
    const bytes = await drain(speech);
    expect(bytes.length).toBe(50_000);
    expect(speech.audio.full).toBe(true);
  });

  it("spoken whole, says its true length in its header, with 250 ms between pieces", async () => {
    const { synthesizer } = wavSynthesizer(1);
    const audio = await speakWhole(synthesizer, sentences(3), "v");
    const view = new DataView(audio.bytes.buffer);
    expect(view.getUint32(4, true)).toBe(audio.bytes.length - 8);
    expect(view.getUint32(40, true)).toBe(audio.bytes.length - 44);
    expect(wavDurationMs(readWav(audio.bytes))).toBe(3000 + 2 * 250);
  });
});

describe("an MP3 reply", () => {
  /** `count` MPEG-1 Layer III frames of 128 kbit/s at 44.1 kHz (417 bytes, 1,152 samples each), after an ID3v2 tag. */
  function mp3(count: number): SpeechAudio {
    const tag = [0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 6, 1, 2, 3, 4, 5, 6];
    const frame = new Uint8Array(417);
    frame.set([0xff, 0xfb, 0x90, 0x00]);
    const bytes = new Uint8Array(tag.length + count * frame.length);
    bytes.set(tag);
    for (let i = 0; i < count; i++) bytes.set(frame, tag.length + i * frame.length);
    return { bytes, contentType: "audio/mpeg" };
  }

  it("reads frame headers for their length and duration", () => {
    expect(mp3Frame(mp3(1).bytes, 16)).toEqual({ bytes: 417, ms: (1152 / 44100) * 1000 });
    expect(mp3Frame(mp3(1).bytes, 0)).toBeNull();
  });

  it("ends between frames at its duration cap, the tag passed on", () => {
    const audio = new CappedAudio("audio/mpeg", { maxMs: 1000, maxBytes: SPEECH_CAPS.maxBytes });
    const out = audio.add(mp3(100));
    const frames = Math.floor(1000 / ((1152 / 44100) * 1000));
    expect(out).toHaveLength(1);
    expect(out[0]!.length).toBe(16 + frames * 417);
    expect(audio.full).toBe(true);
    expect(audio.durationMs).toBeLessThanOrEqual(1000);
    expect(audio.add(mp3(10))).toEqual([]);
  });

  it("ends between frames at its size cap", () => {
    const audio = new CappedAudio("audio/mpeg", { maxMs: SPEECH_CAPS.maxMs, maxBytes: 2000 });
    expect(audio.add(mp3(10))[0]!.length).toBe(16 + 4 * 417);
    expect(audio.full).toBe(true);
  });
});
