/**
 * Screening of characters as a creator meets it, with the offline screen
 * (ai/moderation/; tests run MODERATION_PROVIDER=offline): S4 is
 * refused with 422 and nothing is stored (create, update, card import), other
 * categories on a character not marked NSFW are stored but flagged with an
 * automatic report, and a provider that fails answers 503 with nothing
 * stored. Every refusal and flag is in the moderation log.
 */
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import type { Character, CharacterListResponse } from "../../schema/api.ts";
import { ApiError } from "../lib/errors.ts";
import { OpenAIModerator } from "../../ai/moderation/openai-moderations.ts";
import { CHARACTER_REFUSED_MESSAGE, screenCharacter } from "../lib/screening.ts";
import { bucketKeys, call, countRows, json } from "./creator-api.ts";
import { clearCatalog, signIn, type TestUser } from "./fixtures.ts";

const base = {
  name: "Harbor Witch",
  description: "A sea witch who trades in storms and secrets.",
  personality: "Sly, generous to sailors, allergic to cats.",
};

/** Offline-screen S4: an NSFW character whose text states an age under 18. */
const S4_TEXT = "She is 15 years old.";

const REFUSED = { error: CHARACTER_REFUSED_MESSAGE, code: "content_refused" };

let mira: TestUser;

beforeEach(async () => {
  await clearCatalog();
  await env.DB.batch([env.DB.prepare("DELETE FROM moderation_log"), env.DB.prepare("DELETE FROM reports")]);
  mira = await signIn();
});

const create = (body: Record<string, unknown>) => call("/api/characters", { method: "POST", user: mira, body: { ...base, ...body } });
const log = () =>
  env.DB.prepare("SELECT subject_type AS subjectType, subject_id AS subjectId, user_id AS userId, outcome, categories FROM moderation_log ORDER BY id").all();

describe("creating a character", () => {
  it("S4 is refused with 422 in a plain sentence; nothing is stored; the attempt is logged", async () => {
    expect(await json(await create({ isNsfw: true, personality: S4_TEXT }), 422)).toMatchObject(REFUSED);
    expect(await countRows("characters")).toBe(0);
    expect((await log()).results).toEqual([
      { subjectType: "character", subjectId: null, userId: mira.id, outcome: "refused", categories: '["S4"]' },
    ]);
  });

  it("another category on a character not marked NSFW is stored, flagged, reported for review and still listed", async () => {
    const created = await json<Character>(await create({ scenario: "[[moderation:S10]] A rally in the square." }), 201);
    expect(created.moderationStatus).toBe("flagged");
    expect(await json(await call(`/api/characters/${created.id}`, { user: mira }), 200)).toMatchObject({ moderationStatus: "flagged" });
    const report = await env.DB.prepare("SELECT reporter_id AS reporterId, target_id AS targetId, status, details FROM reports").first();
    expect(report).toEqual({ reporterId: null, targetId: String(created.id), status: "open", details: "Automatic screening: S10" });
    expect((await log()).results).toMatchObject([{ subjectId: String(created.id), outcome: "flagged", categories: '["S10"]' }]);
    expect((await json<CharacterListResponse>(await call("/api/characters"), 200)).total).toBe(1);
  });

  it("the same category on an NSFW character, and sexual text on one, are stored without a flag", async () => {
    const violent = await json<Character>(await create({ isNsfw: true, scenario: "[[moderation:S10]] A rally." }), 201);
    const explicit = await json<Character>(await create({ isNsfw: true, scenario: "An erotic masquerade." }), 201);
    expect([violent.moderationStatus, explicit.moderationStatus]).toEqual(["ok", "ok"]);
    expect(await countRows("reports")).toBe(0);
  });

  it("a clean character is ok and nothing is logged", async () => {
    expect((await json<Character>(await create({}), 201)).moderationStatus).toBe("ok");
    expect(await countRows("moderation_log")).toBe(0);
  });
});

describe("updating a character", () => {
  it("an edit that adds S4 is refused and the character keeps its text", async () => {
    const created = await json<Character>(await create({ isNsfw: true }), 201);
    const res = await call(`/api/characters/${created.id}`, { method: "PUT", user: mira, body: { scenario: S4_TEXT } });
    expect(await json(res, 422)).toMatchObject(REFUSED);
    expect(await json(await call(`/api/characters/${created.id}`, { user: mira }), 200)).toMatchObject({ scenario: null });
    expect((await log()).results).toMatchObject([{ subjectId: String(created.id), outcome: "refused" }]);
  });

  it("turning on NSFW for a character whose text states a minor's age is refused", async () => {
    const created = await json<Character>(await create({ description: "A 16-year-old apprentice sailor." }), 201);
    expect(created.moderationStatus).toBe("ok");
    const res = await call(`/api/characters/${created.id}`, { method: "PUT", user: mira, body: { isNsfw: true } });
    expect(await json(res, 422)).toMatchObject(REFUSED);
    expect(await json(await call(`/api/characters/${created.id}`, { user: mira }), 200)).toMatchObject({ isNsfw: false });
  });

  it("an edit that adds another category flags the character", async () => {
    const created = await json<Character>(await create({}), 201);
    const res = await call(`/api/characters/${created.id}`, {
      method: "PUT",
      user: mira,
      body: { greeting: "[[moderation:S1]] Hand over the cargo." },
    });
    expect((await json<Character>(res, 200)).moderationStatus).toBe("flagged");
    expect(await countRows("reports", "reporter_id IS NULL AND target_id = ?", String(created.id))).toBe(1);
  });
});

describe("importing a card", () => {
  it("an S4 card is refused and leaves no character and no avatar behind", async () => {
    const before = await bucketKeys();
    const card = {
      spec: "chara_card_v2",
      spec_version: "2.0",
      data: { ...base, description: "Explicit and naked. She is twelve years old.", personality: "shy", first_mes: "Hi." },
    };
    const res = await call("/api/characters/import", {
      method: "POST",
      user: mira,
      body: new TextEncoder().encode(JSON.stringify(card)),
      headers: { "content-type": "application/json" },
    });
    expect(await json(res, 422)).toMatchObject(REFUSED);
    expect(await countRows("characters")).toBe(0);
    expect(await bucketKeys()).toEqual(before);
  });
});

describe("a moderation provider that fails", () => {
  it("is 503 with Retry-After for the creator (nothing stored) and an error in the log", async () => {
    const failing = new OpenAIModerator({ baseUrl: env.OPENAI_BASE_URL, apiKey: "test-key" });
    const character = {
      ...base,
      description: "MOD-500",
      longDescription: null,
      scenario: null,
      exampleConversation: null,
      greeting: null,
      alternateGreetings: [],
      systemPrompt: null,
      postHistoryInstructions: null,
      creatorNotes: null,
      characterBook: null,
      tags: [],
      isNsfw: false,
    };
    const error = await screenCharacter(env, character, { userId: mira.id, characterId: null }, failing).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: "unavailable", status: 503, retryAfter: 60 });
    expect((await log()).results).toMatchObject([{ outcome: "error", userId: mira.id }]);
  });
});
