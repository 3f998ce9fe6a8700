/**
 * WAV (RIFF/WAVE, PCM) read and write, for joining the pieces of a long
 * reply into one file (capped-audio.ts) and for checking audio in tests. Format: the
 * Microsoft RIFF/WAVE specification — a `RIFF` header, a `fmt ` chunk
 * (format 1 = PCM), a `data` chunk; all numbers little-endian. Other chunks
 * (`LIST`, …) are skipped.
 */

/** A PCM WAV file's format and samples. */
export interface Wav {
  /** Samples a second, Hz. */
  sampleRate: number;
  channels: number;
  /** 8, 16, 24 or 32. */
  bitsPerSample: number;
  /** The `data` chunk's bytes, interleaved samples. */
  data: Uint8Array;
}

const ascii = (bytes: Uint8Array, at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));

/**
 * Reads a PCM WAV file. eSpeak NG writes 0x7fffffff as the sizes when it
 * streams (it cannot seek back), so the `data` chunk runs to the end of the
 * file whenever its size says more than there is.
 *
 * @throws Error when `bytes` is not a RIFF/WAVE file with PCM `fmt ` and `data` chunks.
 */
export function readWav(bytes: Uint8Array): Wav {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 12 || ascii(bytes, 0) !== "RIFF" || ascii(bytes, 8) !== "WAVE") throw new Error("not a RIFF/WAVE file");
  let format: Omit<Wav, "data"> | null = null;
  let at = 12;
  while (at + 8 <= bytes.length) {
    const id = ascii(bytes, at);
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (id === "fmt ") {
      if (view.getUint16(body, true) !== 1) throw new Error("WAV is not PCM");
      format = { channels: view.getUint16(body + 2, true), sampleRate: view.getUint32(body + 4, true), bitsPerSample: view.getUint16(body + 14, true) };
    } else if (id === "data") {
      if (!format) throw new Error("WAV data before fmt");
      return { ...format, data: bytes.subarray(body, Math.min(bytes.length, body + size)) };
    }
    at = body + size + (size % 2);
  }
  throw new Error("WAV without fmt and data chunks");
}

/** A 44-byte-header PCM WAV file of `wav`'s format and data. */
export function writeWav(wav: Wav): Uint8Array {
  const out = new Uint8Array(44 + wav.data.length);
  const view = new DataView(out.buffer);
  const text = (at: number, value: string) => [...value].forEach((char, i) => (out[at + i] = char.charCodeAt(0)));
  const blockAlign = (wav.channels * wav.bitsPerSample) / 8;
  text(0, "RIFF");
  view.setUint32(4, 36 + wav.data.length, true);
  text(8, "WAVE");
  text(12, "fmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, wav.channels, true);
  view.setUint32(24, wav.sampleRate, true);
  view.setUint32(28, wav.sampleRate * blockAlign, true);
  view.setUint16(32, blockAlign, true);
  view.setUint16(34, wav.bitsPerSample, true);
  text(36, "data");
  view.setUint32(40, wav.data.length, true);
  out.set(wav.data, 44);
  return out;
}

/** Duration of a PCM WAV, ms. */
export function wavDurationMs(wav: Wav): number {
  const blockAlign = (wav.channels * wav.bitsPerSample) / 8;
  return (wav.data.length / blockAlign / wav.sampleRate) * 1000;
}

/** Root mean square of a 16-bit PCM WAV's samples, 0–1 of full scale (silence: 0). */
export function wavRms(wav: Wav): number {
  if (wav.bitsPerSample !== 16) throw new Error("RMS of 16-bit PCM only");
  const view = new DataView(wav.data.buffer, wav.data.byteOffset, wav.data.byteLength);
  const count = Math.floor(wav.data.length / 2);
  let sum = 0;
  for (let i = 0; i < count; i++) {
    const sample = view.getInt16(i * 2, true) / 32768;
    sum += sample * sample;
  }
  return count === 0 ? 0 : Math.sqrt(sum / count);
}
