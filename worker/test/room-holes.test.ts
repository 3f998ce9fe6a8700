/**
 * Holes an attacker found in shared rooms (issue 42, "Rooms and members";
 * DESIGN.md "Shared rooms"), each from the attacker's side: a removed member
 * coming back by an old link, member frames that are the owner's powers,
 * refused text reaching other members, a character moderation removed.
 */
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { ModerationInput, ModerationVerdict } from "../../ai/moderation/moderator.ts";
import type { ConversationRoom } from "../../durable-objects/conversation-room.ts";
import { type Conversation, type ConversationInvite, MESSAGE_REFUSED_TEXT, MODERATED_MESSAGE_TEXT } from "../../schema/chat.ts";
import { type ClientFrameInput, clientFrameSchema } from "../../schema/chat-frames.ts";
import { type ChatSocket, join } from "./chat-client.ts";
import { call, json } from "./creator-api.ts";
import { insertCharacter, signIn, type TestUser } from "./fixtures.ts";
import { conversationRoom } from "../lib/conversations.ts";
import { storedMessages, useTestServerModel } from "./room-chat.ts";

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

/** Two people in one room: what each frame of the walk is tried in. */
interface Walk {
  conversationId: string;
  owner: ChatSocket;
  member: ChatSocket;
  /** A message of the owner's, stored before the walk. */
  ownerMessageId: string;
  /** The frame arrived during this row (rows leave frames of their own replies behind). */
  fresh: (frame: object) => boolean;
}

type Power = "owner" | "any member" | "own messages";

/** A member sends `frame` (which carries `clientId`): refused with `forbidden`, naming that frame. */
async function refused(w: Walk, frame: ClientFrameInput & { clientId: string }): Promise<void> {
  w.member.send(frame);
  expect(await w.member.next("error", (f) => f.clientId === frame.clientId)).toMatchObject({ code: "forbidden" });
}

/** A member's own message, stored and answered. */
async function memberMessage(w: Walk, content: string): Promise<string> {
  const { saved } = await w.member.chat(w.conversationId, content);
  await w.owner.next("character_response", (f) => f.message.id !== saved.messageId && w.fresh(f));
  return saved.messageId;
}

/**
 * DESIGN.md "Shared rooms", Powers, read for every client frame: "any member
 * sends, edits and deletes their own messages, regenerates, swipes and
 * continues the last reply, asks a character to speak …; only the owner
 * changes the cast, reply order, memory and invites, rewinds, deletes
 * others' messages". The memory note, the running summary, the author's
 * note and hiding a message from the context are all the chat's memory.
 * Each row tries its frame from a member's socket and waits for what the
 * member sees. Written here, not imported from the room, so the room's own
 * table is checked against the design rather than against itself.
 */
const POWERS: Record<string, { power: Power; check: (w: Walk) => Promise<void> }> = {
  join: {
    power: "any member",
    check: async (w) => {
      w.member.send({ type: "join", conversationId: w.conversationId });
      expect((await w.member.next("history_sync")).messages.length).toBeGreaterThan(0);
    },
  },
  chat_message: { power: "any member", check: async (w) => void (await memberMessage(w, "Hello from the member.")) },
  regenerate: {
    power: "any member",
    check: async (w) => {
      w.member.send({ type: "regenerate", conversationId: w.conversationId });
      const started = await w.member.next("reply_started", (f) => f.replaces !== null && w.fresh(f));
      await w.member.next("character_response", (f) => f.messageId === started.messageId && w.fresh(f));
    },
  },
  stop: {
    power: "any member",
    check: async (w) => {
      await useTestServerModel(w.conversationId, "slow");
      w.member.send({ type: "generate", conversationId: w.conversationId, characterId });
      const started = await w.owner.next("reply_started", w.fresh);
      await w.owner.next("character_response_delta", (f) => f.messageId === started.messageId);
      w.member.send({ type: "stop", conversationId: w.conversationId });
      expect((await w.owner.next("character_response", (f) => f.messageId === started.messageId && w.fresh(f))).stopped).toBe(true);
      await useTestServerModel(w.conversationId, "echo");
    },
  },
  swipe: {
    power: "any member",
    check: async (w) => {
      w.member.send({ type: "regenerate", conversationId: w.conversationId });
      const started = await w.member.next("reply_started", (f) => f.replaces !== null && w.fresh(f));
      const reply = await w.member.next("character_response", (f) => f.messageId === started.messageId && w.fresh(f));
      w.member.send({ type: "swipe", conversationId: w.conversationId, messageId: reply.messageId, index: 0 });
      expect((await w.owner.next("message_updated", (f) => f.messageId === reply.messageId && w.fresh(f))).message.swipeIndex).toBe(0);
    },
  },
  edit_message: {
    power: "own messages",
    check: async (w) => {
      const mine = await memberMessage(w, "Typo here.");
      w.member.send({ type: "edit_message", conversationId: w.conversationId, messageId: mine, content: "No typo.", clientId: "edit-own" });
      expect((await w.owner.next("message_updated", (f) => f.messageId === mine)).message.content).toBe("No typo.");
      await refused(w, { type: "edit_message", conversationId: w.conversationId, messageId: w.ownerMessageId, content: "Yours now.", clientId: "edit-other" });
    },
  },
  delete_message: {
    power: "own messages",
    check: async (w) => {
      const mine = await memberMessage(w, "Take this back.");
      w.member.send({ type: "delete_message", conversationId: w.conversationId, messageId: mine, clientId: "delete-own" });
      expect((await w.owner.next("messages_deleted", (f) => f.messageIds.includes(mine))).messageIds).toEqual([mine]);
      await refused(w, { type: "delete_message", conversationId: w.conversationId, messageId: w.ownerMessageId, clientId: "delete-other" });
    },
  },
  rewind: {
    power: "owner",
    check: (w) => refused(w, { type: "rewind", conversationId: w.conversationId, messageId: w.ownerMessageId, clientId: "rewind" }),
  },
  continue: {
    power: "any member",
    check: async (w) => {
      w.member.send({ type: "continue", conversationId: w.conversationId, clientId: "continue" });
      const started = await w.member.next("reply_started", (f) => f.continues === true && w.fresh(f));
      await w.member.next("character_response", (f) => f.messageId === started.messageId && w.fresh(f));
    },
  },
  set_memory: { power: "owner", check: (w) => refused(w, { type: "set_memory", conversationId: w.conversationId, memory: "Mine.", clientId: "memory" }) },
  set_summary: {
    power: "owner",
    check: (w) => refused(w, { type: "set_summary", conversationId: w.conversationId, summary: "The member rewrote the story.", clientId: "summary" }),
  },
  generate: {
    power: "any member",
    check: async (w) => {
      w.member.send({ type: "generate", conversationId: w.conversationId, characterId, clientId: "speak" });
      const started = await w.member.next("reply_started", (f) => !f.continues && f.replaces === null && w.fresh(f));
      await w.member.next("character_response", (f) => f.messageId === started.messageId && w.fresh(f));
    },
  },
  set_author_note: {
    power: "owner",
    check: (w) => refused(w, { type: "set_author_note", conversationId: w.conversationId, text: "Mine.", clientId: "note" }),
  },
  hide_message: {
    power: "owner",
    check: (w) => refused(w, { type: "hide_message", conversationId: w.conversationId, messageId: w.ownerMessageId, hidden: true, clientId: "hide" }),
  },
  typing: {
    power: "any member",
    check: async (w) => {
      w.member.send({ type: "typing", conversationId: w.conversationId });
      expect(await w.owner.next("typing", w.fresh)).toMatchObject({ name: "Mika" });
    },
  },
  // DESIGN.md "Pictures": "Any member may imagine."
  imagine: {
    power: "any member",
    check: async (w) => {
      w.member.send({ type: "imagine", conversationId: w.conversationId, prompt: "A lantern on a windowsill", clientId: "imagine" });
      expect((await w.owner.next("image_ready", (f) => f.requestId === "imagine")).message).toMatchObject({ kind: "image", authorName: "Mika" });
    },
  },
  // Its asker (or the owner) stops a picture being made; the member's own request is gone by now, so the room says so.
  cancel_image: {
    power: "any member",
    check: async (w) => {
      w.member.send({ type: "cancel_image", conversationId: w.conversationId, requestId: "imagine" });
      expect(await w.member.next("error", (f) => f.requestId === "imagine" && w.fresh(f))).toMatchObject({ code: "message_not_found" });
    },
  },
};

describe("every client frame against DESIGN.md's powers", () => {
  /** The frame types of the union itself: a new one without a row above fails here. */
  const frameTypes = clientFrameSchema.options.map((option) => option.shape.type.value);

  it("each frame type of the union has a power from DESIGN.md", () => {
    expect(frameTypes.filter((type) => !(type in POWERS))).toEqual([]);
    expect(Object.keys(POWERS).filter((type) => !frameTypes.includes(type as never))).toEqual([]);
  });

  it("from a member's socket: the owner's powers are refused and change nothing; the rest work", async () => {
    const owner = await signIn({ firstName: "Olga" });
    const memberUser = await signIn({ firstName: "Mika" });
    const conversation = await room(owner);
    await joinBy(memberUser, (await invite(owner, conversation.id)).token);
    await useTestServerModel(conversation.id, "echo");
    const { socket: ownerSocket } = await join(owner, conversation.id);
    const { socket: memberSocket } = await join(memberUser, conversation.id);
    const { saved } = await ownerSocket.chat(conversation.id, "The owner's line.");
    const w: Walk = { conversationId: conversation.id, owner: ownerSocket, member: memberSocket, ownerMessageId: saved.messageId, fresh: () => true };

    for (const type of frameTypes) {
      const row = POWERS[type]!;
      const before = new Set<object>([...ownerSocket.frames, ...memberSocket.frames]);
      w.fresh = (frame) => !before.has(frame);
      await row.check(w).catch((error: Error) => {
        throw new Error(`${type} (${row.power}): ${error.message}`);
      });
    }

    // What only the owner may change did not change for anyone.
    const changed = ownerSocket.frames.filter((f) => ["memory_updated", "summary_updated", "author_note_updated"].includes(f.type));
    expect(changed).toEqual([]);
    const after = await storedMessages(owner, conversation.id);
    expect(after.find((m) => m.id === saved.messageId)).toMatchObject({ content: "The owner's line." });
    expect(after.find((m) => m.id === saved.messageId)?.hidden ?? false).toBe(false);
    ownerSocket.close();
    memberSocket.close();
  });
});

describe("a message screening refuses, in a room of several people", () => {
  const S4: ModerationVerdict = { safe: false, categories: ["S4"], provider: "offline" };
  const SAFE: ModerationVerdict = { safe: true, categories: [], provider: "offline" };

  it("reaches no one but its author: the others see a message only once it passed", async () => {
    const owner = await signIn({ firstName: "Olga" });
    const memberUser = await signIn({ firstName: "Mika" });
    const conversation = await room(owner);
    await joinBy(memberUser, (await invite(owner, conversation.id)).token);
    // The screen holds each of the person's messages until the test gives its verdict, as a slow moderator would.
    const held = new Map<string, (verdict: ModerationVerdict) => void>();
    await runInDurableObject(conversationRoom(env, conversation.id), (r: ConversationRoom) => {
      r.moderatorFactory = () => ({
        name: "offline",
        screen: (input: ModerationInput) =>
          input.role === "user" ? new Promise<ModerationVerdict>((resolve) => held.set(input.text, resolve)) : Promise.resolve(SAFE),
      });
    });
    // Given inside the room, whose I/O the verdict's continuation does.
    const release = (text: string, verdict: ModerationVerdict) =>
      runInDurableObject(conversationRoom(env, conversation.id), () => held.get(text)!(verdict));
    const { socket: olga } = await join(owner, conversation.id);
    const { socket: mika } = await join(memberUser, conversation.id);
    await olga.next("presence", (f) => f.people.length === 2);

    const refusedText = "Something screening will refuse.";
    mika.send({ type: "chat_message", conversationId: conversation.id, content: refusedText, clientId: "bad" });
    await vi.waitFor(() => expect(held.has(refusedText)).toBe(true));
    await release(refusedText, S4);
    expect(await mika.next("error", (f) => f.clientId === "bad")).toMatchObject({ code: "message_refused", message: MESSAGE_REFUSED_TEXT });
    // Everything the room sent before Mika's next frame has reached Olga by the time its relay does.
    mika.send({ type: "typing", conversationId: conversation.id });
    await olga.next("typing");
    expect(JSON.stringify(olga.frames)).not.toContain(refusedText);
    expect(olga.frames.filter((f) => f.type === "message_saved" || f.type === "messages_deleted" || f.type === "error")).toEqual([]);
    expect((await storedMessages(owner, conversation.id)).map((m) => m.content)).not.toContain(refusedText);

    // A message that passes reaches everyone, and only then.
    const fineText = "A perfectly fine line.";
    mika.send({ type: "chat_message", conversationId: conversation.id, content: fineText, clientId: "fine" });
    await vi.waitFor(() => expect(held.has(fineText)).toBe(true));
    expect(olga.frames.some((f) => f.type === "message_saved")).toBe(false);
    await release(fineText, SAFE);
    expect((await olga.next("message_saved")).message).toMatchObject({ content: fineText, authorName: "Mika" });
    expect((await mika.next("message_saved", (f) => f.clientId === "fine")).message.content).toBe(fineText);
    await olga.next("character_response");
    olga.close();
    mika.close();
  });
});

describe("a character moderation removed", () => {
  /** What the operator's uphold writes for a character (worker/lib/moderation-actions.ts upholdReport). */
  const removeByModeration = (id: number) =>
    env.DB.prepare("UPDATE characters SET moderation_status = 'removed', is_active = 0 WHERE id = ?").bind(id).run();

  async function ownCharacter(creator: TestUser, name: string, greeting: string): Promise<number> {
    const id = await insertCharacter({ name, creatorId: creator.id, creator: creator.username });
    await env.DB.prepare("UPDATE characters SET greeting = ? WHERE id = ?").bind(greeting, id).run();
    return id;
  }

  it("starts no chat, not even for its creator: the answer of an unknown character", async () => {
    const creator = await signIn();
    const removed = await ownCharacter(creator, "Nocturne", "Nocturne bows.");
    await removeByModeration(removed);
    const unknown = await call("/api/conversations", { method: "POST", user: creator, body: { characterId: 987_654_321 } });
    expect(unknown.status).toBe(404);
    const unknownBody = await unknown.json();
    for (const [path, body] of [
      ["/api/conversations", { characterId: removed }],
      ["/api/conversations", { characterIds: [characterId, removed] }],
      ["/api/conversations/new", { characterId: removed }],
    ] as const) {
      const res = await call(path, { method: "POST", user: creator, body });
      expect(res.status, path).toBe(404);
      expect(await res.json()).toEqual(unknownBody);
    }
    const chat = await room(creator);
    const added = await call(`/api/conversations/${chat.id}/characters`, { method: "POST", user: creator, body: { characterId: removed } });
    expect(added.status).toBe(404);
    expect(await added.json()).toEqual(unknownBody);
  });

  it("in rooms made before: no invite page, conversation answer, message list or history shows its name or greeting", async () => {
    const creator = await signIn({ firstName: "Cree" });
    const memberUser = await signIn({ firstName: "Mika" });
    const removed = await ownCharacter(creator, "Nocturne", "Nocturne bows low.");
    const group = await json<Conversation>(
      await call("/api/conversations", { method: "POST", user: creator, body: { characterIds: [removed, characterId] } }),
      201,
    );
    const solo = await json<Conversation>(await call("/api/conversations", { method: "POST", user: creator, body: { characterId: removed } }), 201);
    const groupLink = await invite(creator, group.id);
    const soloLink = await invite(creator, solo.id);
    expect((await joinBy(memberUser, groupLink.token)).status).toBe(200);
    expect(JSON.stringify(await storedMessages(memberUser, group.id))).toContain("Nocturne bows low.");

    await removeByModeration(removed);

    // The invite page: the chat it leads to shows only the cast that is left; a chat with no one left is no invitation at all.
    const preview = await call(`/api/invites/${groupLink.token}`);
    const previewText = await preview.text();
    expect(preview.status).toBe(200);
    expect(previewText).not.toContain("Nocturne");
    expect((JSON.parse(previewText) as { characters: { name: string }[] }).characters.map((c) => c.name)).toEqual(["Warden"]);
    expect((await call(`/api/invites/${soloLink.token}`)).status).toBe(404);
    expect((await joinBy(await signIn(), soloLink.token)).status).toBe(404);

    for (const viewer of [memberUser, creator]) {
      const answer = await call(`/api/conversations/${group.id}`, { user: viewer });
      const text = await answer.text();
      expect(answer.status).toBe(200);
      expect(text).not.toContain("Nocturne");
      const conversation = JSON.parse(text) as Conversation;
      expect(conversation.characters.map((c) => c.name)).toEqual(["Removed character", "Warden"]);
      expect(conversation.characters[0]!.avatarUrl).toBeNull();
      expect(JSON.stringify(await json(await call("/api/conversations", { user: viewer }), 200))).not.toContain("Nocturne");
      const listed = JSON.stringify(await storedMessages(viewer, group.id));
      expect(listed).not.toContain("Nocturne bows low.");
      expect(listed).toContain(MODERATED_MESSAGE_TEXT);
      const { socket, history } = await join(viewer, group.id);
      expect(JSON.stringify(history)).not.toContain("Nocturne bows low.");
      socket.close();
    }
  });
});

describe("a member's persona goes to the room's model only as they chose", () => {
  const secret = "Keeps a diary of every dream, written in green ink.";

  /** Mika, whose default persona is "Captain Bo" with `secret` as its description. */
  async function mikaWithPersona(): Promise<{ mika: TestUser; personaId: string }> {
    const mika = await signIn({ firstName: "Mika" });
    const persona = await json<{ id: string }>(
      await call("/api/personas", { method: "POST", user: mika, body: { name: "Captain Bo", description: secret, isDefault: true } }),
      201,
    );
    return { mika, personaId: persona.id };
  }

  /** Mika's name on her message, and the system prompt the room's model was sent for it (the loopback model `prompt` answers with its prompt). */
  async function promptForMikasMessage(owner: TestUser, mika: TestUser, conversationId: string): Promise<string> {
    await useTestServerModel(conversationId, "prompt");
    const { socket: olga } = await join(owner, conversationId);
    const { socket } = await join(mika, conversationId);
    const { saved, response } = await socket.chat(conversationId, "Hello, all.");
    await olga.next("character_response", (f) => f.messageId === response.messageId);
    socket.close();
    olga.close();
    // The system prompt only: history lines hold earlier replies, which were prompts themselves.
    const system = (JSON.parse(response.content) as { role: string; content: string }[])[0]!.content;
    return JSON.stringify({ author: saved.message.authorName, system });
  }

  it("joining with no persona: the model is sent their name only, never their default persona", async () => {
    const owner = await signIn({ firstName: "Olga" });
    const { mika } = await mikaWithPersona();
    const conversation = await room(owner);
    const { token } = await invite(owner, conversation.id);
    expect(await json(await call(`/api/invites/${token}`, { method: "POST", user: mika, body: { personaId: null } }), 200)).toEqual({
      conversationId: conversation.id,
    });
    expect((await json<Conversation>(await call(`/api/conversations/${conversation.id}`, { user: mika }), 200)).personaId).toBeNull();
    const sent = await promptForMikasMessage(owner, mika, conversation.id);
    expect(sent).not.toContain("green ink");
    expect(sent).not.toContain("Captain Bo");
    expect(sent).toContain("Mika");
  });

  it("a member picks or drops their persona for the room (only their own); joining without a choice plays their default", async () => {
    const owner = await signIn({ firstName: "Olga" });
    const { mika, personaId } = await mikaWithPersona();
    const stranger = await signIn();
    const strangers = await json<{ id: string }>(
      await call("/api/personas", { method: "POST", user: stranger, body: { name: "Not Mika", description: "Someone else's." } }),
      201,
    );
    const conversation = await room(owner);
    const { token } = await invite(owner, conversation.id);
    const notHers = await call(`/api/invites/${token}`, { method: "POST", user: mika, body: { personaId: strangers.id } });
    expect(notHers.status).toBe(404);
    expect((await call(`/api/conversations/${conversation.id}`, { user: mika })).status).toBe(404);
    expect((await joinBy(mika, token)).status).toBe(200);
    expect((await json<Conversation>(await call(`/api/conversations/${conversation.id}`, { user: mika }), 200)).personaId).toBe(personaId);
    expect(await promptForMikasMessage(owner, mika, conversation.id)).toContain("green ink");

    const put = (user: TestUser, body: unknown) => call(`/api/conversations/${conversation.id}/persona`, { method: "PUT", user, body });
    expect((await put(mika, { personaId: strangers.id })).status).toBe(404);
    expect((await json<Conversation>(await put(mika, { personaId: null }), 200)).personaId).toBeNull();
    // The owner's own choice is untouched by a member's.
    expect((await json<Conversation>(await call(`/api/conversations/${conversation.id}`, { user: owner }), 200)).personaId).toBeNull();
    const sent = await promptForMikasMessage(owner, mika, conversation.id);
    expect(sent).not.toContain("green ink");
    expect(sent).toContain('"author":"Mika"');
  });
});
