/**
 * Character cards in PNG files (DESIGN.md "Character cards"): reading a
 * PNG's chunks and its text chunks (`chara`, `ccv3`: base64 of the card's
 * UTF-8 JSON), the avatar picture of a card PNG without its text chunks,
 * and writing a card PNG (the avatar, or a generated picture, with the V2
 * and V3 cards). Chunks are read and written with the libraries SillyTavern
 * uses (png-chunks-extract, png-chunks-encode, png-chunk-text).
 */
import encodeChunks from "png-chunks-encode";
import extractChunks from "png-chunks-extract";
import { decode as decodeText, encode as encodeText } from "png-chunk-text";
import type { ExportedCard } from "./card-export.ts";
import { cardError, parseJsonBytes } from "./card-fields.ts";

export type PngChunk = { name: string; data: Uint8Array };

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
export const isPng = (bytes: Uint8Array) => PNG_SIGNATURE.every((b, i) => bytes[i] === b);

/** Base64 of bytes (btoa works on binary strings; built in slices to stay within argument limits). */
function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Bytes of strict base64 (whitespace ignored); throws on anything else. */
export function fromBase64(text: string): Uint8Array {
  const binary = atob(text.replace(/\s+/g, ""));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

const TEXT_CHUNKS = new Set(["tEXt", "zTXt", "iTXt"]);

/** The keyword of a tEXt/zTXt/iTXt chunk (Latin-1, 1–79 bytes before a NUL), or null. */
export function textKeyword(chunk: PngChunk): string | null {
  if (!TEXT_CHUNKS.has(chunk.name)) return null;
  const end = chunk.data.subarray(0, 80).indexOf(0);
  return end > 0 ? String.fromCharCode(...chunk.data.subarray(0, end)) : null;
}

export function readChunks(bytes: Uint8Array): PngChunk[] {
  if (!isPng(bytes)) throw cardError("This file is not a PNG image");
  try {
    return extractChunks(bytes);
  } catch {
    throw cardError("This PNG file is damaged or incomplete");
  }
}

/**
 * png-chunks-encode copies each chunk into a plain array for its CRC, which
 * is fast only up to about 1 KiB per chunk (V8 keeps such arrays packed);
 * image data is therefore re-split into IDAT chunks of this size, which
 * decoders read as one stream (PNG spec §10.1). ~1.2 % overhead.
 */
const IDAT_CHUNK_BYTES = 1024;
/** Largest ancillary chunk kept in an avatar, bytes; larger ones (never needed to show the image) are dropped. */
const MAX_ANCILLARY_BYTES = 64 * 1024;

/**
 * The image chunks of a PNG: text chunks (tEXt/zTXt/iTXt: card data and
 * other metadata), eXIf (may locate the author) and oversized ancillary
 * chunks dropped; IDAT re-split (IDAT_CHUNK_BYTES).
 */
function imageChunks(chunks: PngChunk[]): PngChunk[] {
  const kept: PngChunk[] = [];
  for (const chunk of chunks) {
    if (TEXT_CHUNKS.has(chunk.name) || chunk.name === "eXIf") continue;
    const ancillary = chunk.name.charCodeAt(0) >= 0x61; // lower-case first letter (PNG spec §5.4)
    if (ancillary && chunk.data.length > MAX_ANCILLARY_BYTES) continue;
    if (chunk.name === "IDAT" && chunk.data.length > IDAT_CHUNK_BYTES) {
      for (let i = 0; i < chunk.data.length; i += IDAT_CHUNK_BYTES) {
        kept.push({ name: "IDAT", data: chunk.data.subarray(i, i + IDAT_CHUNK_BYTES) });
      }
    } else {
      kept.push(chunk);
    }
  }
  return kept;
}

/**
 * The picture of a card PNG, for the avatar: the same image without its card
 * and other text chunks (they would leak stale card text and can be
 * megabytes — RisuAI's `risuai` chunk). Throws 400 for a damaged PNG.
 */
export function avatarFromCardPng(bytes: Uint8Array): Uint8Array {
  return encodeChunks(imageChunks(readChunks(bytes)));
}

async function deflate(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream("deflate"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Size of the generated card picture, pixels per side. */
const GENERATED_SIZE = 256;

/**
 * A small generated picture for characters without a PNG avatar: a vertical
 * gradient in a hue taken from the name (256×256 RGB, 8 bit; IDAT is a zlib
 * stream, which is what CompressionStream("deflate") writes).
 */
async function generatedImageChunks(name: string): Promise<PngChunk[]> {
  let hash = 0;
  for (const ch of name) hash = (hash * 31 + ch.codePointAt(0)!) >>> 0;
  const hue = hash % 360;
  const rgb = (lightness: number): [number, number, number] => {
    // HSL → RGB with saturation 0.55 (CSS Color 4, "hsl-to-rgb").
    const s = 0.55;
    const k = (n: number) => (n + hue / 30) % 12;
    const a = s * Math.min(lightness, 1 - lightness);
    const f = (n: number) => lightness - a * Math.max(-1, Math.min(k(n) - 3, 9 - k(n), 1));
    return [Math.round(f(0) * 255), Math.round(f(8) * 255), Math.round(f(4) * 255)];
  };
  const row = 1 + GENERATED_SIZE * 3;
  const raw = new Uint8Array(row * GENERATED_SIZE);
  for (let y = 0; y < GENERATED_SIZE; y++) {
    const [r, g, b] = rgb(0.62 - (0.4 * y) / GENERATED_SIZE);
    raw[y * row] = 0; // filter type None
    for (let x = 0; x < GENERATED_SIZE; x++) raw.set([r, g, b], y * row + 1 + x * 3);
  }
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, GENERATED_SIZE);
  view.setUint32(4, GENERATED_SIZE);
  header.set([8, 2, 0, 0, 0], 8); // bit depth 8, colour type 2 (RGB), deflate, adaptive filters, no interlace
  return [
    { name: "IHDR", data: header },
    { name: "IDAT", data: await deflate(raw) },
    { name: "IEND", data: new Uint8Array(0) },
  ];
}

/**
 * The card as a PNG: the avatar picture (`avatarPng`, when it is a readable
 * PNG) or a generated one, carrying a `ccv3` tEXt chunk (the V3 card) and a
 * `chara` tEXt chunk (the V2 card, for readers that know only V2), both
 * base64 of UTF-8 JSON, before IEND.
 */
export async function writePngCard(
  card: ExportedCard,
  avatarPng: Uint8Array | null,
  name: string,
): Promise<Uint8Array<ArrayBuffer>> {
  let chunks: PngChunk[] | null = null;
  if (avatarPng && isPng(avatarPng)) {
    try {
      chunks = imageChunks(extractChunks(avatarPng));
    } catch {
      chunks = null;
    }
  }
  chunks ??= await generatedImageChunks(name);
  const encoder = new TextEncoder();
  const cardChunks = [
    encodeText("chara", toBase64(encoder.encode(JSON.stringify(card.v2)))),
    encodeText("ccv3", toBase64(encoder.encode(JSON.stringify(card.v3)))),
  ];
  const end = chunks.findIndex((c) => c.name === "IEND");
  chunks.splice(end === -1 ? chunks.length : end, 0, ...cardChunks);
  if (end === -1) chunks.push({ name: "IEND", data: new Uint8Array(0) });
  // png-chunks-encode allocates a fresh Uint8Array (never a shared buffer).
  return encodeChunks(chunks) as Uint8Array<ArrayBuffer>;
}

/** Exported for tests: the keywords of a PNG's text chunks, in order. */
export function pngTextKeywords(bytes: Uint8Array): string[] {
  return readChunks(bytes)
    .map(textKeyword)
    .filter((k): k is string => k !== null);
}

/** The base64 JSON of a PNG's tEXt chunk with `keyword`, parsed; null when absent. */
export function readPngTextJson(bytes: Uint8Array, keyword: string): unknown {
  const chunk = readChunks(bytes).find((c) => c.name === "tEXt" && textKeyword(c) === keyword);
  return chunk ? parseJsonBytes(fromBase64(decodeText(chunk.data).text), keyword) : null;
}
