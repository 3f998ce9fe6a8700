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
 * rn/m, vv/w), and the digits of leetspeak, are ours: `ASCII_SKELETON_STEPS`.
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
 * The ASCII steps of a skeleton, in order, on lower-case text: each `from`
 * becomes `to`.
 *
 * - "i", "l", "1" and "|" are one letter: a capital I is an l in most fonts,
 *   "1" stands for either ("@n1ghtowl", "@nightow1"), and a skeleton can
 *   only be equal or not, so i and l must fall together for "1" to match
 *   both (dnstwist's homoglyph table also pairs i with l).
 * - Digits that stand for letters in leetspeak: "0" o, "3" e, "4" a, "5" s,
 *   "7" t, "8" b (issue 42). 4, 7 and 8 are as common as the others in
 *   handles that imitate a name ("@4dmin", "@7ester", "@8ob"); 2, 6 and 9 are
 *   left as they are, because what they stand for is ambiguous (6 and 9 for b,
 *   g or q; 2 for z or "to"). Each digit maps to its own letter, so
 *   handles that differ only in numbers ("@mira_42", "@mira_43") stay apart.
 * - "rn" m and "vv" w (two letters that look like one).
 */
export const ASCII_SKELETON_STEPS: readonly (readonly [from: string, to: string])[] = [
  ["i", "l"],
  ["1", "l"],
  ["|", "l"],
  ["0", "o"],
  ["3", "e"],
  ["4", "a"],
  ["5", "s"],
  ["7", "t"],
  ["8", "b"],
  ["rn", "m"],
  ["vv", "w"],
];

/**
 * The ASCII part of a skeleton, on text already folded to ASCII: lower
 * case, then ASCII_SKELETON_STEPS in order, then separators ("@", "_", "-",
 * ".", spaces) removed, so "@fabled_", "fab.led", "@FabIed", "@fabied" and
 * "@f4b1ed" all read "fabled".
 *
 * `users.username_skeleton` is computed by SQLite with the same steps
 * (`usernameSkeletonSql`, made from the same table; the generated column of
 * migrations/0012_name_skeletons.sql, recomputed by
 * migrations/0020_leetspeak_skeletons.sql): worker/test/counterfeit-names.test.ts compares them.
 */
export function asciiSkeleton(ascii: string): string {
  let text = ascii.toLowerCase();
  for (const [from, to] of ASCII_SKELETON_STEPS) text = text.replaceAll(from, to);
  return text.replace(/[@_.\-\s]+/g, "");
}

/**
 * The SQL of asciiSkeleton over `column` for usernames (ASCII letters,
 * digits, "_" and one "@", schema/inputs.ts): `lower`, one `replace` per
 * step (but "|", which no username holds), then "@" and "_" removed.
 */
export const usernameSkeletonSql = (column: string) => {
  let sql = `lower(${column})`;
  for (const [from, to] of ASCII_SKELETON_STEPS) if (from !== "|") sql = `replace(${sql}, '${from}', '${to}')`;
  return `replace(replace(${sql}, '@', ''), '_', '')`;
};

/**
 * The confusable skeleton of a username or pen name: NFKC, invisible
 * characters removed, lookalikes folded to ASCII (foldConfusables), then the
 * ASCII steps (asciiSkeleton). Two names with one skeleton look alike:
 * "@nightowl", "@nightowI", "@n1ghtowl", "@nightowl_", "nightоwl" (Cyrillic
 * о) and "night\u00ADowl" all give "nlghtowl".
 */
export function nameSkeleton(name: string): string {
  return asciiSkeleton(foldConfusables(stripInvisible(name.normalize("NFKC"))));
}
