/**
 * Pictures of a chat beyond its room (DESIGN.md "Pictures", issue 38).
 * Reported and removed like its messages: `POST /api/reports` with `targetType: "message"`
 * and a picture's id is filed by anyone in the chat (the asker too: the
 * engine drew it) and keeps where it was served and its prompt; an outsider
 * gets 404. Upholding it (`npm run moderation -- uphold N`) makes the
 * picture 404 at once and its room deletes its row and its R2 object —
 * when the chat is next read, or at once through `POST
 * /api/enforcement/removals/{conversationId}` (`--site`); open sockets are
 * told. The chat's exports and the account export keep a picture as a
 * line with its full URL, and a branch takes the pictures before its
 * branch point along, each copied to a file of its own.
 */
import { env, exports } from "cloudflare:workers";
import { strFromU8, unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import type { Report } from "../../schema/api.ts";
import type { ChatMessage, Conversation, ConversationInvite } from "../../schema/chat.ts";
import { picturesPrefix } from "../../durable-objects/room/images.ts";
import { describeTarget, getReport, upholdReport } from "../lib/moderation-actions.ts";
import { join } from "./chat-client.ts";
import { call, json } from "./creator-api.ts";
import { insertCharacter, signIn, type TestUser } from "./fixtures.ts";
import { OPERATOR, operatorDb } from "./operator-db.ts";
import { storedMessages } from "./room-chat.ts";

const fetchObject = (path: string) => exports.default.fetch(`http://localhost${path}`);
const picturesIn = async (conversationId: string) => (await env.AVATARS.list({ prefix: picturesPrefix(conversationId) })).objects.map((o) => o.key);
const reportPicture = (user: TestUser, conversationId: string, pictureId: string) =>
  call("/api/reports", { method: "POST", user, body: { targetType: "message", targetId: pictureId, conversationId, reason: "illegal" } });

/** A shared room of `owner` with `member` in it, and a picture `member` asked for, as every socket saw it arrive. */
async function roomWithPicture(prompt: string) {
  const characterId = await insertCharacter({ name: "Ash" });
  const owner = await signIn({ firstName: "Olga" });
  const member = await signIn({ firstName: "Mika" });
  const conversation = await json<Conversation>(await call("/api/conversations", { method: "POST", user: owner, body: { characterId } }), 201);
  const { token } = await json<ConversationInvite>(await call(`/api/conversations/${conversation.id}/invites`, { method: "POST", user: owner }), 201);
  await json(await call(`/api/invites/${token}`, { method: "POST", user: member }), 200);
  const { socket: ownerSocket } = await join(owner, conversation.id);
  const { socket: memberSocket } = await join(member, conversation.id);
  memberSocket.send({ type: "imagine", conversationId: conversation.id, prompt, clientId: "p1" });
  const picture = (await ownerSocket.next("image_ready", (f) => f.requestId === "p1")).message as ChatMessage;
  await memberSocket.next("image_ready", (f) => f.requestId === "p1");
  return { characterId, owner, member, conversation, picture, ownerSocket, memberSocket };
}

describe("reporting a picture of a chat", () => {
  it("anyone in the chat files it, the asker too; the report keeps its path and prompt and names who asked; an outsider gets 404", async () => {
    const { characterId, owner, member, conversation, picture, ownerSocket, memberSocket } = await roomWithPicture("A lighthouse at night in a storm");
    const filed = await json<Report>(await reportPicture(owner, conversation.id, picture.id), 201);
    expect(filed).toMatchObject({ targetType: "message", targetId: picture.id, reason: "illegal", status: "open" });
    const row = await env.DB.prepare("SELECT excerpt, target_owner_id AS ownerId, conversation_id AS conversationId, character_id AS characterId FROM reports WHERE id = ?")
      .bind(filed.id)
      .first<{ excerpt: string; ownerId: string; conversationId: string; characterId: number }>();
    expect(row).toEqual({ excerpt: `[picture ${picture.imageUrl}] A lighthouse at night in a storm`, ownerId: member.id, conversationId: conversation.id, characterId });
    // The same person again: their open report, nothing new.
    expect((await json<Report>(await reportPicture(owner, conversation.id, picture.id), 200)).id).toBe(filed.id);
    // The member who asked for it may report it too.
    await json<Report>(await reportPicture(member, conversation.id, picture.id), 201);

    const outsider = await signIn();
    expect(await json(await reportPicture(outsider, conversation.id, picture.id), 404)).toMatchObject({ code: "not_found", error: "Conversation not found" });
    expect(await json(await reportPicture(owner, conversation.id, crypto.randomUUID()), 404)).toMatchObject({ code: "not_found", error: "Message not found" });
    expect((await call("/api/reports", { method: "POST", body: { targetType: "message", targetId: picture.id, conversationId: conversation.id, reason: "spam" } })).status).toBe(401);
    ownerSocket.close();
    memberSocket.close();
  });
});

describe("upholding a report on a picture", () => {
  it("404 at once; the enforcement call deletes its row and R2 object in the room, and open sockets are told", async () => {
    const { owner, conversation, picture, ownerSocket, memberSocket } = await roomWithPicture("Two travellers by a campfire");
    const key = `${picturesPrefix(conversation.id)}${picture.id}`;
    const filed = await json<Report>(await reportPicture(owner, conversation.id, picture.id), 201);
    expect((await describeTarget(operatorDb, await getReport(operatorDb, filed.id))).summary).toBe(`picture ${picture.id} in conversation ${conversation.id}: shown`);

    const done = await upholdReport(operatorDb, filed.id, OPERATOR);
    expect(done).toContain(`Picture ${picture.id} removed: ${picture.imageUrl} answers "not found" now`);
    expect((await describeTarget(operatorDb, await getReport(operatorDb, filed.id))).summary).toBe(`picture ${picture.id} in conversation ${conversation.id}: removed`);
    // Only D1 was told so far: the object is still in R2, and it is not served any more.
    expect(await picturesIn(conversation.id)).toEqual([key]);
    expect((await fetchObject(picture.imageUrl!)).status).toBe(404);

    expect(await json(await call(`/api/enforcement/removals/${conversation.id}`, { method: "POST" }), 200)).toEqual({ removed: 1 });
    expect((await ownerSocket.next("messages_deleted", (f) => f.messageIds.includes(picture.id))).messageIds).toEqual([picture.id]);
    await memberSocket.next("messages_deleted", (f) => f.messageIds.includes(picture.id));
    expect(await picturesIn(conversation.id)).toEqual([]);
    expect((await storedMessages(owner, conversation.id)).some((m) => m.id === picture.id)).toBe(false);
    // Applied already: nothing more changes.
    expect(await json(await call(`/api/enforcement/removals/${conversation.id}`, { method: "POST" }), 200)).toEqual({ removed: 0 });
    ownerSocket.close();
    memberSocket.close();
  });

  it("without the enforcement call, the next read of the chat deletes it; a text reply upheld in the same chat is hidden, not deleted", async () => {
    const { owner, conversation, picture, ownerSocket, memberSocket } = await roomWithPicture("A harbour at dawn");
    ownerSocket.close();
    memberSocket.close();
    const { socket } = await join(owner, conversation.id);
    const exchange = await socket.chat(conversation.id, "Tell me about the harbour.");
    socket.close();
    const pictureReport = await json<Report>(await reportPicture(owner, conversation.id, picture.id), 201);
    const replyReport = await json<Report>(
      await call("/api/reports", { method: "POST", user: owner, body: { targetType: "message", targetId: exchange.response.messageId, conversationId: conversation.id, reason: "spam" } }),
      201,
    );
    expect(await upholdReport(operatorDb, replyReport.id, OPERATOR)).toContain(`Message ${exchange.response.messageId} hidden`);
    await upholdReport(operatorDb, pictureReport.id, OPERATOR);

    const messages = await storedMessages(owner, conversation.id);
    expect(messages.some((m) => m.id === picture.id)).toBe(false);
    expect(messages.find((m) => m.id === exchange.response.messageId)).toBeTruthy();
    expect(await picturesIn(conversation.id)).toEqual([]);
  });

  it("the enforcement call: 404 for a chat without removals or a malformed id", async () => {
    const characterId = await insertCharacter({ name: "Quiet" });
    const owner = await signIn();
    const conversation = await json<Conversation>(await call("/api/conversations", { method: "POST", user: owner, body: { characterId } }), 201);
    expect(await json(await call(`/api/enforcement/removals/${conversation.id}`, { method: "POST" }), 404)).toMatchObject({ code: "not_found" });
    expect(await json(await call("/api/enforcement/removals/not-a-conversation", { method: "POST" }), 404)).toMatchObject({ code: "not_found" });
  });
});

describe("a picture in the chat's exports", () => {
  it("the chat's SillyTavern file and the account export keep it as a line with its full URL; the Markdown shows it", async () => {
    const { owner, member, conversation, picture, ownerSocket, memberSocket } = await roomWithPicture("A lantern on a wet quay");
    ownerSocket.close();
    memberSocket.close();
    const url = `http://localhost${picture.imageUrl}`;
    const pictureLine = (jsonl: string) =>
      jsonl
        .split("\n")
        .map((line) => JSON.parse(line) as { mes?: string; is_system?: boolean; extra?: { image?: string; media?: { url: string }[] } })
        .find((line) => line.extra?.image !== undefined);

    const file = await (await call(`/api/conversations/${conversation.id}/export`, { user: member })).text();
    expect(pictureLine(file)).toMatchObject({ mes: "A lantern on a wet quay", is_system: true, extra: { image: url, media: [{ url, type: "image" }] } });
    const markdown = await (await call(`/api/conversations/${conversation.id}/export?format=markdown`, { user: owner })).text();
    expect(markdown).toContain(`![A lantern on a wet quay](<${url}>)`);

    const res = await call("/api/profile/export", { user: owner });
    expect(res.status).toBe(200);
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const chats = Object.keys(files).filter((name) => name.startsWith("chats/"));
    expect(chats).toHaveLength(1);
    expect(pictureLine(strFromU8(files[chats[0]!]!))).toMatchObject({ extra: { image: url } });
  });
});

describe("a picture in a branch", () => {
  it("goes with the branch in its place, copied to the branch's own file, which outlives the chat it came from", async () => {
    const characterId = await insertCharacter({ name: "Ash" });
    const mira = await signIn();
    const conversation = await json<Conversation>(await call("/api/conversations/new", { method: "POST", user: mira, body: { characterId } }), 201);
    const { socket } = await join(mira, conversation.id);
    const first = await socket.chat(conversation.id, "We walk to the shore.");
    socket.send({ type: "imagine", conversationId: conversation.id, prompt: "A grey shore at dusk", clientId: "a" });
    const before = (await socket.next("image_ready", (f) => f.requestId === "a")).message as ChatMessage;
    const second = await socket.chat(conversation.id, "And then the lighthouse.");
    socket.send({ type: "imagine", conversationId: conversation.id, prompt: "A lighthouse in the rain", clientId: "b" });
    const after = (await socket.next("image_ready", (f) => f.requestId === "b")).message as ChatMessage;
    socket.close();

    // From the second reply: the picture before it goes, the one made after it does not.
    const branch = await json<Conversation>(await call(`/api/conversations/${conversation.id}/branch`, { method: "POST", user: mira, body: { messageId: second.response.messageId } }), 201);
    const messages = await storedMessages(mira, branch.id);
    expect(messages.map((m) => (m.kind === "image" ? `[${m.prompt}]` : m.content)).slice(-5)).toEqual([
      "We walk to the shore.",
      first.response.content,
      "[A grey shore at dusk]",
      "And then the lighthouse.",
      second.response.content,
    ]);
    const copied = messages.find((m) => m.kind === "image")!;
    expect(copied).toMatchObject({ prompt: "A grey shore at dusk", width: before.width, height: before.height, authorId: mira.id });
    expect(copied.id).not.toBe(before.id);
    expect(copied.imageUrl).toBe(`/objects/pictures/${branch.id}/${copied.id}`);
    expect(messages.some((m) => m.prompt === after.prompt)).toBe(false);
    const original = new Uint8Array(await (await fetchObject(before.imageUrl!)).arrayBuffer());

    // Deleting the chat it came from deletes that chat's files, not the branch's.
    expect((await call(`/api/conversations/${conversation.id}`, { method: "DELETE", user: mira })).status).toBe(204);
    await expect.poll(async () => (await fetchObject(before.imageUrl!)).status).toBe(404);
    const served = await fetchObject(copied.imageUrl!);
    expect(served.status).toBe(200);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(original);
  });
});
