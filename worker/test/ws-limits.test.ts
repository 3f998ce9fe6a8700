/**
 * Chat sockets as someone hoarding them sees it (durable-objects/socket-limits.ts):
 * at most 8 open per conversation and 16 per person across conversations —
 * beyond that the oldest is closed with 1008 and a reason while the newest
 * keep working — and a socket with no traffic for 10 minutes is closed with
 * 1008, while one that talks or only pings stays. Real upgrades through the
 * Worker's own fetch; the idle clock is the room's `now` seam, moved back for
 * the sockets that are to look old, and the room's alarm is run at once.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { Conversation } from "../../schema/chat.ts";
import type { ConversationRoom } from "../../durable-objects/conversation-room.ts";
import type { PersonSockets } from "../../durable-objects/person-sockets.ts";
import {
  CLOSE_REASONS,
  IDLE_TIMEOUT_MS,
  JOIN_TIMEOUT_MS,
  MAX_SOCKETS_PER_CONVERSATION,
  MAX_SOCKETS_PER_PERSON,
  MAX_WAITING_SOCKETS_PER_PERSON,
} from "../../durable-objects/socket-limits.ts";
import { conversationRoom } from "../lib/conversations.ts";
import { type ChatSocket, connect, join } from "./chat-client.ts";
import { call, json } from "./creator-api.ts";
import { insertCharacter, signIn, type TestUser } from "./fixtures.ts";

let characterId: number;

beforeAll(async () => {
  characterId = await insertCharacter({ name: "Quill" });
});

async function startConversation(user: TestUser): Promise<string> {
  return (await json<Conversation>(await call("/api/conversations/new", { method: "POST", user, body: { characterId } }), 201)).id;
}

/** Opens `count` sockets to `conversationId` one after another (each upgrade answered before the next). */
async function openSockets(user: TestUser, conversationId: string, count: number): Promise<ChatSocket[]> {
  const sockets: ChatSocket[] = [];
  for (let i = 0; i < count; i++) sockets.push(await connect(user, conversationId));
  return sockets;
}

/** The socket still answers: a keep-alive ping gets its pong. */
async function expectAlive(socket: ChatSocket): Promise<void> {
  await socket.ping();
  expect(socket.closeEvent).toBeNull();
}

/** Waits until at least `count` of `sockets` are closed by the server; fails after 10 s. */
async function closedAtLeast(sockets: ChatSocket[], count: number): Promise<void> {
  await vi.waitFor(
    () => {
      const closed = sockets.filter((socket) => socket.closeEvent !== null).length;
      if (closed < count) throw new Error(`${closed} of ${sockets.length} sockets closed, waiting for ${count}`);
    },
    { timeout: 10_000, interval: 20 },
  );
}

/** Waits until `user`'s PersonSockets counts exactly `count` bare sockets waiting for join; fails after 10 s. */
async function waitingCount(user: TestUser, count: number): Promise<void> {
  await vi.waitFor(
    async () => {
      const now = await runInDurableObject(personSockets(user), (_ledger: PersonSockets, state) =>
        state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM waiting").one().n,
      );
      if (now !== count) throw new Error(`${now} sockets waiting, expected ${count}`);
    },
    { timeout: 10_000, interval: 20 },
  );
}

function personSockets(user: TestUser): DurableObjectStub<PersonSockets> {
  const namespace = env.PERSON_SOCKETS as unknown as DurableObjectNamespace<PersonSockets>;
  return namespace.get(namespace.idFromName(user.id));
}

describe(`at most ${MAX_SOCKETS_PER_CONVERSATION} sockets per conversation`, () => {
  it("the 9th socket closes the oldest with 1008 and a reason; the newest 8 keep working", async () => {
    const mira = await signIn();
    const id = await startConversation(mira);
    const sockets = await openSockets(mira, id, MAX_SOCKETS_PER_CONVERSATION);
    for (const socket of sockets) await expectAlive(socket);

    const newest = await connect(mira, id);
    expect(await sockets[0]!.closed()).toEqual({ code: 1008, reason: CLOSE_REASONS.conversationCap });
    for (const socket of [...sockets.slice(1), newest]) await expectAlive(socket);

    // The survivors are full members of the conversation.
    newest.send({ type: "join", conversationId: id });
    await newest.next("history_sync");
    const { response } = await newest.chat(id, "Still here?");
    expect((await sockets[1]!.next("character_response")).content).toBe(response.content);
  });

  it("a bare /ws counts like the others, and its client hears the close through the relay", async () => {
    const mira = await signIn();
    const id = await startConversation(mira);
    const bare = await connect(mira);
    bare.send({ type: "join", conversationId: id });
    await bare.next("history_sync");
    await openSockets(mira, id, MAX_SOCKETS_PER_CONVERSATION);
    expect(await bare.closed()).toEqual({ code: 1008, reason: CLOSE_REASONS.conversationCap });
  });
});

describe(`at most ${MAX_SOCKETS_PER_PERSON} sockets per person across conversations`, () => {
  it("the 17th closes the person's oldest, wherever it is; someone else is not affected", async () => {
    const [mira, theo] = [await signIn(), await signIn()];
    const [a, b, c] = [await startConversation(mira), await startConversation(mira), await startConversation(mira)];
    const inA = await openSockets(mira, a, 6);
    const inB = await openSockets(mira, b, 6);
    const inC = await openSockets(mira, c, 4);
    const theos = await openSockets(theo, await startConversation(theo), 4);
    for (const socket of [...inA, ...inB, ...inC]) await expectAlive(socket);

    const seventeenth = await connect(mira, c);
    expect(await inA[0]!.closed()).toEqual({ code: 1008, reason: CLOSE_REASONS.personCap });
    for (const socket of [...inA.slice(1), ...inB, ...inC, seventeenth, ...theos]) await expectAlive(socket);
    expect(await personSockets(mira).list()).toHaveLength(MAX_SOCKETS_PER_PERSON);
  });

  it("hoarding 40 sockets leaves 16 open, the newest", async () => {
    const mira = await signIn();
    const ids = [await startConversation(mira), await startConversation(mira), await startConversation(mira), await startConversation(mira)];
    const sockets: ChatSocket[] = [];
    for (let i = 0; i < 40; i++) sockets.push(await connect(mira, ids[i % ids.length]!));
    const closed = sockets.slice(0, 40 - MAX_SOCKETS_PER_PERSON);
    for (const socket of closed) expect((await socket.closed()).code).toBe(1008);
    for (const socket of sockets.slice(-MAX_SOCKETS_PER_PERSON)) await expectAlive(socket);
  });

  it("sockets a restarted room lost without a close event do not make live ones close", async () => {
    const mira = await signIn();
    const [a, b, c] = [await startConversation(mira), await startConversation(mira), await startConversation(mira)];
    const inA = await openSockets(mira, a, 8);
    const inB = await openSockets(mira, b, 8);
    // As a deploy does: the room's sockets are gone; PersonSockets may still list them.
    await runInDurableObject(conversationRoom(env, a), (_room: ConversationRoom, state) => {
      for (const ws of state.getWebSockets()) ws.close(1001, "Going away");
    });
    for (const socket of inA) expect((await socket.closed()).code).toBe(1001);
    await runInDurableObject(personSockets(mira), async (_ledger: PersonSockets, state) => {
      // Put back rows for A's lost sockets, as if their close never reached it.
      for (let i = 0; i < 8; i++) {
        state.storage.sql.exec("INSERT INTO sockets (id, conversation_id) VALUES (?, ?)", crypto.randomUUID(), a);
      }
    });

    const inC = await openSockets(mira, c, 8);
    for (const socket of [...inB, ...inC]) await expectAlive(socket);
    expect((await personSockets(mira).list()).map((s) => s.conversationId).sort()).toEqual([...Array(8).fill(b), ...Array(8).fill(c)].sort());
  });
});

describe(`sockets silent for ${IDLE_TIMEOUT_MS / 60_000} minutes`, () => {
  it("are closed with 1008 and a reason; one that talks or only pings stays", async () => {
    const mira = await signIn();
    const id = await startConversation(mira);
    const stub = conversationRoom(env, id);
    // These three were opened 10 minutes ago...
    await runInDurableObject(stub, (room: ConversationRoom) => {
      room.now = () => Date.now() - IDLE_TIMEOUT_MS;
    });
    const [silent, pinger, talker] = await openSockets(mira, id, 3);
    await runInDurableObject(stub, (room: ConversationRoom) => {
      room.now = () => Date.now();
    });
    // ...and only these two have done anything since.
    await pinger!.ping();
    talker!.send({ type: "join", conversationId: id });
    await talker!.next("history_sync");

    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await silent!.closed()).toEqual({ code: 1008, reason: CLOSE_REASONS.idle });
    await expectAlive(pinger!);
    await talker!.chat(id, "Are you still there?");
    // The check comes back while sockets remain.
    expect(await runInDurableObject(stub, (_room: ConversationRoom, state) => state.storage.getAlarm())).not.toBeNull();
  });

  it("a socket opened with ?conversationId= and never used is closed too", async () => {
    const mira = await signIn();
    const id = await startConversation(mira);
    const stub = conversationRoom(env, id);
    await runInDurableObject(stub, (room: ConversationRoom) => {
      room.now = () => Date.now() - IDLE_TIMEOUT_MS;
    });
    const lurker = await connect(mira, id);
    await runInDurableObject(stub, (room: ConversationRoom) => {
      room.now = () => Date.now();
    });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await lurker.closed()).toEqual({ code: 1008, reason: CLOSE_REASONS.idle });
    // Nothing left to watch: no alarm until the next socket.
    expect(await runInDurableObject(stub, (_room: ConversationRoom, state) => state.storage.getAlarm())).toBeNull();
  });
});

describe("sockets opened in quick succession (issue 21)", () => {
  /**
   * Waits until at least `closing` of `sockets` are closed (fails after 10 s),
   * then until every other one answers a ping; returns the closed ones' close events.
   */
  async function settle(sockets: ChatSocket[], closing: number): Promise<{ code: number; reason: string }[]> {
    await closedAtLeast(sockets, closing);
    await Promise.all(sockets.filter((socket) => socket.closeEvent === null).map((socket) => socket.ping().catch(() => undefined)));
    return sockets.flatMap((socket) => (socket.closeEvent ? [socket.closeEvent] : []));
  }

  it(`${MAX_SOCKETS_PER_CONVERSATION + 4} at once to one conversation: exactly 4 are closed with 1008 and a reason, 8 work`, async () => {
    const mira = await signIn();
    const id = await startConversation(mira);
    const sockets = await Promise.all(Array.from({ length: MAX_SOCKETS_PER_CONVERSATION + 4 }, () => connect(mira, id)));
    const closed = await settle(sockets, 4);
    expect(closed).toEqual(Array(4).fill({ code: 1008, reason: CLOSE_REASONS.conversationCap }));
    const open = sockets.filter((socket) => socket.closeEvent === null);
    for (const socket of open) await expectAlive(socket);
  });

  it(`${MAX_SOCKETS_PER_PERSON + 8} at once across conversations: exactly 8 are closed with 1008 and a reason`, async () => {
    const mira = await signIn();
    const ids = [await startConversation(mira), await startConversation(mira), await startConversation(mira), await startConversation(mira)];
    const sockets = await Promise.all(Array.from({ length: MAX_SOCKETS_PER_PERSON + 8 }, (_, i) => connect(mira, ids[i % ids.length]!)));
    const closed = await settle(sockets, 8);
    expect(closed).toHaveLength(8);
    for (const event of closed) expect(event.code).toBe(1008);
    expect(await personSockets(mira).list()).toHaveLength(MAX_SOCKETS_PER_PERSON);
  });
});

describe(`at most ${MAX_WAITING_SOCKETS_PER_PERSON} bare /ws sockets waiting for join per person (issue 21)`, () => {
  it("150 bare sockets at once: all but 4 are closed at once with 1008 and a reason; the 4 still join; then there is room again", async () => {
    const mira = await signIn();
    const theo = await signIn();
    const id = await startConversation(mira);
    const sockets = await Promise.all(Array.from({ length: 150 }, () => connect(mira)));
    await closedAtLeast(sockets, 150 - MAX_WAITING_SOCKETS_PER_PERSON);
    const refused = sockets.filter((socket) => socket.closeEvent !== null);
    expect(refused).toHaveLength(150 - MAX_WAITING_SOCKETS_PER_PERSON);
    for (const socket of refused) {
      expect(socket.closeEvent).toEqual({ code: 1008, reason: CLOSE_REASONS.waitingCap });
      expect(socket.frames).toEqual([{ type: "error", code: "rate_limited", message: CLOSE_REASONS.waitingCap, retryAfterMs: JOIN_TIMEOUT_MS + 1_000 }]);
    }
    // Someone else is not affected.
    const theos = await connect(theo);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(theos.closeEvent).toBeNull();

    const waiting = sockets.filter((socket) => socket.closeEvent === null);
    // One more is refused while four wait...
    const extra = await connect(mira);
    expect(await extra.closed()).toEqual({ code: 1008, reason: CLOSE_REASONS.waitingCap });
    // ...and a waiting socket that joins makes room, as does one that closes.
    waiting[0]!.send({ type: "join", conversationId: id });
    await waiting[0]!.next("history_sync");
    waiting[1]!.close();
    await waitingCount(mira, MAX_WAITING_SOCKETS_PER_PERSON - 2);
    const again = [await connect(mira), await connect(mira)];
    await new Promise((resolve) => setTimeout(resolve, 100));
    for (const socket of again) expect(socket.closeEvent).toBeNull();
    const over = await connect(mira);
    expect(await over.closed()).toEqual({ code: 1008, reason: CLOSE_REASONS.waitingCap });
  }, 30_000);

  it("a place is freed when a waiting socket is closed for not joining in time", async () => {
    const mira = await signIn();
    const stub = personSockets(mira);
    // Places taken by sockets whose Worker never said they stopped waiting expire on their own.
    await runInDurableObject(stub, (_ledger: PersonSockets, state) => {
      for (let i = 0; i < MAX_WAITING_SOCKETS_PER_PERSON; i++) {
        state.storage.sql.exec("INSERT INTO waiting (id, until) VALUES (?, ?)", crypto.randomUUID(), Date.now() - 1);
      }
    });
    const socket = await connect(mira);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(socket.closeEvent).toBeNull();
  });
});
