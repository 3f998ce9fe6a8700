/**
 * The engine's one source of chance: a draw fixed by the reply's seed and a
 * label, so regenerating a reply rolls as the first version did.
 */
import { fnv1a, mulberry32 } from "../seeded-random.ts";

/**
 * A number in [0, 1) fixed by `seed` and `label`: FNV-1a hashes the pair and
 * the first number of mulberry32 from that hash is the draw (both in
 * schema/seeded-random.ts, with their sources). One draw per decision, so a
 * roll never depends on which other entries were rolled before it.
 */
export function seededRandom(seed: string, label: string): number {
  return mulberry32(fnv1a(`${seed}\u0000${label}`))();
}
