/**
 * The trending score has one definition in SQL (the `trending_events` view of
 * migrations/0005) and one in TypeScript (worker/lib/trending.ts). These tests
 * check that the two read the same half-life and give the same score for
 * every writer: a favorite (weight 1), a comment (weight 2) and the chat's
 * counters (weight = the person's messages).
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { recordChatActivity } from "../../durable-objects/room/d1-sync.ts";
import { postComment, toggleFavorite } from "../lib/community.ts";
import { TRENDING_HALF_LIFE_MS, trendingAdd, trendingEventScore } from "../lib/trending.ts";
import { insertCharacter, signIn } from "./fixtures.ts";

/**
 * D1's clock and this isolate's are both the machine's, but the isolate's
 * moves only between I/O: the event's time is known to within this, ms.
 */
const CLOCK_SLACK_MS = 2_000;

async function score(characterId: number): Promise<number> {
  const row = await env.DB.prepare("SELECT trending_score AS s FROM characters WHERE id = ?").bind(characterId).first<{ s: number }>();
  return row!.s;
}

/**
 * Runs `write` on a character whose score is one event a minute old, and
 * checks the new score is what trendingAdd gives for an event of `weight`
 * at the time of the write (bounded by the clock before and after).
 */
async function expectEventOf(weight: number, write: (characterId: number) => Promise<unknown>): Promise<void> {
  const start = trendingEventScore(Date.now() - 60_000);
  const characterId = await insertCharacter({ trendingScore: start });
  const before = Date.now() - CLOCK_SLACK_MS;
  await write(characterId);
  const after = Date.now() + CLOCK_SLACK_MS;
  const stored = await score(characterId);
  expect(stored).toBeGreaterThanOrEqual(trendingAdd(start, before, weight) - 1e-9);
  expect(stored).toBeLessThanOrEqual(trendingAdd(start, after, weight) + 1e-9);
  // The bounds are tight enough to tell weights apart: one more unit of weight is outside them.
  expect(trendingAdd(start, after, weight)).toBeLessThan(trendingAdd(start, before, weight + 1));
}

describe("trending score: SQL and TypeScript agree", () => {
  it("D1's trending_constants.half_life_ms is TRENDING_HALF_LIFE_MS (3 days)", async () => {
    const row = await env.DB.prepare("SELECT half_life_ms AS h FROM trending_constants").first<{ h: number }>();
    expect(row!.h).toBe(TRENDING_HALF_LIFE_MS);
    expect(TRENDING_HALF_LIFE_MS).toBe(3 * 24 * 60 * 60 * 1000);
  });

  it("a favorite adds an event of weight 1", async () => {
    const user = await signIn();
    await expectEventOf(1, (id) => toggleFavorite(env.DB, id, user.id));
  });

  it("a comment adds an event of weight 2", async () => {
    const user = await signIn();
    await expectEventOf(2, (id) => postComment(env.DB, { characterId: id, userId: user.id, content: "Lovely.", parentId: null }));
  });

  it("the chat's counters add an event weighing the person's messages", async () => {
    const user = await signIn();
    await expectEventOf(3, async (characterId) => {
      const conversationId = crypto.randomUUID();
      await env.DB.prepare("INSERT INTO conversations (id, character_id, user_id, title) VALUES (?, ?, ?, 'Chat')")
        .bind(conversationId, characterId, user.id)
        .run();
      await recordChatActivity(env.DB, { conversationId, characterId, messages: 6, userMessages: 3, lastAt: Date.now(), preview: "Hi" });
    });
  });

  it("an unfavorite takes nothing back (the engagement happened)", async () => {
    const user = await signIn();
    const characterId = await insertCharacter({ trendingScore: trendingEventScore(Date.now()) });
    await toggleFavorite(env.DB, characterId, user.id);
    const favorited = await score(characterId);
    await toggleFavorite(env.DB, characterId, user.id);
    expect(await score(characterId)).toBe(favorited);
  });
});
