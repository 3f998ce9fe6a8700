/**
 * A person's hidden tags (issue "Finding and following", Tag filters;
 * docs/decisions/0011-tag-filters.md): the tags whose characters they never
 * want to see, kept on their account in `users.hidden_tags` (a JSON list of
 * lower-case tag names, sorted; migrations/0010_hidden_tags.sql). The web app
 * sends them as `excludeTags` with every list request; the list itself does
 * not read them.
 */

/** The person's hidden tags, sorted; an empty list for someone who hides nothing (or does not exist). */
export async function getHiddenTags(db: D1Database, userId: string): Promise<string[]> {
  const raw = await db.prepare("SELECT hidden_tags FROM users WHERE id = ?").bind(userId).first<string>("hidden_tags");
  return parseTagList(raw);
}

/**
 * Replaces the person's hidden tags with `tags` (already normalised by
 * hiddenTagsInputSchema: valid names, no repeats, sorted) and returns them as
 * stored.
 */
export async function setHiddenTags(db: D1Database, userId: string, tags: string[]): Promise<string[]> {
  const raw = await db
    .prepare("UPDATE users SET hidden_tags = ? WHERE id = ? RETURNING hidden_tags")
    .bind(JSON.stringify(tags), userId)
    .first<string>("hidden_tags");
  return parseTagList(raw);
}

function parseTagList(raw: string | null): string[] {
  if (!raw) return [];
  try {
    const value: unknown = JSON.parse(raw);
    return Array.isArray(value) ? value.filter((t): t is string => typeof t === "string") : [];
  } catch {
    return [];
  }
}
