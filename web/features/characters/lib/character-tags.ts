/**
 * Choosing a character's tags on the Create/Edit Character form: popular tags
 * toggled as chips, new ones typed in. Names follow the shared tagNameSchema
 * (trimmed, lower case, 2–24 characters of letters, digits, spaces and a few
 * marks), with at most MAX_TAGS per character — the rules the server applies
 * to the same list (schema/inputs.ts characterTagsSchema).
 */
import { MAX_TAGS } from "../../../../schema/constants.ts";
import { tagNameSchema } from "../../../../schema/inputs.ts";

export { MAX_TAGS };

/** The character's tags after a change, or why the change was refused. */
export type TagChange = { ok: true; tags: string[] } | { ok: false; error: string };

/** The message when an 11th tag is added; the same words as the server's (characterTagsSchema). */
export const TOO_MANY_TAGS = `At most ${MAX_TAGS} tags`;

/** `raw` as a tag name ("  Slice of Life " → "slice of life"), or the schema's message. */
export function normalizeTag(raw: string): { ok: true; name: string } | { ok: false; error: string } {
  const result = tagNameSchema.safeParse(raw);
  if (result.success) return { ok: true, name: result.data };
  return { ok: false, error: result.error.issues[0]?.message ?? "Invalid tag" };
}

/**
 * Adds a typed tag, normalised. A tag already on the list leaves it as it is
 * (no error: the person sees it there); an invalid name or an 11th tag is
 * refused with its message.
 */
export function addTag(tags: readonly string[], raw: string): TagChange {
  const normalized = normalizeTag(raw);
  if (!normalized.ok) return normalized;
  if (tags.includes(normalized.name)) return { ok: true, tags: [...tags] };
  if (tags.length >= MAX_TAGS) return { ok: false, error: TOO_MANY_TAGS };
  return { ok: true, tags: [...tags, normalized.name] };
}

/** Selects a popular tag, or deselects it when already chosen; an 11th is refused. */
export function toggleTag(tags: readonly string[], name: string): TagChange {
  if (tags.includes(name)) return { ok: true, tags: tags.filter((t) => t !== name) };
  return addTag(tags, name);
}

/** The list without `name`. */
export function removeTag(tags: readonly string[], name: string): string[] {
  return tags.filter((t) => t !== name);
}
