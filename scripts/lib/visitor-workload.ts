/**
 * The visitors' workload of `npm run bench:catalog -- --visitor`: page views
 * of the web app as the API requests each one makes (web/features/characters
 * api modules), with what is viewed drawn from Zipf distributions — a few
 * characters, tags and search words get most of the views, as on any
 * catalog (the exponent 1 of Zipf's law; a popular item of rank r is viewed
 * ∝ 1/r^s).
 *
 * Mix of page views (fractions): home 0.40 (popular tags + the first page of
 * a tab; one in five loads a second page), tag page 0.20, search 0.10,
 * character page 0.30 (the character and its comments).
 */
import { mulberry32 } from "../../schema/seeded-random.ts";

/** A Zipf(s) sampler over ranks 0..n−1 (rank 0 the most popular). */
export function zipfSampler(n: number, s: number, random: () => number): () => number {
  if (!Number.isInteger(n) || n < 1) throw new Error("zipfSampler needs n ≥ 1");
  const cdf = new Float64Array(n);
  let total = 0;
  for (let r = 0; r < n; r++) {
    total += 1 / (r + 1) ** s;
    cdf[r] = total;
  }
  return () => {
    const x = random() * total;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

export type PageKind = "home" | "tag" | "search" | "character";

export interface PageView {
  kind: PageKind;
  /** Paths with query, in the order the page asks for them. */
  requests: string[];
}

/** What the workload draws from, most popular first. */
export interface Population {
  /** Character ids by popularity. */
  characterIds: number[];
  /** Tag names by use. */
  tags: string[];
  /** Search words by how many characters carry them. */
  words: string[];
}

/** Query string of a list as the web client writes it (charactersQueryString). */
function listQuery(p: { tags?: string; search?: string; offset?: number; sort?: string }): string {
  const q = new URLSearchParams();
  if (p.tags) q.set("tags", p.tags);
  if (p.search) q.set("search", p.search);
  q.set("showNsfw", "false");
  q.set("nsfw", "false");
  q.set("limit", "20");
  q.set("offset", String(p.offset ?? 0));
  q.set("sort", p.sort ?? "for-you");
  return q.toString();
}

const TABS = ["for-you", "trending", "new", "popular"];

/** A generator of page views over `population`, Zipf exponent `s`, seeded. */
export function visitorWorkload(population: Population, s = 1, seed = 15): () => PageView {
  const random = mulberry32(seed);
  const character = zipfSampler(population.characterIds.length, s, random);
  const tag = zipfSampler(population.tags.length, s, random);
  const word = zipfSampler(population.words.length, s, random);
  const tab = zipfSampler(TABS.length, s, random);
  return () => {
    const x = random();
    if (x < 0.4) {
      const sort = TABS[tab()]!;
      const requests = ["/api/tags?popular=true", `/api/characters?${listQuery({ sort })}`];
      if (random() < 0.2) requests.push(`/api/characters?${listQuery({ sort, offset: 20 })}`);
      return { kind: "home", requests };
    }
    if (x < 0.6) return { kind: "tag", requests: [`/api/characters?${listQuery({ tags: population.tags[tag()]! })}`] };
    if (x < 0.7) return { kind: "search", requests: [`/api/characters?${listQuery({ search: population.words[word()]! })}`] };
    const id = population.characterIds[character()]!;
    return { kind: "character", requests: [`/api/characters/${id}`, `/api/characters/${id}/comments`] };
  };
}
