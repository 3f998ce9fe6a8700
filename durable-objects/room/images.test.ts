/**
 * Pictures imagined in the chat (DESIGN.md "Pictures"), through real
 * sockets, the Worker's reads and R2: `imagine` with and without a prompt,
 * the picture served like an avatar and kept in `history_sync` and `GET
 * …/messages` but never sent to the text model; a refused prompt stores
 * nothing; a failing or cancelled picture leaves no placeholder and nothing
 * stored; deleting the picture, rewinding past it or deleting the chat
 * deletes its R2 object; the allowance per minute and per day; a shared
 * room sees every picture arrive, and a member cannot delete or cancel
 * someone else's; a removed member cannot draw one of theirs again.
 */
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { ImageError, type ImageGenerator } from "../../ai/images/image-generator.ts";
import type { Conversation, ConversationInvite } from "../../schema/chat.ts";
import { conversationRoom } from "../../worker/lib/conversations.ts";
import { call, json } from "../../worker/test/creator-api.ts";
import { ChatSocket, eventually, join, upgrade } from "../../worker/test/chat-client.ts";
import { insertCharacter, signIn, type TestUser } from "../../worker/test/fixtures.ts";
import { startChat, storedMessages, useTestServerModel } from "../../worker/test/room-chat.ts";
import { exports } from "cloudflare:workers";
import type { ConversationRoom } from "../conversation-room.ts";
import { picturesPrefix, scenePrompt } from "./images.ts";

/** Offline-screen S4 (a stated age under 18 and a sexual term). */
const S4_TEXT = "A girl who is 15 years old, naked.";

let characterId: number;

beforeAll(async () => {
  characterId = await insertCharacter({ name: "Ash", description: "A tall lighthouse keeper with silver hair and a grey coat. She speaks softly." });
  await env.DB.prepare(`UPDATE characters SET extensions = ? WHERE id = ?`)
    .bind(JSON.stringify({ fabled: { appearance: "a tall woman with silver hair, a grey wool coat and a brass lantern" } }), characterId)
    .run();
});

const fetchObject = (path: string, headers: Record<string, string> = {}) => exports.default.fetch(`http://localhost${path}`, { headers });

const picturesIn = async (conversationId: string) => (await env.AVATARS.list({ prefix: picturesPrefix(conversationId) })).objects.map((o) => o.key);

/** Makes the room paint with `generator` (built inside the object). */
async function useGenerator(conversationId: string, generator: () => ImageGenerator): Promise<void> {
  await runInDurableObject(conversationRoom(env, conversationId), (room: ConversationRoom) => {
    room.imageGeneratorFactory = generator;
  });
}

/** A generator that paints nothing until its request is aborted. */
const waitingGenerator = (): ImageGenerator => ({
  name: "offline",
  id: "waiting",
  generate: (_prompt, options) =>
    new Promise((_, reject) => options?.signal?.addEventListener("abort", () => reject(options.signal!.reason), { once: true })),
});

async function clearUsage(user: TestUser) {
  await env.DB.prepare("DELETE FROM image_usage WHERE user_id = ?").bind(user.id).run();
}

describe("imagine", () => {
  it("with a prompt: a placeholder, then the picture as a message every read keeps, served like an avatar", async () => {
    const mira = await signIn();
    const conversation = await startChat(mira, characterId);
    const { socket } = await join(mira, conversation.id);
    await socket.chat(conversation.id, "Let us walk to the shore.");
    socket.send({ type: "imagine", conversationId: conversation.id, prompt: "A night sea under the moon", clientId: "img-1" });
    expect(await socket.next("image_started")).toMatchObject({ requestId: "img-1", userId: mira.id, prompt: "A night sea under the moon" });
    const ready = await socket.next("image_ready", (f) => f.requestId === "img-1");
    expect(ready.message).toMatchObject({ kind: "image", prompt: "A night sea under the moon", width: 768, height: 768, characterId, authorId: mira.id, isUser: false, content: "" });
    expect(ready.message.imageUrl).toMatch(new RegExp(`^/objects/pictures/${conversation.id}/[\\w-]+$`));

    const served = await fetchObject(ready.message.imageUrl!);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.headers.get("cache-control")).toContain("immutable");
    const etag = served.headers.get("etag")!;
    expect(new Uint8Array(await served.arrayBuffer()).subarray(1, 4)).toEqual(new TextEncoder().encode("PNG"));
    expect((await fetchObject(ready.message.imageUrl!, { "if-none-match": etag })).status).toBe(304);

    // After the last message, in every read.
    const stored = await storedMessages(mira, conversation.id);
    expect(stored.at(-1)).toMatchObject({ id: ready.message.id, kind: "image" });
    const { socket: again, history } = await join(mira, conversation.id);
    expect(history.messages.at(-1)).toMatchObject({ id: ready.message.id, kind: "image", imageUrl: ready.message.imageUrl });

    // The text model is never sent it: the `prompt` model answers with what it was sent.
    await useTestServerModel(conversation.id, "prompt");
    const { response } = await again.chat(conversation.id, "What do you see?");
    expect(response.content).toContain("What do you see?");
    expect(response.content).not.toContain("night sea under the moon");
    socket.close();
    again.close();
  });

  it("without a prompt: the prompt is written from the speaker's appearance and the recent turns", async () => {
    const mira = await signIn();
    await clearUsage(mira);
    const conversation = await startChat(mira, characterId);
    const { socket } = await join(mira, conversation.id);
    await socket.chat(conversation.id, "We climb the lighthouse stairs in the storm.");
    socket.send({ type: "imagine", conversationId: conversation.id, clientId: "img-2" });
    const started = await socket.next("image_started");
    expect(started.prompt).toBeUndefined();
    const ready = await socket.next("image_ready", (f) => f.requestId === "img-2");
    expect(ready.message.prompt).toContain("Ash, a tall woman with silver hair");
    expect(ready.message.prompt).toContain("We climb the lighthouse stairs in the storm.");
    expect(scenePrompt({ speaker: { name: "Bo", description: "A red fox. Sly.", scenario: "" }, turns: [{ name: "Mira", text: "*waves* Hello!" }] })).toBe("Bo, A red fox. waves Hello!");
    socket.close();
  });

  it("a refused prompt: an image_refused error, nothing started, stored or in R2; the attempt is logged", async () => {
    const mira = await signIn();
    const conversation = await startChat(mira, characterId);
    const { socket } = await join(mira, conversation.id);
    socket.send({ type: "imagine", conversationId: conversation.id, prompt: S4_TEXT, clientId: "bad" });
    expect(await socket.next("error")).toMatchObject({ code: "image_refused", requestId: "bad" });
    expect(socket.frames.some((f) => f.type === "image_started")).toBe(false);
    expect((await storedMessages(mira, conversation.id)).some((m) => m.kind === "image")).toBe(false);
    expect(await picturesIn(conversation.id)).toEqual([]);
    const logged = await eventually(() =>
      env.DB.prepare("SELECT outcome, content FROM moderation_log WHERE subject_type = 'image' AND user_id = ?").bind(mira.id).first<{ outcome: string; content: string }>(),
    );
    expect(logged).toEqual({ outcome: "refused", content: S4_TEXT });
    // The place in the allowance was given back.
    const used = await env.DB.prepare("SELECT sum(count) AS n FROM image_usage WHERE user_id = ?").bind(mira.id).first<{ n: number | null }>();
    expect(used?.n ?? 0).toBe(0);
    socket.close();
  });

  it("a failure or the engine's refusal: the placeholder goes with a clear error, nothing stored", async () => {
    const mira = await signIn();
    const conversation = await startChat(mira, characterId);
    const { socket } = await join(mira, conversation.id);
    await useGenerator(conversation.id, () => ({
      name: "openai",
      id: "refusing",
      generate: async () => {
        throw new ImageError("answered 400: content_policy_violation", { status: 400, refused: true });
      },
    }));
    socket.send({ type: "imagine", conversationId: conversation.id, prompt: "A quiet harbour", clientId: "r1" });
    await socket.next("image_started");
    expect(await socket.next("image_stopped")).toEqual({ type: "image_stopped", requestId: "r1", reason: "failed" });
    expect(await socket.next("error")).toMatchObject({ code: "image_failed", requestId: "r1", message: expect.stringMatching(/refused to draw/) });
    await useGenerator(conversation.id, () => ({
      name: "openai",
      id: "broken",
      generate: async () => {
        throw new ImageError("answered 500");
      },
    }));
    socket.send({ type: "imagine", conversationId: conversation.id, prompt: "A quiet harbour", clientId: "r2" });
    await socket.next("image_stopped", (f) => f.requestId === "r2");
    expect(await socket.next("error", (f) => f.requestId === "r2")).toMatchObject({ code: "image_failed", message: "The picture could not be made. Please try again." });
    expect((await storedMessages(mira, conversation.id)).some((m) => m.kind === "image")).toBe(false);
    expect(await picturesIn(conversation.id)).toEqual([]);
    socket.close();
  });

  it("cancel_image stops it for every socket; nothing is stored", async () => {
    const mira = await signIn();
    const conversation = await startChat(mira, characterId);
    const { socket } = await join(mira, conversation.id);
    await useGenerator(conversation.id, waitingGenerator);
    socket.send({ type: "imagine", conversationId: conversation.id, prompt: "A long road", clientId: "c1" });
    await socket.next("image_started");
    socket.send({ type: "cancel_image", conversationId: conversation.id, requestId: "c1" });
    expect(await socket.next("image_stopped")).toEqual({ type: "image_stopped", requestId: "c1", reason: "cancelled" });
    socket.send({ type: "cancel_image", conversationId: conversation.id, requestId: "c1" });
    expect(await socket.next("error")).toMatchObject({ code: "message_not_found", requestId: "c1" });
    expect((await storedMessages(mira, conversation.id)).some((m) => m.kind === "image")).toBe(false);
    socket.close();
  });

  it("deleting the picture, rewinding past it and deleting the chat delete its R2 object", async () => {
    const mira = await signIn();
    await clearUsage(mira);
    const conversation = await startChat(mira, characterId);
    const { socket } = await join(mira, conversation.id);
    const imagine = async (clientId: string) => {
      socket.send({ type: "imagine", conversationId: conversation.id, prompt: `A garden, ${clientId}`, clientId });
      return (await socket.next("image_ready", (f) => f.requestId === clientId)).message;
    };
    const first = await imagine("d1");
    expect(await picturesIn(conversation.id)).toHaveLength(1);
    socket.send({ type: "delete_message", conversationId: conversation.id, messageId: first.id, clientId: "del" });
    expect(await socket.next("messages_deleted")).toMatchObject({ messageIds: [first.id], clientId: "del" });
    expect(await picturesIn(conversation.id)).toEqual([]);
    expect((await fetchObject(first.imageUrl!)).status).toBe(404);

    const { saved } = await socket.chat(conversation.id, "Onwards.");
    const second = await imagine("d2");
    socket.send({ type: "rewind", conversationId: conversation.id, messageId: saved.messageId, clientId: "rw" });
    const rewound = await socket.next("messages_deleted", (f) => f.clientId === "rw");
    expect(rewound.messageIds).toContain(second.id);
    await eventually(async () => (await picturesIn(conversation.id)).length === 0);

    await imagine("d3");
    expect(await picturesIn(conversation.id)).toHaveLength(1);
    expect((await call(`/api/conversations/${conversation.id}`, { method: "DELETE", user: mira })).status).toBe(204);
    await eventually(async () => (await picturesIn(conversation.id)).length === 0);
    socket.close();
  });

  it("regenerate keeps versions like swipes: the same prompt drawn again, each version chosen by swipe, every file deleted with the picture", async () => {
    const mira = await signIn();
    await clearUsage(mira);
    const conversation = await startChat(mira, characterId);
    const { socket } = await join(mira, conversation.id);
    socket.send({ type: "imagine", conversationId: conversation.id, prompt: "A night sea under the moon", clientId: "v-1" });
    const first = (await socket.next("image_ready", (f) => f.requestId === "v-1")).message;
    expect(first.alternatives).toEqual([]);

    // Drawn again: the same prompt (a prompt sent along is ignored), the same message, the new picture shown.
    socket.send({ type: "imagine", conversationId: conversation.id, imageId: first.id, prompt: "something else", clientId: "v-2" });
    expect(await socket.next("image_started", (f) => f.requestId === "v-2")).toMatchObject({ imageId: first.id });
    const second = (await socket.next("image_ready", (f) => f.requestId === "v-2")).message;
    expect(second).toMatchObject({ id: first.id, prompt: "A night sea under the moon", alternatives: [first.imageUrl] });
    expect(second.imageUrl).not.toBe(first.imageUrl);
    // Another drawing of the same scene, not the same file twice.
    const bytesOf = async (url: string) => new Uint8Array(await (await fetchObject(url)).arrayBuffer());
    expect(await bytesOf(second.imageUrl!)).not.toEqual(await bytesOf(first.imageUrl!));
    expect(second.swipeIndex).toBeUndefined();
    expect(await picturesIn(conversation.id)).toHaveLength(2);

    // A swipe shows the first again for every socket and every read.
    socket.send({ type: "swipe", conversationId: conversation.id, messageId: first.id, index: 0 });
    const shown = (await socket.next("message_updated", (f) => f.messageId === first.id)).message;
    expect(shown).toMatchObject({ imageUrl: first.imageUrl, alternatives: [second.imageUrl], swipeIndex: 0 });
    expect((await storedMessages(mira, conversation.id)).find((m) => m.id === first.id)).toMatchObject({ imageUrl: first.imageUrl, swipeIndex: 0 });
    socket.send({ type: "swipe", conversationId: conversation.id, messageId: first.id, index: 2 });
    expect(await socket.next("error")).toMatchObject({ code: "no_such_version", message: "This picture has 2 versions; there is no version 3." });
    // A picture gone cannot be drawn again.
    socket.send({ type: "imagine", conversationId: conversation.id, imageId: "no-such-picture", clientId: "v-3" });
    expect(await socket.next("error")).toMatchObject({ code: "message_not_found", requestId: "v-3" });

    // Deleting the picture deletes both files.
    socket.send({ type: "delete_message", conversationId: conversation.id, messageId: first.id });
    expect(await socket.next("messages_deleted")).toMatchObject({ messageIds: [first.id] });
    expect(await eventually(async () => (await picturesIn(conversation.id)).length === 0)).toBe(true);
  });

  it("at most IMAGES_PER_MINUTE a minute and IMAGES_PER_DAY a day: a rate_limited frame saying when", async () => {
    const mira = await signIn();
    const conversation = await startChat(mira, characterId);
    const { socket } = await join(mira, conversation.id);
    const now = Date.now();
    await env.DB.prepare("INSERT INTO image_usage (user_id, window, window_start, count) VALUES (?, 'minute', ?, 10)")
      .bind(mira.id, now - (now % 60_000))
      .run();
    socket.send({ type: "imagine", conversationId: conversation.id, prompt: "A hill", clientId: "l1" });
    const minute = await socket.next("error");
    expect(minute).toMatchObject({ code: "rate_limited", requestId: "l1", message: expect.stringMatching(/too fast \(10 a minute\)\. Please try again in \d+ s\./) });
    expect(minute.retryAfterMs).toBeGreaterThan(0);
    expect(minute.retryAfterMs).toBeLessThanOrEqual(60_000);
    await clearUsage(mira);
    await env.DB.prepare("INSERT INTO image_usage (user_id, window, window_start, count) VALUES (?, 'day', ?, 100)")
      .bind(mira.id, now - (now % 86_400_000))
      .run();
    socket.send({ type: "imagine", conversationId: conversation.id, prompt: "A hill", clientId: "l2" });
    expect(await socket.next("error", (f) => f.requestId === "l2")).toMatchObject({ code: "rate_limited", message: expect.stringMatching(/100 pictures today/) });
    expect(socket.frames.some((f) => f.type === "image_started")).toBe(false);
    socket.close();
  });
});

describe("a person's own image model", () => {
  it("the owner's default connection with an imageModel paints through their endpoint (its url answer)", async () => {
    const mira = await signIn();
    const connection = await call("/api/model-connections", {
      method: "POST",
      user: mira,
      body: { name: "Mine", kind: "openai", baseUrl: env.OPENAI_BASE_URL, apiKey: env.OPENAI_API_KEY, model: "echo", imageModel: "url", isDefault: true },
    });
    expect(await json(connection, 201)).toMatchObject({ imageModel: "url" });
    const conversation = await startChat(mira, characterId);
    const { socket } = await join(mira, conversation.id);
    socket.send({ type: "imagine", conversationId: conversation.id, prompt: "A lantern in the fog", clientId: "own" });
    const ready = await socket.next("image_ready", (f) => f.requestId === "own", 15_000);
    // The loopback server paints with the offline painter at the size asked: 768.
    expect(ready.message).toMatchObject({ width: 768, height: 768, prompt: "A lantern in the fog" });
    expect((await fetchObject(ready.message.imageUrl!)).status).toBe(200);
    // Its refusal is theirs: the site's painter never refuses, so this shows whose engine answers.
    const [saved] = await json<{ id: string }[]>(await call("/api/model-connections", { user: mira }), 200);
    expect(await json(await call(`/api/model-connections/${saved!.id}`, { method: "PUT", user: mira, body: { imageModel: "refused" } }), 200)).toMatchObject({ imageModel: "refused" });
    socket.send({ type: "imagine", conversationId: conversation.id, prompt: "A lantern in the fog", clientId: "own-2" });
    expect(await socket.next("error", (f) => f.requestId === "own-2", 15_000)).toMatchObject({ code: "image_failed", message: expect.stringMatching(/refused to draw/) });
    socket.close();
  });
});

/** Olga's chat with Mika in it (by Olga's invite), both joined; Mika a new person, with her whole allowance. */
async function sharedRoom() {
  const olga = await signIn({ firstName: "Olga" });
  const mika = await signIn({ firstName: "Mika" });
  const conversation = await json<Conversation>(await call("/api/conversations", { method: "POST", user: olga, body: { characterId } }), 201);
  const { token } = await json<ConversationInvite>(await call(`/api/conversations/${conversation.id}/invites`, { method: "POST", user: olga }), 201);
  await json(await call(`/api/invites/${token}`, { method: "POST", user: mika }), 200);
  const { socket: olgaSocket } = await join(olga, conversation.id);
  const { socket: mikaSocket } = await join(mika, conversation.id);
  return { olga, mika, conversation, olgaSocket, mikaSocket };
}

describe("in a shared room", () => {
  it("a member imagines and everyone sees it; a member cannot delete or cancel the owner's picture", async () => {
    const { olga, mika, conversation, olgaSocket, mikaSocket } = await sharedRoom();
    mikaSocket.send({ type: "imagine", conversationId: conversation.id, prompt: "Two travellers by a campfire", clientId: "m1" });
    expect(await olgaSocket.next("image_started")).toMatchObject({ requestId: "m1", userId: mika.id });
    const seen = await olgaSocket.next("image_ready");
    expect(seen.message).toMatchObject({ authorId: mika.id, authorName: "Mika", prompt: "Two travellers by a campfire" });
    await mikaSocket.next("image_ready");

    olgaSocket.send({ type: "imagine", conversationId: conversation.id, prompt: "The owner's picture", clientId: "o1" });
    const owners = (await mikaSocket.next("image_ready", (f) => f.requestId === "o1")).message;
    mikaSocket.send({ type: "delete_message", conversationId: conversation.id, messageId: owners.id, clientId: "x" });
    expect(await mikaSocket.next("error", (f) => f.clientId === "x")).toMatchObject({ code: "forbidden" });
    expect((await storedMessages(olga, conversation.id)).some((m) => m.id === owners.id)).toBe(true);

    await useGenerator(conversation.id, waitingGenerator);
    olgaSocket.send({ type: "imagine", conversationId: conversation.id, prompt: "Slow one", clientId: "o2" });
    await mikaSocket.next("image_started", (f) => f.requestId === "o2");
    mikaSocket.send({ type: "cancel_image", conversationId: conversation.id, requestId: "o2" });
    expect(await mikaSocket.next("error", (f) => f.requestId === "o2")).toMatchObject({ code: "forbidden" });
    // The owner may delete the member's picture.
    olgaSocket.send({ type: "delete_message", conversationId: conversation.id, messageId: seen.message.id, clientId: "od" });
    expect(await mikaSocket.next("messages_deleted", (f) => f.messageIds.includes(seen.message.id))).toBeTruthy();
    olgaSocket.send({ type: "cancel_image", conversationId: conversation.id, requestId: "o2" });
    await mikaSocket.next("image_stopped", (f) => f.requestId === "o2");
    await olgaSocket.next("image_stopped", (f) => f.requestId === "o2");
    olgaSocket.close();
    mikaSocket.close();
  });

  it("a removed member cannot draw their picture again: their socket closes, a new one is refused, nothing is drawn", async () => {
    const { olga, mika, conversation, olgaSocket, mikaSocket } = await sharedRoom();
    mikaSocket.send({ type: "imagine", conversationId: conversation.id, prompt: "A lantern left on the pier", clientId: "m1" });
    const picture = (await olgaSocket.next("image_ready", (f) => f.requestId === "m1")).message;

    expect((await call(`/api/conversations/${conversation.id}/members/${mika.id}`, { method: "DELETE", user: olga })).status).toBe(204);
    expect(await mikaSocket.closed()).toMatchObject({ code: 1008 });
    // Back by a new socket, "Draw again" on her picture: refused before the frame is read.
    const res = await upgrade({ user: mika, conversationId: conversation.id });
    expect(res.status).toBe(101);
    const comeback = new ChatSocket(res.webSocket!);
    comeback.send({ type: "imagine", conversationId: conversation.id, imageId: picture.id, clientId: "m2" });
    expect(await comeback.next("error")).toMatchObject({ code: "forbidden" });
    expect(await comeback.closed()).toMatchObject({ code: 1008 });

    // Nothing was drawn: one version of the picture, one file, no placeholder for anyone, none of her allowance spent.
    expect((await storedMessages(olga, conversation.id)).find((m) => m.id === picture.id)).toMatchObject({ imageUrl: picture.imageUrl, alternatives: [] });
    expect(await picturesIn(conversation.id)).toEqual([picture.imageUrl!.replace("/objects/", "")]);
    expect(olgaSocket.frames.filter((f) => f.type === "image_started").map((f) => f.requestId)).toEqual(["m1"]);
    const used = await env.DB.prepare("SELECT coalesce(sum(count), 0) AS n FROM image_usage WHERE user_id = ? AND window = 'minute'").bind(mika.id).first<number>("n");
    expect(used).toBe(1);
    olgaSocket.close();
  });
});
