/**
 * Share links through the Worker (DESIGN.md "Sharing and forks",
 * worker/routes/shares.ts): the snapshot (visible history only, the chosen
 * version of each reply, persona names, untouched by later edits and
 * deletions), who may share, list and revoke (owner; member 403, others
 * 404, visitors 401), reading as a visitor with NSFW withheld until the 18+
 * question, continuing as one's own chat, reports and the operator's
 * removal, and shares going with their chat; pictures copied to files the
 * share owns, gone with it, and copied again into a continued story.
 */
import { env, exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { ChatMessage, Conversation } from "../../schema/chat.ts";
import { MAX_SHARE_PICTURES, MAX_SHARES_PER_CHAT, type CreatedShare, type SharedChat, type ShareLink } from "../../schema/shares.ts";
import app from "../app.ts";
import { cacheControlFor, edgeCacheKey } from "../lib/edge-cache.ts";
import { upholdReport } from "../lib/moderation-actions.ts";
import { sharePicturesPrefix, sweepSharePictures } from "../lib/share-pictures.ts";
import { snapshotMessages } from "../lib/shares.ts";
import { join } from "./chat-client.ts";
import { call, callSettled, countRows, json } from "./creator-api.ts";
import { insertCharacter, signIn, type TestUser } from "./fixtures.ts";
import { OPERATOR, operatorDb } from "./operator-db.ts";
import { startChat, storedMessages, useTestServerModel } from "./room-chat.ts";

let characterId: number;
let nsfwCharacterId: number;

beforeAll(async () => {
  characterId = await insertCharacter({ name: "Wren" });
  nsfwCharacterId = await insertCharacter({ name: "Velvet", isNsfw: true });
});

const share = (user: TestUser, conversationId: string, body: unknown = {}) =>
  call(`/api/conversations/${conversationId}/shares`, { method: "POST", user, body });
const read = (token: string, query = "", user?: TestUser) => call(`/api/shares/${token}${query}`, { user });
/** A visitor's `GET` of a served object. */
const fetchObject = (path: string, headers: Record<string, string> = {}) => exports.default.fetch(new Request(`http://localhost${path}`, { headers }));
/** The R2 keys under share `token`'s prefix. */
const sharePictureKeys = async (token: string) => (await env.AVATARS.list({ prefix: sharePicturesPrefix(token) })).objects.map((o) => o.key);
const bytesOf = (buffer: ArrayBuffer) => Array.from(new Uint8Array(buffer));

/**
 * Mira's chat as "Captain Mira": a hidden aside, and a last reply in two
 * versions with the first one chosen again. Returns the chat, what she sees
 * (`GET …/messages`) and the texts that must never be shared.
 */
async function story(mira: TestUser) {
  const persona = await json<{ id: string }>(await call("/api/personas", { method: "POST", user: mira, body: { name: "Captain Mira", description: "A sailor." } }), 201);
  const chat = await startChat(mira, characterId);
  await json(await call(`/api/conversations/${chat.id}/persona`, { method: "PUT", user: mira, body: { personaId: persona.id } }), 200);
  const { socket } = await join(mira, chat.id);
  const first = await socket.chat(chat.id, "Where is the ledger?");
  const aside = await socket.chat(chat.id, "An aside nobody should read.");
  socket.send({ type: "hide_message", conversationId: chat.id, messageId: aside.saved.messageId, hidden: true });
  await socket.next("message_updated", (f) => f.messageId === aside.saved.messageId);
  const last = await socket.chat(chat.id, "Read me the last page.");
  await useTestServerModel(chat.id, "echo");
  socket.send({ type: "regenerate", conversationId: chat.id });
  const regenerated = await socket.next("character_response", (f) => f.messageId !== last.response.messageId);
  socket.send({ type: "swipe", conversationId: chat.id, messageId: regenerated.messageId, index: 0 });
  await socket.next("message_updated", (f) => f.messageId === regenerated.messageId);
  socket.close();
  const seen = await storedMessages(mira, chat.id);
  expect(seen.find((m) => m.id === regenerated.messageId)).toMatchObject({ content: last.response.content, swipeIndex: 0 });
  return { chat, seen, first, aside, lastReplyId: regenerated.messageId, unchosen: regenerated.content };
}

/** What a share of `seen` must hold: the messages not hidden, as shown. */
const visible = (seen: ChatMessage[]) => seen.filter((m) => !m.hidden).map((m) => m.content);

describe("sharing a chat", () => {
  it("shares the visible history as shown, under persona names, and later edits and deletions do not reach it", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const { chat, seen, first, aside, lastReplyId, unchosen } = await story(mira);
    const created = await json<CreatedShare>(await share(mira, chat.id), 201);
    expect(created.url).toBe(`/s/${created.token}`);
    expect(created.token).toMatch(/^[A-Za-z0-9_-]{22}$/);

    const shared = await json<SharedChat>(await read(created.token), 200);
    expect(shared).toMatchObject({ title: "Chat with Wren", isNsfw: false, withheld: false, sharedBy: "Captain Mira", characters: [{ id: characterId, name: "Wren" }] });
    expect(shared.messages.map((m) => m.content)).toEqual(visible(seen));
    expect(shared.messageCount).toBe(shared.messages.length);
    const text = JSON.stringify(shared);
    expect(text).not.toContain(aside.saved.message.content);
    expect(text).not.toContain(unchosen);
    expect(text).not.toContain(mira.username.replace(/^@/, ""));
    expect(shared.messages.find((m) => m.content === "Where is the ledger?")).toMatchObject({ role: "user", authorName: "Captain Mira", characterId: null });
    expect(shared.messages.at(-1)).toMatchObject({ role: "character", authorName: "Wren", characterId });

    // Edit the first message, delete the last reply: the share is a snapshot.
    const { socket } = await join(mira, chat.id);
    socket.send({ type: "edit_message", conversationId: chat.id, messageId: first.saved.messageId, content: "Edited later." });
    await socket.next("message_updated", (f) => f.messageId === first.saved.messageId);
    socket.send({ type: "delete_message", conversationId: chat.id, messageId: lastReplyId });
    await socket.next("messages_deleted");
    socket.close();
    const again = await json<SharedChat>(await read(created.token, "", mira), 200);
    expect(again.messages).toEqual(shared.messages);

    // Sharing again takes a new snapshot; both are listed, newest first.
    const newer = await json<CreatedShare>(await share(mira, chat.id), 201);
    expect((await json<SharedChat>(await read(newer.token), 200)).messages.map((m) => m.content)).toContain("Edited later.");
    const { shares } = await json<{ shares: ShareLink[] }>(await call(`/api/conversations/${chat.id}/shares`, { user: mira }), 200);
    expect(shares.map((s) => s.token)).toEqual([newer.token, created.token]);
    expect(shares[1]).toMatchObject({ url: created.url, title: "Chat with Wren", messageCount: shared.messages.length });
  });

  it("never names a person by their username: a first name that is one reads \"User\", unless a persona of theirs is called so", async () => {
    const handle = `wren${crypto.randomUUID().slice(0, 6)}`;
    const wren = await signIn({ username: `@${handle}`, firstName: handle });
    const chat = await startChat(wren, characterId);
    const { socket } = await join(wren, chat.id);
    await socket.chat(chat.id, "Who keeps the light?");
    socket.close();
    const before = await json<SharedChat>(await read((await json<CreatedShare>(await share(wren, chat.id), 201)).token), 200);
    expect(before.sharedBy).toBe("User");
    expect(before.messages.find((m) => m.role === "user")).toMatchObject({ authorName: "User" });
    // Labels only: what the characters said in the story (the model may have called them by that name) stays as written.
    expect(before.messages.map((m) => m.authorName)).not.toContain(handle);

    // Their own persona by that name is a name they chose to be seen by.
    await json(await call("/api/personas", { method: "POST", user: wren, body: { name: handle, description: "Me." } }), 201);
    const after = await json<SharedChat>(await read((await json<CreatedShare>(await share(wren, chat.id), 201)).token), 200);
    expect(after.messages.find((m) => m.role === "user")).toMatchObject({ authorName: handle });
  });

  it("shares up to a chosen message; refuses an unknown or hidden one (404) and a malformed body (400)", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const { chat, seen, first, aside } = await story(mira);
    const upTo = await json<CreatedShare>(await share(mira, chat.id, { upToMessageId: first.response.messageId }), 201);
    const shared = await json<SharedChat>(await read(upTo.token), 200);
    const end = seen.findIndex((m) => m.id === first.response.messageId);
    expect(shared.messages.map((m) => m.content)).toEqual(visible(seen.slice(0, end + 1)));
    expect((await share(mira, chat.id, { upToMessageId: crypto.randomUUID() })).status).toBe(404);
    expect((await share(mira, chat.id, { upToMessageId: aside.saved.messageId })).status).toBe(404);
    for (const body of [{ upToMessageId: 5 }, { upToMessageId: "" }, { other: true }, []]) {
      const res = await share(mira, chat.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(await res.json()).toMatchObject({ code: "validation_failed" });
    }
  });

  it("only the owner shares, lists and revokes: a member 403, anyone else 404, a visitor 401; a revoked link is gone", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const tom = await signIn({ firstName: "Tom" });
    const eve = await signIn({ firstName: "Eve" });
    const chat = await startChat(mira, characterId);
    const created = await json<CreatedShare>(await share(mira, chat.id), 201);
    const invite = await json<{ token: string }>(await call(`/api/conversations/${chat.id}/invites`, { method: "POST", user: mira }), 201);
    await json(await call(`/api/invites/${invite.token}`, { method: "POST", user: tom }), 200);

    const list = `/api/conversations/${chat.id}/shares`;
    const revoke = `${list}/${created.token}`;
    for (const [who, status] of [[tom, 403], [eve, 404], [undefined, 401]] as const) {
      expect((await share(who as TestUser, chat.id)).status, `share ${status}`).toBe(status);
      expect((await call(list, { user: who })).status, `list ${status}`).toBe(status);
      expect((await call(revoke, { method: "DELETE", user: who })).status, `revoke ${status}`).toBe(status);
    }
    // Someone else's chat id with this token is not its chat.
    const evesChat = await startChat(eve, characterId);
    expect((await call(`/api/conversations/${evesChat.id}/shares/${created.token}`, { method: "DELETE", user: eve })).status).toBe(404);
    expect(await countRows("shares", "conversation_id = ?", chat.id)).toBe(1);

    // Read by a visitor twice (the second from the edge cache), then revoked: gone for everyone at once.
    const edgeRead = () => app.fetch(new Request(`http://localhost/api/shares/${created.token}`), { ...env, EDGE_CACHE_TTL_SECONDS: "30" });
    expect((await edgeRead()).headers.get("X-Edge-Cache")).toBe("MISS");
    const cached = await edgeRead();
    expect(cached.status).toBe(200);
    expect(cached.headers.get("X-Edge-Cache")).toBe("HIT");
    expect((await call(revoke, { method: "DELETE", user: mira })).status).toBe(204);
    expect((await edgeRead()).status).toBe(404);
    expect((await read(created.token, "", eve)).status).toBe(404);
    expect((await call(revoke, { method: "DELETE", user: mira })).status).toBe(404);
    expect(await countRows("share_messages", "share_token = ?", created.token)).toBe(0);
    expect((await json<{ shares: ShareLink[] }>(await call(list, { user: mira }), 200)).shares).toEqual([]);
    for (const token of ["nope", "x".repeat(22), "%00"]) expect((await read(token)).status).toBe(404);
  });

  it(`keeps at most ${MAX_SHARES_PER_CHAT} links a chat even when they are asked for all at once; the rest get a clear 409`, async () => {
    const mira = await signIn({ firstName: "Mira" });
    const chat = await startChat(mira, characterId);
    const { socket } = await join(mira, chat.id);
    await socket.chat(chat.id, "Tell me a short one.");
    socket.close();
    const extra = 12;
    const answers = await Promise.all(Array.from({ length: MAX_SHARES_PER_CHAT + extra }, () => share(mira, chat.id)));
    const created = answers.filter((res) => res.status === 201);
    const refused = answers.filter((res) => res.status !== 201);
    expect(created.length).toBe(MAX_SHARES_PER_CHAT);
    expect(refused.map((res) => res.status)).toEqual(Array(extra).fill(409));
    for (const res of refused) {
      expect(await res.json()).toEqual({ code: "conflict", error: `A chat keeps at most ${MAX_SHARES_PER_CHAT} share links. Revoke one to share again.` });
    }
    expect(await countRows("shares", "conversation_id = ?", chat.id)).toBe(MAX_SHARES_PER_CHAT);
    // A refused share left no messages behind: every stored message belongs to a listed link.
    const { shares } = await json<{ shares: ShareLink[] }>(await call(`/api/conversations/${chat.id}/shares`, { user: mira }), 200);
    const tokens = shares.map((s) => s.token);
    expect(new Set(tokens).size).toBe(MAX_SHARES_PER_CHAT);
    const messageCount = shares[0]!.messageCount;
    expect(await countRows("share_messages", "share_token IN (SELECT token FROM shares WHERE conversation_id = ?)", chat.id)).toBe(MAX_SHARES_PER_CHAT * messageCount);
    expect(await countRows("share_messages", "share_token NOT IN (SELECT token FROM shares)")).toBe(0);

    // Revoking one makes room for exactly one more.
    expect((await call(`/api/conversations/${chat.id}/shares/${tokens[0]}`, { method: "DELETE", user: mira })).status).toBe(204);
    const [again, over] = await Promise.all([share(mira, chat.id), share(mira, chat.id)]);
    expect([again.status, over.status].sort()).toEqual([201, 409]);
  });

  it("an NSFW share is withheld until the reader says they are 18 or older (showNsfw=true, as the catalog)", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const chat = await startChat(mira, nsfwCharacterId);
    const { socket } = await join(mira, chat.id);
    await socket.chat(chat.id, "Good evening, Velvet.");
    socket.close();
    const created = await json<CreatedShare>(await share(mira, chat.id), 201);
    const withheld = await json<SharedChat>(await read(created.token), 200);
    expect(withheld).toMatchObject({ isNsfw: true, withheld: true, title: "", characters: [], messages: [] });
    expect(withheld.messageCount).toBeGreaterThan(0);
    expect(JSON.stringify(withheld)).not.toContain("Velvet");
    const shown = await json<SharedChat>(await read(created.token, "?showNsfw=true"), 200);
    expect(shown).toMatchObject({ isNsfw: true, withheld: false, characters: [{ id: nsfwCharacterId, name: "Velvet" }] });
    expect(shown.messages.map((m) => m.content)).toContain("Good evening, Velvet.");
    expect((await read(created.token, "?showNsfw=maybe")).status).toBe(400);

    // Its preview picture is never drawn, for anyone: a visitor, a stranger who said they are 18 or older, the sharer.
    const stranger = await signIn({ firstName: "Stranger" });
    await env.DB.prepare("UPDATE users SET show_nsfw = 1, adult_confirmed_at = ? WHERE id = ?").bind(Date.now(), stranger.id).run();
    for (const [who, user] of [["visitor", undefined], ["stranger", stranger], ["sharer", mira]] as const) {
      const preview = await call(`/s/${created.token}/preview.png`, { user });
      expect(preview.status, who).toBe(404);
      expect(preview.headers.get("Content-Type")).not.toBe("image/png");
    }
    // The same stranger gets a story that is not NSFW drawn.
    const plain = await startChat(mira, characterId);
    const { socket: again } = await join(mira, plain.id);
    await again.chat(plain.id, "Good evening, Wren.");
    again.close();
    const plainShare = await json<CreatedShare>(await share(mira, plain.id), 201);
    const drawn = await call(`/s/${plainShare.token}/preview.png`, { user: stranger });
    expect(drawn.status).toBe(200);
    expect(drawn.headers.get("Content-Type")).toBe("image/png");
  });
});

describe("pictures in a share", () => {
  /** Mira's chat with a picture drawn, drawn again, its first version chosen again, and a line after it. */
  async function pictureStory(owner: TestUser, prompt = "A harbour at dusk") {
    const chat = await startChat(owner, characterId);
    const { socket } = await join(owner, chat.id);
    await socket.chat(chat.id, "Show me the harbour.");
    socket.send({ type: "imagine", conversationId: chat.id, prompt, clientId: "pic-1" });
    const first = (await socket.next("image_ready", (f) => f.requestId === "pic-1")).message as ChatMessage;
    socket.send({ type: "imagine", conversationId: chat.id, imageId: first.id, clientId: "pic-2" });
    const redrawn = (await socket.next("image_ready", (f) => f.requestId === "pic-2")).message as ChatMessage;
    socket.send({ type: "swipe", conversationId: chat.id, messageId: first.id, index: 0 });
    const chosen = (await socket.next("message_updated", (f) => f.messageId === first.id)).message as ChatMessage;
    expect(chosen.imageUrl).toBe(first.imageUrl);
    expect(redrawn.imageUrl).not.toBe(first.imageUrl);
    await socket.chat(chat.id, "And after that?");
    socket.close();
    return { chat, picture: chosen, unchosenUrl: redrawn.imageUrl! };
  }

  it("holds the version shown, in a file of its own; Draw again and deleting the picture later change nothing of it", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const { chat, picture, unchosenUrl } = await pictureStory(mira);
    const seen = await storedMessages(mira, chat.id);
    const created = await json<CreatedShare>(await share(mira, chat.id), 201);
    const shared = await json<SharedChat>(await read(created.token), 200);
    expect(shared.messages.map((m) => m.kind ?? "text")).toEqual(seen.map((m) => m.kind ?? "text"));
    const at = shared.messages.findIndex((m) => m.kind === "image");
    const sharedPicture = shared.messages[at]!;
    expect(sharedPicture).toEqual({
      role: "character",
      content: "",
      characterId,
      authorName: "Wren",
      createdAt: picture.createdAt,
      kind: "image",
      imageUrl: `/objects/shares/${created.token}/${at}`,
      prompt: "A harbour at dusk",
      width: picture.width,
      height: picture.height,
    });
    // A text message keeps DESIGN.md's shape exactly.
    for (const message of shared.messages.filter((m) => m.kind !== "image")) {
      expect(Object.keys(message).sort()).toEqual(["authorName", "characterId", "content", "createdAt", "role"]);
    }
    // The share's own file, with the chosen version's bytes, served like avatars.
    expect(await sharePictureKeys(created.token)).toEqual([`shares/${created.token}/${at}`]);
    const served = await fetchObject(sharedPicture.imageUrl!);
    expect(served.status).toBe(200);
    expect(served.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    const bytes = await served.arrayBuffer();
    expect(bytesOf(bytes)).toEqual(bytesOf(await (await fetchObject(picture.imageUrl!)).arrayBuffer()));
    expect(bytesOf(bytes)).not.toEqual(bytesOf(await (await fetchObject(unchosenUrl)).arrayBuffer()));
    const etag = served.headers.get("ETag")!;
    expect((await fetchObject(sharedPicture.imageUrl!, { "If-None-Match": etag })).status).toBe(304);

    // Draw it again, then delete it from the chat: its files there go, the share's stays.
    const { socket } = await join(mira, chat.id);
    socket.send({ type: "imagine", conversationId: chat.id, imageId: picture.id, clientId: "pic-3" });
    await socket.next("image_ready", (f) => f.requestId === "pic-3");
    socket.send({ type: "delete_message", conversationId: chat.id, messageId: picture.id });
    await socket.next("messages_deleted", (f) => f.messageIds.includes(picture.id));
    socket.close();
    expect((await fetchObject(picture.imageUrl!)).status).toBe(404);
    expect((await json<SharedChat>(await read(created.token), 200)).messages).toEqual(shared.messages);
    const after = await fetchObject(sharedPicture.imageUrl!);
    expect(after.status).toBe(200);
    expect(bytesOf(await after.arrayBuffer())).toEqual(bytesOf(bytes));
  });

  it(`holds at most ${MAX_SHARE_PICTURES} pictures: more is a clear 400 that says to share up to an earlier message`, () => {
    const at = (i: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();
    const text: ChatMessage = { id: "m0", conversationId: "c", content: "Hello.", isUser: true, createdAt: at(0), clientId: null, rating: null, alternatives: [] };
    const picture = (i: number): ChatMessage => ({
      id: `p${i}`,
      conversationId: "c",
      content: "",
      isUser: false,
      createdAt: at(i + 1),
      clientId: null,
      rating: null,
      alternatives: [],
      kind: "image",
      imageUrl: `/objects/pictures/c/p${i}`,
      prompt: `Scene ${i}`,
      width: 768,
      height: 768,
      characterId,
    });
    const names = new Map([[characterId, "Wren"]]);
    const pictures = Array.from({ length: MAX_SHARE_PICTURES }, (_, i) => picture(i));
    const taken = snapshotMessages([text, ...pictures], undefined, names, () => "Mira");
    expect(taken.messages.filter((m) => m.kind === "image")).toHaveLength(MAX_SHARE_PICTURES);
    expect(taken.messages[1]).toMatchObject({ kind: "image", prompt: "Scene 0", sourceUrl: "/objects/pictures/c/p0", authorName: "Wren", content: "" });
    expect(() => snapshotMessages([text, ...pictures, picture(MAX_SHARE_PICTURES)], undefined, names, () => "Mira")).toThrow(
      `A share holds at most ${MAX_SHARE_PICTURES} pictures: share the chat up to an earlier message.`,
    );
    // Up to an earlier message, it fits again.
    expect(snapshotMessages([text, ...pictures, picture(MAX_SHARE_PICTURES)], `p${MAX_SHARE_PICTURES - 1}`, names, () => "Mira").messages).toHaveLength(MAX_SHARE_PICTURES + 1);
  });

  it("is reached only through its share's token: another token, a text's place or a malformed key is 404", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const { chat } = await pictureStory(mira);
    const created = await json<CreatedShare>(await share(mira, chat.id), 201);
    const other = await json<CreatedShare>(await share(mira, chat.id), 201);
    const at = (await json<SharedChat>(await read(created.token), 200)).messages.findIndex((m) => m.kind === "image");
    // A stranger with the link sees it; any other key is 404, even one shaped like it.
    expect((await fetchObject(`/objects/shares/${created.token}/${at}`)).status).toBe(200);
    for (const path of [
      `/objects/shares/${"A".repeat(22)}/${at}`,
      `/objects/shares/${created.token}/0`,
      `/objects/shares/${created.token}/${at + 1}`,
      `/objects/shares/${created.token}/0${at}`,
      `/objects/shares/${created.token}`,
      `/objects/shares/${created.token}/${at}/x`,
    ]) {
      expect((await fetchObject(path)).status, path).toBe(404);
    }
    // Each share owns its own copy: revoking one leaves the other's.
    expect((await call(`/api/conversations/${chat.id}/shares/${other.token}`, { method: "DELETE", user: mira })).status).toBe(204);
    expect((await fetchObject(`/objects/shares/${created.token}/${at}`)).status).toBe(200);
  });

  it("revoking the link deletes its files: the picture answers 404 and nothing is left under its prefix", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const { chat } = await pictureStory(mira);
    const created = await json<CreatedShare>(await share(mira, chat.id), 201);
    const url = (await json<SharedChat>(await read(created.token), 200)).messages.find((m) => m.kind === "image")!.imageUrl!;
    expect(await sharePictureKeys(created.token)).toHaveLength(1);
    expect((await call(`/api/conversations/${chat.id}/shares/${created.token}`, { method: "DELETE", user: mira })).status).toBe(204);
    expect(await sharePictureKeys(created.token)).toEqual([]);
    expect((await fetchObject(url)).status).toBe(404);
    expect((await call(url, { user: mira })).status).toBe(404);
  });

  it("deleting the chat, or the owner's account, deletes the files of its links", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const { chat } = await pictureStory(mira);
    const token = (await json<CreatedShare>(await share(mira, chat.id), 201)).token;
    expect(await sharePictureKeys(token)).toHaveLength(1);
    expect((await call(`/api/conversations/${chat.id}`, { method: "DELETE", user: mira })).status).toBe(204);
    expect(await sharePictureKeys(token)).toEqual([]);

    const { chat: second } = await pictureStory(mira, "A lighthouse in fog");
    const kept = (await json<CreatedShare>(await share(mira, second.id), 201)).token;
    expect(await sharePictureKeys(kept)).toHaveLength(1);
    expect((await call("/api/profile", { method: "DELETE", user: mira, body: { confirm: mira.username } })).status).toBe(204);
    expect(await sharePictureKeys(kept)).toEqual([]);
  });

  it("deleting a character deletes the files of the links of chats that go with it; a group chat's links keep theirs", async () => {
    const creator = await signIn({ firstName: "Cora" });
    const mira = await signIn({ firstName: "Mira" });
    const own = await insertCharacter({ name: "Brief", creatorId: creator.id });
    const chat = await startChat(mira, own);
    const { socket } = await join(mira, chat.id);
    await socket.chat(chat.id, "Show me the quay.");
    socket.send({ type: "imagine", conversationId: chat.id, prompt: "A quay in rain", clientId: "pic-c" });
    await socket.next("image_ready", (f) => f.requestId === "pic-c");
    socket.close();
    const token = (await json<CreatedShare>(await share(mira, chat.id), 201)).token;
    expect(await sharePictureKeys(token)).toHaveLength(1);
    const group = await pictureStory(mira, "A lantern on a pier");
    await json(await call(`/api/conversations/${group.chat.id}/characters`, { method: "POST", user: mira, body: { characterId: own } }), 201);
    const groupToken = (await json<CreatedShare>(await share(mira, group.chat.id), 201)).token;
    expect((await callSettled(`/api/characters/${own}`, { method: "DELETE", user: creator })).status).toBe(200);
    expect(await sharePictureKeys(token)).toEqual([]);
    expect((await read(token)).status).toBe(404);
    expect(await sharePictureKeys(groupToken)).toHaveLength(1);
  });

  it("an operator's removal of the picture reaches the share: left out of its read, 404, and its file deleted by the sweep", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const eve = await signIn({ firstName: "Eve" });
    const { chat, picture } = await pictureStory(mira);
    const created = await json<CreatedShare>(await share(mira, chat.id), 201);
    const url = (await json<SharedChat>(await read(created.token), 200)).messages.find((m) => m.kind === "image")!.imageUrl!;
    const report = await json<{ id: number }>(
      await call("/api/reports", { method: "POST", user: mira, body: { targetType: "message", targetId: picture.id, conversationId: chat.id, reason: "illegal" } }),
      201,
    );
    await upholdReport(operatorDb, report.id, OPERATOR);
    expect((await fetchObject(url)).status).toBe(404);
    const after = await json<SharedChat>(await read(created.token, "", eve), 200);
    expect(after.messages.some((m) => m.kind === "image")).toBe(false);
    expect(after.messages.length).toBeGreaterThan(0);
    // A story continued from it now has no picture either.
    const { conversationId } = await json<{ conversationId: string }>(await call(`/api/shares/${created.token}/continue`, { method: "POST", user: eve }), 201);
    expect((await storedMessages(eve, conversationId)).some((m) => m.kind === "image")).toBe(false);
    // The CLI has no R2: the daily sweep deletes the file.
    expect(await sharePictureKeys(created.token)).toHaveLength(1);
    await sweepSharePictures(env);
    expect(await sharePictureKeys(created.token)).toEqual([]);
  });

  it("the operator's enforcement call (--site) deletes the share copies of a removed picture at once", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const { chat, picture } = await pictureStory(mira);
    const created = await json<CreatedShare>(await share(mira, chat.id), 201);
    const report = await json<{ id: number }>(
      await call("/api/reports", { method: "POST", user: mira, body: { targetType: "message", targetId: picture.id, conversationId: chat.id, reason: "illegal" } }),
      201,
    );
    await upholdReport(operatorDb, report.id, OPERATOR);
    expect(await sharePictureKeys(created.token)).toHaveLength(1);
    expect(await json(await call(`/api/enforcement/removals/${chat.id}`, { method: "POST" }), 200)).toEqual({ removed: 1 });
    expect(await sharePictureKeys(created.token)).toEqual([]);
  });

  it("the operator's removal of the share leaves files only the sweep finds, which it deletes; a live share's stay", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const eve = await signIn({ firstName: "Eve" });
    const { chat } = await pictureStory(mira);
    const removed = (await json<CreatedShare>(await share(mira, chat.id), 201)).token;
    const live = (await json<CreatedShare>(await share(mira, chat.id), 201)).token;
    const url = (await json<SharedChat>(await read(removed), 200)).messages.find((m) => m.kind === "image")!.imageUrl!;
    expect((await fetchObject(url)).status).toBe(200);
    const report = await json<{ id: number }>(await call("/api/reports", { method: "POST", user: eve, body: { targetType: "share", targetId: removed, reason: "spam" } }), 201);
    expect(await upholdReport(operatorDb, report.id, OPERATOR)).toContain("its pictures answer \"not found\"");
    expect((await fetchObject(url)).status).toBe(404);
    expect(await sharePictureKeys(removed)).toHaveLength(1);
    await sweepSharePictures(env);
    expect(await sharePictureKeys(removed)).toEqual([]);
    expect(await sharePictureKeys(live)).toHaveLength(1);
  });
});

describe("continuing a shared story", () => {
  it("gives a signed-in reader a chat of their own holding the snapshot, in their own part; a visitor 401, an unknown link 404", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const eve = await signIn({ firstName: "Eve" });
    const { chat } = await story(mira);
    const created = await json<CreatedShare>(await share(mira, chat.id), 201);
    const shared = await json<SharedChat>(await read(created.token), 200);

    expect((await call(`/api/shares/${created.token}/continue`, { method: "POST" })).status).toBe(401);
    expect((await call(`/api/shares/${"A".repeat(22)}/continue`, { method: "POST", user: eve })).status).toBe(404);
    const { conversationId } = await json<{ conversationId: string }>(await call(`/api/shares/${created.token}/continue`, { method: "POST", user: eve }), 201);
    expect(conversationId).not.toBe(chat.id);
    const theirs = await json<Conversation>(await call(`/api/conversations/${conversationId}`, { user: eve }), 200);
    expect(theirs).toMatchObject({ userId: eve.id, characterId, title: "Chat with Wren" });
    const messages = await storedMessages(eve, conversationId);
    expect(messages.map((m) => m.content)).toEqual(shared.messages.map((m) => m.content));
    expect(messages.every((m) => (m.alternatives ?? []).length === 0 && !m.hidden)).toBe(true);
    // The sharer's words are now the reader's part, not Captain Mira's.
    expect(messages.find((m) => m.isUser)?.authorName).not.toBe("Captain Mira");
    // Mira's chat and share are untouched; Eve's chat goes on like any other.
    expect((await call(`/api/conversations/${conversationId}`, { user: mira })).status).toBe(404);
    const { socket } = await join(eve, conversationId);
    const { response } = await socket.chat(conversationId, "And then?");
    socket.close();
    expect(response.content.length).toBeGreaterThan(0);
    expect((await json<SharedChat>(await read(created.token), 200)).messages).toEqual(shared.messages);
  });

  it("gives the reader's chat its own copies of the pictures, which outlive the share's revoke and are theirs to delete", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const eve = await signIn({ firstName: "Eve" });
    const chat = await startChat(mira, characterId);
    const { socket } = await join(mira, chat.id);
    await socket.chat(chat.id, "Show me the harbour.");
    socket.send({ type: "imagine", conversationId: chat.id, prompt: "A harbour at dusk", clientId: "pic-1" });
    await socket.next("image_ready", (f) => f.requestId === "pic-1");
    await socket.chat(chat.id, "And after that?");
    socket.close();
    const created = await json<CreatedShare>(await share(mira, chat.id), 201);
    const shared = await json<SharedChat>(await read(created.token), 200);
    const sharedPicture = shared.messages.find((m) => m.kind === "image")!;

    const { conversationId } = await json<{ conversationId: string }>(await call(`/api/shares/${created.token}/continue`, { method: "POST", user: eve }), 201);
    const messages = await storedMessages(eve, conversationId);
    // In the same place, as a picture of the new chat.
    expect(messages.map((m) => m.kind ?? "text")).toEqual(shared.messages.map((m) => m.kind ?? "text"));
    const picture = messages.find((m) => m.kind === "image")!;
    expect(picture).toMatchObject({ prompt: "A harbour at dusk", width: sharedPicture.width, height: sharedPicture.height, characterId, authorId: eve.id });
    expect(picture.imageUrl).toMatch(new RegExp(`^/objects/pictures/${conversationId}/`));
    const bytes = bytesOf(await (await fetchObject(sharedPicture.imageUrl!)).arrayBuffer());
    expect(bytesOf(await (await fetchObject(picture.imageUrl!)).arrayBuffer())).toEqual(bytes);

    expect((await call(`/api/conversations/${chat.id}/shares/${created.token}`, { method: "DELETE", user: mira })).status).toBe(204);
    expect((await fetchObject(sharedPicture.imageUrl!)).status).toBe(404);
    const kept = await fetchObject(picture.imageUrl!);
    expect(kept.status).toBe(200);
    expect(bytesOf(await kept.arrayBuffer())).toEqual(bytes);
    // Eve's to delete, with its file.
    const { socket: eves } = await join(eve, conversationId);
    eves.send({ type: "delete_message", conversationId, messageId: picture.id });
    await eves.next("messages_deleted", (f) => f.messageIds.includes(picture.id));
    eves.close();
    expect((await fetchObject(picture.imageUrl!)).status).toBe(404);
  });
});

describe("a reader the sharer blocked", () => {
  it("still reads and continues a public share (as any visitor could), and nothing of it reaches the sharer", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const eve = await signIn({ firstName: "Eve" });
    const chat = await startChat(mira, characterId);
    const created = await json<CreatedShare>(await share(mira, chat.id), 201);
    expect((await call(`/api/users/${encodeURIComponent(eve.username)}/block`, { method: "PUT", user: mira })).status).toBe(204);
    const before = await json<{ notifications: unknown[]; unread: number }>(await call("/api/notifications", { user: mira }), 200);

    expect((await read(created.token, "", eve)).status).toBe(200);
    const { conversationId } = await json<{ conversationId: string }>(await call(`/api/shares/${created.token}/continue`, { method: "POST", user: eve }), 201);
    // Eve's own chat: Mira cannot open it, it joins nothing of Mira's, and Mira is told nothing.
    expect((await call(`/api/conversations/${conversationId}`, { user: mira })).status).toBe(404);
    expect((await json<Conversation>(await call(`/api/conversations/${conversationId}`, { user: eve }), 200)).members.map((m) => m.userId)).toEqual([eve.id]);
    expect(await json(await call("/api/notifications", { user: mira }), 200)).toEqual(before);
    // Mira's own list of her links is unchanged.
    const { shares } = await json<{ shares: ShareLink[] }>(await call(`/api/conversations/${chat.id}/shares`, { user: mira }), 200);
    expect(shares.map((s) => s.token)).toEqual([created.token]);
  });
});

describe("shares are public content", () => {
  it("anyone but its owner reports it; upholding the report removes it", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const eve = await signIn({ firstName: "Eve" });
    const chat = await startChat(mira, characterId);
    const created = await json<CreatedShare>(await share(mira, chat.id), 201);
    const body = { targetType: "share", targetId: created.token, reason: "spam" };
    expect((await call("/api/reports", { method: "POST", user: mira, body })).status).toBe(400);
    expect((await call("/api/reports", { method: "POST", user: eve, body: { ...body, targetId: "A".repeat(22) } })).status).toBe(404);
    expect((await call("/api/reports", { method: "POST", user: eve, body: { ...body, targetId: "short" } })).status).toBe(400);
    const report = await json<{ id: number; targetType: string }>(await call("/api/reports", { method: "POST", user: eve, body }), 201);
    expect(report.targetType).toBe("share");
    const excerpt = await env.DB.prepare("SELECT excerpt, target_owner_id AS owner FROM reports WHERE id = ?").bind(report.id).first<{ excerpt: string; owner: string }>();
    expect(excerpt).toMatchObject({ owner: mira.id });
    expect(excerpt!.excerpt).toContain("Chat with Wren");

    expect(await upholdReport(operatorDb, report.id, OPERATOR)).toContain(created.token);
    expect((await read(created.token, "", eve)).status).toBe(404);
    expect(await countRows("share_messages", "share_token = ?", created.token)).toBe(0);
  });

  it("goes with its chat", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const chat = await startChat(mira, characterId);
    const created = await json<CreatedShare>(await share(mira, chat.id), 201);
    expect((await call(`/api/conversations/${chat.id}`, { method: "DELETE", user: mira })).status).toBe(204);
    expect((await read(created.token, "", mira)).status).toBe(404);
    expect(await countRows("share_messages", "share_token = ?", created.token)).toBe(0);
  });
});

describe("the share page from the edge cache", () => {
  /** A visitor's (or `user`'s) request through the app with the edge cache on for 30 s, and `extra` env values. */
  const edge = (path: string, { method = "GET", user, body, extra = {} }: { method?: string; user?: TestUser; body?: unknown; extra?: Record<string, string> } = {}) => {
    const headers: Record<string, string> = {};
    if (user) headers.cookie = user.cookie;
    if (body !== undefined) headers["content-type"] = "application/json";
    const request = new Request(`http://localhost${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return app.fetch(request, { ...env, EDGE_CACHE_TTL_SECONDS: "30", ...extra });
  };
  const status = (res: Response) => res.headers.get("X-Edge-Cache");

  /** A chat of `owner` with one exchange, shared; its id and token. */
  async function sharedChat(owner: TestUser, line: string) {
    const chat = await startChat(owner, characterId);
    const { socket } = await join(owner, chat.id);
    await socket.chat(chat.id, line);
    socket.close();
    return { chatId: chat.id, token: (await json<CreatedShare>(await share(owner, chat.id), 201)).token };
  }

  /** Reads the page and the API read twice as a visitor: both are kept (the second a HIT). */
  async function cached(token: string) {
    for (const path of [`/s/${token}`, `/api/shares/${token}`, `/s/${token}/preview.png`]) {
      expect(status(await edge(path)), path).toBe("MISS");
      expect(status(await edge(path)), path).toBe("HIT");
    }
  }

  /** After a share is gone, neither its page nor its read comes from the cache any more. */
  async function gone(token: string) {
    const page = await edge(`/s/${token}`);
    expect(page.status).toBe(404);
    expect(status(page)).toBe("BYPASS");
    expect(await page.text()).not.toContain("a story with Wren");
    expect((await edge(`/api/shares/${token}`)).status).toBe(404);
    expect((await edge(`/s/${token}/preview.png`)).status).toBe(404);
    expect(await caches.default.match(edgeCacheKey("http://localhost", `/s/${token}`))).toBeUndefined();
  }

  it("answers a visitor's second visit from the edge cache, preview and all, within the staleness bound; a signed-in reader bypasses it", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const line = `The tide turns at ${crypto.randomUUID().slice(0, 8)}.`;
    const { token } = await sharedChat(mira, line);
    const first = await edge(`/s/${token}`);
    expect(first.status).toBe(200);
    expect(status(first)).toBe("MISS");
    expect(first.headers.get("Cache-Control")).toBe(cacheControlFor(30));
    const html = await first.text();
    expect(html).toContain('property="og:title" content="Chat with Wren · a story with Wren"');
    expect(html).toContain(line);

    const second = await edge(`/s/${token}`);
    expect(status(second)).toBe("HIT");
    expect(second.headers.get("Cache-Control")).toBe(cacheControlFor(30));
    expect(Number(second.headers.get("Age"))).toBeLessThanOrEqual(30);
    expect(second.headers.get("Content-Type")).toMatch(/^text\/html/);
    expect(await second.text()).toBe(html);
    // The stored copy carries the share's tag, which the operator's and the owner's global purges name.
    const stored = await caches.default.match(edgeCacheKey("http://localhost", `/s/${token}`));
    expect(stored?.headers.get("Cache-Tag")).toBe(`fabled-share-${token}`);

    const personal = await edge(`/s/${token}`, { user: mira });
    expect(status(personal)).toBe("BYPASS");
    expect(personal.headers.get("Cache-Control")).toBe("private, no-store");
    // A deeper path or a malformed token is never kept.
    expect(status(await edge(`/s/${token}/more`))).toBe("BYPASS");
    expect(status(await edge("/s/nope"))).toBe("BYPASS");
  });

  it("revoking a link purges its page and reads here, and with a zone and token everywhere by its tag", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const { chatId, token } = await sharedChat(mira, "A line to revoke.");
    await cached(token);
    const zone = `zone-share-${Date.now().toString(36)}`;
    const revoked = await edge(`/api/conversations/${chatId}/shares/${token}`, {
      method: "DELETE",
      user: mira,
      extra: { CACHE_PURGE_ZONE_ID: zone, CACHE_PURGE_API_TOKEN: "purge-token" },
    });
    expect(revoked.status).toBe(204);
    await gone(token);
    const stub = new URL(env.CLOUDFLARE_API_BASE_URL!).origin;
    const purges = (await (await fetch(`${stub}/__test/purges/${zone}`)).json()) as { authorization: string; body: unknown }[];
    expect(purges).toEqual([{ authorization: "Bearer purge-token", body: { tags: [`fabled-share-${token}`] } }]);
  });

  it("deleting the chat purges every link of it", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const { chatId, token } = await sharedChat(mira, "A chat to delete.");
    const second = (await json<CreatedShare>(await share(mira, chatId), 201)).token;
    await cached(token);
    await cached(second);
    expect((await edge(`/api/conversations/${chatId}`, { method: "DELETE", user: mira })).status).toBe(204);
    await gone(token);
    await gone(second);
  });

  it("deleting the owner's account purges their links", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const { token } = await sharedChat(mira, "An account to delete.");
    await cached(token);
    expect((await edge("/api/profile", { method: "DELETE", user: mira, body: { confirm: mira.username } })).status).toBe(204);
    await gone(token);
  });
});
