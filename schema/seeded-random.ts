/**
 * Repeatable chance: the same seed always gives the same numbers, so a
 * painted picture, a reply order's rolls, a lorebook's probability rolls and
 * a benchmark's data come out the same on every run and every machine.
 *
 * - `fnv1a` turns a text into a 32-bit seed: FNV-1a, 32-bit (Fowler, Noll
 *   and Vo, public domain: http://www.isthe.com/chongo/tech/comp/fnv/).
 * - `mulberry32` turns a seed into a stream of numbers in [0, 1): Tommy
 *   Ettinger's mulberry32, public domain
 *   (https://gist.github.com/tommyettinger/46a874533244883189143505d203312c),
 *   small, fast and well distributed; not for anything secret.
 *
 * Both are pure and read only their arguments (no clock, no Math.random).
 */

/**
 * The 32-bit FNV-1a hash of `text`'s UTF-16 code units, as an unsigned
 * integer in [0, 2^32). `fnv1a("a")` is 0xe40c292c.
 */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * A mulberry32 generator started at `seed` (taken as an unsigned 32-bit
 * integer): each call returns the next number in [0, 1), a multiple of 2^-32.
 */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
