import { describe, expect, it } from "vitest";
import { OfflineSpeechSynthesizer } from "./offline-speech.ts";
import { readWav, wavDurationMs, wavRms } from "./wav.ts";

describe("offline synthesizer (eSpeak NG in the Worker)", () => {
  const synthesizer = new OfflineSpeechSynthesizer();

  it("speaks a sentence as a WAV file of plausible length that is not silence", async () => {
    const text = "The road north is dangerous at night, traveller. Stay by the fire until morning.";
    const audio = await synthesizer.synthesize(text, "offline-en-us-f");
    expect(audio.contentType).toBe("audio/wav");
    const wav = readWav(audio.bytes);
    expect(wav).toMatchObject({ sampleRate: 22050, channels: 1, bitsPerSample: 16 });
    // 14 words at 165 words a minute is ~5 s; eSpeak pauses at commas and full stops.
    const seconds = wavDurationMs(wav) / 1000;
    expect(seconds).toBeGreaterThan(3);
    expect(seconds).toBeLessThan(9);
    expect(wavRms(wav)).toBeGreaterThan(0.02);
  });
});
