/**
 * Deleting an account (`DELETE /api/profile`, DESIGN.md turn 4 "Your
 * account, your data"; worker/lib/account/deletion.ts), seen by the person,
 * by the people they dealt with and by the database:
 * - a walk over every drizzle table of schema/db*.ts: each one that refers
 *   to a person is covered by deletion (PERSON_DATA), so a new table cannot
 *   be forgotten; then an account with a row in every such table is
 *   deleted and each table is checked;
 * - counters stay exact (favorites, comment votes and comment counts, tag
 *   and catalog counts, reply ratings);
 * - comments others replied to stay as "[deleted]" under the deleted
 *   account; rooms they owned end for their members with a message; rooms
 *   they joined keep their messages, from "a deleted account";
 * - the username and its lookalikes are held for 30 days;
 * - racing: an open socket of theirs, and a write of theirs.
 */
import { env } from "cloudflare:workers";
import { getTableConfig, type SQLiteTable } from "drizzle-orm/sqlite-core";
import { is } from "drizzle-orm";
import { SQLiteTable as SQLiteTableClass } from "drizzle-orm/sqlite-core";
import { beforeAll, describe, expect, it } from "vitest";
import { DELETED_ACCOUNT_ID, DELETED_ACCOUNT_USERNAME, DELETED_AUTHOR_NAME, DELETED_COMMENT_TEXT } from "../../schema/account.ts";
import type { Comment } from "../../schema/api.ts";
import { type Conversation, GONE_CLOSE_REASONS } from "../../schema/chat.ts";
import { CLOSE_REASONS } from "../../durable-objects/socket-limits.ts";
import { deleteAccount as deleteAccountNow, PERSON_DATA } from "../lib/account/deletion.ts";
import { postComment } from "../lib/community.ts";
import { inbox } from "../lib/notifications/notify.ts";
import type { SharedChat } from "../../schema/shares.ts";
import { CONFIRM_MISMATCH } from "../routes/account.ts";
import { eventually, join } from "./chat-client.ts";
import { call, countRows, json, TINY_PNG } from "./creator-api.ts";
import { insertCharacter, signIn, type TestUser } from "./fixtures.ts";
import { openNotifications } from "./notifications-client.ts";
import { startChat, storedMessages } from "./room-chat.ts";

/** Every schema/db*.ts module, found by name (Vite's glob), so a new file of tables is walked too. */
const SCHEMA_MODULES = import.meta.glob<Record<string, unknown>>("../../schema/db*.ts", { eager: true });

const ALL_TABLES: SQLiteTable[] = Object.values(SCHEMA_MODULES).flatMap((module) =>
  Object.values(module).filter((value): value is SQLiteTable => is(value, SQLiteTableClass)),
);

/** Columns that name a person: a foreign key to `users`, or a name that says so (reports and logs keep ids without one). */
function personColumns(table: SQLiteTable): string[] {
  const config = getTableConfig(table);
  const referencing = new Set(
    config.foreignKeys.flatMap((fk) => {
      const ref = fk.reference();
      return getTableConfig(ref.foreignTable).name === "users" ? ref.columns.map((column) => column.name) : [];
    }),
  );
  const named = config.columns
    .map((column) => column.name)
    .filter((name) => /(^|_)(user|owner|creator|reporter|follower|followee|author)(_id)?$/.test(name) || name === "sess");
  return [...new Set([...referencing, ...named])];
}

const deleteAccount = (user: TestUser, confirm: unknown = user.username) => call("/api/profile", { method: "DELETE", user, body: { confirm } });

describe("the schema walk", () => {
  it("finds the tables it walks (the check below is not empty)", () => {
    expect(Object.keys(SCHEMA_MODULES)).toEqual(expect.arrayContaining(["../../schema/db.ts", "../../schema/db-chat.ts", "../../schema/db-moderation.ts"]));
    const names = ALL_TABLES.map((table) => getTableConfig(table).name);
    expect(names).toEqual(expect.arrayContaining(["users", "sessions", "comments", "favorites", "conversations", "personas", "reports"]));
  });

  it.each(ALL_TABLES.map((table) => [getTableConfig(table).name, table] as const))(
    "covers %s when it refers to a person",
    (name, table) => {
      const columns = personColumns(table);
      if (name === "users" || columns.length === 0) return;
      expect(PERSON_DATA[name], `table ${name} refers to a person (${columns.join(", ")}) but deletion does not cover it`).toBeDefined();
      expect(PERSON_DATA[name]!.columns).toEqual(expect.arrayContaining(columns));
    },
  );
});

let theo: TestUser;
let theosCharacter: number;

beforeAll(async () => {
  theo = await signIn({ firstName: "Theo" });
  theosCharacter = await insertCharacter({ name: "Harbor Keeper", creatorId: theo.id, creator: "theo" });
});

const characterCounts = (id: number) =>
  env.DB.prepare("SELECT favorite_count AS favorites, comment_count AS comments, rating_up AS up, rating_down AS down FROM characters WHERE id = ?")
    .bind(id)
    .first<{ favorites: number; comments: number; up: number; down: number }>();

const realCounts = async (id: number) => ({
  favorites: await countRows("favorites", "character_id = ?", id),
  comments: await countRows("comments", "character_id = ?", id),
});

async function post<T = unknown>(user: TestUser, path: string, body: unknown, status = 201): Promise<T> {
  return json<T>(await call(path, { method: "POST", user, body }), status);
}

describe("deleting an account with something in every table", () => {
  it("deletes or anonymises every row that refers to them, keeps the audit trail, and every counter stays exact", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const tag = `gone-${crypto.randomUUID().slice(0, 8)}`;
    const mirasCharacter = await insertCharacter({ name: "Wren", creatorId: mira.id, creator: "mira", tags: [tag] });
    await env.AVATARS.put(`avatars/${mira.id}/${crypto.randomUUID()}`, new Uint8Array([1, 2, 3]));
    // An expression of her character's, stored by content (worker/lib/cards/assets.ts): it goes with her.
    const assetKey = `assets/${"ab".repeat(32)}`;
    await env.AVATARS.put(assetKey, TINY_PNG, { customMetadata: { contentType: "image/png" } });
    await env.DB.prepare("INSERT INTO character_assets (character_id, type, name, ext, url, object_key, size) VALUES (?, 'emotion', 'joy', 'png', ?, ?, ?)")
      .bind(mirasCharacter, `/objects/${assetKey}`, assetKey, TINY_PNG.length)
      .run();
    const catalogBefore = await env.DB.prepare("SELECT count FROM catalog_counts WHERE key = 'all'").first<number>("count");
    expect(await env.DB.prepare("SELECT count FROM tags WHERE name = ?").bind(tag).first<number>("count")).toBe(1);

    // Community: a favorite, follows both ways, comments (one replied to, deep), a vote, reports both ways.
    await post(mira, `/api/characters/${theosCharacter}/favorite`, undefined, 200);
    expect((await call(`/api/users/${encodeURIComponent(theo.username)}/follow`, { method: "PUT", user: mira })).status).toBe(200);
    expect((await call(`/api/users/${encodeURIComponent(mira.username)}/follow`, { method: "PUT", user: theo })).status).toBe(200);
    const theosComment = await post<Comment>(theo, `/api/characters/${theosCharacter}/comments`, { content: "Welcome to the harbor." });
    await post(mira, `/api/comments/${theosComment.id}/vote`, { value: 1 }, 200);
    const top = await post<Comment>(mira, `/api/characters/${theosCharacter}/comments`, { content: "Mira's question" });
    const own = await post<Comment>(mira, `/api/characters/${theosCharacter}/comments`, { content: "Mira follows up", parentId: top.id });
    const answer = await post<Comment>(theo, `/api/characters/${theosCharacter}/comments`, { content: "Theo answers deep", parentId: own.id });
    const lonely = await post<Comment>(mira, `/api/characters/${theosCharacter}/comments`, { content: "Nobody answered this" });
    await post(mira, "/api/reports", { targetType: "comment", targetId: theosComment.id, reason: "spam" });
    await post(theo, "/api/reports", { targetType: "comment", targetId: lonely.id, reason: "spam" });

    // Chats: her own, a room of hers with Theo in it, and a room of Theo's she joined (a message and a thumb).
    await startChat(mira, mirasCharacter);
    const mirasRoom = await startChat(mira, theosCharacter);
    const theosRoom = await startChat(theo, theosCharacter);
    for (const [owner, member, room] of [[mira, theo, mirasRoom], [theo, mira, theosRoom]] as const) {
      const { token } = await post<{ token: string }>(owner, `/api/conversations/${room.id}/invites`, undefined);
      expect((await call(`/api/invites/${token}`, { method: "POST", user: member })).status).toBe(200);
    }
    const { socket: theoInMirasRoom } = await join(theo, mirasRoom.id);
    const { socket: miraInTheosRoom } = await join(mira, theosRoom.id);
    await miraInTheosRoom.chat(theosRoom.id, "Mira was here");
    const greeting = (await storedMessages(theo, theosRoom.id)).find((m) => !m.isUser)!;
    const ratingBefore = (await characterCounts(theosCharacter))!;
    await post(mira, `/api/conversations/${theosRoom.id}/messages/${greeting.id}/rating`, { value: 1 }, 200);
    expect((await characterCounts(theosCharacter))!.up).toBe(ratingBefore.up + 1);

    // Her notifications (her Inbox, outside D1) and an open notification socket.
    await post(theo, `/api/characters/${mirasCharacter}/comments`, { content: "Theo was here too" });
    const miraInbox = inbox(env, mira.id);
    await eventually(async () => (await miraInbox.list(10)).notifications.length > 0);
    const miraBell = await openNotifications(mira);

    // Personas and a model connection.
    await post(mira, "/api/personas", { name: "Captain Mira", description: "A sailor." });
    await env.DB.prepare("INSERT INTO model_connections (id, user_id, name, kind, model) VALUES (?, ?, 'Mine', 'site', 'm')")
      .bind(crypto.randomUUID(), mira.id)
      .run();
    // A link of Theo's room closed to her, as when an owner removes someone (worker/lib/shared-rooms.ts).
    await env.DB.prepare(
      "INSERT INTO conversation_invite_removals (token_hash, user_id) SELECT token_hash, ? FROM conversation_invites WHERE conversation_id = ? LIMIT 1",
    )
      .bind(mira.id, theosRoom.id)
      .run();
    await post(mira, `/api/conversations/${mirasRoom.id}/memories`, { text: "Mira is afraid of deep water." });
    // A lorebook of hers, attached to her own room.
    const lorebook = await post<{ id: string }>(mira, "/api/lorebooks", { name: "The sea", entries: [{ keys: ["tide"], content: "The tide is high." }] });
    await call(`/api/conversations/${mirasRoom.id}`, { method: "PATCH", user: mira, body: { lorebookIds: [lorebook.id] } });
    await env.DB.prepare("INSERT INTO blocks (blocker_id, blocked_id) VALUES (?, ?)").bind(mira.id, theo.id).run();
    await env.DB.prepare("INSERT INTO speech_usage (user_id, window_start, audio_ms) VALUES (?, ?, 12000)").bind(mira.id, Date.now()).run();
    await env.DB.prepare("INSERT INTO push_subscriptions (id, user_id, endpoint, p256dh, auth) VALUES (?, ?, ?, 'k', 'a')")
      .bind(crypto.randomUUID(), mira.id, `https://push.example/${crypto.randomUUID()}`)
      .run();
    // Share links: one of her room, and one of Theo's room holding her message.
    await post(mira, `/api/conversations/${mirasRoom.id}/shares`, {});
    const theosShare = await post<{ token: string }>(theo, `/api/conversations/${theosRoom.id}/shares`, {});
    await env.DB.prepare("INSERT INTO image_usage (user_id, window, window_start, count) VALUES (?, 'day', ?, 3)").bind(mira.id, Date.now()).run();

    // Every table deletion covers holds a row of hers now (so this test seeds a new table too).
    const covered = Object.entries(PERSON_DATA).filter(([, entry]) => entry.fate !== "kept");
    const rowsOf = async (table: string, columns: string[]) => {
      let n = 0;
      for (const column of columns) {
        n += column === "sess" ? await countRows(table, "json_extract(sess, '$.userId') = ?", mira.id) : await countRows(table, `${column} = ?`, mira.id);
      }
      return n;
    };
    for (const [table, { columns }] of covered) expect(await rowsOf(table, columns), `no row of hers in ${table}`).toBeGreaterThan(0);

    expect((await deleteAccount(mira)).status).toBe(204);

    for (const [table, { columns }] of covered) expect(await rowsOf(table, columns), `rows of hers left in ${table}`).toBe(0);
    // Kept: reports (hers without her as reporter), the report about her comment.
    expect(await countRows("reports", "target_id = ? AND target_type = 'comment'", String(theosComment.id))).toBe(1);
    expect(await countRows("reports", "target_owner_id = ?", mira.id)).toBe(1);
    expect(await env.AVATARS.list({ prefix: `avatars/${mira.id}/` }).then((page) => page.objects.length)).toBe(0);
    expect(await countRows("character_assets", "character_id = ?", mirasCharacter)).toBe(0);
    expect(await env.AVATARS.head(assetKey)).toBeNull();

    // Counters: exact against the rows that are left.
    const after = (await characterCounts(theosCharacter))!;
    expect({ favorites: after.favorites, comments: after.comments }).toEqual(await realCounts(theosCharacter));
    expect(after.up).toBe(ratingBefore.up);
    const theosVotes = await env.DB.prepare("SELECT votes FROM comments WHERE id = ?").bind(theosComment.id).first<number>("votes");
    expect(theosVotes).toBe(0);
    expect(await env.DB.prepare("SELECT count FROM tags WHERE name = ?").bind(tag).first<number>("count")).toBe(0);
    expect(await env.DB.prepare("SELECT count FROM catalog_counts WHERE key = 'all'").first<number>("count")).toBe(catalogBefore! - 1);

    // Comments: the thread Theo answered stays, as "[deleted]" under the deleted account; the lonely one is gone.
    const thread = await json<Comment[]>(await call(`/api/characters/${theosCharacter}/comments`), 200);
    const kept = thread.find((c) => c.id === top.id)!;
    expect(kept).toMatchObject({ content: DELETED_COMMENT_TEXT, username: DELETED_ACCOUNT_USERNAME, userId: DELETED_ACCOUNT_ID, profileImageUrl: null });
    expect(kept.replies[0]).toMatchObject({ id: own.id, content: DELETED_COMMENT_TEXT, username: DELETED_ACCOUNT_USERNAME });
    expect(kept.replies[0]!.replies[0]).toMatchObject({ id: answer.id, content: "Theo answers deep", username: theo.username });
    expect(thread.some((c) => c.id === lonely.id)).toBe(false);
    expect(JSON.stringify(thread)).not.toContain("Mira's question");

    // Her room ended for Theo with a message; his room keeps her message, from a deleted account.
    expect(await theoInMirasRoom.next("error", (f) => f.code === "forbidden")).toMatchObject({ message: `${GONE_CLOSE_REASONS.ownerLeft}.` });
    expect(await theoInMirasRoom.closed()).toEqual({ code: 1008, reason: GONE_CLOSE_REASONS.ownerLeft });
    expect((await call(`/api/conversations/${mirasRoom.id}`, { user: theo })).status).toBe(404);
    expect((await miraInTheosRoom.closed()).code).toBe(1008);
    const mine = (await storedMessages(theo, theosRoom.id)).find((m) => m.content === "Mira was here")!;
    expect(mine).toMatchObject({ authorName: DELETED_AUTHOR_NAME, authorId: DELETED_ACCOUNT_ID });
    const members = (await json<Conversation>(await call(`/api/conversations/${theosRoom.id}`, { user: theo }), 200)).members ?? [];
    expect(members.map((m) => m.userId)).not.toContain(mira.id);

    // Her notifications are gone with their socket.
    expect(await miraInbox.list(10)).toEqual({ notifications: [], unread: 0 });
    expect((await miraBell.until((s) => s.closeEvent)).code).toBe(1008);
    // Theo's share keeps her words, from a deleted account.
    const shared = await json<SharedChat>(await call(`/api/shares/${theosShare.token}`), 200);
    expect(shared.messages.find((m) => m.content === "Mira was here")).toMatchObject({ authorName: DELETED_AUTHOR_NAME });

    // Signed out everywhere.
    expect((await call("/api/auth/user", { user: mira })).status).toBe(401);
  }, 30_000);
});

describe("asking to delete", () => {
  it("refuses a confirmation that is not the username (400) and deletes nothing", async () => {
    const mira = await signIn();
    for (const confirm of ["@someone_else", "", 42, null]) {
      const res = await deleteAccount(mira, confirm);
      expect(res.status).toBe(400);
      expect((await res.json()) as { code: string }).toMatchObject({ code: "validation_failed" });
    }
    expect(await json(await deleteAccount(mira, "@not_her"), 400)).toMatchObject({ error: CONFIRM_MISMATCH });
    expect((await call("/api/auth/user", { user: mira })).status).toBe(200);
  });

  it("takes the username with or without @, in any letter case, and clears the cookie", async () => {
    const mira = await signIn();
    const res = await deleteAccount(mira, mira.username.replace(/^@/, "").toUpperCase());
    expect(res.status).toBe(204);
    expect(res.headers.get("set-cookie")).toMatch(/fabled_session=;/);
    expect(await countRows("users", "id = ?", mira.id)).toBe(0);
  });

  it("answers visitors 401", async () => {
    expect((await call("/api/profile", { method: "DELETE", body: { confirm: "@x" } })).status).toBe(401);
  });
});

describe("the username, held 30 days", () => {
  it("cannot be taken, nor a lookalike, until the hold ends", async () => {
    const name = `@harbor_${crypto.randomUUID().slice(0, 6)}`;
    const mira = await signIn({ username: name });
    expect((await deleteAccount(mira)).status).toBe(204);
    const newcomer = await signIn();
    const lookalike = name.replace("harbor", "HarbOr").replace(/_/, "__");
    for (const username of [name, name.toUpperCase(), `${name}_`, name.replace("o", "0")]) {
      expect(await json(await call(`/api/profile/check-username/${encodeURIComponent(username)}`, { user: newcomer }), 200), username).toEqual({ available: false });
      const res = await call("/api/profile", { method: "PUT", user: newcomer, body: { name: "New", username, profileImageUrl: "" } });
      expect(res.status, username).toBe(409);
    }
    expect(lookalike).not.toBe(name);
    // Once the 30 days are over, it is free again.
    await env.DB.prepare("UPDATE username_holds SET until = ? WHERE username = ?").bind(Date.now() - 1, name.toLowerCase()).run();
    expect(await json(await call(`/api/profile/check-username/${encodeURIComponent(name)}`, { user: newcomer }), 200)).toEqual({ available: true });
  });
});

describe("racing", () => {
  it("an open socket of theirs: closed, and a message sent as the account goes is never kept", async () => {
    const mira = await signIn();
    const characterId = await insertCharacter({ name: "Tide" });
    const chat = await startChat(mira, characterId);
    const { socket } = await join(mira, chat.id);
    const sent = Promise.resolve().then(() =>
      socket.send({ type: "chat_message", conversationId: chat.id, content: "Sent while leaving", isUser: true, clientId: crypto.randomUUID() }),
    );
    const [res] = await Promise.all([deleteAccount(mira), sent]);
    expect(res.status).toBe(204);
    expect((await socket.closed()).code).toBe(1008);
    expect([GONE_CLOSE_REASONS.ownerLeft, CLOSE_REASONS.accountDeleted, GONE_CLOSE_REASONS.notFound, CLOSE_REASONS.suspended]).toContain(socket.closeEvent!.reason);
    expect(await countRows("conversations", "id = ?", chat.id)).toBe(0);
    // The room is wiped: it answers nobody, and a new upgrade finds nothing.
    const { conversationRoom } = await import("../lib/conversations.ts");
    expect(await conversationRoom(env, chat.id).listMessages(mira.id)).toBeNull();
  });

  it("writes of theirs racing the deletion: each answered without a 500, and no counter drifts", async () => {
    const mira = await signIn();
    const characterId = await insertCharacter({ name: "Drift" });
    const writes = [
      call(`/api/characters/${characterId}/favorite`, { method: "POST", user: mira }),
      call(`/api/characters/${characterId}/comments`, { method: "POST", user: mira, body: { content: "Racing the end" } }),
      deleteAccount(mira),
      call(`/api/characters/${characterId}/favorite`, { method: "POST", user: mira }),
    ];
    const answers = await Promise.all(writes);
    expect(answers[2]!.status).toBe(204);
    for (const res of answers) expect(res.status, await res.clone().text()).toBeLessThan(500);
    await eventually(async () => (await countRows("users", "id = ?", mira.id)) === 0);
    const counts = (await characterCounts(characterId))!;
    expect({ favorites: counts.favorites, comments: counts.comments }).toEqual(await realCounts(characterId));
    expect(counts.favorites).toBe(0);
  });

  it("a comment whose author's account goes the moment it is stored: answered as written (not a 500), then gone with the account", async () => {
    const mira = await signIn();
    const characterId = await insertCharacter({ name: "Ebb" });
    const db = racedAfterFirstStatement(env.DB, () => deleteAccountNow(env, mira.id));
    const result = await postComment(db, { characterId, userId: mira.id, content: "Racing the end", parentId: null });
    expect(result).toMatchObject({ ok: true, comment: { characterId, userId: mira.id, username: mira.username, content: "Racing the end", votes: 0 } });
    expect(await countRows("comments", "user_id = ?", mira.id)).toBe(0);
    expect((await characterCounts(characterId))!.comments).toBe(0);
    // Once the account is gone, the foreign key refuses the insert (worker/app.ts answers it 404).
    await expect(postComment(env.DB, { characterId, userId: mira.id, content: "Too late", parentId: null })).rejects.toThrow(/FOREIGN KEY constraint failed/);
  });
});

/**
 * `db` as a caller sees it while something else races it: `race` runs once,
 * right after the first statement run through it completes, before the
 * caller's next statement (the interleaving a live race hits only rarely).
 */
function racedAfterFirstStatement(db: D1Database, race: () => Promise<unknown>): D1Database {
  let raced = false;
  const thenRace = async <T>(result: T): Promise<T> => {
    if (!raced) {
      raced = true;
      await race();
    }
    return result;
  };
  const statement = (prepared: D1PreparedStatement): D1PreparedStatement =>
    new Proxy(prepared, {
      get(target, key) {
        const value: unknown = Reflect.get(target, key);
        if (key === "bind") return (...values: unknown[]) => statement(target.bind(...values));
        if (typeof value !== "function") return value;
        if (key === "first" || key === "run" || key === "all" || key === "raw") {
          return async (...args: unknown[]) => thenRace(await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args));
        }
        return value.bind(target);
      },
    });
  return new Proxy(db, {
    get(target, key) {
      if (key === "prepare") return (sql: string) => statement(target.prepare(sql));
      const value: unknown = Reflect.get(target, key);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
