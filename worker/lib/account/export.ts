/**
 * The data export (`GET /api/profile/export`, DESIGN.md turn 4 "Your
 * account, your data"; docs/decisions/0029-your-account-your-data.md): one
 * zip of everything the person made or chose, in formats other apps read.
 *
 * Layout (README.txt inside says the same to the person):
 * - `profile.json`: the account (names, username, e-mail, picture, bio,
 *   content settings, hidden tags, when it was created);
 * - `characters/<id>-<name>.charx`: each character of theirs as CharX
 *   (worker/lib/cards/charx.ts: `card.json`, Card V3, its avatar inside
 *   when it is an upload of theirs, and every asset: expressions,
 *   backgrounds, what else its card carried);
 * - `lorebooks/<id>-<name>.json`: each character's lorebook
 *   (`character_book`) as SillyTavern World Info (world-info.ts), and
 *   `lorebooks/<name>-<id>.json` each standalone lorebook of theirs
 *   (schema/lorebook/book.ts worldInfoOf);
 * - `chats/<date>-<title>.jsonl`: each chat they own or joined, as
 *   SillyTavern chat JSONL (worker/lib/sillytavern-chat.ts), as the chat's
 *   own export gives it (its pictures as lines with their full URL);
 * - `comments.json`, `comment-votes.json`, `favorites.json`,
 *   `follows.json`, `personas.json`, `model-connections.json` (without
 *   keys or key hints), `sessions.json` (devices, without tokens or ids),
 *   `memories.json` (pinned memories, both scopes), `blocks.json` (whom
 *   they blocked; never who blocked them), `shares.json` (the share links
 *   of their chats: the links, not the snapshots, which are their chats).
 * No secret is ever written: model keys (nor their encrypted form or last
 * four characters), push keys, session tokens or their hashes, the
 * identity provider's subject.
 *
 * It streams: fflate's streaming `Zip` writes each file as it is made, one
 * character and one chat at a time, into a TransformStream whose
 * backpressure the writer waits on, so a large account never sits in
 * memory as a whole (at most one character's CharX or one chat).
 *
 * At most one export a minute per person (EXPORT_INTERVAL_MS), exactly: one
 * conditional write of `users.last_export_at` claims the minute, so two
 * racing requests cannot both win.
 */
import { Zip, ZipDeflate, ZipPassThrough } from "fflate";
import { EXPORT_INTERVAL_MS } from "../../../schema/account.ts";
import type { Character } from "../../../schema/api.ts";
import { writeCard } from "../card-export.ts";
import { charxAssetsOf } from "../cards/assets.ts";
import { writeCharx } from "../cards/charx.ts";
import { getCharacter } from "../catalog.ts";
import { conversationTitle } from "../../../schema/chat.ts";
import { findOwnConversationPersona, moderatedRoom, roomPerson } from "../conversations.ts";
import { ApiError } from "../errors.ts";
import type { SessionUser } from "../sessions.ts";
import { writeSillyTavernJsonl } from "../sillytavern-chat.ts";
import { worldInfoOfCharacterBook } from "./world-info.ts";
import { worldInfoOf } from "../../../schema/lorebook/book.ts";
import { findOwnLorebook } from "../lorebooks.ts";

/**
 * Claims this minute's export for `userId` at `now` (ms).
 *
 * @throws ApiError 429 `rate_limited` with `Retry-After` (whole seconds until the minute has passed) when they exported less than EXPORT_INTERVAL_MS ago.
 */
export async function claimExport(db: D1Database, userId: string, now = Date.now()): Promise<void> {
  const claimed = await db
    .prepare("UPDATE users SET last_export_at = ?2 WHERE id = ?1 AND (last_export_at IS NULL OR last_export_at <= ?2 - ?3) RETURNING id")
    .bind(userId, now, EXPORT_INTERVAL_MS)
    .first();
  if (claimed) return;
  const last = await db.prepare("SELECT last_export_at AS at FROM users WHERE id = ?").bind(userId).first<number | null>("at");
  const retryAfter = Math.max(1, Math.ceil(((last ?? now) + EXPORT_INTERVAL_MS - now) / 1000));
  throw new ApiError("rate_limited", `You downloaded your data a moment ago. You can download it again in ${retryAfter} seconds.`, { retryAfter });
}

/** A file name part from free text: letters, digits, "-" and "_" only, at most 60 characters. */
function slug(text: string): string {
  return (
    text
      .normalize("NFKD")
      .replace(/\p{M}/gu, "")
      .replace(/[^\w-]+/g, "_")
      .replace(/^_+|_+$/g, "")
      .slice(0, 60) || "untitled"
  );
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

const README = `Your data from Fabled

profile.json            your account: names, username, e-mail, picture, bio and settings
characters/*.charx      your characters as CharX (Character Card V3 in a zip, with the avatar
                        when you uploaded it, expressions and backgrounds); SillyTavern,
                        RisuAI and Fabled import them
lorebooks/*.json        each character's lorebook and each of your lorebooks as SillyTavern World Info
chats/*.jsonl           every chat you own or joined, as SillyTavern chat files
comments.json           your comments; comment-votes.json: your votes on comments
favorites.json          the characters you favorited; follows.json: the creators you follow
personas.json           your personas; model-connections.json: your model connections
                        (API keys are never exported: add them again where you import)
sessions.json           the devices signed in to your account
memories.json           your pinned memories; blocks.json: the people you blocked
shares.json             the share links of your chats (/s/...), with what each holds
`;


/** The zip being written: files go in one after another, each awaited against the reader's pace. */
class ZipWriter {
  private readonly zip: Zip;
  private readonly writer: WritableStreamDefaultWriter<Uint8Array>;
  private failed: unknown = null;
  private readonly names = new Set<string>();

  constructor(writable: WritableStream<Uint8Array>) {
    this.writer = writable.getWriter();
    this.zip = new Zip((error, chunk, final) => {
      if (error) {
        this.failed = error;
        return;
      }
      // Backpressure: `add` waits on `writer.ready` before the next file.
      this.writer.write(chunk).catch((err: unknown) => (this.failed = err));
      if (final) this.writer.close().catch(() => {});
    });
  }

  /** A name not used yet in the archive ("a.json", then "a-2.json"…). */
  private unique(path: string): string {
    let name = path;
    for (let n = 2; this.names.has(name); n++) name = path.replace(/(\.[^./]+)?$/, (ext) => `-${n}${ext}`);
    this.names.add(name);
    return name;
  }

  /** Adds one file; `stored`: already compressed (no deflate). Throws when the reader went away. */
  async add(path: string, data: Uint8Array | string, stored = false): Promise<void> {
    if (this.failed) throw this.failed;
    await this.writer.ready;
    const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
    const file = stored ? new ZipPassThrough(this.unique(path)) : new ZipDeflate(this.unique(path), { level: 6 });
    this.zip.add(file);
    file.push(bytes, true);
  }

  async json(path: string, value: unknown): Promise<void> {
    await this.add(path, `${JSON.stringify(value, null, 2)}\n`);
  }

  end(): void {
    this.zip.end();
  }

  abort(error: unknown): void {
    this.zip.terminate();
    this.writer.abort(error).catch(() => {});
  }
}

/**
 * The export of `user` as a stream of zip bytes; files are read from D1,
 * the rooms and R2 while the stream is read. `origin` makes relative
 * picture URLs absolute. A failure midway aborts the stream (the download
 * fails rather than ending with a truncated archive that looks whole).
 */
export function exportAccount(env: Env, user: SessionUser, origin: string, waitUntil: (promise: Promise<unknown>) => void): ReadableStream<Uint8Array> {
  // A high-water mark of a few chunks: the zip is written as fast as it is read, no faster.
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>(undefined, { highWaterMark: 4 }, { highWaterMark: 4 });
  const zip = new ZipWriter(writable);
  waitUntil(
    writeExport(env, user, origin, zip).then(
      () => zip.end(),
      (error: unknown) => {
        console.warn("data export failed midway", String(error));
        zip.abort(error);
      },
    ),
  );
  return readable;
}

async function writeExport(env: Env, user: SessionUser, origin: string, zip: ZipWriter): Promise<void> {
  const db = env.DB;
  const now = Date.now();
  await zip.add("README.txt", README);
  const profile = await db
    .prepare(
      `SELECT id, username, name, first_name AS firstName, last_name AS lastName, email, profile_image_url AS profileImageUrl,
         bio, show_nsfw AS showNsfw, adult_confirmed_at AS adultConfirmedAt, hidden_tags AS hiddenTags, created_at AS createdAt
       FROM users WHERE id = ?`,
    )
    .bind(user.id)
    .first<Record<string, unknown>>();
  if (!profile) throw new Error("the account is gone");
  await zip.json("profile.json", {
    ...profile,
    showNsfw: Boolean(profile.showNsfw),
    adultConfirmedAt: iso(profile.adultConfirmedAt as number | null),
    hiddenTags: JSON.parse(String(profile.hiddenTags ?? "[]")),
    createdAt: iso(profile.createdAt as number),
    exportedAt: iso(now),
  });

  // Characters one at a time: a CharX holds the avatar's bytes.
  const { results: characterIds } = await db
    .prepare("SELECT id FROM characters WHERE creator_id = ? ORDER BY created_at, id")
    .bind(user.id)
    .all<{ id: number }>();
  for (const { id } of characterIds) {
    const character = await getCharacter(db, id);
    if (!character) continue; // deleted meanwhile
    const name = `${character.id}-${slug(character.name)}`;
    await zip.add(`characters/${name}.charx`, writeCharx(writeCard(character).v3, await charxAssetsOf(env.AVATARS, character, origin)), true);
    if (character.characterBook) await zip.json(`lorebooks/${name}.json`, worldInfoOfCharacterBook(character.characterBook));
  }

  // Standalone lorebooks one at a time (a character's own is its character_book, above).
  const { results: lorebookIds } = await db
    .prepare("SELECT id FROM lorebooks WHERE owner_id = ? AND character_id IS NULL ORDER BY created_at, id")
    .bind(user.id)
    .all<{ id: string }>();
  for (const { id } of lorebookIds) {
    const book = await findOwnLorebook(db, id, user.id).catch(() => null);
    if (!book) continue; // deleted meanwhile
    await zip.json(`lorebooks/${slug(book.name)}-${book.id.slice(0, 8)}.json`, worldInfoOf(book));
  }

  // Chats one at a time, each read from its room as the chat's own export reads it.
  const { results: chats } = await db
    .prepare(
      `SELECT v.id, v.title, v.created_at AS createdAt, c.name AS characterName FROM conversations v JOIN characters c ON c.id = v.character_id
       WHERE v.user_id = ?1 OR v.id IN (SELECT conversation_id FROM conversation_members WHERE user_id = ?1)
       ORDER BY v.created_at, v.id`,
    )
    .bind(user.id)
    .all<{ id: string; title: string | null; createdAt: number; characterName: string }>();
  for (const chat of chats) {
    const own = await findOwnConversationPersona(db, chat.id, user.id);
    if (!own) continue; // deleted or left meanwhile
    const room = await moderatedRoom(env, chat.id, own);
    const messages = await room.listMessages(user.id, own.role === "member");
    if (!messages) continue;
    const { results: cast } = await db
      .prepare(
        `SELECT c.id, c.name FROM characters c WHERE c.id IN (SELECT value FROM json_each(?))`,
      )
      .bind(JSON.stringify([...new Set(messages.flatMap((m) => (m.characterId != null ? [m.characterId] : [])))]))
      .all<{ id: number; name: string }>();
    const jsonl = writeSillyTavernJsonl({
      userName: roomPerson(user, own.persona).userName,
      characterName: chat.characterName,
      createdAt: new Date(chat.createdAt).toISOString(),
      messages,
      speakerNames: new Map(cast.map((row) => [Number(row.id), row.name])),
      origin,
    });
    const date = new Date(chat.createdAt).toISOString().slice(0, 10);
    await zip.add(`chats/${date}-${slug(chat.title ?? conversationTitle(chat.characterName))}.jsonl`, jsonl);
  }

  const all = async <T>(sql: string): Promise<T[]> => (await db.prepare(sql).bind(user.id).all<T>()).results;
  await zip.json(
    "comments.json",
    (
      await all<{ createdAt: number }>(
        `SELECT m.id, m.character_id AS characterId, c.name AS characterName, m.parent_id AS parentId, m.content, m.votes, m.created_at AS createdAt
         FROM comments m JOIN characters c ON c.id = m.character_id WHERE m.user_id = ? ORDER BY m.created_at, m.id`,
      )
    ).map((row) => ({ ...row, createdAt: iso(row.createdAt) })),
  );
  await zip.json("comment-votes.json", await all("SELECT comment_id AS commentId, value FROM comment_votes WHERE user_id = ? ORDER BY id"));
  await zip.json(
    "favorites.json",
    (
      await all<{ createdAt: number }>(
        `SELECT f.character_id AS characterId, c.name, f.created_at AS createdAt FROM favorites f JOIN characters c ON c.id = f.character_id
         WHERE f.user_id = ? ORDER BY f.created_at, f.id`,
      )
    ).map((row) => ({ ...row, createdAt: iso(row.createdAt) })),
  );
  await zip.json("follows.json", {
    following: (
      await all<{ since: number }>(
        `SELECT u.username, f.created_at AS since FROM follows f JOIN users u ON u.id = f.followee_id WHERE f.follower_id = ? ORDER BY f.created_at`,
      )
    ).map((row) => ({ ...row, since: iso(row.since) })),
  });
  await zip.json(
    "personas.json",
    (
      await all<{ isDefault: number; createdAt: number; updatedAt: number }>(
        `SELECT id, name, description, avatar_url AS avatarUrl, is_default AS isDefault, created_at AS createdAt, updated_at AS updatedAt
         FROM personas WHERE user_id = ? ORDER BY created_at`,
      )
    ).map((row) => ({ ...row, isDefault: Boolean(row.isDefault), createdAt: iso(row.createdAt), updatedAt: iso(row.updatedAt) })),
  );
  // Never the key, its encrypted form or its last four characters.
  await zip.json(
    "model-connections.json",
    (
      await all<{ settings: string; isDefault: number; createdAt: number }>(
        `SELECT id, name, kind, base_url AS baseUrl, model, settings, is_default AS isDefault, created_at AS createdAt
         FROM model_connections WHERE user_id = ? ORDER BY created_at`,
      )
    ).map((row) => ({ ...row, settings: JSON.parse(row.settings), isDefault: Boolean(row.isDefault), createdAt: iso(row.createdAt) })),
  );
  await zip.json(
    "memories.json",
    (
      await all<{ createdAt: number; updatedAt: number }>(
        `SELECT m.id, m.scope, m.text, m.conversation_id AS conversationId, m.character_id AS characterId, c.name AS characterName,
           m.message_id AS messageId, m.created_at AS createdAt, m.updated_at AS updatedAt
         FROM memories m LEFT JOIN characters c ON c.id = m.character_id WHERE m.user_id = ? ORDER BY m.created_at, m.id`,
      )
    ).map((row) => ({ ...row, createdAt: iso(row.createdAt), updatedAt: iso(row.updatedAt) })),
  );
  await zip.json(
    "shares.json",
    (
      await all<{ createdAt: number; token: string }>(
        `SELECT token, conversation_id AS conversationId, title, message_count AS messageCount, created_at AS createdAt
         FROM shares WHERE user_id = ? ORDER BY created_at, token`,
      )
    ).map((row) => ({ ...row, url: `/s/${row.token}`, createdAt: iso(row.createdAt) })),
  );
  // Only whom they blocked: who blocked them is never told (docs/decisions/0030-blocking.md).
  await zip.json(
    "blocks.json",
    (
      await all<{ blockedAt: number }>(
        "SELECT u.username, b.created_at AS blockedAt FROM blocks b JOIN users u ON u.id = b.blocked_id WHERE b.blocker_id = ? ORDER BY b.created_at",
      )
    ).map((row) => ({ ...row, blockedAt: iso(row.blockedAt) })),
  );
  await zip.json(
    "sessions.json",
    (
      await all<{ createdAt: number | null; lastSeenAt: number | null }>(
        "SELECT created_at AS createdAt, last_seen_at AS lastSeenAt, user_agent AS userAgent FROM sessions WHERE user_id = ? ORDER BY created_at",
      )
    ).map((row) => ({ ...row, createdAt: iso(row.createdAt), lastSeenAt: iso(row.lastSeenAt) })),
  );
}
