/**
 * Inclusion groups: at most one entry of a group fires per reply
 * (SillyTavern's `filterByInclusionGroups`): a sticky member keeps its
 * group, group scoring keeps the members with the most matching keys, an
 * override wins outright, else a roll weighted by `groupWeight`, seeded.
 */
import type { Resolved } from "./entries.ts";
import { seededRandom } from "./random.ts";
import { DEFAULT_GROUP_WEIGHT } from "./types.ts";

/**
 * `fresh` (this pass's candidates, in order) without the losers of their
 * groups; a group with a member in `activated` (an earlier pass) takes none.
 * `score` counts an entry's matching keys (SillyTavern's `getScore`).
 */
export function filterByInclusionGroups(fresh: Resolved[], activated: readonly Resolved[], score: (entry: Resolved) => number, sticky: ReadonlySet<string>, seed: string): Resolved[] {
  const groups = new Map<string, Resolved[]>();
  for (const entry of fresh) {
    for (const group of entry.groups) {
      const members = groups.get(group);
      if (members) members.push(entry);
      else groups.set(group, [entry]);
    }
  }
  if (groups.size === 0) return fresh;
  const removed = new Set<string>();
  for (const [name, all] of groups) {
    const stickies = all.filter((e) => sticky.has(e.key));
    if (stickies.length > 0) {
      for (const e of all) if (!sticky.has(e.key)) removed.add(e.key);
      continue;
    }
    let group = all;
    if (group.some((e) => e.useGroupScoring)) {
      const scores = group.map(score);
      const best = Math.max(...scores);
      const losers = group.filter((e, i) => e.useGroupScoring && scores[i]! < best);
      for (const e of losers) removed.add(e.key);
      group = group.filter((e) => !losers.includes(e));
    }
    if (activated.some((e) => e.groups.includes(name))) {
      for (const e of group) removed.add(e.key);
      continue;
    }
    if (group.length <= 1) continue;
    const overrides = group.filter((e) => e.entry.groupOverride).sort((a, b) => b.order - a.order);
    let winner: Resolved | undefined = overrides[0];
    if (!winner) {
      const weight = (e: Resolved) => {
        const w = e.entry.groupWeight;
        return typeof w === "number" && Number.isFinite(w) ? w : DEFAULT_GROUP_WEIGHT;
      };
      const roll = seededRandom(seed, `group:${name}:${group.map((e) => e.key).join(",")}`) * group.reduce((sum, e) => sum + weight(e), 0);
      let running = 0;
      winner = group.find((e) => (running += weight(e)) >= roll);
    }
    if (!winner) continue;
    for (const e of group) if (e !== winner) removed.add(e.key);
  }
  return fresh.filter((e) => !removed.has(e.key));
}
