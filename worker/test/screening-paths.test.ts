/**
 * Issue 21 "Safety on every path", from the attacker's side: text the offline
 * screen refuses (S4) is refused on every write of text — not only where it
 * was screened before — with 422 `content_refused` and nothing stored; and
 * the whole text is screened (no unscreened tail, no phrase lost at a cut
 * between windows). The room's frames are in room-screening-paths.test.ts.
 */
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import type { Character } from "../../schema/api.ts";
import { SCREEN_WINDOW_CHARS } from "../../ai/moderation/whole-text.ts";
import { OpenAIModerator } from "../../ai/moderation/openai-moderations.ts";
import { ApiError } from "../lib/errors.ts";
import { CHARACTER_REFUSED_MESSAGE, CONTENT_REFUSED_MESSAGE, characterText, MAX_SCREENED_CHARS, screenWrite } from "../lib/screening.ts";
import { call, countRows, json } from "./creator-api.ts";
import { clearCatalog, insertCharacter, signIn, type TestUser } from "./fixtures.ts";

const base = {
  name: "Harbor Witch",
  description: "A sea witch who trades in storms and secrets.",
  personality: "Sly, generous to sailors, allergic to cats.",
};

/** Offline-screen S4 on an NSFW character (rule 1a: a stated age under 18 with the NSFW flag). */
const S4_TEXT = "She is 15 years old.";
/** Offline-screen S4 on any text (rule 1a: a stated age under 18 and a sexual term). */
const S4_ANYWHERE = "She is 15 years old and naked.";

const REFUSED = { error: CHARACTER_REFUSED_MESSAGE, code: "content_refused" };
const CONTENT_REFUSED = { error: CONTENT_REFUSED_MESSAGE, code: "content_refused" };

/** Calm filler the offline screen has nothing to say about, `n` characters long. */
const filler = (n: number) => "The tide comes in. ".repeat(Math.ceil(n / 19)).slice(0, n);

let mira: TestUser;

beforeEach(async () => {
  await clearCatalog();
  await env.DB.batch([env.DB.prepare("DELETE FROM moderation_log"), env.DB.prepare("DELETE FROM reports")]);
  mira = await signIn();
});

const create = (body: Record<string, unknown>) => call("/api/characters", { method: "POST", user: mira, body: { ...base, ...body } });

async function refusedAndNothingStored(res: Response) {
  expect(await json(res, 422)).toMatchObject(REFUSED);
  expect(await countRows("characters")).toBe(0);
}

describe("a character's lorebook", () => {
  it("S4 in an entry's keys is refused", async () => {
    await refusedAndNothingStored(
      await create({ isNsfw: true, characterBook: { entries: [{ keys: ["15 years old"], content: "The harbor at dusk." }] } }),
    );
  });

  it("S4 in an entry's comment is refused", async () => {
    await refusedAndNothingStored(
      await create({ isNsfw: true, characterBook: { entries: [{ keys: ["harbor"], comment: S4_TEXT, content: "The harbor." }] } }),
    );
  });

  it("S4 in the book's description, name or an entry's extensions is refused", async () => {
    for (const characterBook of [
      { description: S4_TEXT, entries: [] },
      { name: S4_TEXT, entries: [] },
      { entries: [{ keys: ["harbor"], content: "The harbor.", extensions: { note: S4_TEXT } }] },
    ]) {
      await refusedAndNothingStored(await create({ isNsfw: true, characterBook }));
    }
  });
});

describe("the rest of a character's fields", () => {
  it("S4 in an alternate greeting, the tags or the creator notes is refused", async () => {
    await refusedAndNothingStored(await create({ isNsfw: true, alternateGreetings: ["Hello.", S4_TEXT] }));
    await refusedAndNothingStored(await create({ creatorNotes: S4_ANYWHERE }));
  });

  it("S4 in the shown creator name of an update is refused and the name is kept", async () => {
    const created = await json<Character>(await create({ isNsfw: true }), 201);
    const res = await call(`/api/characters/${created.id}`, { method: "PUT", user: mira, body: { creator: "15 years old" } });
    expect(await json(res, 422)).toMatchObject(REFUSED);
    expect((await json<Character>(await call(`/api/characters/${created.id}`, { user: mira }), 200)).creator).toBe(created.creator);
  });
});

describe("a card's extensions", () => {
  it("S4 in extensions.depth_prompt of an imported card is refused; nothing stored", async () => {
    const card = {
      spec: "chara_card_v2",
      spec_version: "2.0",
      data: {
        ...base,
        first_mes: "Hi.",
        tags: ["nsfw"],
        extensions: { depth_prompt: { prompt: S4_TEXT, depth: 4 } },
      },
    };
    const res = await call("/api/characters/import", {
      method: "POST",
      user: mira,
      body: new TextEncoder().encode(JSON.stringify(card)),
      headers: { "content-type": "application/json" },
    });
    await refusedAndNothingStored(res);
  });

  it("S4 in an unknown card field (kept and given back on export) is refused", async () => {
    const card = { spec: "chara_card_v2", spec_version: "2.0", data: { ...base, first_mes: "Hi.", backstory: S4_ANYWHERE } };
    const res = await call("/api/characters/import", {
      method: "POST",
      user: mira,
      body: new TextEncoder().encode(JSON.stringify(card)),
      headers: { "content-type": "application/json" },
    });
    await refusedAndNothingStored(res);
  });
});

describe("the whole text", () => {
  it("S4 past the first 8 × 12,000 characters is refused, not flagged and published", async () => {
    const res = await create({
      isNsfw: true,
      longDescription: filler(45_000),
      personality: filler(45_000),
      exampleConversation: filler(20_000),
      scenario: S4_TEXT,
    });
    await refusedAndNothingStored(res);
  });

  it("S4 split across the cut between two windows is refused", async () => {
    // Where the phrase lands for a given length of filler before it, then the filler that puts the cut inside "years".
    const withFiller = (n: number) => `${filler(n)} ${S4_TEXT} ${filler(5000)}`;
    const at = characterText({ ...base, isNsfw: true, longDescription: withFiller(1000) }).indexOf(S4_TEXT);
    const longDescription = withFiller(1000 + SCREEN_WINDOW_CHARS - "She is 15 ye".length - at);
    const text = characterText({ ...base, isNsfw: true, longDescription });
    expect(text.slice(SCREEN_WINDOW_CHARS - 12, SCREEN_WINDOW_CHARS + 8)).toBe("She is 15 years old.");
    await refusedAndNothingStored(await create({ isNsfw: true, longDescription }));
  });

  it("a long clean character is stored and not flagged", async () => {
    const created = await json<Character>(await create({ longDescription: filler(49_000), personality: filler(49_000) }), 201);
    expect(created.moderationStatus).toBe("ok");
  });
});

describe("the other writes of text", () => {
  const refusals = () => env.DB.prepare("SELECT subject_type AS subjectType, outcome FROM moderation_log").all();

  it("a public comment with S4 is refused and not stored; a clean one is", async () => {
    const id = await insertCharacter({ name: "Quill" });
    const post = (content: string) => call(`/api/characters/${id}/comments`, { method: "POST", user: mira, body: { content } });
    expect(await json(await post(S4_ANYWHERE), 422)).toMatchObject(CONTENT_REFUSED);
    expect(await countRows("comments")).toBe(0);
    expect((await refusals()).results).toEqual([{ subjectType: "comment", outcome: "refused" }]);
    await json(await post("Lovely storm scenes."), 201);
    expect(await countRows("comments")).toBe(1);
  });

  it("on an NSFW character a comment stating a minor's age is refused (judged with the character's flag)", async () => {
    const id = await insertCharacter({ name: "Velvet", isNsfw: true });
    const res = await call(`/api/characters/${id}/comments`, { method: "POST", user: mira, body: { content: S4_TEXT } });
    expect(await json(res, 422)).toMatchObject(CONTENT_REFUSED);
    expect(await countRows("comments")).toBe(0);
  });

  it("a persona whose description or name has S4 is refused on create and on update; nothing changes", async () => {
    const create = await call("/api/personas", { method: "POST", user: mira, body: { name: "Rook", description: S4_ANYWHERE } });
    expect(await json(create, 422)).toMatchObject(CONTENT_REFUSED);
    expect(await countRows("personas", "user_id = ?", mira.id)).toBe(0);
    const persona = await json<{ id: string }>(
      await call("/api/personas", { method: "POST", user: mira, body: { name: "Rook", description: "A tired courier." } }),
      201,
    );
    const update = await call(`/api/personas/${persona.id}`, { method: "PUT", user: mira, body: { description: S4_ANYWHERE } });
    expect(await json(update, 422)).toMatchObject(CONTENT_REFUSED);
    const named = await call(`/api/personas/${persona.id}`, { method: "PUT", user: mira, body: { name: "15 years old and naked" } });
    expect(await json(named, 422)).toMatchObject(CONTENT_REFUSED);
    const row = await env.DB.prepare("SELECT name, description FROM personas WHERE id = ?").bind(persona.id).first();
    expect(row).toEqual({ name: "Rook", description: "A tired courier." });
  });

  it("a profile name with S4 is refused and the profile keeps its name", async () => {
    const before = await env.DB.prepare("SELECT name, username FROM users WHERE id = ?").bind(mira.id).first();
    const res = await call("/api/profile", { method: "PUT", user: mira, body: { name: "15 years old and naked", username: "@mira_new" } });
    expect(await json(res, 422)).toMatchObject(CONTENT_REFUSED);
    expect(await env.DB.prepare("SELECT name, username FROM users WHERE id = ?").bind(mira.id).first()).toEqual(before);
  });

  it("a bio with S4 is refused and the profile keeps its bio", async () => {
    const username = (await env.DB.prepare("SELECT username FROM users WHERE id = ?").bind(mira.id).first<string>("username"))!;
    const res = await call("/api/profile", { method: "PUT", user: mira, body: { name: "Mira", username, bio: S4_ANYWHERE } });
    expect(await json(res, 422)).toMatchObject(CONTENT_REFUSED);
    expect(await env.DB.prepare("SELECT bio FROM users WHERE id = ?").bind(mira.id).first("bio")).toBeNull();
  });

  it("a conversation title with S4 is refused and no conversation is started", async () => {
    const id = await insertCharacter({ name: "Quill" });
    const res = await call("/api/conversations", { method: "POST", user: mira, body: { characterId: id, title: S4_ANYWHERE } });
    expect(await json(res, 422)).toMatchObject(CONTENT_REFUSED);
    expect(await countRows("conversations", "user_id = ?", mira.id)).toBe(0);
  });

  it("an imported chat with S4 in a message or a swipe is refused and nothing is stored", async () => {
    const id = await insertCharacter({ name: "Quill" });
    const header = JSON.stringify({ user_name: "Traveler", character_name: "Quill", create_date: "2024-09-28@01h02m00s" });
    const line = (mes: string, isUser: boolean, swipes?: string[]) =>
      JSON.stringify({ name: isUser ? "Traveler" : "Quill", is_user: isUser, send_date: "September 28, 2024 1:03am", mes, ...(swipes ? { swipes } : {}) });
    for (const file of [
      [header, line("Hello there.", false), line(S4_ANYWHERE, true)],
      [header, line("Hello there.", false), line("Hi.", true), line("A calm reply.", false, ["A calm reply.", S4_ANYWHERE])],
    ]) {
      const res = await call(`/api/conversations/import?characterId=${id}`, {
        method: "POST",
        user: mira,
        body: new TextEncoder().encode(file.join("\n")),
        headers: { "content-type": "application/jsonl" },
      });
      expect(await json(res, 422)).toMatchObject(CONTENT_REFUSED);
    }
    expect(await countRows("conversations", "user_id = ?", mira.id)).toBe(0);
  });
});

describe("what cannot be screened is not stored", () => {
  it("a provider that fails answers 503 with Retry-After for any write (fail closed), logged", async () => {
    const failing = new OpenAIModerator({ baseUrl: env.OPENAI_BASE_URL, apiKey: "test-key" });
    const request = { subjectType: "comment" as const, text: "MOD-500", nsfw: false, who: { userId: mira.id } };
    const error = await screenWrite(env, request, failing).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "unavailable", status: 503, retryAfter: 60 });
    expect(error).toBeInstanceOf(ApiError);
    expect((await env.DB.prepare("SELECT subject_type AS subjectType, outcome FROM moderation_log").all()).results).toEqual([
      { subjectType: "comment", outcome: "error" },
    ]);
  });

  it("text longer than MAX_SCREENED_CHARS is refused with 413 before any provider call", async () => {
    const failing = new OpenAIModerator({ baseUrl: env.OPENAI_BASE_URL, apiKey: "test-key" });
    const request = { subjectType: "conversation" as const, text: "a".repeat(MAX_SCREENED_CHARS + 1), nsfw: false, who: { userId: mira.id } };
    expect(await screenWrite(env, request, failing).catch((e: unknown) => e)).toMatchObject({ code: "payload_too_large", status: 413 });
  });
});
