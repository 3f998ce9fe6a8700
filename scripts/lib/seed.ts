/**
 * Seeding the local D1 database: the SQLite file miniflare keeps under
 * `.wrangler/state` (scripts/lib/tools.ts `localD1File`), written directly
 * with node:sqlite while no `wrangler dev` holds it.
 *
 * Writers here follow the same rules as the Worker (migrations/0001 header):
 * characters are inserted with their tags JSON, and every `character_tags` row
 * copies the character's `is_active`/`is_nsfw` flags, so the triggers keep
 * `tags.count`/`sfw_count`, `catalog_counts` and the FTS5 index exact.
 *
 * - `seedDemo`: the demo creators and the hand-written demo catalog
 *   (scripts/data/demo-characters.ts), in one transaction.
 * - `seedDemoIfEmpty`: the same, only into an empty catalog (`npm start`).
 * - `seedSynthetic`: N generated characters for scale tests (10^6 in under three
 *   minutes on two cores), with a Zipf-shaped vocabulary so search and tag
 *   filters behave as on a real catalog.
 *
 * Counters are seeded as plain numbers: `favorite_count` is not backed by
 * `favorites` rows (no such users exist) and `comment_count` stays 0.
 */
import { DatabaseSync, type StatementSync } from "node:sqlite";
import { canonicalUsername } from "../../schema/usernames.ts";
import { ratingFromThumbs } from "../../worker/lib/rating.ts";
import { trendingSeedScore } from "../../worker/lib/trending.ts";
import { DEMO_CHARACTERS, DEMO_CREATORS, demoAvatarUrl } from "../data/demo-characters.ts";
import * as vocab from "../data/synthetic-vocabulary.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/** Engagement weight fed to the trending score: views count a tenth of a message or favorite. */
function engagementOf(views: number, favorites: number, messages: number, comments = 0): number {
  return views / 10 + favorites + messages + comments;
}

/** Email domain of the demo creator accounts (nobody can sign in as them). */
export const DEMO_EMAIL_DOMAIN = "demo.fabled.local";

const INSERT_TAG = "INSERT INTO tags (name, category) VALUES (?, ?) ON CONFLICT DO NOTHING";
// Same statement as worker/lib/catalog.ts linkTagsStatements: the link copies the flags.
const LINK_TAG = `INSERT OR IGNORE INTO character_tags (character_id, tag_id, is_listed, is_nsfw)
  SELECT c.id, t.id, c.is_active, c.is_nsfw FROM characters c, tags t
  WHERE c.id = ? AND lower(t.name) = lower(?)`;

const INSERT_CHARACTER = `INSERT INTO characters (
    name, description, long_description, creator, creator_id, avatar_url, tags, is_nsfw, is_active,
    view_count, rating, rating_up, rating_down, favorite_count, message_count, comment_count,
    trending_score, personality, scenario, example_conversation, greeting, alternate_greetings,
    creator_notes, character_book, created_at, updated_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

/** Category of a demo tag, stored in `tags.category` (null for the rest). */
const TAG_CATEGORIES: Record<string, string> = Object.fromEntries(
  [
    ["genre", "fantasy romance sci-fi horror mystery comedy adventure slice-of-life drama historical cyberpunk post-apocalyptic supernatural thriller noir western steampunk mythology time-travel sports"],
    ["archetype", "villain hero mentor companion detective pirate knight witch royalty"],
    ["species", "vampire elf robot dragon demon ghost werewolf"],
    ["setting", "school space medieval modern military music survival magic"],
    ["tone", "wholesome dark cozy anime"],
  ].flatMap(([category, names]) => names!.split(" ").map((name) => [name, category!])),
);

/**
 * Finds a user by username (its canonical form, case-insensitive) or creates
 * it with the canonical form, e.g. "nightowl" is stored as "@nightowl"
 * (DESIGN.md "Usernames"); returns its id and whether it was created.
 */
function ensureUser(
  db: DatabaseSync,
  user: { username: string; email: string; firstName: string; lastName: string | null; createdAt: number },
): { id: string; created: boolean } {
  const username = canonicalUsername(user.username);
  const existing = db.prepare("SELECT id FROM users WHERE lower(username) = lower(?)").get(username) as
    | { id: string }
    | undefined;
  if (existing) return { id: existing.id, created: false };
  const id = crypto.randomUUID();
  const name = [user.firstName, user.lastName].filter(Boolean).join(" ");
  db.prepare(
    `INSERT INTO users (id, email, first_name, last_name, name, username, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(id, user.email, user.firstName, user.lastName, name, username, user.createdAt, user.createdAt);
  return { id, created: true };
}

/**
 * Inserts the demo creator accounts and the demo catalog (scripts/data/
 * demo-characters.ts) with their tags, in one transaction. A character whose
 * name already exists for the same creator is skipped, so running it twice
 * adds nothing. `createdAt` of each character is `now − daysAgo` (plus a few
 * hours so no two are equal); counters and rating come from its `stats`.
 *
 * @returns how many characters and users were inserted.
 * @throws the SQLite error after rolling back, when any write fails.
 */
export function seedDemo(dbFile: string, options: { now?: number } = {}): { characters: number; users: number } {
  const now = options.now ?? Date.now();
  const db = new DatabaseSync(dbFile);
  let users = 0;
  let characters = 0;
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    db.exec("BEGIN IMMEDIATE");
    const creatorIds = new Map<string, string>();
    for (const creator of DEMO_CREATORS) {
      const { id, created } = ensureUser(db, {
        username: creator.username,
        email: `${creator.username}@${DEMO_EMAIL_DOMAIN}`,
        firstName: creator.firstName,
        lastName: creator.lastName,
        createdAt: now - 150 * DAY_MS,
      });
      creatorIds.set(creator.username, id);
      if (created) users += 1;
    }

    const exists = db.prepare("SELECT 1 FROM characters WHERE name = ? AND creator = ? LIMIT 1");
    const insert = db.prepare(INSERT_CHARACTER);
    const insertTag = db.prepare(INSERT_TAG);
    const linkTag = db.prepare(LINK_TAG);
    for (const [index, c] of DEMO_CHARACTERS.entries()) {
      if (exists.get(c.name, c.creator)) continue;
      const creatorId = creatorIds.get(c.creator);
      if (!creatorId) throw new Error(`Demo character ${c.slug}: unknown creator ${c.creator}`);
      const s = c.stats;
      // A few hours apart so "New" has a stable, readable order.
      const createdAt = now - s.daysAgo * DAY_MS - ((index * 7) % 24) * 60 * 60 * 1000;
      const tags = c.tags.map((t) => t.toLowerCase());
      const { lastInsertRowid } = insert.run(
        c.name,
        c.description,
        c.longDescription,
        c.creator,
        creatorId,
        demoAvatarUrl(c.slug),
        JSON.stringify(tags),
        c.isNsfw ? 1 : 0,
        1,
        s.views,
        ratingFromThumbs(s.ratingUp, s.ratingDown),
        s.ratingUp,
        s.ratingDown,
        s.favorites,
        s.messages,
        trendingSeedScore(createdAt, engagementOf(s.views, s.favorites, s.messages), now),
        c.personality,
        c.scenario,
        c.exampleConversation,
        c.greeting,
        JSON.stringify(c.alternateGreetings ?? []),
        c.creatorNotes ?? null,
        c.characterBook ? JSON.stringify(c.characterBook) : null,
        createdAt,
        createdAt,
      );
      for (const tag of tags) {
        insertTag.run(tag, TAG_CATEGORIES[tag] ?? null);
        linkTag.run(lastInsertRowid, tag);
      }
      characters += 1;
    }
    db.exec("COMMIT");
  } catch (error) {
    try {
      db.exec("ROLLBACK");
    } catch {
      // no transaction was open
    }
    throw error;
  } finally {
    db.close();
  }
  return { characters, users };
}

/**
 * Seeds the demo catalog when the database at `dbFile` has no characters at
 * all (`npm start` on a fresh checkout); otherwise leaves it alone. Prints
 * what it did.
 */
export async function seedDemoIfEmpty(dbFile: string, persistDir: string): Promise<void> {
  const db = new DatabaseSync(dbFile);
  const { n } = db.prepare("SELECT count(*) AS n FROM characters").get() as { n: number };
  db.close();
  if (n > 0) {
    console.log(`Local database (${persistDir}) has ${n.toLocaleString("en-US")} characters; not seeding.`);
    return;
  }
  const result = seedDemo(dbFile);
  console.log(
    `Seeded the demo catalog into ${persistDir}: ${result.characters} characters, ${result.users} creator accounts.`,
  );
}

// ---------------------------------------------------------------------------
// Synthetic catalog

/** sfc32 (Chris Doty-Humphrey's Small Fast Counting generator): uniform [0, 1). */
function sfc32(seed: number): () => number {
  let a = 0x9e3779b9;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = seed >>> 0;
  const next = () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 15; i++) next();
  return next;
}

/**
 * Sampler of ranks 0..n−1 under the Zipf–Mandelbrot law P(k) ∝ 1 / (k + 1 + q)^s:
 * `s` sets how steep the tail is, `q` flattens the head.
 */
function zipf(n: number, s: number, q: number): (u: number) => number {
  const cumulative = new Float64Array(n);
  let total = 0;
  for (let k = 0; k < n; k++) {
    total += 1 / (k + 1 + q) ** s;
    cumulative[k] = total;
  }
  return (u) => {
    const target = u * total;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/** Third person singular of a regular English verb in the base form. */
function conjugate(verb: string): string {
  if (/(s|sh|ch|x|z)$/.test(verb)) return `${verb}es`;
  if (/[^aeiou]y$/.test(verb)) return `${verb.slice(0, -1)}ies`;
  return `${verb}s`;
}

const article = (word: string) => (/^[aeiou]/i.test(word) ? `an ${word}` : `a ${word}`);
const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const titleCase = (text: string) => text.replace(/(^|[\s-])\p{L}/gu, (m) => m.toUpperCase());

/** The tag vocabulary of synthetic characters: demo tags (most used first), then the long tail. */
export function syntheticTagVocabulary(size = 200): string[] {
  const demoCounts = new Map<string, number>();
  for (const c of DEMO_CHARACTERS) for (const t of c.tags) demoCounts.set(t, (demoCounts.get(t) ?? 0) + 1);
  const demo = [...demoCounts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([t]) => t);
  return [...new Set([...demo, ...vocab.EXTRA_TAGS])].slice(0, size);
}

interface Pronouns {
  subject: string;
  object: string;
  has: string;
  is: string;
  verb: (base: string) => string;
}
const SHE: Pronouns = { subject: "she", object: "her", has: "has", is: "is", verb: conjugate };
const HE: Pronouns = { subject: "he", object: "him", has: "has", is: "is", verb: conjugate };
const THEY: Pronouns = { subject: "they", object: "them", has: "have", is: "are", verb: (v) => v };

/** One generated character (the columns seedSynthetic writes). */
export interface SyntheticCharacter {
  name: string;
  description: string;
  longDescription: string | null;
  personality: string;
  scenario: string | null;
  exampleConversation: string | null;
  greeting: string;
  tags: string[];
  isNsfw: boolean;
  isActive: boolean;
  views: number;
  favorites: number;
  messages: number;
  ratingUp: number;
  ratingDown: number;
  createdAt: number;
  /** Index into the creator pool. */
  creator: number;
}

/**
 * A deterministic generator of synthetic characters: the same `seed`, `now`
 * and pool size give the same sequence.
 */
export function syntheticGenerator(seed: number, now: number, creatorPool: number): () => SyntheticCharacter {
  const rnd = sfc32(seed);
  const pick = <T>(list: T[], sampler: (u: number) => number): T => list[sampler(rnd())]!;
  const uniform = <T>(list: T[]): T => list[Math.floor(rnd() * list.length)]!;

  const firstName = zipf(vocab.FIRST_NAMES.length, 0.9, 10);
  const surnameStart = zipf(vocab.SURNAME_STARTS.length, 0.8, 5);
  const surnameEnd = zipf(vocab.SURNAME_ENDS.length, 0.8, 5);
  const role = zipf(vocab.ROLES.length, 1.05, 6);
  const adjective = zipf(vocab.ADJECTIVES.length, 1.0, 8);
  const place = zipf(vocab.PLACES.length, 1.0, 6);
  const noun = zipf(vocab.NOUNS.length, 1.0, 8);
  const verb = zipf(vocab.VERBS.length, 1.0, 6);
  const trait = zipf(vocab.TRAITS.length, 0.9, 6);
  const tagNames = syntheticTagVocabulary();
  const tag = zipf(tagNames.length, 1.1, 2);
  const creator = zipf(creatorPool, 1.0, 5);
  const twoYears = 730 * DAY_MS;

  const surname = () => pick(vocab.SURNAME_STARTS, surnameStart) + pick(vocab.SURNAME_ENDS, surnameEnd);
  const r = () => pick(vocab.ROLES, role);
  const a = () => pick(vocab.ADJECTIVES, adjective);
  const p = () => pick(vocab.PLACES, place);
  const n = () => pick(vocab.NOUNS, noun);
  const v = () => pick(vocab.VERBS, verb);
  const t = () => pick(vocab.TRAITS, trait);

  const opening: ((name: string, pr: Pronouns) => string)[] = [
    (_, pr) => `${capitalize(article(a()))} ${r()} from the ${p()} who ${pr.verb(v())} ${n()}.`,
    (name, pr) => `${name} is ${article(a())} ${r()} who ${pr.verb(v())} ${n()} in the ${p()}.`,
    (_, pr) => `The most ${a()} ${r()} in the ${p()}, and the only one who ${pr.verb(v())} ${n()}.`,
    () => `${capitalize(a())} ${r()}, part-time ${r()}, full-time trouble.`,
    () => `${capitalize(article(r()))} with ${article(a())} past and a talent for finding ${n()}.`,
    () => `Exiled from the ${p()}, this ${a()} ${r()} now ${conjugate(v())} ${n()} for a living.`,
    (_, pr) => `Everyone in the ${p()} knows the ${a()} ${r()} who ${pr.verb(v())} ${n()}.`,
    () => `Once ${article(r())}, now ${article(a())} ${r()} with a taste for ${n()}.`,
  ];
  const hook: ((pr: Pronouns) => string)[] = [
    (pr) => `Tonight, ${pr.subject} ${pr.verb("need")} your help with ${n()}.`,
    (pr) => `Rumor says ${pr.subject} ${pr.verb(v())} ${n()} for the ${p()}.`,
    (pr) => `${capitalize(pr.subject)} ${pr.has} a soft spot for ${n()} and a grudge against ${n()}.`,
    (pr) => `You owe ${pr.object} a favor, and ${pr.subject} ${pr.has} come to collect.`,
    () => `Don't ask about the ${n()}.`,
    (pr) => `${capitalize(pr.subject)} ${pr.is} ${a()}, ${a()}, and far too interested in you.`,
    () => `Somewhere in the ${p()}, ${n()} are waiting to be found.`,
    (pr) => `Just don't mention ${n()} around ${pr.object}.`,
    () => `Voted the most ${a()} ${r()} in the ${p()} three years running.`,
    (pr) => `${capitalize(pr.subject)} ${pr.is} looking for ${n()}, and ${pr.subject} ${pr.verb("think")} you have them.`,
  ];

  return () => {
    const pr = rnd() < 0.46 ? SHE : rnd() < 0.85 ? HE : THEY;
    const first = pick(vocab.FIRST_NAMES, firstName);
    const nameStyle = rnd();
    const name =
      nameStyle < 0.72
        ? `${first} ${surname()}`
        : nameStyle < 0.86
          ? `${first} the ${capitalize(a())}`
          : `${first} of the ${titleCase(p())}`;
    const description = `${uniform(opening)(name, pr)} ${uniform(hook)(pr)}`;
    const traits = new Set<string>();
    while (traits.size < 4) traits.add(t());
    const [t1, t2, t3, t4] = [...traits];
    const personality =
      `${capitalize(t1!)}, ${t2} and ${t3}. ${capitalize(pr.subject)} ${pr.verb(v())} ${n()} when no one is watching, ` +
      `${pr.verb("love")} ${n()}, and cannot stand ${n()}.` +
      (rnd() < 0.5 ? ` Beneath it all, ${pr.subject} ${pr.is} ${t4}.` : "");
    const scenario =
      rnd() < 0.55
        ? rnd() < 0.5
          ? `{{user}} meets ${first} in the ${p()}, where ${n()} have started to go missing.`
          : `{{user}} is ${first}'s new ${r()}, and the first day in the ${p()} is not going to plan.`
        : null;
    const longDescription =
      rnd() < 0.35
        ? `${first} grew up in the ${p()} among ${n()} and ${n()}. These days ${pr.subject} ${pr.verb(v())} ${n()}, ` +
          `and ${pr.subject} ${pr.is} better at it than anyone would like.`
        : null;
    const exampleConversation =
      rnd() < 0.25
        ? `{{user}}: What do you want from me?\n{{char}}: "${capitalize(n())}. And maybe a little ${n()}."\n` +
          `{{user}}: That's all?\n{{char}}: *${first} smiles.* "For now."`
        : null;
    const greeting = `*${first} ${uniform(vocab.GREETING_ACTIONS)}.* "${uniform(vocab.GREETING_LINES)}"`;

    const tagCount = 2 + Math.floor(rnd() * 5);
    const chosen = new Set<string>();
    while (chosen.size < tagCount) chosen.add(pick(tagNames, tag));

    // Heavy tails: Pareto views (most characters are seen by few, some by very many),
    // with per-character favorite and message rates.
    const views = Math.min(5_000_000, Math.floor(20 * rnd() ** -0.9));
    const favorites = Math.floor(views * (0.002 + 0.06 * rnd() ** 2));
    const messages = Math.floor(views * Math.exp(rnd() * 3 - 1));
    const ratingUp = Math.floor(messages * 0.015 * rnd());
    const ratingDown = Math.floor(ratingUp * (0.02 + 0.35 * rnd() ** 3));
    // Growth: more characters were created recently than long ago.
    const createdAt = now - Math.floor(twoYears * rnd() ** 1.4);

    return {
      name,
      description,
      longDescription,
      personality,
      scenario,
      exampleConversation,
      greeting,
      tags: [...chosen],
      isNsfw: rnd() < 0.2,
      isActive: rnd() >= 0.02,
      views,
      favorites,
      messages,
      ratingUp,
      ratingDown,
      createdAt,
      creator: creator(rnd()),
    };
  };
}

export interface SyntheticOptions {
  /** PRNG seed (default 1); the same seed gives the same characters. */
  seed?: number;
  /** Called after each committed batch with the number of characters inserted so far. */
  onProgress?: (done: number) => void;
  /** Characters per transaction (default 25,000). */
  batchSize?: number;
  /** "Now" for ages and trending, ms since the epoch (default Date.now()). */
  now?: number;
}

/**
 * Inserts `count` generated characters (with creators from a pool of
 * synthetic users, and tag links) into the local D1 database, then runs
 * ANALYZE and `PRAGMA optimize` so the query planner has statistics.
 *
 * Shape of the data: ~20 % NSFW, ~2 % inactive, 2–6 tags each from a
 * 200-tag Zipf vocabulary, created over the last two years (more of them
 * recently), heavy-tailed counters, `avatar_url` null. All triggers fire.
 *
 * Speed: one connection, WAL without fsync (`synchronous=OFF`) and a large
 * page cache for the load, reused prepared statements, transactions of
 * `batchSize` rows, tag ids cached. The journal stays in WAL (as miniflare
 * leaves it) and is checkpointed before returning; `wrangler dev` opens the
 * file as usual afterwards. A load that is interrupted keeps its committed
 * batches; a power loss during one can damage the file (no fsync), so seed again.
 *
 * @returns characters inserted and the elapsed time in ms (FTS merge and ANALYZE included).
 */
export function seedSynthetic(dbFile: string, count: number, options: SyntheticOptions = {}): { inserted: number; ms: number } {
  const started = performance.now();
  const now = options.now ?? Date.now();
  const batchSize = options.batchSize ?? 25_000;
  const db = new DatabaseSync(dbFile);
  try {
    db.exec(`PRAGMA busy_timeout = 5000;
      PRAGMA journal_mode = WAL;
      PRAGMA synchronous = OFF;
      PRAGMA cache_size = -524288;
      PRAGMA temp_store = MEMORY;`);

    const creatorPool = Math.min(5000, Math.max(10, Math.ceil(count / 200)));
    const next = syntheticGenerator(options.seed ?? 1, now, creatorPool);
    const creators = ensureSyntheticCreators(db, creatorPool, options.seed ?? 1, now);
    const tagIds = ensureTags(db, syntheticTagVocabulary());

    const insert = db.prepare(INSERT_CHARACTER);
    const link = db.prepare(
      "INSERT INTO character_tags (character_id, tag_id, is_listed, is_nsfw) VALUES (?, ?, ?, ?)",
    );
    let inserted = 0;
    while (inserted < count) {
      const end = Math.min(count, inserted + batchSize);
      db.exec("BEGIN IMMEDIATE");
      try {
        for (; inserted < end; inserted++) insertSynthetic(insert, link, next(), creators, tagIds, now);
        db.exec("COMMIT");
      } catch (error) {
        db.exec("ROLLBACK");
        throw error;
      }
      options.onProgress?.(inserted);
    }
    // Merge the many FTS5 segments a bulk load leaves into one b-tree per
    // term: searches run about 20 % faster, for about 5 s at 10^6 rows.
    db.exec("INSERT INTO characters_fts (characters_fts) VALUES ('optimize')");
    db.exec("ANALYZE; PRAGMA optimize;");
    db.exec("PRAGMA wal_checkpoint(TRUNCATE);");
    return { inserted, ms: Math.round(performance.now() - started) };
  } finally {
    db.close();
  }
}

function insertSynthetic(
  insert: StatementSync,
  link: StatementSync,
  c: SyntheticCharacter,
  creators: { id: string; username: string }[],
  tagIds: Map<string, number>,
  now: number,
): void {
  const creator = creators[c.creator % creators.length]!;
  const nsfw = c.isNsfw ? 1 : 0;
  const active = c.isActive ? 1 : 0;
  const { lastInsertRowid } = insert.run(
    c.name,
    c.description,
    c.longDescription,
    creator.username,
    creator.id,
    null,
    JSON.stringify(c.tags),
    nsfw,
    active,
    c.views,
    ratingFromThumbs(c.ratingUp, c.ratingDown),
    c.ratingUp,
    c.ratingDown,
    c.favorites,
    c.messages,
    trendingSeedScore(c.createdAt, engagementOf(c.views, c.favorites, c.messages), now),
    c.personality,
    c.scenario,
    c.exampleConversation,
    c.greeting,
    "[]",
    null,
    null,
    c.createdAt,
    c.createdAt,
  );
  for (const name of c.tags) link.run(lastInsertRowid, tagIds.get(name)!, active, nsfw);
}

/** Creates (or finds) the tags by name; returns name → id. */
function ensureTags(db: DatabaseSync, names: string[]): Map<string, number> {
  const insert = db.prepare(INSERT_TAG);
  const select = db.prepare("SELECT id FROM tags WHERE lower(name) = lower(?)");
  const ids = new Map<string, number>();
  db.exec("BEGIN IMMEDIATE");
  for (const name of names) {
    insert.run(name, TAG_CATEGORIES[name] ?? null);
    ids.set(name, Number((select.get(name) as { id: number }).id));
  }
  db.exec("COMMIT");
  return ids;
}

/**
 * The synthetic creator accounts: usernames like "@mira_ashvale17" (handle,
 * the characters' `creator`, without the "@"; at most 29 characters so the
 * username stays within 30), emails at synthetic.fabled.local.
 */
function ensureSyntheticCreators(
  db: DatabaseSync,
  size: number,
  seed: number,
  now: number,
): { id: string; username: string }[] {
  const rnd = sfc32(seed ^ 0x5eed);
  const creators: { id: string; username: string }[] = [];
  db.exec("BEGIN IMMEDIATE");
  for (let i = 0; i < size; i++) {
    const first = vocab.FIRST_NAMES[Math.floor(rnd() * vocab.FIRST_NAMES.length)]!;
    const last =
      vocab.SURNAME_STARTS[Math.floor(rnd() * vocab.SURNAME_STARTS.length)]! +
      vocab.SURNAME_ENDS[Math.floor(rnd() * vocab.SURNAME_ENDS.length)]!;
    const username = `${first}_${last}${i}`.toLowerCase().slice(0, 29);
    const { id } = ensureUser(db, {
      username,
      email: `${username}@synthetic.fabled.local`,
      firstName: first,
      lastName: last,
      createdAt: now - Math.floor(rnd() * 800 * DAY_MS),
    });
    creators.push({ id, username });
  }
  db.exec("COMMIT");
  return creators;
}
