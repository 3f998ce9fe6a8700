/**
 * `POST /api/images/avatars` and `GET /api/images/usage` (DESIGN.md
 * "Pictures"): an avatar drawn from a description is the person's own
 * upload, served like one and accepted as their character's `avatarUrl`
 * (and refused as anyone else's); a refused description draws nothing; the
 * allowance is shared with pictures imagined in chats; visitors and bad
 * bodies get the JSON error shape. A character's "Appearance for pictures"
 * is kept in its card's extensions: stored, shown, exported, imported.
 */
import { env } from "cloudflare:workers";
import { decode } from "fast-png";
import { describe, expect, it } from "vitest";
import type { Character, DrawnAvatarResponse, ImageUsageResponse } from "../../schema/api.ts";
import { call, json } from "./creator-api.ts";
import { signIn } from "./fixtures.ts";

const draw = (user: Awaited<ReturnType<typeof signIn>> | undefined, body: unknown) => call("/api/images/avatars", { method: "POST", user, body });

describe("POST /api/images/avatars", () => {
  it("draws a PNG from the description, the person's own upload, usable as their character's avatar", async () => {
    const mira = await signIn();
    const drawn = await json<DrawnAvatarResponse>(await draw(mira, { description: "An old sea captain with a white beard at night" }), 201);
    expect(drawn.objectPath).toMatch(new RegExp(`^/objects/avatars/${mira.id}/[\\w-]+$`));
    expect(drawn.url).toBe(`http://localhost${drawn.objectPath}`);
    expect(drawn.provider).toBe("offline");
    const served = await call(drawn.objectPath);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.headers.get("etag")).toBeTruthy();
    expect(decode(new Uint8Array(await served.arrayBuffer()))).toMatchObject({ width: 768, height: 768 });

    const created = await call("/api/characters", {
      method: "POST",
      user: mira,
      body: { name: "Captain Orm", description: "An old sea captain who has seen every harbour.", personality: "Gruff and kind.", avatarUrl: drawn.objectPath },
    });
    expect(created.status, await created.clone().text()).toBe(201);
    // Someone else cannot put it on their character.
    const theo = await signIn();
    const stolen = await call("/api/characters", { method: "POST", user: theo, body: { name: "Thief of Faces", description: "Wears a face that is not his own.", personality: "Sly.", avatarUrl: drawn.objectPath } });
    expect(stolen.status).toBe(400);

    expect(await json<ImageUsageResponse>(await call("/api/images/usage", { user: mira }), 200)).toEqual({ used: 1, limit: 100, perMinute: 10, provider: "offline" });
  });

  it("a refused description draws nothing (422), and sexual content is refused for avatars", async () => {
    const mira = await signIn();
    const refused = await draw(mira, { description: "A girl who is 15 years old, naked." });
    expect(refused.status).toBe(422);
    expect(await refused.json()).toMatchObject({ code: "content_refused" });
    const sexual = await draw(mira, { description: "A portrait, [[moderation:S12]]" });
    expect(sexual.status).toBe(422);
    expect(await sexual.json()).toMatchObject({ code: "content_refused", issues: [{ path: "description" }] });
    expect((await env.AVATARS.list({ prefix: `avatars/${mira.id}/` })).objects).toEqual([]);
    expect((await json<ImageUsageResponse>(await call("/api/images/usage", { user: mira }), 200)).used).toBe(0);
  });

  it("past the allowance: 429 with Retry-After and the sentence saying when", async () => {
    const mira = await signIn();
    const now = Date.now();
    await env.DB.prepare("INSERT INTO image_usage (user_id, window, window_start, count) VALUES (?, 'day', ?, 100)").bind(mira.id, now - (now % 86_400_000)).run();
    const res = await draw(mira, { description: "A knight" });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await res.json()).toMatchObject({ code: "rate_limited", error: expect.stringMatching(/100 pictures today.*try again in/) });
  });

  it("visitors get 401; an empty or overlong description 400; a body that is not JSON 400", async () => {
    expect((await draw(undefined, { description: "A knight" })).status).toBe(401);
    const mira = await signIn();
    const empty = await draw(mira, { description: "   " });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ code: "validation_failed", issues: [{ path: "description", message: "Describe the character to draw" }] });
    expect((await draw(mira, { description: "x".repeat(1001) })).status).toBe(400);
    expect((await draw(mira, {})).status).toBe(400);
    const malformed = await call("/api/images/avatars", { method: "POST", user: mira, body: "{not json", headers: { "content-type": "application/json" } });
    expect(malformed.status).toBe(400);
    expect((await call("/api/images/usage")).status).toBe(401);
  });
});

describe("a character's appearance for pictures", () => {
  type Card = { data: { extensions: Record<string, unknown> & { fabled: Record<string, unknown> } } };
  const APPEARANCE = "Tall woman, silver braid, grey wool coat, a brass lantern in one hand";
  const body = { name: "Maren", description: "A lighthouse keeper who knows every ship.", personality: "Patient, dry humour, keeps her word." };

  it("is stored from the studio, shown on the character, exported in the card and kept by its import", async () => {
    const mira = await signIn();
    const created = await json<Character>(await call("/api/characters", { method: "POST", user: mira, body: { ...body, appearance: APPEARANCE } }), 201);
    expect(created.appearance).toBe(APPEARANCE);
    // Where the room reads it when it writes a picture's prompt (durable-objects/room/d1-sync.ts).
    expect(created.extensions).toEqual({ fabled: { appearance: APPEARANCE } });
    expect((await json<Character>(await call(`/api/characters/${created.id}`, { user: mira }), 200)).appearance).toBe(APPEARANCE);
    const stored = await env.DB.prepare("SELECT json_extract(extensions, '$.fabled.appearance') AS appearance FROM characters WHERE id = ?").bind(created.id).first<{ appearance: string }>();
    expect(stored?.appearance).toBe(APPEARANCE);

    const card = await json<Card>(await call(`/api/characters/${created.id}/card.json`, { user: mira }), 200);
    expect(card.data.extensions.fabled.appearance).toBe(APPEARANCE);

    // Imported by someone else, with an extension of another app beside ours: both are kept.
    const theo = await signIn();
    card.data.extensions.depth_prompt = { prompt: "Maren never lies.", depth: 4 };
    const imported = await json<Character>(await call("/api/characters/import", { method: "POST", user: theo, body: card }), 201);
    expect(imported.appearance).toBe(APPEARANCE);
    const shown = await json<Character>(await call(`/api/characters/${imported.id}`, { user: theo }), 200);
    expect(shown.appearance).toBe(APPEARANCE);
    expect(shown.extensions).toMatchObject({ depth_prompt: { prompt: "Maren never lies.", depth: 4 }, fabled: { appearance: APPEARANCE } });
    const again = await json<Card>(await call(`/api/characters/${imported.id}/card.json`, { user: theo }), 200);
    expect(again.data.extensions.fabled.appearance).toBe(APPEARANCE);
    expect(again.data.extensions.depth_prompt).toEqual({ prompt: "Maren never lies.", depth: 4 });

    // An edit changes it and a blank one removes it; the other extensions stay.
    const changed = await json<Character>(await call(`/api/characters/${imported.id}`, { method: "PUT", user: theo, body: { appearance: "Short grey hair now, oilskin coat" } }), 200);
    expect(changed.appearance).toBe("Short grey hair now, oilskin coat");
    const cleared = await json<Character>(await call(`/api/characters/${imported.id}`, { method: "PUT", user: theo, body: { appearance: "  " } }), 200);
    expect(cleared.appearance).toBeNull();
    expect(cleared.extensions).not.toHaveProperty("fabled");
    expect(cleared.extensions.depth_prompt).toEqual({ prompt: "Maren never lies.", depth: 4 });
    const cardWithout = await json<Card>(await call(`/api/characters/${imported.id}/card.json`, { user: theo }), 200);
    expect(cardWithout.data.extensions.fabled).not.toHaveProperty("appearance");
    // An edit that leaves it out keeps it.
    const kept = await json<Character>(await call(`/api/characters/${created.id}`, { method: "PUT", user: mira, body: { scenario: "A stormy night at the lighthouse." } }), 200);
    expect(kept.appearance).toBe(APPEARANCE);
  });

  it("someone else cannot change it (403), a refused appearance stores nothing (422 under its field), a too long one is 400", async () => {
    const mira = await signIn();
    const created = await json<Character>(await call("/api/characters", { method: "POST", user: mira, body: { ...body, appearance: APPEARANCE } }), 201);
    const theo = await signIn();
    expect((await call(`/api/characters/${created.id}`, { method: "PUT", user: theo, body: { appearance: "A clown" } })).status).toBe(403);

    const refused = await call(`/api/characters/${created.id}`, { method: "PUT", user: mira, body: { appearance: "A girl who is 15 years old, naked." } });
    expect(refused.status).toBe(422);
    expect(await refused.json()).toMatchObject({ code: "content_refused", issues: [{ path: "appearance" }] });
    const long = await call("/api/characters", { method: "POST", user: mira, body: { ...body, appearance: "a".repeat(1001) } });
    expect(long.status).toBe(400);
    expect(await long.json()).toMatchObject({ code: "validation_failed", issues: [{ path: "appearance", message: "Appearance is too long" }] });
    expect((await json<Character>(await call(`/api/characters/${created.id}`, { user: mira }), 200)).appearance).toBe(APPEARANCE);
  });
});
