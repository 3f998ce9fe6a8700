/**
 * The catalog's query schemas (SPEC.md §7 `GET /api/characters`, favorites,
 * forks) and `shortenSearch`, shared by the web and the Worker
 * (schema/inputs.ts re-exports them).
 */
import { z } from "zod";
import { CATALOG_SORTS } from "../api.ts";
import { CATALOG_MAX_OFFSET, CATALOG_PAGE_SIZE, MAX_HIDDEN_TAGS, MAX_SEARCH_LENGTH, MAX_TAGS, TAG_MODES } from "../constants.ts";
import { canonicalUsername } from "../usernames.ts";
import { boolParam, intParam } from "./fields.ts";

/**
 * Search text as the catalog uses it: trimmed, and when longer than
 * MAX_SEARCH_LENGTH characters (whatever a person pasted), shortened to its
 * first terms — cut at MAX_SEARCH_LENGTH, then back to the end of the last
 * whole word (run of letters or digits) before the cut, so no word is
 * searched half. A single word longer than the limit is cut at the limit.
 * (Of what is left, the catalog searches the first 12 distinct words,
 * worker/lib/catalog-search.ts `searchTerms`.) Empty text gives undefined.
 */
export function shortenSearch(text: string | undefined): string | undefined {
  let value = text?.trim() ?? "";
  if (value.length > MAX_SEARCH_LENGTH) {
    const cut = value.slice(0, MAX_SEARCH_LENGTH);
    // The next character continues the last word: drop that word's part.
    const partial = /[\p{L}\p{N}]/u.test(value[MAX_SEARCH_LENGTH]!) ? /[\p{L}\p{N}]+$/u.exec(cut) : null;
    value = (partial && partial.index > 0 ? cut.slice(0, partial.index) : cut).trim();
  }
  return value || undefined;
}

/**
 * A comma-joined list of tag names as a query parameter: trimmed, lower
 * case, empty entries and repeats dropped, at most `max` (else `tooMany`).
 */
const tagListParam = (max: number, tooMany: string) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      const names = [
        ...new Set(
          (value ?? "")
            .split(",")
            .map((t) => t.trim().toLowerCase())
            .filter(Boolean),
        ),
      ];
      if (names.length > max) {
        ctx.addIssue({ code: "custom", message: tooMany });
        return z.NEVER;
      }
      return names;
    });

/**
 * Query of `GET /api/characters` (SPEC.md §7). `tags` is comma-joined tag
 * names; `tagMode` says how they combine: `all` (the default: a character
 * must carry every one) or `any` (at least one). `excludeTags` is
 * comma-joined tag names no listed character may carry (the person's hidden
 * tags; sorted here, so the same set is one cache key whatever its order).
 * NSFW characters are listed only with `showNsfw=true` (`nsfw=false` is what
 * the client sends beside `showNsfw=false` and changes nothing). Over-long
 * `search` text is shortened, never refused (`shortenSearch`). `creator` (a
 * username, with or without "@", any case; canonicalised here) narrows the
 * list to that person's characters (their creator page); `following=true` to
 * the characters of the people the signed-in caller follows (Home's Following
 * tab). Every filter is a field of this object: the edge cache keys on it.
 */
export const catalogQuerySchema = z.object({
  tags: tagListParam(MAX_TAGS, `Filter by at most ${MAX_TAGS} tags`),
  tagMode: z
    .enum(TAG_MODES, { error: `tagMode must be one of ${TAG_MODES.join(", ")}` })
    .optional()
    .default("all"),
  excludeTags: tagListParam(MAX_HIDDEN_TAGS, `Exclude at most ${MAX_HIDDEN_TAGS} tags`).transform((names) => names.sort()),
  search: z.string().optional().transform(shortenSearch),
  // Defaults spelled out and the no-op `nsfw` dropped after its check, so the
  // parsed query (the edge cache's key, worker/lib/edge-cache.ts) says each list one way.
  showNsfw: boolParam("showNsfw").default("false"),
  nsfw: boolParam("nsfw").transform(() => undefined),
  limit: intParam("limit", 1, 100, CATALOG_PAGE_SIZE),
  offset: intParam("offset", 0, CATALOG_MAX_OFFSET, 0),
  sort: z
    .enum(CATALOG_SORTS, { error: `sort must be one of ${CATALOG_SORTS.join(", ")}` })
    .optional()
    .default("for-you"),
  creator: z
    .string()
    .max(64, "creator is too long")
    .optional()
    .transform((value) => (value?.trim() ? canonicalUsername(value) : undefined)),
  following: boolParam("following"),
});
export type CatalogQuery = z.output<typeof catalogQuerySchema>;

/**
 * Query of `GET /api/favorites`: Home's paging (`limit`, `offset`) and NSFW
 * setting (`showNsfw`; `nsfw` is accepted and changes nothing).
 */
export const favoritesQuerySchema = z.object({
  showNsfw: boolParam("showNsfw"),
  nsfw: boolParam("nsfw"),
  limit: intParam("limit", 1, 100, CATALOG_PAGE_SIZE),
  offset: intParam("offset", 0, CATALOG_MAX_OFFSET, 0),
});
export type FavoritesQuery = z.output<typeof favoritesQuerySchema>;

/**
 * Query of `GET /api/characters/{id}/forks` (issue 40): paging (`limit`,
 * `offset`) and the viewer's NSFW setting (`showNsfw`), as Home sends them.
 */
export const forksQuerySchema = z.object({
  showNsfw: boolParam("showNsfw"),
  limit: intParam("limit", 1, 100, CATALOG_PAGE_SIZE),
  offset: intParam("offset", 0, CATALOG_MAX_OFFSET, 0),
});
export type ForksQuery = z.output<typeof forksQuerySchema>;
