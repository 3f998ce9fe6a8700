/**
 * Confusable skeletons (Unicode TR #39 "Unicode Security Mechanisms", §4
 * "Confusable Detection"): two strings that look alike map to the same
 * skeleton. Used to refuse counterfeit usernames and pen names
 * (`nameSkeleton`, compared with `users.username_skeleton`,
 * migrations/0012_name_skeletons.sql) and by the moderation pre-screen to
 * read obfuscated text (`foldConfusables`, ai/moderation/normalise.ts).
 *
 * Lookalikes outside ASCII come from the npm package `confusables`
 * (its `confusablesMap`: about 3,300 characters — Cyrillic, Greek,
 * mathematical alphanumerics, enclosed and fullwidth forms … — each mapped
 * to the ASCII letter or digit it imitates). We read the map per character
 * and never call its `remove()`, which caches every string it is given in a
 * module-level Map that never shrinks (a memory leak in a Worker isolate).
 * The ASCII lookalikes TR #39 lists and the map does not (I/l/1/|, 0/O,
 * rn/m, vv/w) are ours: `ASCII_SKELETON_STEPS`.
 */
import { confusablesMap } from "confusables";

/**
 * Characters that show nothing or reorder text: controls (Cc), format
 * characters (Cf: zero-width space and joiners, soft hyphen, bidi marks,
 * embeddings, overrides and isolates, tag characters), other
 * default-ignorable code points (Hangul fillers, the combining grapheme
 * joiner, Mongolian and variation selectors …), line and paragraph
 * separators, and the braille blank. `stripInvisible` removes them all.
 */
export const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\u2800]/gu;

/** `text` without the characters of INVISIBLE, except tab and line breaks (kept as written). */
export function stripInvisible(text: string): string {
  return text.replace(INVISIBLE, (ch) => (ch === "\n" || ch === "\r" || ch === "\t" ? ch : ""));
}

/**
 * Each character that imitates an ASCII letter or digit replaced by it
 * (`confusables`' map: "о" Cyrillic → "o", "𝟭" → "1", "ı" → "l"), accents
 * removed (NFKD, then combining marks dropped), letter case kept. ASCII is
 * left as it is. Does not remove invisible characters (stripInvisible).
 */
export function foldConfusables(text: string): string {
  let out = "";
  for (const ch of text.normalize("NFKD").replace(/\p{M}/gu, "")) out += confusablesMap.get(ch) ?? ch;
  return out;
}

/**
 * The ASCII steps of a skeleton, in order, on text already folded to ASCII:
 * "I" → "l" before lower-casing (a capital i is an l in most fonts), then
 * lower case, then "1" and "|" → "l", "0" → "o", "rn" → "m", "vv" → "w",
 * and separators ("@", "_", "-", ".", spaces) removed, so "@fabled_",
 * "fab.led" and "@FabIed" all read "fabled".
 *
 * migrations/0012_name_skeletons.sql computes `users.username_skeleton` with
 * the same steps in SQL (usernames are ASCII letters, digits and "_" after
 * one "@", schema/inputs.ts): `usernameSkeletonSql` must stay in step with
 * this function (worker/test/counterfeit-names.test.ts compares them).
 */
export function asciiSkeleton(ascii: string): string {
  return ascii
    .replaceAll("I", "l")
    .toLowerCase()
    .replaceAll("1", "l")
    .replaceAll("|", "l")
    .replaceAll("0", "o")
    .replaceAll("rn", "m")
    .replaceAll("vv", "w")
    .replace(/[@_.\-\s]+/g, "");
}

/** The SQL of asciiSkeleton over `column` for usernames (ASCII letters, digits, "_" and one "@"). */
export const usernameSkeletonSql = (column: string) =>
  `replace(replace(replace(replace(replace(replace(lower(replace(${column}, 'I', 'l')), '1', 'l'), '0', 'o'), 'rn', 'm'), 'vv', 'w'), '@', ''), '_', '')`;

/**
 * The confusable skeleton of a username or pen name: NFKC, invisible
 * characters removed, lookalikes folded to ASCII (foldConfusables), then the
 * ASCII steps (asciiSkeleton). Two names with one skeleton look alike:
 * "@nightowl", "@nightowI", "@nightowl_", "nightоwl" (Cyrillic о) and
 * "night\u00ADowl" all give "nightowl".
 */
export function nameSkeleton(name: string): string {
  return asciiSkeleton(foldConfusables(stripInvisible(name.normalize("NFKC"))));
}
