/**
 * Expressions and backgrounds as the studio and the chat use them (issue 37,
 * DESIGN.md "Character assets"): the creator uploads and removes pictures
 * (nobody else may), each finished reply carries the expression it shows
 * among its speaker's labels (null for a character without any), and the
 * chat's background is one of its character's.
 */
import { encode as encodePng } from "fast-png";
import { beforeEach, describe, expect, it } from "vitest";
import type { Character, CharacterAsset } from "../../schema/api.ts";
import type { Conversation } from "../../schema/chat.ts";
import { join } from "./chat-client.ts";
import { bucketKeys, call, callSettled, json } from "./creator-api.ts";
import { clearCatalog, insertCharacter, signIn, type TestUser } from "./fixtures.ts";
import { startChat, storedMessages, useTestServerModel } from "./room-chat.ts";

const png = (rgb: [number, number, number]) => {
  const data = new Uint8Array(4 * 4 * 4);
  for (let i = 0; i < data.length; i += 4) data.set([...rgb, 255], i);
  return encodePng({ width: 4, height: 4, data, channels: 4 });
};

/** Uploads `bytes` the way the studio does (upload URL, PUT, registration); returns the object path. */
async function uploadPicture(user: TestUser, bytes: Uint8Array): Promise<string> {
  const { uploadURL } = await json<{ uploadURL: string }>(await call("/api/objects/upload", { method: "POST", user }), 200);
  expect((await call(uploadURL, { method: "PUT", body: bytes, headers: { "content-type": "image/png" } })).status).toBe(200);
  const { objectPath } = await json<{ objectPath: string }>(await call("/api/character-avatars", { method: "PUT", user, body: { avatarURL: uploadURL } }), 200);
  return objectPath;
}

const addAsset = (user: TestUser | null, id: number, body: unknown) => call(`/api/characters/${id}/assets`, { method: "POST", user, body });
const character = async (id: number, user: TestUser) => json<Character>(await call(`/api/characters/${id}`, { user }), 200);

beforeEach(async () => {
  await clearCatalog();
});

describe("the studio's expressions and backgrounds", () => {
  it("the creator adds, replaces and deletes pictures; the character lists them", async () => {
    const mira = await signIn();
    const id = await insertCharacter({ name: "Wren", creatorId: mira.id, creator: "mira" });
    const joyPath = await uploadPicture(mira, png([250, 220, 0]));
    const joy = await json<CharacterAsset>(await addAsset(mira, id, { type: "emotion", name: "joy", objectPath: joyPath }), 201);
    expect(joy).toEqual({ type: "emotion", name: "joy", url: expect.stringMatching(/^\/objects\/assets\/[0-9a-f]{64}$/), ext: "png" });
    const served = await call(joy.url);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(png([250, 220, 0]));
    await json(await addAsset(mira, id, { type: "background", name: "Harbor at dusk", objectPath: await uploadPicture(mira, png([20, 30, 90])) }), 201);
    expect((await character(id, mira)).assets.map((a) => [a.type, a.name])).toEqual([["emotion", "joy"], ["background", "Harbor at dusk"]]);

    // The same type and name replaces the picture; the old file goes once nothing names it.
    const again = await json<CharacterAsset>(await addAsset(mira, id, { type: "emotion", name: "joy", objectPath: await uploadPicture(mira, png([255, 150, 0])) }), 201);
    expect(again.url).not.toBe(joy.url);
    expect((await character(id, mira)).assets.filter((a) => a.name === "joy")).toEqual([again]);
    await expect.poll(async () => (await bucketKeys()).includes(joy.url.slice("/objects/".length))).toBe(false);
    // The upload was only the way in.
    await expect.poll(async () => (await bucketKeys()).includes(joyPath.slice("/objects/".length))).toBe(false);

    expect((await call(`/api/characters/${id}/assets/background/${encodeURIComponent("Harbor at dusk")}`, { method: "DELETE", user: mira })).status).toBe(204);
    expect((await character(id, mira)).assets).toEqual([again]);
    expect(await json(await call(`/api/characters/${id}/assets/background/nothing`, { method: "DELETE", user: mira }), 404)).toMatchObject({ code: "not_found" });
  });

  it("refuses everyone but the creator", async () => {
    const mira = await signIn();
    const noor = await signIn();
    const id = await insertCharacter({ name: "Wren", creatorId: mira.id, creator: "mira" });
    const miraPath = await uploadPicture(mira, png([1, 2, 3]));
    await json(await addAsset(mira, id, { type: "emotion", name: "joy", objectPath: miraPath }), 201);
    // Someone else's character: 403 for a picture of their own.
    expect(await json(await addAsset(noor, id, { type: "emotion", name: "anger", objectPath: await uploadPicture(noor, png([9, 9, 9])) }), 403)).toMatchObject({ code: "forbidden" });
    expect(await json(await call(`/api/characters/${id}/assets/emotion/joy`, { method: "DELETE", user: noor }), 403)).toMatchObject({ code: "forbidden" });
    expect((await call(`/api/characters/${id}/assets/emotion/joy`, { method: "DELETE" })).status).toBe(401);
    expect((await addAsset(null, id, { type: "emotion", name: "joy", objectPath: miraPath })).status).toBe(401);
    // Their own character, someone else's upload: 403.
    const noorsId = await insertCharacter({ name: "Ash", creatorId: noor.id, creator: "noor" });
    const other = await uploadPicture(mira, png([4, 5, 6]));
    expect(await json(await addAsset(noor, noorsId, { type: "emotion", name: "joy", objectPath: other }), 403)).toMatchObject({ code: "forbidden" });
    expect((await character(id, mira)).assets.map((a) => a.name)).toEqual(["joy"]);
    expect((await character(noorsId, noor)).assets).toEqual([]);
  });

  it.each([
    [{ type: "sprite", name: "joy" }, "type must be emotion, background, icon, user_icon or x_…"],
    [{ type: "emotion", name: "  " }, "Give the picture a name"],
    [{ type: "emotion", name: "a/b" }, "Names cannot contain / or control characters"],
  ])("refuses %j → 400", async (fields, message) => {
    const mira = await signIn();
    const id = await insertCharacter({ name: "Wren", creatorId: mira.id, creator: "mira" });
    const objectPath = await uploadPicture(mira, png([1, 1, 1]));
    expect(await json(await addAsset(mira, id, { ...fields, objectPath }), 400)).toMatchObject({ error: message });
  });
});

describe("choosing the neutral expression", () => {
  const useAsNeutral = (user: TestUser | null, id: number, name: unknown) =>
    call(`/api/characters/${id}/neutral-expression`, { method: "PUT", user, body: { name } });
  const keyOf = (asset: CharacterAsset) => asset.url.slice("/objects/".length);

  it("the chosen picture becomes the neutral one and keeps its own label; the former neutral picture goes", async () => {
    const mira = await signIn();
    const id = await insertCharacter({ name: "Wren", creatorId: mira.id, creator: "mira" });
    const grey = await json<CharacterAsset>(await addAsset(mira, id, { type: "emotion", name: "neutral", objectPath: await uploadPicture(mira, png([128, 128, 128])) }), 201);
    const calm = await json<CharacterAsset>(await addAsset(mira, id, { type: "emotion", name: "calm", objectPath: await uploadPicture(mira, png([90, 160, 120])) }), 201);

    const neutral = await json<CharacterAsset>(await callSettled(`/api/characters/${id}/neutral-expression`, { method: "PUT", user: mira, body: { name: "calm" } }), 200);
    expect(neutral).toEqual({ type: "emotion", name: "neutral", url: calm.url, ext: "png" });
    // Same place in the list, same picture as calm, calm still there; the grey file is gone.
    expect((await character(id, mira)).assets).toEqual([neutral, calm]);
    expect(await bucketKeys()).not.toContain(keyOf(grey));
    expect(new Uint8Array(await (await call(neutral.url)).arrayBuffer())).toEqual(png([90, 160, 120]));

    // Deleting calm keeps the picture: neutral still names it.
    expect((await callSettled(`/api/characters/${id}/assets/emotion/calm`, { method: "DELETE", user: mira })).status).toBe(204);
    expect((await character(id, mira)).assets).toEqual([neutral]);
    expect(await bucketKeys()).toContain(keyOf(neutral));
    // Choosing the neutral one itself changes nothing.
    expect(await json(await useAsNeutral(mira, id, "neutral"), 200)).toEqual(neutral);
  });

  it("without a neutral picture yet, one is added; an imported \"Neutral\" keeps its spelling", async () => {
    const mira = await signIn();
    const id = await insertCharacter({ name: "Wren", creatorId: mira.id, creator: "mira" });
    const joy = await json<CharacterAsset>(await addAsset(mira, id, { type: "emotion", name: "joy", objectPath: await uploadPicture(mira, png([250, 220, 0])) }), 201);
    expect(await json(await useAsNeutral(mira, id, "joy"), 200)).toEqual({ ...joy, name: "neutral" });
    expect((await character(id, mira)).assets.map((a) => a.name)).toEqual(["joy", "neutral"]);

    const other = await insertCharacter({ name: "Ash", creatorId: mira.id, creator: "mira" });
    await json(await addAsset(mira, other, { type: "emotion", name: "Neutral", objectPath: await uploadPicture(mira, png([1, 1, 1])) }), 201);
    const sad = await json<CharacterAsset>(await addAsset(mira, other, { type: "emotion", name: "sad", objectPath: await uploadPicture(mira, png([0, 0, 200])) }), 201);
    expect(await json(await useAsNeutral(mira, other, "sad"), 200)).toEqual({ ...sad, name: "Neutral" });
    expect((await character(other, mira)).assets.map((a) => [a.name, a.url])).toEqual([["Neutral", sad.url], ["sad", sad.url]]);
  });

  it("refuses a name that is none of its expressions, a background, and everyone but the creator", async () => {
    const mira = await signIn();
    const noor = await signIn();
    const id = await insertCharacter({ name: "Wren", creatorId: mira.id, creator: "mira" });
    const grey = await json<CharacterAsset>(await addAsset(mira, id, { type: "emotion", name: "neutral", objectPath: await uploadPicture(mira, png([128, 128, 128])) }), 201);
    await json(await addAsset(mira, id, { type: "emotion", name: "joy", objectPath: await uploadPicture(mira, png([250, 220, 0])) }), 201);
    await json(await addAsset(mira, id, { type: "background", name: "harbor", objectPath: await uploadPicture(mira, png([10, 60, 90])) }), 201);

    expect(await json(await useAsNeutral(mira, id, "anger"), 404)).toMatchObject({ code: "not_found", error: "This expression is not one of the character's" });
    expect(await json(await useAsNeutral(mira, id, "harbor"), 404)).toMatchObject({ code: "not_found" });
    expect(await json(await useAsNeutral(mira, id, " "), 400)).toMatchObject({ error: "Choose an expression" });
    expect(await json(await useAsNeutral(mira, id, 7), 400)).toMatchObject({ code: "validation_failed" });
    // Someone else: 403; nobody signed in: 401; the neutral picture is unchanged.
    expect(await json(await useAsNeutral(noor, id, "joy"), 403)).toMatchObject({ code: "forbidden" });
    expect((await useAsNeutral(null, id, "joy")).status).toBe(401);
    expect((await character(id, mira)).assets.find((a) => a.name === "neutral")).toEqual(grey);
  });
});

describe("expressions in the chat", () => {
  async function withExpressions(user: TestUser): Promise<number> {
    const id = await insertCharacter({ name: "Wren", creatorId: user.id, creator: "mira" });
    for (const [name, rgb] of [["neutral", [128, 128, 128]], ["amusement", [250, 200, 0]], ["sadness", [0, 0, 200]]] as const) {
      await json(await addAsset(user, id, { type: "emotion", name, objectPath: await uploadPicture(user, png([...rgb])) }), 201);
    }
    await json(await addAsset(user, id, { type: "background", name: "harbor", objectPath: await uploadPicture(user, png([10, 60, 90])) }), 201);
    return id;
  }

  it("each reply carries the expression it shows, in the frame, history_sync and the stored messages", async () => {
    const mira = await signIn();
    const conversation = await startChat(mira, await withExpressions(mira));
    // The chat knows its cast's pictures.
    expect(conversation.characters[0]!.assets.map((a) => [a.type, a.name])).toEqual([
      ["emotion", "neutral"],
      ["emotion", "amusement"],
      ["emotion", "sadness"],
      ["background", "harbor"],
    ]);
    await useTestServerModel(conversation.id, "echo");
    const { socket } = await join(mira, conversation.id);
    const { response: funny } = await socket.chat(conversation.id, "*She laughs and grins.* Haha, that is hilarious!");
    expect(funny.message.expression).toBe("amusement");
    const { response: sad } = await socket.chat(conversation.id, "*Tears fall.* I'm so sad and lonely, crying all night.");
    expect(sad.message.expression).toBe("sadness");
    socket.ws.close();

    // The greeting was written before any reply was classified: it shows none of its own.
    const stored = (await storedMessages(mira, conversation.id)).filter((m) => !m.isUser);
    expect(stored.map((m) => m.expression)).toEqual([null, "amusement", "sadness"]);
    const { history } = await join(mira, conversation.id);
    expect(history.messages.filter((m) => !m.isUser).map((m) => m.expression)).toEqual([null, "amusement", "sadness"]);
  });

  it("each version of a reply keeps its own expression: a swipe shows its face, a branch keeps every version's", async () => {
    const mira = await signIn();
    const conversation = await startChat(mira, await withExpressions(mira));
    await useTestServerModel(conversation.id, "echo");
    const { socket } = await join(mira, conversation.id);
    await socket.chat(conversation.id, "*Tears fall.* I'm so sad and lonely, crying all night.");
    const { response: funny } = await socket.chat(conversation.id, "*She laughs and grins.* Haha, that is hilarious!");
    expect(funny.message.expression).toBe("amusement");
    // The loopback "recall" model says the character's last line again: the sad one, so the new version is sad.
    await useTestServerModel(conversation.id, "recall");
    socket.send({ type: "regenerate", conversationId: conversation.id });
    const regenerated = await socket.next("character_response", (f) => f.messageId !== funny.messageId);
    expect(regenerated.message.expression).toBe("sadness");

    const swipe = async (index: number) => {
      socket.send({ type: "swipe", conversationId: conversation.id, messageId: regenerated.messageId, index });
      return (await socket.next("message_updated", (f) => f.messageId === regenerated.messageId && f.message.swipeIndex === (index === 1 ? undefined : index))).message;
    };
    expect(await swipe(0)).toMatchObject({ content: funny.message.content, expression: "amusement" });
    expect(await swipe(1)).toMatchObject({ content: regenerated.message.content, expression: "sadness" });
    const back = await swipe(0);
    expect(back.expression).toBe("amusement");

    // A branch from that reply keeps each version's face.
    const branch = await json<Conversation>(
      await call(`/api/conversations/${conversation.id}/branch`, { method: "POST", user: mira, body: { messageId: regenerated.messageId } }),
      201,
    );
    socket.ws.close();
    const { socket: there, history } = await join(mira, branch.id);
    const last = history.messages.at(-1)!;
    expect([last.content, last.expression, last.swipeIndex]).toEqual([funny.message.content, "amusement", 0]);
    there.send({ type: "swipe", conversationId: branch.id, messageId: last.id, index: 1 });
    expect((await there.next("message_updated", (f) => f.messageId === last.id)).message.expression).toBe("sadness");
    there.ws.close();
  });

  it("a character without expressions: null", async () => {
    const mira = await signIn();
    const id = await insertCharacter({ name: "Plain", creatorId: mira.id, creator: "mira" });
    const conversation = await startChat(mira, id);
    await useTestServerModel(conversation.id, "echo");
    const { socket } = await join(mira, conversation.id);
    const { response } = await socket.chat(conversation.id, "*She laughs.* Haha!");
    expect(response.message.expression).toBeNull();
  });

  it("PATCH background: one of the character's, or null; only the owner", async () => {
    const mira = await signIn();
    const noor = await signIn();
    const conversation = await startChat(mira, await withExpressions(mira));
    const patch = (user: TestUser, background: unknown) => call(`/api/conversations/${conversation.id}`, { method: "PATCH", user, body: { background } });
    expect((await json<Conversation>(await patch(mira, "harbor"), 200)).background).toBe("harbor");
    expect((await json<Conversation>(await call(`/api/conversations/${conversation.id}`, { user: mira }), 200)).background).toBe("harbor");
    expect(await json(await patch(mira, "moon"), 400)).toMatchObject({ error: "Wren has no background named “moon”" });
    expect((await patch(noor, null)).status).toBe(404);
    expect((await json<Conversation>(await patch(mira, null), 200)).background).toBeNull();
  });
});
