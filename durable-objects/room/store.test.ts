/**
 * The room's store (room/store.ts, room/migrations.ts) through real
 * WebSocket upgrades of the Worker: messages kept in the object's versioned
 * SQLite across evictions, and an object of the first schema migrated.
 */
import { env } from "cloudflare:workers";
import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { conversationRoom } from "../../worker/lib/conversations.ts";
import { eventually, join } from "../../worker/test/chat-client.ts";
import { insertCharacter, signIn, type TestUser } from "../../worker/test/fixtures.ts";
import { startChat, storedMessages } from "../../worker/test/room-chat.ts";
import type { ConversationRoom } from "../conversation-room.ts";
import { ROOM_SCHEMA_VERSION } from "./migrations.ts";

let characterId: number;

beforeAll(async () => {
  characterId = await insertCharacter({ name: "Ash" });
});

const start = (user: TestUser) => startChat(user, characterId);

const messages = storedMessages;

describe("storage", () => {
  it("keeps messages in its versioned SQLite across evictions, oldest first", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const conversation = await start(mira);
    const { socket, history } = await join(mira, conversation.id);
    expect(history.messages.map((m) => [m.isUser, m.content])).toEqual([[false, "Hello there."]]);
    const first = await socket.chat(conversation.id, "What do you keep in that satchel?", "client-1");
    socket.close();

    const stub = conversationRoom(env, conversation.id);
    const stored = await runInDurableObject(stub, (_room: ConversationRoom, state) => ({
      version: state.storage.sql.exec<{ version: number }>("SELECT version FROM _schema").one().version,
      rows: state.storage.sql.exec("SELECT role, content, client_id, status FROM messages ORDER BY seq").toArray(),
      room: state.storage.sql.exec("SELECT conversation_id, user_id, character_id FROM room").one(),
    }));
    expect(stored.version).toBe(ROOM_SCHEMA_VERSION);
    expect(stored.room).toEqual({ conversation_id: conversation.id, user_id: mira.id, character_id: characterId });
    expect(stored.rows).toEqual([
      { role: "character", content: "Hello there.", client_id: null, status: "complete" },
      { role: "user", content: "What do you keep in that satchel?", client_id: "client-1", status: "complete" },
      { role: "character", content: first.response.content, client_id: null, status: "complete" },
    ]);

    await evictDurableObject(stub);
    const after = await messages(mira, conversation.id);
    expect(after.map((m) => m.id)).toEqual([history.messages[0]!.id, first.saved.messageId, first.response.messageId]);
    expect(after[2]).toMatchObject({ isUser: false, rating: null, alternatives: [], clientId: null });
    expect(after[1]).toMatchObject({ isUser: true, clientId: "client-1", conversationId: conversation.id });
  });

  it("an object stored with the first schema is migrated when it wakes, its messages kept", async () => {
    const mira = await signIn();
    const conversation = await start(mira);
    const { socket } = await join(mira, conversation.id);
    await socket.chat(conversation.id, "Before the upgrade");
    socket.close();
    const stub = conversationRoom(env, conversation.id);
    // What a room written before swipes existed holds: schema 1, no swipe_index column, no kept card
    // (nor anything later: edits, memory, summary, persona, frame receipts, lorebook timers, check-ins).
    await runInDurableObject(stub, (_room: ConversationRoom, state) => {
      for (const trigger of ["messages_deleted_memory", "messages_edited_memory", "messages_shown_memory", "messages_deleted_lorebook"]) state.storage.sql.exec(`DROP TRIGGER ${trigger}`);
      state.storage.sql.exec("DROP TABLE images");
      state.storage.sql.exec("DROP TABLE lorebook_state");
      state.storage.sql.exec("DROP TABLE lorebook_states");
      state.storage.sql.exec("DROP TABLE check_in_settings");
      state.storage.sql.exec("DROP TABLE check_ins");
      state.storage.sql.exec("DROP TABLE message_vectors");
      state.storage.sql.exec("DROP TABLE memory_changes");
      state.storage.sql.exec("DROP TABLE prompt_records");
      state.storage.sql.exec("ALTER TABLE messages DROP COLUMN recalled");
      state.storage.sql.exec("DROP TABLE character_card");
      state.storage.sql.exec("DROP TABLE frame_receipts");
      state.storage.sql.exec("DROP TABLE cast_members");
      state.storage.sql.exec("DROP TABLE cast_cards");
      state.storage.sql.exec("DROP TABLE people");
      state.storage.sql.exec("DROP TABLE ratings");
      // The owner's thumb on the reply, as one rating per reply was kept before version 6.
      state.storage.sql.exec("UPDATE messages SET rating = 1 WHERE seq = (SELECT max(seq) FROM messages)");
      for (const column of ["memory", "summary", "summary_through", "persona_description", "reply_order", "author_note", "author_note_depth", "author_note_interval", "answered_through"]) {
        state.storage.sql.exec(`ALTER TABLE room DROP COLUMN ${column}`);
      }
      for (const column of ["character_id", "author_id", "author_name", "hidden"]) state.storage.sql.exec(`ALTER TABLE messages DROP COLUMN ${column}`);
      state.storage.sql.exec("ALTER TABLE messages DROP COLUMN edited_at");
      state.storage.sql.exec("ALTER TABLE messages DROP COLUMN swipe_index");
      state.storage.sql.exec("ALTER TABLE messages DROP COLUMN usage");
      state.storage.sql.exec("ALTER TABLE messages DROP COLUMN expression");
      state.storage.sql.exec("ALTER TABLE messages DROP COLUMN version_expressions");
      state.storage.sql.exec("UPDATE _schema SET version = 1");
    });
    await evictDurableObject(stub);

    const stored = await messages(mira, conversation.id);
    expect(stored.map((m) => m.content).slice(0, 2)).toEqual(["Hello there.", "Before the upgrade"]);
    expect(stored[2]!.swipeIndex).toBeUndefined();
    // Version 5 made it a cast of one: every reply is its character's, every message the owner's.
    expect(stored[0]).toMatchObject({ characterId: conversation.characterId });
    expect(stored[1]).toMatchObject({ authorId: mira.id });
    expect(stored[2]).toMatchObject({ characterId: conversation.characterId });
    // Version 6 made the reply's old rating the owner's own thumb.
    expect(stored[2]!.rating).toBe(1);
    const columns = await runInDurableObject(stub, (_room: ConversationRoom, state) => ({
      version: state.storage.sql.exec<{ version: number }>("SELECT version FROM _schema").one().version,
      names: state.storage.sql.exec<{ name: string }>("SELECT name FROM pragma_table_info('messages')").toArray().map((c) => c.name),
      tables: state.storage.sql.exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'").toArray().map((t) => t.name),
    }));
    expect(columns.version).toBe(ROOM_SCHEMA_VERSION);
    expect(columns.names).toContain("swipe_index");
    expect(columns.names).toContain("edited_at");
    expect(columns.tables).toContain("character_card");
    expect(columns.tables).toContain("frame_receipts");
    expect(columns.tables).toContain("cast_members");
    expect(columns.names).toContain("hidden");
    expect(columns.tables).toContain("people");
    expect(columns.tables).toContain("ratings");
    expect(columns.names).toContain("usage");
    // Version 8: memory. The old messages are embedded once the room is awake (room/memory.ts).
    expect(columns.names).toContain("recalled");
    expect(stored[2]!.recalled).toEqual([]);
    await eventually(() =>
      runInDurableObject(stub, (_room: ConversationRoom, state) => state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM message_vectors").one().n === 3),
    );
  });
});
