/**
 * What every embedder is, apart from any provider (DESIGN.md "Memory"): the
 * `Embedder` interface and its error. A vector is a list of numbers of the
 * embedder's `dimensions`, L2-normalised (unit length), so the cosine of
 * two is their dot product. Vectors of different embedders (`id`) are never
 * compared: the room stores the id beside each vector and re-embeds what
 * another embedder wrote.
 */

/** Which engine embeds (`EMBEDDING_PROVIDER`). */
export type EmbeddingProviderName = "workers-ai" | "openai" | "offline";

export interface EmbedOptions {
  /** Aborts the request. */
  signal?: AbortSignal;
}

export interface Embedder {
  readonly name: EmbeddingProviderName;
  /**
   * Names the vector space: provider, model and dimensions (e.g.
   * `offline-hash-v1:512`, `workers-ai:@cf/baai/bge-m3`). Vectors with
   * another id are not comparable.
   */
  readonly id: string;
  /** Most texts one `embed` call takes; callers cut longer lists into batches. */
  readonly maxBatch: number;
  /**
   * One unit-length vector per text, in order (an empty or blank text gets
   * the zero vector).
   *
   * @throws EmbeddingError when the engine fails or answers vectors of the wrong count; the abort error when `signal` aborted.
   */
  embed(texts: readonly string[], options?: EmbedOptions): Promise<Float32Array[]>;
}

/** An embedding engine refused or failed. The message is for logs, not people. */
export class EmbeddingError extends Error {
  override readonly name = "EmbeddingError";
  /** HTTP status of the provider's answer, when there was one. */
  readonly status?: number;

  constructor(message: string, status?: number) {
    super(message);
    this.status = status;
  }
}

/** `vector` scaled to unit length (the zero vector stays zero). */
export function normalised(vector: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i]! * vector[i]!;
  if (sum === 0) return vector;
  const scale = 1 / Math.sqrt(sum);
  for (let i = 0; i < vector.length; i++) vector[i] = vector[i]! * scale;
  return vector;
}
