/**
 * The operator's side of the visitors' edge cache
 * (docs/decisions/0010-edge-cache-and-latency.md "Moderation"): after an
 * upheld report, the removed character's cached page and comments (or, for
 * a deleted comment, its character's; for a removed share link, its page
 * and reads) are purged in every data center
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
  shareCacheTag,
} from "../../worker/lib/edge-cache.ts";

/** What visitors may hold cached copies of after an operator's action: named for the CLI's sentence, and its purge tag. */
export interface CachedCopies {
  /** e.g. "character 42", "share link AbC…" */
  name: string;
  tag: string;
}

/**
 * The cached copies an uphold of `report` makes stale: the character's page
 * and comments (a reported character, or the one a comment was written
 * on), or a removed share link's page and reads; null for a chat message
 * (conversations are never cached).
 */
export function cachedCopiesOf(report: Pick<ReportLine, "targetType" | "targetId" | "characterId">): CachedCopies | null {
  const characterId = report.targetType === "character" ? Number(report.targetId) : report.targetType === "comment" ? report.characterId : null;
  if (characterId !== null) return { name: `character ${characterId}`, tag: characterCacheTag(characterId) };
  if (report.targetType === "share") return { name: `share link ${report.targetId}`, tag: shareCacheTag(report.targetId) };
  return null;
}

/**
 * Purges `copies` (cachedCopiesOf) after an operator's action and returns
 * the sentence the CLI prints. `remote`: the action ran on the deployed
 * database; `env`: where the purge settings are read (the process
 * environment). Throws when Cloudflare refuses the purge (the message says
 * why; the action itself is done).
 */
export async function purgeAfterOperatorAction(
  copies: CachedCopies | null,
  { remote, env }: { remote: boolean; env: Record<string, string | undefined> },
): Promise<string | null> {
  if (copies === null) return null;
  const bound = `${DEFAULT_EDGE_CACHE_TTL_SECONDS} s`;
  if (!remote) return `Cached copies of ${copies.name} on the local server expire within ${bound}.`;
  const config = globalPurgeConfig(env);
  if (!config) {
    return `Cached copies of ${copies.name} expire within ${bound} (set CACHE_PURGE_ZONE_ID and CACHE_PURGE_API_TOKEN to purge them at once).`;
  }
  await purgeEverywhere(config, [copies.tag]);
  return `Cached copies of ${copies.name} purged in every data center.`;
}
