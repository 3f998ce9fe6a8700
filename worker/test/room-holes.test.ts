/**
 * Holes an attacker found in shared rooms (issue 42, "Rooms and members";
 * DESIGN.md "Shared rooms"), each from the attacker's side: a removed member
 * coming back by an old link, member frames that are the owner's powers,
 * refused text reaching other members, a character moderation removed.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Conversation, ConversationInvite } from "../../schema/chat.ts";
import { join } from "./chat-client.ts";
import { call, json } from "./creator-api.ts";
import { insertCharacter, signIn, type TestUser } from "./fixtures.ts";
import { storedMessages } from "./room-chat.ts";

let characterId: number;

beforeAll(async () => {
  characterId = await insertCharacter({ name: "Warden" });
});

async function room(owner: TestUser): Promise<Conversation> {
  return json<Conversation>(await call("/api/conversations", { method: "POST", user: owner, body: { characterId } }), 201);
}

async function invite(owner: TestUser, conversationId: string): Promise<ConversationInvite> {
  return json<ConversationInvite>(await call(`/api/conversations/${conversationId}/invites`, { method: "POST", user: owner }), 201);
}

const joinBy = (user: TestUser, token: string) => call(`/api/invites/${token}`, { method: "POST", user });
const removeFrom = (conversationId: string, actor: TestUser, target: TestUser) =>
  call(`/api/conversations/${conversationId}/members/${target.id}`, { method: "DELETE", user: actor });

describe("a removed member", () => {
  it("cannot come back by any link made before the removal; a link made after it lets them back", async () => {
    const owner = await signIn({ firstName: "Olga" });
    const bob = await signIn({ firstName: "Bob" });
    const conversation = await room(owner);
    const first = await invite(owner, conversation.id);
    const second = await invite(owner, conversation.id);
    expect((await joinBy(bob, first.token)).status).toBe(200);
    const { socket } = await join(bob, conversation.id);

    expect((await removeFrom(conversation.id, owner, bob)).status).toBe(204);
    expect((await socket.closed()).code).toBe(1008);
    // Both older links still work for everyone else, but for Bob neither does.
    for (const link of [first, second]) {
      const refused = await joinBy(bob, link.token);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({ code: "forbidden", error: expect.stringMatching(/removed/) });
    }
    expect((await call(`/api/conversations/${conversation.id}/messages`, { user: bob })).status).toBe(404);
    expect((await joinBy(await signIn(), second.token)).status).toBe(200);

    const fresh = await invite(owner, conversation.id);
    expect(await json(await joinBy(bob, fresh.token), 200)).toEqual({ conversationId: conversation.id });
    expect((await storedMessages(bob, conversation.id)).length).toBeGreaterThan(0);

    // Removed a second time: the link that let him back no longer does either.
    expect((await removeFrom(conversation.id, owner, bob)).status).toBe(204);
    expect((await joinBy(bob, fresh.token)).status).toBe(403);
    expect((await joinBy(bob, first.token)).status).toBe(403);
  });

  it("who left by themselves may come back by any link still open (docs/decisions/0025)", async () => {
    const owner = await signIn();
    const ann = await signIn();
    const conversation = await room(owner);
    const link = await invite(owner, conversation.id);
    expect((await joinBy(ann, link.token)).status).toBe(200);
    expect((await removeFrom(conversation.id, ann, ann)).status).toBe(204);
    expect((await call(`/api/conversations/${conversation.id}`, { user: ann })).status).toBe(404);
    expect(await json(await joinBy(ann, link.token), 200)).toEqual({ conversationId: conversation.id });
    expect((await call(`/api/conversations/${conversation.id}`, { user: ann })).status).toBe(200);
  });

  it("a removal of someone who is not in the room is 404 and bars no one", async () => {
    const owner = await signIn();
    const stranger = await signIn();
    const conversation = await room(owner);
    const link = await invite(owner, conversation.id);
    expect((await removeFrom(conversation.id, owner, stranger)).status).toBe(404);
    expect((await joinBy(stranger, link.token)).status).toBe(200);
  });
});
