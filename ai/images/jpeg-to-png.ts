/**
 * A JPEG an engine answered, kept as PNG (DESIGN.md "Pictures": images are
 * `image/png` or `image/webp`; FLUX.1 [schnell] on Workers AI answers a
 * base64 JPEG, and some OpenAI-compatible servers do too). Decoded with
 * jpeg-js (pure JavaScript, no native code, so it runs in workerd) and
 * encoded again with fast-png as 8-bit RGB. Lossless from the decoded
 * pixels: the picture looks exactly as the JPEG did. A 1,024² picture is
 * about 1.5–2.5 MB as PNG against 0.1–0.3 MB as JPEG (docs/decisions/0038).
 */
import { encode as encodePng } from "fast-png";
import { decode as decodeJpeg } from "jpeg-js";
import { IMAGE_SIDE, ImageError } from "./image-generator.ts";

/** Largest picture decoded, megapixels: the largest side allowed, squared, rounded up. */
const MAX_MEGAPIXELS = Math.ceil((IMAGE_SIDE.max * IMAGE_SIDE.max) / 1_000_000);

/**
 * The PNG of the JPEG `bytes`.
 *
 * @throws ImageError naming `source` when the JPEG cannot be read or is
 * larger than IMAGE_SIDE allows.
 */
export function jpegToPng(bytes: Uint8Array, source: string): Uint8Array {
  let image: { width: number; height: number; data: Uint8Array };
  try {
    image = decodeJpeg(bytes, { useTArray: true, formatAsRGBA: false, maxResolutionInMP: MAX_MEGAPIXELS, maxMemoryUsageInMB: 64 });
  } catch (error) {
    throw new ImageError(`${source} answered a JPEG that cannot be read (${error instanceof Error ? error.message : String(error)})`);
  }
  return encodePng({ width: image.width, height: image.height, data: image.data, channels: 3, depth: 8 });
}
