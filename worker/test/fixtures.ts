/**
 * Test data written through the same SQL paths the app uses (tag links copy
 * the character's flags, triggers keep counters), so tests see what users see.
 */
import { env } from "cloudflare:workers";
import { vi } from "vitest";
import { linkTagsStatements } from "../lib/catalog.ts";

export interface CharacterFixture {
  name?: string;
  description?: string;
  tags?: string[];
  isNsfw?: boolean;
  isActive?: boolean;
  trendingScore?: number;
  favoriteCount?: number;
  messageCount?: number;
  createdAt?: number;
  creatorId?: string | null;
  creator?: string;
}

let counter = 0;

/** Inserts a character (and its tag links); returns its id. */
export async function insertCharacter(fixture: CharacterFixture = {}): Promise<number> {
  counter += 1;
  const tags = fixture.tags ?? [];
  const row = await env.DB.prepare(
    `INSERT INTO characters (name, description, creator, creator_id, tags, is_nsfw, is_active,
       trending_score, favorite_count, message_count, created_at, personality, greeting)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
  )
    .bind(
      fixture.name ?? `Character ${counter}`,
      fixture.description ?? `A test character number ${counter}.`,
      fixture.creator ?? "tester",
      fixture.creatorId ?? null,
      JSON.stringify(tags),
      fixture.isNsfw ? 1 : 0,
      fixture.isActive === false ? 0 : 1,
      fixture.trendingScore ?? 0,
      fixture.favoriteCount ?? 0,
      fixture.messageCount ?? 0,
      fixture.createdAt ?? Date.now(),
      "Calm, curious and kind.",
      "Hello there.",
    )
    .first<{ id: number }>();
  const id = row!.id;
  if (tags.length > 0) await env.DB.batch(linkTagsStatements(env.DB, id, tags));
  return id;
}

/**
 * Character `id`'s view count once the views queue has counted at least
 * `atLeast` views of it (worker/lib/views.ts; the test queue delivers within
 * about a second): polls D1, fails after 4 s. Compare the result with the
 * exact number expected — a view counted twice shows as more.
 */
export async function viewCountOnceCounted(id: number, atLeast: number): Promise<number> {
  return vi.waitFor(
    async () => {
      const row = await env.DB.prepare("SELECT view_count AS n FROM characters WHERE id = ?").bind(id).first<{ n: number }>();
      if (!row || row.n < atLeast) throw new Error(`character ${id}: ${row?.n ?? "no row"} views counted, waiting for ${atLeast}`);
      return row.n;
    },
    { timeout: 4_000, interval: 50 },
  );
}

/** Removes every character and tag (tests of a file share one database). */
export async function clearCatalog(): Promise<void> {
  await env.DB.batch([env.DB.prepare("DELETE FROM characters"), env.DB.prepare("DELETE FROM tags")]);
}

export interface TestUser {
  id: string;
  username: string;
  /** `Cookie` header value carrying this user's session. */
  cookie: string;
}

let userCounter = 0;

/**
 * Creates a user and a real session (worker/lib/sessions.ts) and returns the
 * cookie a browser would send on http://localhost.
 */
export async function signIn(overrides: { username?: string; email?: string; firstName?: string } = {}): Promise<TestUser> {
  userCounter += 1;
  const id = crypto.randomUUID();
  const username = overrides.username ?? `@tester_${userCounter}_${id.slice(0, 6)}`;
  await env.DB.prepare(
    "INSERT INTO users (id, email, first_name, name, username) VALUES (?, ?, ?, ?, ?)",
  )
    .bind(id, overrides.email ?? `${id}@example.test`, overrides.firstName ?? "Tess", overrides.firstName ?? "Tess", username)
    .run();
  const { createSession } = await import("../lib/sessions.ts");
  const { token } = await createSession(env.DB, id);
  return { id, username, cookie: `fabled_session=${token}` };
}
