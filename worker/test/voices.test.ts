/**
 * Voices as callers see them (DESIGN.md "Voices"): the voices list, a
 * character's voice (validated, in card exports, an unknown one on import
 * falling back with a notice), a reply read aloud (owner 200 with real
 * audio, ETag/304, outsider 404, visitor 401, the R2 cache answering the
 * second request), who may hear it (owner and members of a shared room;
 * outsiders, removed members and visitors not), what it reads (the words
 * shown now: an operator's removal, an edit; their old audio deleted from
 * R2), its caps (a macro bomb stays within 5 minutes and 16 MB, with a
 * notice), the budget in audio seconds, and transcriptions (503 where not
 * configured; limits and the answer where configured).
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
// Loaded here, at import, rather than by the first speech request: vitest's module loader takes
// many seconds over the 18 MB eSpeak NG .wasm the first time (a Wrangler bundle does not).
import "../../ai/speech/offline-speech.ts";
import { readWav, wavDurationMs, wavRms, writeWav } from "../../ai/speech/wav.ts";
import type { Character } from "../../schema/api.ts";
import { SPEECH_CAPS } from "../../ai/speech/speech.ts";
import { speechObjectKey, speechPrefix } from "../../durable-objects/room/speech-audio.ts";
import { type ChatMessage, type ConversationInvite, MODERATED_MESSAGE_TEXT } from "../../schema/chat.ts";
import app from "../app.ts";
import { upholdReport } from "../lib/moderation-actions.ts";
import { applyRecentRemovals } from "../lib/removal-sweep.ts";
import { SPEECH_BUDGET } from "../lib/speech-budget.ts";
import { SPEECH_CUT_NOTICE } from "../routes/speech.ts";
import { eventually, join } from "./chat-client.ts";
import { call, json } from "./creator-api.ts";
import { insertCharacter, signIn, type TestUser } from "./fixtures.ts";
import { OPERATOR, operatorDb } from "./operator-db.ts";
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
    const stored = speechObjectKey(conversationId, greeting.id, etag);
    expect(await env.AVATARS.head(stored)).not.toBeNull();
    await env.AVATARS.put(stored, marker, { httpMetadata: { contentType: "audio/wav" } });
    try {
      const second = await call(speechPath(), { user: owner });
      expect(second.status).toBe(200);
      expect(new Uint8Array(await second.arrayBuffer())).toEqual(marker);
    } finally {
      // The other tests hear the real audio again, in whatever order they run.
      await env.AVATARS.put(stored, speech, { httpMetadata: { contentType: "audio/wav" } });
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

/** A new one-to-one chat of `user` with a character of `name` whose greeting is `greeting` (in `voice`), and that greeting. */
async function chatWithGreeting(user: TestUser, name: string, greeting: string, voice = "offline-en-us-f") {
  const id = await insertCharacter({ name });
  await env.DB.prepare("UPDATE characters SET greeting = ?, voice = ? WHERE id = ?").bind(greeting, voice, id).run();
  const conversation = (await startChat(user, id)).id;
  const [first] = (await storedMessages(user, conversation)) as [ChatMessage];
  return { conversation, message: first };
}

/** Hex SHA-256 of `bytes`. */
async function sha256(bytes: Uint8Array): Promise<string> {
  return [...new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The R2 keys of a conversation's audio. */
async function storedAudio(conversation: string): Promise<string[]> {
  return (await env.AVATARS.list({ prefix: speechPrefix(conversation) })).objects.map((object) => object.key);
}

/** Hears `messageId` of `conversation` as `user`: the answer, its audio read whole. */
async function hear(user: TestUser, conversation: string, messageId: string) {
  const res = await call(speechPath(messageId, conversation), { user });
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { res, bytes };
}

describe("who hears a shared room's replies", () => {
  it("every member hears them (200); an outsider and a removed member get 404, a visitor 401", async () => {
    const host = await signIn({ firstName: "Hana" });
    const member = await signIn({ firstName: "Mio" });
    const outsider = await signIn();
    const { conversation, message } = await chatWithGreeting(host, "Iris", "Welcome to the tea house, {{user}}.");
    const link = await json<ConversationInvite>(await call(`/api/conversations/${conversation}/invites`, { method: "POST", user: host }), 201);
    expect((await call(`/api/invites/${link.token}`, { method: "POST", user: member })).status).toBe(200);

    const heard = await hear(member, conversation, message.id);
    expect(heard.res.status).toBe(200);
    expect(heard.res.headers.get("content-type")).toBe("audio/wav");
    expect(wavRms(readWav(heard.bytes))).toBeGreaterThan(0.02);
    // The greeting as everyone in the room reads it (its macros were replaced when the chat began).
    expect(heard.res.headers.get("etag")).toBe(`"${await speechKey(env, "offline-en-us-f", "Welcome to the tea house, Hana.")}"`);

    expect(await json(await call(speechPath(message.id, conversation), { user: outsider }), 404)).toMatchObject({ code: "not_found" });
    expect(await json(await call(speechPath(message.id, conversation)), 401)).toEqual({ error: "Unauthorized", code: "unauthorized" });
    expect((await call(`/api/conversations/${conversation}/members/${member.id}`, { method: "DELETE", user: host })).status).toBe(204);
    expect(await json(await call(speechPath(message.id, conversation), { user: member }), 404)).toMatchObject({ code: "not_found" });
  });
});

describe("what is read is what the listener sees now", () => {
  it("a reply an operator removed is read as the removal notice, and its first audio is deleted from R2", async () => {
    const listener = await signIn();
    const { conversation, message } = await chatWithGreeting(listener, "Vale", "The secret password is swordfish, traveller.");
    const first = await hear(listener, conversation, message.id);
    expect(first.res.status).toBe(200);
    const original = speechObjectKey(conversation, message.id, first.res.headers.get("etag")!.replaceAll('"', ""));
    expect(await storedAudio(conversation)).toEqual([original]);

    const filed = await json<{ id: number }>(
      await call("/api/reports", { method: "POST", user: listener, body: { reason: "illegal", targetType: "message", targetId: message.id, conversationId: conversation } }),
      201,
    );
    await upholdReport(operatorDb, filed.id, OPERATOR);
    // Nothing else read the history: speech itself asks the room what is shown now.
    const after = await hear(listener, conversation, message.id);
    expect(after.res.status).toBe(200);
    expect(after.res.headers.get("etag")).toBe(`"${await speechKey(env, "offline-en-us-f", MODERATED_MESSAGE_TEXT)}"`);
    const notice = speechObjectKey(conversation, message.id, await speechKey(env, "offline-en-us-f", MODERATED_MESSAGE_TEXT));
    await eventually(async () => !(await storedAudio(conversation)).includes(original));
    expect(await storedAudio(conversation)).toEqual([notice]);
  });

  it("a removal nobody reads after is still deleted from R2 by the daily sweep", async () => {
    const listener = await signIn();
    const { conversation, message } = await chatWithGreeting(listener, "Fen", "Meet me at the old mill at midnight.");
    expect((await hear(listener, conversation, message.id)).res.status).toBe(200);
    expect(await storedAudio(conversation)).toHaveLength(1);
    const filed = await json<{ id: number }>(
      await call("/api/reports", { method: "POST", user: listener, body: { reason: "illegal", targetType: "message", targetId: message.id, conversationId: conversation } }),
      201,
    );
    await upholdReport(operatorDb, filed.id, OPERATOR);
    expect(await applyRecentRemovals(env)).toBeGreaterThanOrEqual(1);
    await eventually(async () => (await storedAudio(conversation)).length === 0);
  });

  it("an edit and a deletion delete the message's audio; deleting the chat deletes all of it", async () => {
    const listener = await signIn();
    const { conversation, message } = await chatWithGreeting(listener, "Wren", "The river is high today.");
    expect((await hear(listener, conversation, message.id)).res.status).toBe(200);
    expect(await storedAudio(conversation)).toHaveLength(1);
    const { socket } = await join(listener, conversation);
    socket.send({ type: "edit_message", conversationId: conversation, messageId: message.id, content: "The river is low today." });
    await socket.next("message_updated");
    await eventually(async () => (await storedAudio(conversation)).length === 0);
    const edited = await hear(listener, conversation, message.id);
    expect(edited.res.headers.get("etag")).toBe(`"${await speechKey(env, "offline-en-us-f", "The river is low today.")}"`);
    expect(await storedAudio(conversation)).toHaveLength(1);

    socket.send({ type: "delete_message", conversationId: conversation, messageId: message.id });
    await socket.next("messages_deleted");
    await eventually(async () => (await storedAudio(conversation)).length === 0);
    socket.close();

    const other = await chatWithGreeting(listener, "Wren", "Good morning.");
    expect((await hear(listener, other.conversation, other.message.id)).res.status).toBe(200);
    expect(await storedAudio(other.conversation)).toHaveLength(1);
    expect((await call(`/api/conversations/${other.conversation}`, { method: "DELETE", user: listener })).status).toBe(204);
    await eventually(async () => (await storedAudio(other.conversation)).length === 0);
  });
});

describe("how much is read aloud", () => {
  it("a macro bomb (a 98-character name, a greeting of 1,000 <bot>) is cut at 5 minutes and 16 MB, says so, and is stored whole", async () => {
    const listener = await signIn();
    const name = "Aurelia Vantablack Thistlewood the Third, Keeper of the Long Night Archive and of the Silver Gates";
    expect(name.length).toBe(98);
    const { conversation, message } = await chatWithGreeting(listener, name, "<bot> ".repeat(1000));
    const { res, bytes } = await hear(listener, conversation, message.id);
    expect(res.status).toBe(200);
    expect(decodeURIComponent(res.headers.get("Fabled-Notice") ?? "")).toBe(SPEECH_CUT_NOTICE);
    // Streamed as it is made: no length is promised up front.
    expect(res.headers.get("content-length")).toBeNull();
    expect(bytes.length).toBeLessThanOrEqual(SPEECH_CAPS.maxBytes);
    const wav = readWav(bytes);
    const seconds = wavDurationMs(wav) / 1000;
    expect(seconds).toBeLessThanOrEqual(300);
    // About 4,000 characters are read: minutes of speech, not seconds (and not the 251 MB of the whole bomb).
    expect(seconds).toBeGreaterThan(120);

    // The copy in R2 is the same audio, its header saying its true length; a second request streams it from there.
    const [key] = await storedAudio(conversation);
    const stored = new Uint8Array(await (await env.AVATARS.get(key!))!.arrayBuffer());
    expect(stored.length).toBe(bytes.length);
    const view = new DataView(stored.buffer);
    expect(view.getUint32(4, true)).toBe(stored.length - 8);
    expect(view.getUint32(40, true)).toBe(stored.length - 44);
    // Megabytes compared by digest: a failing toEqual would print every byte.
    expect(await sha256(stored.subarray(44))).toBe(await sha256(bytes.subarray(44)));
    const again = await hear(listener, conversation, message.id);
    expect(again.res.headers.get("content-length")).toBe(String(stored.length));
    expect(await sha256(again.bytes)).toBe(await sha256(stored));

    // The budget counted the audio made, in ms, once.
    const usage = await env.DB.prepare("SELECT sum(audio_ms) AS ms FROM speech_usage WHERE user_id = ?").bind(listener.id).first<{ ms: number }>();
    expect(Math.abs(usage!.ms - wavDurationMs(wav))).toBeLessThan(2);
  });

  it("the budget counts audio seconds: past it, new audio is 429 with Retry-After; audio already made still plays", async () => {
    const listener = await signIn();
    const { conversation, message } = await chatWithGreeting(listener, "Moss", "Rain again.");
    expect((await hear(listener, conversation, message.id)).res.status).toBe(200);
    const other = await chatWithGreeting(listener, "Moss", "Sun at last.");
    const now = Date.now();
    const windowStart = now - (now % SPEECH_BUDGET.windowMs);
    await env.DB.prepare("UPDATE speech_usage SET audio_ms = ? WHERE user_id = ? AND window_start = ?").bind(SPEECH_BUDGET.audioMs, listener.id, windowStart).run();
    const refused = await call(speechPath(other.message.id, other.conversation), { user: listener });
    if (Date.now() - (Date.now() % SPEECH_BUDGET.windowMs) === windowStart) {
      expect(await json(refused, 429)).toMatchObject({ code: "rate_limited" });
      expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
      expect(Number(refused.headers.get("Retry-After"))).toBeLessThanOrEqual(SPEECH_BUDGET.windowMs / 1000);
    } else {
      // The window turned between the two lines above: a fresh window admits.
      expect(refused.status).toBe(200);
      await refused.arrayBuffer();
    }
    expect((await hear(listener, conversation, message.id)).res.status).toBe(200);
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
