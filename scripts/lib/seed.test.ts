// Seeding into a freshly migrated SQLite file: counts, idempotency, and the
// invariants the triggers of migrations/0001 promise (tag counts, catalog
// counts, link flags, full-text search).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEMO_CHARACTERS, DEMO_CREATORS } from "../data/demo-characters.ts";
import { seedDemo, seedDemoIfEmpty, seedSynthetic, syntheticGenerator } from "./seed.ts";
import { ROOT } from "./tools.ts";

/** Applies migrations/*.sql in order, as wrangler does (statements split on drizzle's breakpoints). */
function migratedDatabase(dir: string): string {
  const file = join(dir, "d1.sqlite");
  const db = new DatabaseSync(file);
  const migrations = join(ROOT, "migrations");
  for (const name of readdirSync(migrations).filter((f) => f.endsWith(".sql")).sort()) {
    for (const statement of readFileSync(join(migrations, name), "utf8").split("--> statement-breakpoint")) {
      if (statement.trim()) db.exec(statement);
    }
  }
  db.exec("PRAGMA journal_mode = WAL");
  db.close();
  return file;
}

/** Every trigger-maintained number recomputed from the rows; returns the mismatches. */
function invariantViolations(db: DatabaseSync): unknown[] {
  const problems: unknown[] = [];
  problems.push(
    ...db
      .prepare(
        `SELECT t.name, t.count, t.sfw_count,
           (SELECT count(*) FROM character_tags ct JOIN characters c ON c.id = ct.character_id
             WHERE ct.tag_id = t.id AND c.is_active = 1) AS actual,
           (SELECT count(*) FROM character_tags ct JOIN characters c ON c.id = ct.character_id
             WHERE ct.tag_id = t.id AND c.is_active = 1 AND c.is_nsfw = 0) AS actual_sfw
         FROM tags t WHERE t.count != actual OR t.sfw_count != actual_sfw`,
      )
      .all(),
  );
  const counts = Object.fromEntries(
    (db.prepare("SELECT key, count FROM catalog_counts").all() as { key: string; count: number }[]).map((r) => [
      r.key,
      r.count,
    ]),
  );
  const all = (db.prepare("SELECT count(*) AS n FROM characters WHERE is_active = 1").get() as { n: number }).n;
  const sfw = (
    db.prepare("SELECT count(*) AS n FROM characters WHERE is_active = 1 AND is_nsfw = 0").get() as { n: number }
  ).n;
  if (counts.all !== all) problems.push({ catalog_counts: "all", stored: counts.all, actual: all });
  if (counts.sfw !== sfw) problems.push({ catalog_counts: "sfw", stored: counts.sfw, actual: sfw });
  problems.push(
    ...db
      .prepare(
        `SELECT ct.character_id, ct.tag_id FROM character_tags ct JOIN characters c ON c.id = ct.character_id
         WHERE ct.is_listed != c.is_active OR ct.is_nsfw != c.is_nsfw`,
      )
      .all(),
  );
  // characters.tags (JSON) and the join table name the same tags.
  problems.push(
    ...db
      .prepare(
        `SELECT c.id FROM characters c
         WHERE json_array_length(c.tags) != (SELECT count(*) FROM character_tags ct WHERE ct.character_id = c.id)
            OR EXISTS (SELECT 1 FROM json_each(c.tags) j
                       WHERE NOT EXISTS (SELECT 1 FROM character_tags ct JOIN tags t ON t.id = ct.tag_id
                                         WHERE ct.character_id = c.id AND t.name = j.value))`,
      )
      .all(),
  );
  return problems;
}

let dir: string;
let dbFile: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "fabled-seed-"));
  dbFile = migratedDatabase(dir);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("seedDemo", () => {
  it("inserts every demo character and creator, with exact counters and searchable text", () => {
    expect(seedDemo(dbFile)).toEqual({ characters: DEMO_CHARACTERS.length, users: DEMO_CREATORS.length });

    const db = new DatabaseSync(dbFile);
    const n = (sql: string, ...params: (string | number)[]) =>
      (db.prepare(sql).get(...params) as { n: number }).n;
    expect(n("SELECT count(*) AS n FROM characters")).toBe(DEMO_CHARACTERS.length);
    expect(n("SELECT count(*) AS n FROM users WHERE email LIKE '%@demo.fabled.local'")).toBe(DEMO_CREATORS.length);
    expect(n("SELECT count(*) AS n FROM characters WHERE creator_id IS NULL")).toBe(0);
    expect(n("SELECT count(*) AS n FROM characters c JOIN users u ON u.id = c.creator_id WHERE u.username = '@' || c.creator")).toBe(
      DEMO_CHARACTERS.length,
    );
    const distinctTags = new Set(DEMO_CHARACTERS.flatMap((c) => c.tags));
    expect(n("SELECT count(*) AS n FROM tags")).toBe(distinctTags.size);
    expect(n("SELECT count(*) AS n FROM character_tags")).toBe(DEMO_CHARACTERS.reduce((s, c) => s + c.tags.length, 0));
    const nsfw = DEMO_CHARACTERS.filter((c) => c.isNsfw).length;
    expect(n("SELECT count AS n FROM catalog_counts WHERE key = 'all'")).toBe(DEMO_CHARACTERS.length);
    expect(n("SELECT count AS n FROM catalog_counts WHERE key = 'sfw'")).toBe(DEMO_CHARACTERS.length - nsfw);
    expect(invariantViolations(db)).toEqual([]);

    // A word from a description finds that character through FTS5.
    const match = db
      .prepare("SELECT c.name FROM characters_fts f JOIN characters c ON c.id = f.rowid WHERE characters_fts MATCH ?")
      .all('"gargoyle"') as { name: string }[];
    expect(match.map((r) => r.name)).toContain("Grimsby the Gargoyle");
    const byDescription = db
      .prepare("SELECT c.name FROM characters_fts f JOIN characters c ON c.id = f.rowid WHERE characters_fts MATCH ?")
      .all('description : "apothecary"') as { name: string }[];
    expect(byDescription.map((r) => r.name)).toContain("Seraphine Vale");

    const kestrel = db
      .prepare("SELECT * FROM characters WHERE name = ?")
      .get("Kestrel (Unit K-7)") as Record<string, unknown>;
    const stats = DEMO_CHARACTERS.find((c) => c.slug === "kestrel-k7")!.stats;
    expect(kestrel.avatar_url).toBe("/avatars/demo/kestrel-k7.svg");
    // DESIGN.md "Rating", worked by hand for Kestrel's thumbs: 100 × (4,810 + 8) / (4,810 + 150 + 10) = 96.9…, shown as 97.
    expect([stats.ratingUp, stats.ratingDown]).toEqual([4810, 150]);
    expect([kestrel.rating_up, kestrel.rating_down, kestrel.rating]).toEqual([4810, 150, 97]);
    // Every other character's rating agrees with its stored thumbs by the same formula, computed here in SQL.
    expect(
      db
        .prepare("SELECT name FROM characters WHERE rating != CAST(round(100.0 * (rating_up + 8) / (rating_up + rating_down + 10)) AS INTEGER)")
        .all(),
    ).toEqual([]);
    expect(kestrel.comment_count).toBe(0);
    expect(kestrel.greeting).toMatch(/\*/);
    db.close();
  });

  it("adds nothing when run twice", () => {
    seedDemo(dbFile);
    expect(seedDemo(dbFile)).toEqual({ characters: 0, users: 0 });
    const db = new DatabaseSync(dbFile);
    expect((db.prepare("SELECT count(*) AS n FROM characters").get() as { n: number }).n).toBe(DEMO_CHARACTERS.length);
    expect(invariantViolations(db)).toEqual([]);
    db.close();
  });

  it("orders the demo by trending so recent, busy characters lead", () => {
    seedDemo(dbFile);
    const db = new DatabaseSync(dbFile);
    const top = db.prepare("SELECT name, created_at FROM characters ORDER BY trending_score DESC LIMIT 5").all() as {
      created_at: number;
    }[];
    const oldest = Math.min(...(db.prepare("SELECT created_at FROM characters").all() as { created_at: number }[]).map((r) => r.created_at));
    for (const row of top) expect(row.created_at).toBeGreaterThan(oldest + 30 * 24 * 3600 * 1000);
    db.close();
  });
});

describe("seedDemoIfEmpty", () => {
  it("seeds an empty catalog and leaves a non-empty one alone", async () => {
    await seedDemoIfEmpty(dbFile, dir);
    const db = new DatabaseSync(dbFile);
    db.exec("DELETE FROM characters WHERE id > 1");
    db.close();
    await seedDemoIfEmpty(dbFile, dir);
    const after = new DatabaseSync(dbFile);
    expect((after.prepare("SELECT count(*) AS n FROM characters").get() as { n: number }).n).toBe(1);
    after.close();
  });
});

describe("seedSynthetic", () => {
  it("inserts N characters that keep every trigger invariant", () => {
    const progress: number[] = [];
    const result = seedSynthetic(dbFile, 2000, { seed: 7, batchSize: 500, onProgress: (done) => progress.push(done) });
    expect(result.inserted).toBe(2000);
    expect(progress).toEqual([500, 1000, 1500, 2000]);

    const db = new DatabaseSync(dbFile);
    const n = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    expect(n("SELECT count(*) AS n FROM characters")).toBe(2000);
    expect(invariantViolations(db)).toEqual([]);

    const nsfw = n("SELECT count(*) AS n FROM characters WHERE is_nsfw = 1") / 2000;
    expect(nsfw).toBeGreaterThan(0.16);
    expect(nsfw).toBeLessThan(0.24);
    const inactive = n("SELECT count(*) AS n FROM characters WHERE is_active = 0");
    expect(inactive).toBeGreaterThan(10);
    expect(inactive).toBeLessThan(80);
    expect(n("SELECT count(*) AS n FROM characters WHERE json_array_length(tags) NOT BETWEEN 2 AND 6")).toBe(0);
    expect(n("SELECT count(*) AS n FROM characters WHERE creator_id IS NULL OR avatar_url IS NOT NULL")).toBe(0);
    expect(n("SELECT count(*) AS n FROM characters WHERE rating NOT BETWEEN 0 AND 100")).toBe(0);
    // Planner statistics exist afterwards.
    expect(n("SELECT count(*) AS n FROM sqlite_stat1")).toBeGreaterThan(0);
    db.close();
  });

  it("has a Zipf-shaped vocabulary: common words match a few per cent, rare ones a handful", () => {
    seedSynthetic(dbFile, 2000, { seed: 3 });
    const db = new DatabaseSync(dbFile);
    db.exec("CREATE VIRTUAL TABLE temp.vocab USING fts5vocab(main, 'characters_fts', 'row')");
    const docs = (db.prepare("SELECT doc FROM temp.vocab WHERE length(term) >= 4 ORDER BY doc DESC").all() as {
      doc: number;
    }[]).map((r) => r.doc);
    expect(docs.length).toBeGreaterThan(1500);
    // Some content words appear in 1–5 % of characters, and most words in very few.
    expect(docs.filter((d) => d >= 20 && d <= 100).length).toBeGreaterThan(10);
    expect(docs.filter((d) => d <= 3).length).toBeGreaterThan(docs.length / 3);

    // Tags: a long tail, the most used in a large share, the rarest in few.
    const tagCounts = (db.prepare("SELECT count FROM tags ORDER BY count DESC").all() as { count: number }[]).map(
      (r) => r.count,
    );
    expect(tagCounts.length).toBeGreaterThanOrEqual(150);
    expect(tagCounts[0]!).toBeGreaterThan(2000 * 0.15);
    expect(tagCounts.at(-1)!).toBeLessThan(2000 * 0.01);
    db.close();
  });

  it("is deterministic for a seed", () => {
    const now = Date.UTC(2026, 0, 1);
    const a = syntheticGenerator(42, now, 50);
    const b = syntheticGenerator(42, now, 50);
    const c = syntheticGenerator(43, now, 50);
    const first = [a(), a(), a()];
    expect([b(), b(), b()]).toEqual(first);
    expect(c().name === first[0]!.name && c().name === first[1]!.name).toBe(false);
  });

  it("adds to a catalog that already has the demo", () => {
    seedDemo(dbFile);
    seedSynthetic(dbFile, 300, { seed: 11 });
    const db = new DatabaseSync(dbFile);
    expect((db.prepare("SELECT count(*) AS n FROM characters").get() as { n: number }).n).toBe(
      DEMO_CHARACTERS.length + 300,
    );
    expect(invariantViolations(db)).toEqual([]);
    db.close();
  });
});
