/**
 * One audio file made of a reply's pieces, given out as it grows and cut at
 * a duration and a size (DESIGN.md "Voices": at most 5 minutes and 16 MB).
 * A synthesizer speaks a long reply in pieces (spoken-text.ts
 * `speechChunks`); each piece's bytes are added here in order and come out
 * as the bytes to send next, so a listener hears the first piece while the
 * next one is made and nothing holds the whole file.
 *
 * - WAV (PCM): one header first — its sizes say "until the end of the
 *   stream" (0x7fffffff, as eSpeak NG writes when it streams; readers take
 *   the data to the end of the file), since the length is not known when it
 *   is sent; `wavSizesPatched` writes the true sizes into a stored copy's
 *   header — then each piece's samples, with 250 ms of silence between
 *   pieces. A cut falls on a sample frame.
 * - MP3: the pieces' frames one after another (an MP3 stream is a sequence
 *   of independent frames, so players read the joined file whole). Duration
 *   is counted from the frame headers (ISO/IEC 11172-3 and 13818-3, Layer
 *   III: samples per frame, bit rate and sample rate tables); a cut falls
 *   between frames. Bytes that are not frames (an ID3 tag) pass unchanged
 *   and count only as bytes.
 * - Anything else (Ogg): passed through, cut by size only.
 */
import { SpeechError, type SpeechAudio } from "./speech.ts";
import { readWav, type Wav } from "./wav.ts";

/** How long and large the audio may grow. */
export interface AudioCaps {
  /** Duration, ms. */
  maxMs: number;
  /** Size of the whole file, bytes. */
  maxBytes: number;
}

/** Silence between two pieces of a WAV, ms (a breath between sentences cut apart). */
export const PIECE_GAP_MS = 250;

/** The size fields of a WAV whose length is not known yet (eSpeak NG's streaming value). */
const STREAMING_SIZE = 0x7fffffff;

/** A 44-byte PCM WAV header for `format`, its sizes `dataBytes` (or "to the end"). */
function wavHeader(format: Omit<Wav, "data">, dataBytes = STREAMING_SIZE): Uint8Array {
  const header = new Uint8Array(44);
  const view = new DataView(header.buffer);
  const text = (at: number, value: string) => [...value].forEach((char, i) => (header[at + i] = char.charCodeAt(0)));
  const blockAlign = (format.channels * format.bitsPerSample) / 8;
  text(0, "RIFF");
  view.setUint32(4, dataBytes === STREAMING_SIZE ? STREAMING_SIZE : 36 + dataBytes, true);
  text(8, "WAVE");
  text(12, "fmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, format.channels, true);
  view.setUint32(24, format.sampleRate, true);
  view.setUint32(28, format.sampleRate * blockAlign, true);
  view.setUint16(32, blockAlign, true);
  view.setUint16(34, format.bitsPerSample, true);
  text(36, "data");
  view.setUint32(40, dataBytes, true);
  return header;
}

/**
 * Writes the true sizes into the header at the start of `start` (the first
 * bytes of a WAV made by CappedAudio, at least 44) for a file of
 * `totalBytes`: a stored copy then says its length.
 */
export function wavSizesPatched(start: Uint8Array, totalBytes: number): void {
  const view = new DataView(start.buffer, start.byteOffset, start.byteLength);
  view.setUint32(4, totalBytes - 8, true);
  view.setUint32(40, totalBytes - 44, true);
}

const MP3_BITRATES_V1 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const MP3_BITRATES_V2 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const MP3_SAMPLE_RATES: Record<number, number[]> = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] };

/** The Layer III frame whose header starts at `at`: its length in bytes and duration in ms; null when none starts there. */
export function mp3Frame(bytes: Uint8Array, at: number): { bytes: number; ms: number } | null {
  if (at + 4 > bytes.length || bytes[at] !== 0xff || (bytes[at + 1]! & 0xe0) !== 0xe0) return null;
  const version = (bytes[at + 1]! >> 3) & 3; // 3: MPEG-1, 2: MPEG-2, 0: MPEG-2.5
  const layer = (bytes[at + 1]! >> 1) & 3; // 1: Layer III
  const bitrateIndex = bytes[at + 2]! >> 4;
  const rateIndex = (bytes[at + 2]! >> 2) & 3;
  const padding = (bytes[at + 2]! >> 1) & 1;
  if (version === 1 || layer !== 1 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return null;
  const kbps = (version === 3 ? MP3_BITRATES_V1 : MP3_BITRATES_V2)[bitrateIndex]!;
  const sampleRate = MP3_SAMPLE_RATES[version]![rateIndex]!;
  const samples = version === 3 ? 1152 : 576;
  const length = Math.floor(((samples / 8) * kbps * 1000) / sampleRate) + padding;
  return { bytes: length, ms: (samples / sampleRate) * 1000 };
}

/**
 * Builds one capped file from pieces (see the module comment). `add` each
 * piece in order and send what it returns; once `full`, a cap was reached
 * and further pieces are not wanted.
 */
export class CappedAudio {
  readonly contentType: SpeechAudio["contentType"];
  /** Duration given out so far, ms (0 for a type whose duration is not read). */
  durationMs = 0;
  /** Bytes given out so far. */
  bytes = 0;
  /** A cap was reached: the audio ends here. */
  full = false;
  private readonly caps: AudioCaps;
  private format: Omit<Wav, "data"> | null = null;

  constructor(contentType: SpeechAudio["contentType"], caps: AudioCaps) {
    this.contentType = contentType;
    this.caps = caps;
  }

  /**
   * The bytes to send for the next piece, cut at the caps.
   *
   * @throws SpeechError when the piece's type or WAV format differs from the first piece's, or a WAV piece cannot be read.
   */
  add(piece: SpeechAudio): Uint8Array[] {
    if (this.full) return [];
    if (piece.contentType !== this.contentType) throw new SpeechError(`a piece of ${piece.contentType} in ${this.contentType}`);
    const out =
      this.contentType === "audio/wav" ? this.addWav(piece.bytes) : this.contentType === "audio/mpeg" ? this.addMp3(piece.bytes) : this.addBytes(piece.bytes);
    for (const part of out) this.bytes += part.length;
    return out.filter((part) => part.length > 0);
  }

  private addWav(bytes: Uint8Array): Uint8Array[] {
    let wav: Wav;
    try {
      wav = readWav(bytes);
    } catch (error) {
      throw new SpeechError(`unreadable WAV piece: ${String(error)}`);
    }
    const out: Uint8Array[] = [];
    const { sampleRate, channels, bitsPerSample } = wav;
    const blockAlign = (channels * bitsPerSample) / 8;
    if (!this.format) {
      this.format = { sampleRate, channels, bitsPerSample };
      out.push(wavHeader(this.format));
    } else {
      if (sampleRate !== this.format.sampleRate || channels !== this.format.channels || bitsPerSample !== this.format.bitsPerSample) {
        throw new SpeechError("WAV pieces differ in format");
      }
    }
    const msToBytes = (ms: number) => Math.floor((ms * sampleRate) / 1000) * blockAlign;
    const room = () => Math.min(this.caps.maxBytes - this.bytes - sum(out), msToBytes(this.caps.maxMs - this.durationMs));
    const take = (data: Uint8Array) => {
      const allowed = Math.max(0, Math.floor(Math.min(data.length, room()) / blockAlign) * blockAlign);
      if (allowed < data.length) this.full = true;
      this.durationMs += (allowed / blockAlign / sampleRate) * 1000;
      out.push(data.subarray(0, allowed));
    };
    if (this.durationMs > 0) take(new Uint8Array(msToBytes(PIECE_GAP_MS))); // zeros: silence for signed 16-bit PCM
    if (!this.full) take(wav.data);
    return out;
  }

  private addMp3(bytes: Uint8Array): Uint8Array[] {
    let at = 0;
    let end = 0;
    while (at < bytes.length) {
      const frame = mp3Frame(bytes, at);
      const size = Math.min(frame ? frame.bytes : id3Length(bytes, at) || 1, bytes.length - at);
      if (this.bytes + end + size > this.caps.maxBytes || (frame && this.durationMs + frame.ms > this.caps.maxMs)) {
        this.full = true;
        break;
      }
      if (frame) this.durationMs += frame.ms;
      at += size;
      end = at;
    }
    return [bytes.subarray(0, end)];
  }

  private addBytes(bytes: Uint8Array): Uint8Array[] {
    const allowed = Math.max(0, Math.min(bytes.length, this.caps.maxBytes - this.bytes));
    if (allowed < bytes.length) this.full = true;
    return [bytes.subarray(0, allowed)];
  }
}

/** Total length of `parts`, bytes. */
function sum(parts: Uint8Array[]): number {
  return parts.reduce((total, part) => total + part.length, 0);
}

/** Length of the ID3v2 tag starting at `at` (header, syncsafe size, footer), or 0 when none starts there. */
function id3Length(bytes: Uint8Array, at: number): number {
  if (at + 10 > bytes.length || bytes[at] !== 0x49 || bytes[at + 1] !== 0x44 || bytes[at + 2] !== 0x33) return 0;
  const size = ((bytes[at + 6]! & 0x7f) << 21) | ((bytes[at + 7]! & 0x7f) << 14) | ((bytes[at + 8]! & 0x7f) << 7) | (bytes[at + 9]! & 0x7f);
  return 10 + size + (bytes[at + 5]! & 0x10 ? 10 : 0);
}
