/**
 * What every image generator is, apart from any provider (DESIGN.md
 * "Pictures"): the `ImageGenerator` interface, the picture it answers, the
 * sizes a picture may have and the error. Types only, with the error class
 * and the size rule, imported by the providers (generators.ts,
 * offline-painter.ts), the room (durable-objects/room/images.ts) and the
 * Worker's avatar route, so none of them imports another for a type.
 */

/** Which engine paints (`IMAGE_PROVIDER`). */
export type ImageProviderName = "workers-ai" | "openai" | "offline";

/** Smallest and largest side of a picture, pixels (DESIGN.md "Pictures": 256–1,536 px a side). */
export const IMAGE_SIDE = { min: 256, max: 1536 } as const;

/** Longest prompt sent to an engine, characters (FLUX.1 [schnell] on Workers AI reads 2,048; OpenAI's dall-e-3 4,000). */
export const MAX_IMAGE_PROMPT_CHARS = 2000;

/** What an engine may answer: PNG (offline, most OpenAI-compatible servers), JPEG (FLUX on Workers AI) or WebP. */
export type AnsweredImageType = "image/png" | "image/jpeg" | "image/webp";

/** A picture an engine made, as it is kept: the encoded file, whole (a JPEG answer is made a PNG: jpeg-to-png.ts). */
export interface GeneratedImage {
  bytes: Uint8Array;
  /** DESIGN.md "Pictures": `image/png` or `image/webp`. */
  contentType: "image/png" | "image/webp";
  /** Pixels, as the file's header says. */
  width: number;
  height: number;
}

export interface GenerateOptions {
  /** Side of the square asked for, pixels (IMAGE_SIDE; engines with fixed sizes answer their nearest). Default 768. */
  size?: number;
  /** Aborts the request (the person cancelled, the room gave up). */
  signal?: AbortSignal;
  /**
   * Which drawing of the prompt (a regenerate asks for the next; 0 or
   * absent: the first). Engines that draw at random ignore it; the offline
   * painter, deterministic by prompt, reseeds its choices with it.
   */
  variation?: number;
}

export interface ImageGenerator {
  readonly name: ImageProviderName;
  /** Provider and model, for logs and the UI (`offline-painter-v1`, `workers-ai:@cf/black-forest-labs/flux-1-schnell`). */
  readonly id: string;
  /**
   * One picture of `prompt` (plain words, 1..MAX_IMAGE_PROMPT_CHARS characters; longer is cut).
   *
   * @throws ImageError when the engine fails, refuses (`refused: true`) or answers no picture; the abort error when `signal` aborted.
   */
  generate(prompt: string, options?: GenerateOptions): Promise<GeneratedImage>;
}

/** An image engine refused or failed. The message is for logs, not people. */
export class ImageError extends Error {
  override readonly name = "ImageError";
  /** HTTP status of the provider's answer, when there was one. */
  readonly status?: number;
  /** The engine's own safety system refused the prompt (OpenAI `content_policy_violation`, Workers AI's NSFW flag). */
  readonly refused: boolean;

  constructor(message: string, options: { status?: number; refused?: boolean } = {}) {
    super(message);
    this.status = options.status;
    this.refused = options.refused ?? false;
  }
}

/** The default side of a picture, pixels: large enough to open full screen on a phone, small enough to paint offline in well under 300 ms. */
export const DEFAULT_IMAGE_SIDE = 768;

/** `size` within IMAGE_SIDE, a whole multiple of 8 (what diffusion models take); DEFAULT_IMAGE_SIDE when not a number. */
export function imageSide(size: number | undefined): number {
  if (size === undefined || !Number.isFinite(size)) return DEFAULT_IMAGE_SIDE;
  const clamped = Math.min(IMAGE_SIDE.max, Math.max(IMAGE_SIDE.min, Math.round(size)));
  return clamped - (clamped % 8);
}
