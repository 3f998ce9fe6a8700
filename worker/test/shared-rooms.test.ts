/**
 * Shared rooms (issue 23, DESIGN.md "Shared rooms"): invitation links, joining,
 * members and their powers — every endpoint from the owner's, a member's, an
 * outsider's and a visitor's side — and two people's sockets in one room.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { Conversation, ConversationInvite, InvitePreview } from "../../schema/chat.ts";
import { join } from "./chat-client.ts";
import { call, json } from "./creator-api.ts";
import { insertCharacter, signIn, type TestUser } from "./fixtures.ts";
import { storedMessages } from "./room-chat.ts";

let characterId: number;

beforeAll(async () => {
  characterId = await insertCharacter({ name: "Keeper" });
});

async function room(owner: TestUser): Promise<Conversation> {
  return json<Conversation>(await call("/api/conversations", { method: "POST", user: owner, body: { characterId } }), 201);
}

async function invite(owner: TestUser, conversationId: string): Promise<ConversationInvite> {
  return json<ConversationInvite>(await call(`/api/conversations/${conversationId}/invites`, { method: "POST", user: owner }), 201);
}

const joinBy = (user: TestUser | null, token: string) => call(`/api/invites/${token}`, { method: "POST", user });

describe("invitations", () => {
  it("the owner makes a link (7 days); a member gets 403, an outsider 404, a visitor 401", async () => {
    const owner = await signIn({ firstName: "Olga" });
    const member = await signIn();
    const outsider = await signIn();
    const conversation = await room(owner);
    const link = await invite(owner, conversation.id);
    expect(link.url).toBe(`/join/${link.token}`);
    const days = (Date.parse(link.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
    // Only the hash is stored.
    const stored = await env.DB.prepare("SELECT token_hash FROM conversation_invites WHERE conversation_id = ?").bind(conversation.id).all<{ token_hash: string }>();
    expect(stored.results.map((r) => r.token_hash)).not.toContain(link.token);

    expect((await joinBy(member, link.token)).status).toBe(200);
    expect((await call(`/api/conversations/${conversation.id}/invites`, { method: "POST", user: member })).status).toBe(403);
    expect((await call(`/api/conversations/${conversation.id}/invites`, { method: "POST", user: outsider })).status).toBe(404);
    expect((await call(`/api/conversations/${conversation.id}/invites`, { method: "POST" })).status).toBe(401);
    expect((await call(`/api/conversations/${conversation.id}/invites/${link.token}`, { method: "DELETE", user: member })).status).toBe(403);
  });

  it("the join page's preview shows title, cast and owner to anyone with the link; joining twice is harmless; revoked and expired links are 404", async () => {
    const owner = await signIn({ firstName: "Olga" });
    const guest = await signIn();
    const conversation = await room(owner);
    const link = await invite(owner, conversation.id);
    const preview = await json<InvitePreview>(await call(`/api/invites/${link.token}`), 200);
    expect(preview).toMatchObject({ conversationId: conversation.id, title: "Chat with Keeper", people: 1, owner: { name: "Olga" } });
    expect(preview.characters.map((c) => c.name)).toEqual(["Keeper"]);

    expect((await joinBy(null, link.token)).status).toBe(401);
    expect(await json(await joinBy(guest, link.token), 200)).toEqual({ conversationId: conversation.id });
    expect(await json(await joinBy(guest, link.token), 200)).toEqual({ conversationId: conversation.id });
    expect(await json(await joinBy(owner, link.token), 200)).toEqual({ conversationId: conversation.id });
    const read = await json<Conversation>(await call(`/api/conversations/${conversation.id}`, { user: guest }), 200);
    expect(read.members.map((m) => m.role)).toEqual(["owner", "member"]);

    expect((await call(`/api/conversations/${conversation.id}/invites/${link.token}`, { method: "DELETE", user: owner })).status).toBe(204);
    expect((await joinBy(await signIn(), link.token)).status).toBe(404);
    expect((await call(`/api/invites/${link.token}`)).status).toBe(404);
    expect((await joinBy(guest, "not-a-real-token-at-all-xxxxxxxx")).status).toBe(404);

    const old = await invite(owner, conversation.id);
    await env.DB.prepare("UPDATE conversation_invites SET expires_at = ? WHERE conversation_id = ? AND revoked_at IS NULL")
      .bind(Date.now() - 1, conversation.id)
      .run();
    expect((await joinBy(await signIn(), old.token)).status).toBe(404);
  });

  it("at most 10 people: the 11th is refused with 409", async () => {
    const owner = await signIn();
    const conversation = await room(owner);
    const link = await invite(owner, conversation.id);
    for (let i = 0; i < 9; i++) expect((await joinBy(await signIn(), link.token)).status).toBe(200);
    expect((await joinBy(await signIn(), link.token)).status).toBe(409);
  });
});

describe("members", () => {
  it("read the room and list it in My Chats; owner-only routes are 403 for them; leaving or being removed makes every read 404; a new link lets them back", async () => {
    const owner = await signIn();
    const member = await signIn();
    const other = await signIn();
    const conversation = await room(owner);
    const link = await invite(owner, conversation.id);
    await joinBy(member, link.token);
    await joinBy(other, link.token);

    expect((await storedMessages(member, conversation.id)).length).toBeGreaterThan(0);
    const list = await json<Conversation[]>(await call("/api/conversations", { user: member }), 200);
    expect(list.map((c) => c.id)).toContain(conversation.id);
    expect((await call(`/api/conversations/${conversation.id}`, { method: "PATCH", user: member, body: { title: "Mine now" } })).status).toBe(403);
    expect((await call(`/api/conversations/${conversation.id}/characters`, { method: "POST", user: member, body: { characterId } })).status).toBe(403);

    // A member removes only themselves; the owner removes anyone but themselves.
    expect((await call(`/api/conversations/${conversation.id}/members/${other.id}`, { method: "DELETE", user: member })).status).toBe(403);
    expect((await call(`/api/conversations/${conversation.id}/members/${owner.id}`, { method: "DELETE", user: owner })).status).toBe(403);
    expect((await call(`/api/conversations/${conversation.id}/members/${member.id}`, { method: "DELETE", user: member })).status).toBe(204);
    expect((await call(`/api/conversations/${conversation.id}`, { user: member })).status).toBe(404);
    expect((await call(`/api/conversations/${conversation.id}/messages`, { user: member })).status).toBe(404);

    const { socket } = await join(other, conversation.id);
    expect((await call(`/api/conversations/${conversation.id}/members/${other.id}`, { method: "DELETE", user: owner })).status).toBe(204);
    expect((await socket.closed()).code).toBe(1008);
    expect((await call(`/api/conversations/${conversation.id}/messages`, { user: other })).status).toBe(404);

    const again = await invite(owner, conversation.id);
    expect((await joinBy(member, again.token)).status).toBe(200);
    expect((await call(`/api/conversations/${conversation.id}`, { user: member })).status).toBe(200);
  });

  it("in the room: both see each other's messages with their authors, presence and typing; owner-only frames are refused for a member", async () => {
    const owner = await signIn({ firstName: "Olga" });
    const member = await signIn({ firstName: "Mika" });
    const conversation = await room(owner);
    await joinBy(member, (await invite(owner, conversation.id)).token);
    const { socket: olga } = await join(owner, conversation.id);
    const { socket: mika } = await join(member, conversation.id);
    const presence = await olga.next("presence", (f) => f.people.length === 2);
    expect(presence.people.map((p) => p.name)).toEqual(["Olga", "Mika"]);

    mika.send({ type: "typing", conversationId: conversation.id });
    expect(await olga.next("typing")).toEqual({ type: "typing", userId: member.id, name: "Mika" });

    const { saved } = await mika.chat(conversation.id, "Hello from Mika.");
    expect(saved.message).toMatchObject({ authorId: member.id, authorName: "Mika" });
    expect((await olga.next("message_saved", (f) => f.messageId === saved.messageId)).message.authorName).toBe("Mika");
    await olga.next("character_response");

    mika.send({ type: "set_memory", conversationId: conversation.id, memory: "Mine.", clientId: "m1" });
    expect(await mika.next("error", (f) => f.clientId === "m1")).toMatchObject({ code: "forbidden" });
    olga.send({ type: "chat_message", conversationId: conversation.id, content: "Olga here.", clientId: "o1" });
    const olgaMessage = await olga.next("message_saved", (f) => f.clientId === "o1");
    await olga.next("character_response");
    mika.send({ type: "edit_message", conversationId: conversation.id, messageId: olgaMessage.messageId, content: "Changed.", clientId: "e1" });
    expect(await mika.next("error", (f) => f.clientId === "e1")).toMatchObject({ code: "forbidden" });

    mika.close();
    expect((await olga.next("presence", (f) => f.people.length === 1)).people.map((p) => p.userId)).toEqual([owner.id]);
    olga.close();
  });
});
