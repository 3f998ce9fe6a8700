/**
 * The tags a card lists before "+N" (SPEC.md §9: 4 on Home, 3 on My
 * Characters).
 */

/** The first `limit` tags and how many are left for "+N" (0 when none). */
export function visibleTags(tags: readonly string[], limit: number): { shown: string[]; hidden: number } {
  const shown = tags.slice(0, Math.max(0, limit));
  return { shown, hidden: tags.length - shown.length };
}
