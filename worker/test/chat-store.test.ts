/**
 * The chat's D1 functions (durable-objects/room/d1-sync.ts), called directly on the
 * test database: what the ConversationRoom reads and writes in D1.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  addReplyRating,
  messagePreview,
  PREVIEW_LENGTH,
  readReplyCharacter,
  recordChatActivity,
} from "../../durable-objects/room/d1-sync.ts";
import { insertCharacter, signIn } from "./fixtures.ts";

async function characterRow(id: number) {
  return (await env.DB.prepare(
    `SELECT message_count AS messageCount, rating, rating_up AS ratingUp, rating_down AS ratingDown,
       trending_score AS trendingScore FROM characters WHERE id = ?`,
  )
    .bind(id)
    .first<{ messageCount: number; rating: number; ratingUp: number; ratingDown: number; trendingScore: number }>())!;
}

async function conversationRow(id: string) {
  return (await env.DB.prepare(
    "SELECT last_message_at AS lastAt, last_message_preview AS preview, updated_at AS updatedAt FROM conversations WHERE id = ?",
  )
    .bind(id)
    .first<{ lastAt: number | null; preview: string | null; updatedAt: number }>())!;
}

/** A bare conversations row (no room): what recordChatActivity updates. */
async function insertConversation(characterId: number, createdAt = 1_000): Promise<string> {
  const user = await signIn();
  const id = crypto.randomUUID();
  await env.DB.prepare(
    "INSERT INTO conversations (id, character_id, user_id, title, created_at, updated_at) VALUES (?, ?, ?, 'Chat', ?, ?)",
  )
    .bind(id, characterId, user.id, createdAt, createdAt)
    .run();
  return id;
}

describe("messagePreview", () => {
  it("folds white space, trims, and keeps at most PREVIEW_LENGTH characters", () => {
    expect(messagePreview("  *waves*\n\n  Hello\tthere  ")).toBe("*waves* Hello there");
    expect(messagePreview("word ".repeat(100))).toHaveLength(PREVIEW_LENGTH);
    expect(PREVIEW_LENGTH).toBe(140);
  });
});

describe("readReplyCharacter", () => {
  it("reads the card's prompt fields, with the lorebook as an object; creator notes never", async () => {
    const id = await insertCharacter({ name: "Orla", isActive: false });
    const book = { name: "Gull Rock", entries: [{ keys: ["lamp"], content: "The lamp never goes out." }] };
    await env.DB.prepare(
      `UPDATE characters SET long_description = 'Keeps the light.', scenario = 'A storm.', example_conversation = '<START>',
         system_prompt = 'Be Orla.', post_history_instructions = 'Stay brief.', character_book = ?, creator_notes = 'secret'
       WHERE id = ?`,
    )
      .bind(JSON.stringify(book), id)
      .run();
    expect(await readReplyCharacter(env.DB, id)).toEqual({
      name: "Orla",
      description: expect.any(String),
      longDescription: "Keeps the light.",
      personality: "Calm, curious and kind.",
      scenario: "A storm.",
      exampleConversation: "<START>",
      greeting: "Hello there.",
      systemPrompt: "Be Orla.",
      postHistoryInstructions: "Stay brief.",
      characterBook: book,
      isNsfw: false,
      isActive: false,
      expressions: [],
    });
  });

  it("a character removed by moderation reads as none: its chats get no more replies", async () => {
    const id = await insertCharacter({ isNsfw: true });
    expect(await readReplyCharacter(env.DB, id)).toMatchObject({ isNsfw: true });
    await env.DB.prepare("UPDATE characters SET moderation_status = 'removed', is_active = 0 WHERE id = ?").bind(id).run();
    expect(await readReplyCharacter(env.DB, id)).toBeNull();
  });

  it("a lorebook that is not a JSON object reads as none; a missing character as null", async () => {
    const id = await insertCharacter();
    for (const stored of ["[1, 2]", "not json", "42"]) {
      await env.DB.prepare("UPDATE characters SET character_book = ? WHERE id = ?").bind(stored, id).run();
      expect((await readReplyCharacter(env.DB, id))?.characterBook).toBeNull();
    }
    expect(await readReplyCharacter(env.DB, 987_654_321)).toBeNull();
  });
});

describe("recordChatActivity", () => {
  it("moves the conversation's last message, preview and updated_at forward, never back", async () => {
    const characterId = await insertCharacter();
    const conversationId = await insertConversation(characterId);
    const activity = { conversationId, characterId, messages: 0, userMessages: 0 };

    await recordChatActivity(env.DB, { ...activity, lastAt: 5_000, preview: "newer" });
    expect(await conversationRow(conversationId)).toEqual({ lastAt: 5_000, preview: "newer", updatedAt: 5_000 });

    // An older write arriving late changes nothing.
    await recordChatActivity(env.DB, { ...activity, lastAt: 4_000, preview: "older" });
    expect(await conversationRow(conversationId)).toEqual({ lastAt: 5_000, preview: "newer", updatedAt: 5_000 });

    // Nothing counted: the character is not touched.
    expect((await characterRow(characterId)).messageCount).toBe(0);
  });

  it("counts every message; only the person's messages add to the trending score", async () => {
    const characterId = await insertCharacter({ trendingScore: 0 });
    const conversationId = await insertConversation(characterId);

    await recordChatActivity(env.DB, { conversationId, characterId, messages: 1, userMessages: 0, lastAt: 6_000, preview: "reply" });
    expect(await characterRow(characterId)).toMatchObject({ messageCount: 1, trendingScore: 0 });

    await recordChatActivity(env.DB, { conversationId, characterId, messages: 2, userMessages: 1, lastAt: 7_000, preview: "both" });
    const after = await characterRow(characterId);
    expect(after.messageCount).toBe(3);
    expect(after.trendingScore).toBeGreaterThan(0);
    expect(await conversationRow(conversationId)).toMatchObject({ lastAt: 7_000, preview: "both" });
  });

  it("a conversation or character that no longer exists is not an error", async () => {
    await expect(
      recordChatActivity(env.DB, {
        conversationId: crypto.randomUUID(),
        characterId: 987_654_321,
        messages: 2,
        userMessages: 1,
        lastAt: 1,
        preview: "gone",
      }),
    ).resolves.toBeUndefined();
  });
});

describe("addReplyRating", () => {
  it("moves the thumbs and keeps rating = round(100 × (up + 8) / (up + down + 10))", async () => {
    const id = await insertCharacter();
    expect(await characterRow(id)).toMatchObject({ ratingUp: 0, ratingDown: 0 });

    await addReplyRating(env.DB, id, { up: 1, down: 0 });
    expect(await characterRow(id)).toMatchObject({ ratingUp: 1, ratingDown: 0, rating: 82 });

    await addReplyRating(env.DB, id, { up: 1, down: 0 });
    await addReplyRating(env.DB, id, { up: 0, down: 1 });
    // up 2, down 1: 100 × 10 / 13 = 76.9
    expect(await characterRow(id)).toMatchObject({ ratingUp: 2, ratingDown: 1, rating: 77 });

    // A thumb switched from up to down.
    await addReplyRating(env.DB, id, { up: -1, down: 1 });
    expect(await characterRow(id)).toMatchObject({ ratingUp: 1, ratingDown: 2, rating: 69 });

    await addReplyRating(env.DB, id, { up: -1, down: -2 });
    expect(await characterRow(id)).toMatchObject({ ratingUp: 0, ratingDown: 0, rating: 80 });
  });
});
