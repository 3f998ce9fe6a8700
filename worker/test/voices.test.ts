/**
 * Voices as callers see them (DESIGN.md "Voices"): the voices list, a
 * character's voice (validated, in card exports, an unknown one on import
 * falling back with a notice), a reply read aloud (owner 200 with real
 * audio, ETag/304, outsider 404, visitor 401, the R2 cache answering the
 * second request) and transcriptions (503 where not configured; limits
 * and the answer where configured).
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
// Loaded here, at import, rather than by the first speech request: vitest's module loader takes
// many seconds over the 18 MB eSpeak NG .wasm the first time (a Wrangler bundle does not).
import "../../ai/speech/offline-speech.ts";
import { readWav, wavDurationMs, wavRms, writeWav } from "../../ai/speech/wav.ts";
import type { Character } from "../../schema/api.ts";
import type { ChatMessage } from "../../schema/chat.ts";
import app from "../app.ts";
import { call, json } from "./creator-api.ts";
import { insertCharacter, signIn, type TestUser } from "./fixtures.ts";
import { startChat, storedMessages } from "./room-chat.ts";
import { speechKey } from "../lib/speech.ts";

const GREETING = "*She sets down the lantern.* Welcome, {{user}}. The **north road** is closed tonight; stay by the fire.";

let characterId: number;
let owner: TestUser;
let conversationId: string;
let greeting: ChatMessage;

beforeAll(async () => {
  characterId = await insertCharacter({ name: "Maren" });
  await env.DB.prepare("UPDATE characters SET greeting = ?, voice = ? WHERE id = ?").bind(GREETING, "offline-en-gb-f", characterId).run();
  owner = await signIn({ firstName: "Ada" });
  conversationId = (await startChat(owner, characterId)).id;
  [greeting] = (await storedMessages(owner, conversationId)) as [ChatMessage];
});

const speechPath = (messageId = greeting.id, conversation = conversationId) =>
  `/api/conversations/${conversation}/messages/${messageId}/speech`;

describe("GET /api/voices", () => {
  it("lists at least two offline voices with id, name, language and provider, and says speech to text is unavailable", async () => {
    const res = await call("/api/voices");
    const voices = await json<{ id: string; name: string; language: string; provider: string }[]>(res, 200);
    expect(voices.length).toBeGreaterThanOrEqual(2);
    for (const voice of voices) {
      expect(Object.keys(voice).sort()).toEqual(["id", "language", "name", "provider"]);
      expect(voice.provider).toBe("offline");
    }
    expect(voices.map((voice) => voice.id)).toContain("offline-en-us-f");
    expect(res.headers.get("Fabled-Transcription")).toBe("unavailable");
  });
});

describe("a character's voice", () => {
  const body = {
    name: "Voiced",
    description: "A character with a voice of its own.",
    personality: "Speaks softly and clearly.",
  };

  it("is stored from the create form, changed and cleared by an edit, and shown on the character", async () => {
    const creator = await signIn();
    const created = await json<Character>(await call("/api/characters", { method: "POST", user: creator, body: { ...body, voice: "offline-en-us-m" } }), 201);
    expect(created.voice).toBe("offline-en-us-m");
    const edited = await json<Character>(await call(`/api/characters/${created.id}`, { method: "PUT", user: creator, body: { voice: "offline-fr-f" } }), 200);
    expect(edited.voice).toBe("offline-fr-f");
    const cleared = await json<Character>(await call(`/api/characters/${created.id}`, { method: "PUT", user: creator, body: { voice: null } }), 200);
    expect(cleared.voice).toBeNull();
    const shown = await json<Character>(await call(`/api/characters/${created.id}`, { user: creator }), 200);
    expect(shown.voice).toBeNull();
    const defaulted = await json<Character>(await call("/api/characters", { method: "POST", user: creator, body }), 201);
    expect(defaulted.voice).toBeNull();
  });

  it("an id this site does not offer is 400 validation_failed, on create and on edit", async () => {
    const creator = await signIn();
    const refused = await json(await call("/api/characters", { method: "POST", user: creator, body: { ...body, voice: "openai-nova" } }), 400);
    expect(refused).toMatchObject({ code: "validation_failed", issues: [{ path: "voice" }] });
    const created = await json<Character>(await call("/api/characters", { method: "POST", user: creator, body }), 201);
    const edit = await json(await call(`/api/characters/${created.id}`, { method: "PUT", user: creator, body: { voice: "nobody" } }), 400);
    expect(edit).toMatchObject({ code: "validation_failed", issues: [{ path: "voice" }] });
    expect(await json(await call("/api/characters", { method: "POST", user: creator, body: { ...body, voice: 7 } }), 400)).toMatchObject({ code: "validation_failed" });
  });

  it("travels in the card's extensions.fabled.voice; an imported unknown voice becomes the default with a notice", async () => {
    const creator = await signIn();
    const created = await json<Character>(await call("/api/characters", { method: "POST", user: creator, body: { ...body, voice: "offline-de-m" } }), 201);
    const card = await json<{ data: { extensions: { fabled: { voice?: string } } } }>(await call(`/api/characters/${created.id}/card.json`, { user: creator }), 200);
    expect(card.data.extensions.fabled.voice).toBe("offline-de-m");

    const known = await call("/api/characters/import", { method: "POST", user: creator, body: card });
    expect((await json<Character>(known, 201)).voice).toBe("offline-de-m");
    expect(known.headers.get("Fabled-Notice")).toBeNull();

    card.data.extensions.fabled.voice = "elevenlabs-rachel";
    const unknown = await call("/api/characters/import", { method: "POST", user: creator, body: card });
    expect((await json<Character>(unknown, 201)).voice).toBeNull();
    expect(decodeURIComponent(unknown.headers.get("Fabled-Notice") ?? "")).toMatch(/voice is not offered on this site/);
  });
});

describe("GET /api/conversations/{id}/messages/{messageId}/speech", () => {
  it("answers the owner the reply read aloud as a WAV: real speech, an ETag, private caching", async () => {
    const res = await call(speechPath(), { user: owner });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("audio/wav");
    expect(res.headers.get("cache-control")).toMatch(/^private/);
    expect(res.headers.get("etag")).toMatch(/^"[0-9a-f]{64}"$/);
    const wav = readWav(new Uint8Array(await res.arrayBuffer()));
    // The action is skipped: "Welcome, Ada. The north road is closed tonight; stay by the fire." is ~12 words, 3–4 s.
    const seconds = wavDurationMs(wav) / 1000;
    expect(seconds).toBeGreaterThan(2);
    expect(seconds).toBeLessThan(8);
    expect(wavRms(wav)).toBeGreaterThan(0.02);
  });

  it("answers 304 to a matching If-None-Match", async () => {
    const first = await call(speechPath(), { user: owner });
    await first.arrayBuffer();
    const etag = first.headers.get("etag")!;
    const again = await call(speechPath(), { user: owner, headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
  });

  it("the second request is answered from R2: no second synthesis", async () => {
    const first = await call(speechPath(), { user: owner });
    const etag = first.headers.get("etag")!.replaceAll('"', "");
    const speech = await first.arrayBuffer();
    // Replace the stored audio with a marker: a synthesis would answer eSpeak's audio, the cache answers the marker.
    const marker = writeWav({ sampleRate: 8000, channels: 1, bitsPerSample: 16, data: new Uint8Array(16) });
    expect(await env.AVATARS.head(`speech/${etag}`)).not.toBeNull();
    await env.AVATARS.put(`speech/${etag}`, marker, { httpMetadata: { contentType: "audio/wav" } });
    try {
      const second = await call(speechPath(), { user: owner });
      expect(second.status).toBe(200);
      expect(new Uint8Array(await second.arrayBuffer())).toEqual(marker);
    } finally {
      // The other tests hear the real audio again, in whatever order they run.
      await env.AVATARS.put(`speech/${etag}`, speech, { httpMetadata: { contentType: "audio/wav" } });
    }
  });

  it("speaks in the character's voice: another voice is another audio", async () => {
    const before = (await call(speechPath(), { user: owner })).headers.get("etag");
    await env.DB.prepare("UPDATE characters SET voice = ? WHERE id = ?").bind("offline-en-us-m", characterId).run();
    try {
      const after = await call(speechPath(), { user: owner });
      expect(after.status).toBe(200);
      expect(after.headers.get("etag")).not.toBe(before);
      await after.arrayBuffer();
    } finally {
      await env.DB.prepare("UPDATE characters SET voice = ? WHERE id = ?").bind("offline-en-gb-f", characterId).run();
    }
  });

  it("group chats: each reply is read in its own speaker's voice", async () => {
    const bo = await insertCharacter({ name: "Bo" });
    await env.DB.prepare("UPDATE characters SET greeting = ?, voice = ? WHERE id = ?").bind("Bo here. Mind the step.", "offline-de-m", bo).run();
    const group = await json<{ id: string }>(await call("/api/conversations", { method: "POST", user: owner, body: { characterIds: [characterId, bo] } }), 201);
    const messages = await storedMessages(owner, group.id);
    const bos = messages.find((message) => message.content === "Bo here. Mind the step.")!;
    const marens = messages.find((message) => message.content !== bos.content)!;
    const boAudio = await call(speechPath(bos.id, group.id), { user: owner });
    expect(boAudio.status).toBe(200);
    expect(boAudio.headers.get("etag")).toBe(`"${await speechKey(env, "offline-de-m", "Bo here. Mind the step.")}"`);
    await boAudio.arrayBuffer();
    const marenAudio = await call(speechPath(marens.id, group.id), { user: owner });
    expect(marenAudio.headers.get("etag")).toBe(`"${await speechKey(env, "offline-en-gb-f", "Welcome, Ada. The north road is closed tonight; stay by the fire.")}"`);
    await marenAudio.arrayBuffer();
  });

  it("401 for a visitor; 404 for another person and for unknown ids", async () => {
    expect(await json(await call(speechPath()), 401)).toEqual({ error: "Unauthorized", code: "unauthorized" });
    const outsider = await signIn();
    expect(await json(await call(speechPath(), { user: outsider }), 404)).toMatchObject({ code: "not_found" });
    expect(await json(await call(speechPath(crypto.randomUUID()), { user: owner }), 404)).toMatchObject({ code: "not_found" });
    expect(await json(await call(speechPath(greeting.id, crypto.randomUUID()), { user: owner }), 404)).toMatchObject({ code: "not_found" });
  });
});

/** A request to the Worker with `vars` over the test env (a deployment configured otherwise). */
async function callWith(vars: Partial<Env>, path: string, init: RequestInit & { user?: TestUser | null }): Promise<Response> {
  const headers = new Headers(init.headers);
  if (init.user) headers.set("cookie", init.user.cookie);
  const ctx = createExecutionContext();
  const res = await app.fetch(new Request(`http://localhost${path}`, { ...init, headers }), { ...env, ...vars }, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

/** A silent 16 kHz mono 16-bit WAV of `seconds`. */
const silentWav = (seconds: number) => writeWav({ sampleRate: 16000, channels: 1, bitsPerSample: 16, data: new Uint8Array(seconds * 16000 * 2) });

describe("POST /api/transcriptions", () => {
  it("503 unavailable where no speech-to-text provider is set", async () => {
    const user = await signIn();
    const res = await call("/api/transcriptions", { method: "POST", user, body: silentWav(1), headers: { "content-type": "audio/wav" } });
    expect(await json(res, 503)).toEqual({ error: "Speech to text is not available on this site", code: "unavailable" });
  });

  describe("with an OpenAI-compatible provider", () => {
    const openai = { TRANSCRIPTION_PROVIDER: "openai" };

    it("answers {text} of the recording, and GET /api/voices says it is available", async () => {
      const user = await signIn();
      const res = await callWith(openai, "/api/transcriptions", { method: "POST", user, body: new Uint8Array([1, 2, 3, 4, 5]), headers: { "content-type": "audio/webm;codecs=opus" } });
      expect(await json(res, 200)).toEqual({ text: "Heard 5 bytes of speech.webm (audio/webm) with whisper-1." });
      const voices = await callWith(openai, "/api/voices", { method: "GET" });
      expect(voices.headers.get("Fabled-Transcription")).toBe("available");
    });

    it("401 visitor; 415 not audio; 413 over 10 MB; 400 a WAV over 2 minutes; 400 empty", async () => {
      const user = await signIn();
      const post = (body: Uint8Array, type: string, who: TestUser | null = user) =>
        callWith(openai, "/api/transcriptions", { method: "POST", user: who, body, headers: { "content-type": type } });
      expect((await post(silentWav(1), "audio/wav", null)).status).toBe(401);
      expect(await json(await post(new Uint8Array([1]), "text/plain"), 415)).toMatchObject({ code: "unsupported_media_type" });
      expect(await json(await post(new Uint8Array(10 * 1024 * 1024 + 1), "audio/webm"), 413)).toMatchObject({ code: "payload_too_large" });
      expect(await json(await post(silentWav(121), "audio/wav"), 400)).toEqual({ error: "The recording is longer than 2 minutes", code: "validation_failed" });
      expect(await json(await post(new Uint8Array(0), "audio/webm"), 400)).toMatchObject({ code: "validation_failed" });
      expect(await json(await post(silentWav(2), "audio/wav"), 200)).toEqual({ text: `Heard ${silentWav(2).length} bytes of speech.wav (audio/wav) with whisper-1.` });
    });

    it("a failing provider is 503 with the JSON error shape, not a 500", async () => {
      const user = await signIn();
      const res = await callWith({ ...openai, TRANSCRIPTION_MODEL: "error-500" }, "/api/transcriptions", {
        method: "POST",
        user,
        body: new Uint8Array([1, 2, 3]),
        headers: { "content-type": "audio/ogg" },
      });
      expect(await json(res, 503)).toMatchObject({ code: "unavailable" });
    });
  });
});
