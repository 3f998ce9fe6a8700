/**
 * The engine's one source of chance: a draw fixed by the reply's seed and a
 * label, so regenerating a reply rolls as the first version did.
 */

/**
 * A number in [0, 1) fixed by `seed` and `label`: FNV-1a (32-bit, Fowler–Noll–Vo,
 * http://www.isthe.com/chongo/tech/comp/fnv/) hashes the pair, mulberry32
 * (Tommy Ettinger, public domain:
 * https://gist.github.com/tommyettinger/46a874533244883189143505d203312c)
 * turns it into a float. One draw per decision, so a roll never depends on
 * which other entries were rolled before it.
 */
export function seededRandom(seed: string, label: string): number {
  const text = `${seed}\u0000${label}`;
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  let t = (hash + 0x6d2b79f5) | 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

