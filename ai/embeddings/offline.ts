/**
 * The offline embedder: deterministic, no network, no downloaded weights
 * (DESIGN.md "Memory"), for local development, tests and deployments
 * without a hosted embedding model. Not a stub: recall works on real
 * sentences as long as a question shares a content word (or a word's stem,
 * or part of a word) with what it asks about — which is how players ask
 * ("what was the smuggler's boat called?"). It knows no synonyms.
 *
 * The feature-hashing trick (Weinberger et al., "Feature Hashing for Large
 * Scale Multitask Learning", 2009): each feature is hashed (FNV-1a, 32 bit)
 * to one of OFFLINE_DIMENSIONS dimensions with a sign taken from another
 * bit of the hash, so collisions cancel out on average instead of adding
 * up. The vector is L2-normalised; two texts' similarity is the cosine. No
 * inverse document frequency (a room would have to keep counts of its whole
 * chat and re-embed as they change); common words are left out by a short
 * list of function words instead.
 *
 * Features of a text, after Unicode NFKD folding (accents dropped),
 * lower-casing and splitting into words of letters and digits (an
 * apostrophe's "'s" dropped):
 * - each content word's light stem (English plural, -ing, -ed, -ly),
 *   weight 1;
 * - the pair of each two neighbouring content words, weight 0.5 (names of
 *   two words, "silver key");
 * - the character trigrams of each content word with its boundaries
 *   (`^be`, `bee`, `ees`, `es$`), together weight 0.6 per word: other
 *   inflections and languages' endings still meet;
 * - scripts written without spaces (Han, Kana, Hangul, Thai) are cut into
 *   overlapping pairs of characters, each a word.
 */
import { type Embedder, normalised } from "./embedder.ts";
import { fnv1a } from "../../schema/seeded-random.ts";

/** Dimensions of an offline vector: stored as 512 bytes per message (room/memory.ts, int8). */
export const OFFLINE_DIMENSIONS = 512;

/** Version of the features: a change of them is a new vector space (the room re-embeds). */
export const OFFLINE_EMBEDDER_ID = `offline-hash-v1:${OFFLINE_DIMENSIONS}`;

const WORD_WEIGHT = 1;
const PAIR_WEIGHT = 0.5;
const TRIGRAM_WEIGHT = 0.6;

/**
 * Function words of English (and a few of French, German and Spanish) and
 * the words of asking that carry no topic ("remind me", "do you remember").
 */
const FUNCTION_WORDS = new Set(
  (
    "a an the and or but if then than so as of at by for from in into on onto to with without about over under after before " +
    "is are was were be been being am do does did done doing have has had having will would shall should can could may might must " +
    "i me my mine myself you your yours yourself he him his himself she her hers herself it its itself we us our ours they them their theirs " +
    "this that these those there here what which who whom whose where when why how all any both each few more most other some such " +
    "no nor not only own same too very just again also still ever even once up down out off yes oh ok okay " +
    "remember remind tell know think say said says please " +
    "le la les un une des du de et ou est en dans pour pas que qui il elle je tu nous vous ils " +
    "der die das ein eine und oder ist nicht zu mit von den dem ich du er sie wir ihr " +
    "el los las una unos y o es no que en por para con su lo"
  ).split(" "),
);

/** Scripts written without spaces between words. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;

/** Lower-case words of letters and digits, accents folded, "'s" dropped; unspaced scripts as character pairs. */
export function words(text: string): string[] {
  const folded = text.normalize("NFKD").replace(/\p{M}+/gu, "").toLowerCase();
  const out: string[] = [];
  for (const match of folded.matchAll(/[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu)) {
    const word = match[0].replace(/['’]s$/u, "").replace(/['’]/gu, "");
    if (!UNSPACED.test(word)) {
      out.push(word);
      continue;
    }
    const chars = [...word];
    if (chars.length === 1) out.push(word);
    for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
  }
  return out;
}

/** A light English stem: plural, -ing, -ed, -ly endings off (Porter's step 1, roughly); other words as they are. */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  if (word.endsWith("ies") && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith("sses")) return word.slice(0, -2);
  if (word.endsWith("ing") && word.length > 5) return undouble(word.slice(0, -3));
  if (word.endsWith("ed") && word.length > 4) return undouble(word.slice(0, -2));
  if (word.endsWith("ly") && word.length > 4) return word.slice(0, -2);
  if (word.endsWith("es") && /(?:ch|sh|x|z|ss)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith("s") && !word.endsWith("ss") && !word.endsWith("us") && !word.endsWith("is")) return word.slice(0, -1);
  return word;
}

/** "stopp" → "stop" (a doubled last consonant left by -ing, -ed). */
function undouble(word: string): string {
  return /([b-df-hj-np-tv-z])\1$/.test(word) && !/(?:ll|ss|zz)$/.test(word) ? word.slice(0, -1) : word;
}

function add(vector: Float32Array, feature: string, weight: number): void {
  const hash = fnv1a(feature);
  const at = hash % OFFLINE_DIMENSIONS;
  vector[at] = vector[at]! + (hash & 0x80000000 ? -weight : weight);
}

/** The offline vector of one text (see the module comment); the zero vector for a text without content words. */
export function offlineVector(text: string): Float32Array {
  const vector = new Float32Array(OFFLINE_DIMENSIONS);
  const content = words(text).filter((word) => !FUNCTION_WORDS.has(word) && (word.length > 1 || /\d/.test(word)));
  let previous: string | null = null;
  for (const word of content) {
    const stemmed = stem(word);
    add(vector, `w:${stemmed}`, WORD_WEIGHT);
    if (previous !== null) add(vector, `p:${previous} ${stemmed}`, PAIR_WEIGHT);
    previous = stemmed;
    const padded = `^${word}$`;
    const grams = padded.length - 2;
    const each = TRIGRAM_WEIGHT / Math.sqrt(grams);
    for (let i = 0; i < grams; i++) add(vector, `t:${padded.slice(i, i + 3)}`, each);
  }
  return normalised(vector);
}

export class OfflineEmbedder implements Embedder {
  readonly name = "offline" as const;
  readonly id = OFFLINE_EMBEDDER_ID;
  readonly maxBatch = 256;

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    return texts.map(offlineVector);
  }
}
