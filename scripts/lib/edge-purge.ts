/**
 * The operator's side of the visitors' edge cache
 * (docs/decisions/0010-edge-cache-and-latency.md "Moderation"): after an
 * upheld report, the removed character's cached page and comments (or, for
 * a deleted comment, its character's) are purged in every data center
 * through Cloudflare's purge-by-tag API — when the CLI works on the deployed
 * database (`--remote`) and `CACHE_PURGE_ZONE_ID` / `CACHE_PURGE_API_TOKEN`
 * are set in its environment. Otherwise the copies expire within the
 * staleness bound, and the CLI says so.
 */
import type { ReportLine } from "../../worker/lib/moderation-actions.ts";
import {
  characterCacheTag,
  DEFAULT_EDGE_CACHE_TTL_SECONDS,
  globalPurgeConfig,
  purgeEverywhere,
} from "../../worker/lib/edge-cache.ts";

/**
 * The character whose cached page an uphold of `report` changes: the
 * character itself, or the one a comment was written on; null for a chat
 * message (conversations are never cached).
 */
export function cachedCharacterOf(report: Pick<ReportLine, "targetType" | "targetId" | "characterId">): number | null {
  if (report.targetType === "character") return Number(report.targetId);
  if (report.targetType === "comment") return report.characterId;
  return null;
}

/**
 * Purges character `characterId`'s cached copies after an operator's action
 * and returns the sentence the CLI prints. `remote`: the action ran on the
 * deployed database; `env`: where the purge settings are read (the process
 * environment). Throws when Cloudflare refuses the purge (the message says
 * why; the action itself is done).
 */
export async function purgeAfterOperatorAction(
  characterId: number | null,
  { remote, env }: { remote: boolean; env: Record<string, string | undefined> },
): Promise<string | null> {
  if (characterId === null) return null;
  const bound = `${DEFAULT_EDGE_CACHE_TTL_SECONDS} s`;
  if (!remote) return `Cached copies of character ${characterId} on the local server expire within ${bound}.`;
  const config = globalPurgeConfig(env);
  if (!config) {
    return `Cached copies of character ${characterId} expire within ${bound} (set CACHE_PURGE_ZONE_ID and CACHE_PURGE_API_TOKEN to purge them at once).`;
  }
  await purgeEverywhere(config, [characterCacheTag(characterId)]);
  return `Cached copies of character ${characterId} purged in every data center.`;
}
