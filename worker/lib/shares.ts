/**
 * Share links of chats (DESIGN.md "Sharing and forks"; docs/decisions/0036):
 * taking a snapshot of a chat's visible history into D1 (`shares`,
 * `share_messages`), reading it back for anyone with the link, listing and
 * revoking a chat's links, and seeding a reader's new chat from one.
 *
 * What a snapshot holds, from the room's own reading of the chat (the
 * messages `GET /api/conversations/{id}/messages` answers its owner: the
 * current branch, an operator's removals already applied):
 * - hidden messages ("hide from context") are left out;
 * - each reply as the version that was shown (the chosen swipe);
 * - each person's message under the name they wrote under (their persona's,
 *   else their first name) — but never a name that is their username,
 *   unless one of their personas is called so: that becomes "User";
 * - each reply under its speaker's name (a former member's as D1 has it);
 * - each picture imagined in the chat as the version shown, its file copied
 *   to one the share owns (worker/lib/share-pictures.ts), under the name of
 *   the character whose scene it is, as the chat shows it.
 */
import type { ChatMessage } from "../../schema/chat.ts";
import type { SeedMessage, SeedPicture } from "../../durable-objects/room-protocol.ts";
import {
  MAX_SHARE_MESSAGES,
  MAX_SHARE_PICTURES,
  MAX_SHARES_PER_CHAT,
  SHARE_TOKEN_PATTERN,
  shareUrl,
  type CreatedShare,
  type SharedCharacter,
  type SharedChat,
  type SharedMessage,
  type ShareLink,
} from "../../schema/shares.ts";
import { ApiError, notFound } from "./errors.ts";
import { sharePictureKey, sharePictureUrl } from "./share-pictures.ts";

/** The name shown for a person whose only name is their username. */
export const UNNAMED_PERSON = "User";

/** Most bytes of message JSON bound to one insert statement (D1 binds a value of at most 2 MB). */
const INSERT_CHUNK_BYTES = 900_000;

export const SHARE_NOT_FOUND = "This share link does not exist or was removed";

/** A new share token: 16 random bytes, base64url without padding (22 characters). */
export function newShareToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * A message of a snapshot being taken: a person's writer (`authorId`), and
 * for a picture the room's message id and the served path of the version
 * shown (`sourceUrl`, `/objects/pictures/…`), which sharing copies; its
 * `position` in the share once placed (a picture left out leaves a gap).
 */
export type SnapshotMessage = SharedMessage & { authorId: string | null; messageId?: string; sourceUrl?: string; position?: number };

/** What the Worker knows of the chat being shared. */
export interface ShareSource {
  conversationId: string;
  ownerId: string;
  title: string;
  /** The cast now, in member order. */
  characters: SharedCharacter[];
  /** The owner's name in this chat (their persona's, else first name or name; never their username). */
  sharedBy: string;
  isNsfw: boolean;
}

/**
 * The messages of a snapshot from the room's reading of the chat `messages`
 * (oldest first): up to `upToMessageId` included when given, hidden ones
 * left out, pictures as the version shown (their `imageUrl` still the
 * chat's: `sourceUrl`), and the id of the last one. `names` gives each
 * speaker's name; `personName(authorId, name)` the shown name of a person's
 * message. Throws 404 when `upToMessageId` is not a visible message of the
 * chat, 400 when nothing is left to share or more than MAX_SHARE_MESSAGES
 * messages or MAX_SHARE_PICTURES pictures would be.
 */
export function snapshotMessages(
  messages: readonly ChatMessage[],
  upToMessageId: string | undefined,
  names: ReadonlyMap<number, string>,
  personName: (authorId: string | undefined, name: string | undefined) => string,
): { messages: SnapshotMessage[]; lastMessageId: string } {
  let upTo = messages.length;
  if (upToMessageId !== undefined) {
    const index = messages.findIndex((message) => message.id === upToMessageId);
    if (index < 0 || messages[index]!.hidden) throw notFound("Message not found");
    upTo = index + 1;
  }
  const shown = messages.slice(0, upTo).filter((message) => !message.hidden && message.status !== "streaming" && (message.kind !== "image" || message.imageUrl));
  if (shown.length === 0) throw new ApiError("validation_failed", "There is nothing to share yet: write a message first.");
  if (shown.length > MAX_SHARE_MESSAGES) {
    throw new ApiError(
      "validation_failed",
      `A share holds at most ${MAX_SHARE_MESSAGES.toLocaleString("en-US")} messages: share the chat up to an earlier message.`,
    );
  }
  const pictures = shown.filter((message) => message.kind === "image").length;
  if (pictures > MAX_SHARE_PICTURES) {
    throw new ApiError("validation_failed", `A share holds at most ${MAX_SHARE_PICTURES} pictures: share the chat up to an earlier message.`);
  }
  const snapshot = shown.map((message): SnapshotMessage => {
    if (message.kind === "image") {
      // A picture is the scene of the character it was drawn for, as the chat shows it; the person who asked stays out.
      return {
        role: "character",
        content: "",
        characterId: message.characterId ?? null,
        authorName: names.get(message.characterId ?? -1) ?? "Character",
        authorId: null,
        createdAt: message.createdAt,
        kind: "image",
        prompt: message.prompt ?? "",
        width: message.width ?? 0,
        height: message.height ?? 0,
        messageId: message.id,
        sourceUrl: message.imageUrl!,
      };
    }
    return {
      role: message.isUser ? "user" : "character",
      // `content` is the version shown (schema/chat.ts ChatMessage.swipeIndex).
      content: message.content,
      characterId: message.isUser ? null : (message.characterId ?? null),
      authorName: message.isUser ? personName(message.authorId, message.authorName) : (names.get(message.characterId ?? -1) ?? "Character"),
      authorId: message.isUser ? (message.authorId ?? null) : null,
      createdAt: message.createdAt,
    };
  });
  return { messages: snapshot, lastMessageId: shown[shown.length - 1]!.id };
}

/**
 * `personName` for snapshotMessages: a person's shown name, unless it is
 * their username (with or without "@", any case) and none of their personas
 * is called so — then UNNAMED_PERSON. `fallback` names a message without a
 * name of its own (the owner's). One query for all the writers.
 */
export async function personNamer(
  db: D1Database,
  authorIds: readonly string[],
  fallback: string,
): Promise<(authorId: string | undefined, name: string | undefined) => string> {
  const ids = [...new Set(authorIds)];
  const { results } = ids.length
    ? await db
        .prepare(
          `SELECT u.id, lower(ltrim(u.username, '@')) AS handle,
             (SELECT json_group_array(lower(trim(p.name))) FROM personas p WHERE p.user_id = u.id) AS personas
           FROM users u WHERE u.id IN (SELECT value FROM json_each(?))`,
        )
        .bind(JSON.stringify(ids))
        .all<{ id: string; handle: string; personas: string }>()
    : { results: [] };
  const people = new Map(results.map((row) => [row.id, { handle: row.handle, personas: new Set(JSON.parse(row.personas) as string[]) }]));
  return (authorId, name) => {
    const shown = name?.trim() || fallback;
    const person = authorId ? people.get(authorId) : undefined;
    const lower = shown.toLowerCase().replace(/^@/, "");
    if (person && lower === person.handle && !person.personas.has(shown.toLowerCase())) return UNNAMED_PERSON;
    return shown;
  };
}

/**
 * Stores a snapshot as share `token` (newShareToken; its pictures already
 * copied to `shares/{token}/{position}`) of `source` and returns its link.
 * Everything in one D1 batch (one transaction): the header and the messages,
 * inserted from JSON in chunks of at most INSERT_CHUNK_BYTES, each at its
 * `position` (else its index). Throws 409 `conflict` when the chat already
 * has MAX_SHARES_PER_CHAT links.
 *
 * The cap is held by the insert itself, not by a count read before it:
 * `INSERT … SELECT … WHERE (SELECT count(*) …) < cap` counts and inserts in
 * one statement, and D1 runs statements one at a time, so concurrent shares
 * of one chat can never pass the cap together. The message inserts only
 * take effect when the header went in (`WHERE EXISTS`), so a refused share
 * leaves nothing behind.
 */
export async function createShare(
  db: D1Database,
  source: ShareSource,
  snapshot: { messages: readonly SnapshotMessage[]; lastMessageId: string },
  token = newShareToken(),
  now = Date.now(),
): Promise<CreatedShare> {
  const rows = snapshot.messages.map(({ sourceUrl: _, ...message }, index) => ({
    ...message,
    position: message.position ?? index,
    createdAt: Date.parse(message.createdAt) || now,
  }));
  const chunks: string[] = [];
  let chunk: typeof rows = [];
  let bytes = 0;
  for (const row of rows) {
    const size = row.content.length * 3 + row.authorName.length * 3 + (row.prompt?.length ?? 0) * 3 + 300;
    if (chunk.length > 0 && bytes + size > INSERT_CHUNK_BYTES) {
      chunks.push(JSON.stringify(chunk));
      chunk = [];
      bytes = 0;
    }
    chunk.push(row);
    bytes += size;
  }
  if (chunk.length > 0) chunks.push(JSON.stringify(chunk));
  const [header] = await db.batch([
    db
      .prepare(
        `INSERT INTO shares (token, conversation_id, user_id, title, characters, shared_by, is_nsfw, message_count, last_message_id, created_at)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10
         WHERE (SELECT count(*) FROM shares WHERE conversation_id = ?2) < ?11`,
      )
      .bind(
        token,
        source.conversationId,
        source.ownerId,
        source.title,
        JSON.stringify(source.characters),
        source.sharedBy,
        source.isNsfw ? 1 : 0,
        rows.length,
        snapshot.lastMessageId,
        now,
        MAX_SHARES_PER_CHAT,
      ),
    ...chunks.map((json) =>
      db
        .prepare(
          `INSERT INTO share_messages (share_token, position, role, content, character_id, author_id, author_name, created_at,
             kind, message_id, prompt, width, height)
           SELECT ?1, value ->> '$.position', value ->> '$.role', value ->> '$.content', value ->> '$.characterId',
                  value ->> '$.authorId', value ->> '$.authorName', value ->> '$.createdAt',
                  coalesce(value ->> '$.kind', 'text'), value ->> '$.messageId', value ->> '$.prompt', value ->> '$.width', value ->> '$.height'
           FROM json_each(?2) WHERE EXISTS (SELECT 1 FROM shares WHERE token = ?1)`,
        )
        .bind(token, json),
    ),
  ]);
  if (!header?.meta.changes) {
    throw new ApiError("conflict", `A chat keeps at most ${MAX_SHARES_PER_CHAT} share links. Revoke one to share again.`);
  }
  return { token, url: shareUrl(token) };
}

interface ShareRow {
  token: string;
  conversationId: string;
  userId: string;
  title: string;
  characters: string;
  sharedBy: string;
  isNsfw: number;
  messageCount: number;
  createdAt: number;
}

const SHARE_COLUMNS = `token, conversation_id AS conversationId, user_id AS userId, title, characters, shared_by AS sharedBy,
  is_nsfw AS isNsfw, message_count AS messageCount, created_at AS createdAt`;

/** The header of share `token`, or null (a malformed token included). */
export async function findShare(db: D1Database, token: string): Promise<ShareRow | null> {
  if (!SHARE_TOKEN_PATTERN.test(token)) return null;
  return db.prepare(`SELECT ${SHARE_COLUMNS} FROM shares WHERE token = ?`).bind(token).first<ShareRow>();
}

/** A stored message of a share, with its writer (null once deleted) and, for a picture, its R2 key. */
type StoredShareMessage = SharedMessage & { authorId: string | null; objectKey?: string };

/**
 * The stored messages of share `token`, in order, with each person's writer
 * (null once deleted). A picture the operator removed from its chat
 * (`hidden_messages`) is left out, as its file is (share-pictures.ts).
 */
async function shareMessages(db: D1Database, token: string): Promise<StoredShareMessage[]> {
  const { results } = await db
    .prepare(
      `SELECT m.position, m.role, m.content, m.character_id AS characterId, m.author_id AS authorId, m.author_name AS authorName,
         m.created_at AS createdAt, m.kind, m.prompt, m.width, m.height
       FROM share_messages m JOIN shares s ON s.token = m.share_token
       WHERE m.share_token = ?1
         AND NOT (m.kind = 'image' AND EXISTS (SELECT 1 FROM hidden_messages h WHERE h.conversation_id = s.conversation_id AND h.message_id = m.message_id))
       ORDER BY m.position`,
    )
    .bind(token)
    .all<{
      position: number;
      role: "user" | "character";
      content: string;
      characterId: number | null;
      authorId: string | null;
      authorName: string;
      createdAt: number;
      kind: "text" | "image";
      prompt: string | null;
      width: number | null;
      height: number | null;
    }>();
  return results.map(({ position, kind, prompt, width, height, ...row }) => {
    const message: StoredShareMessage = { ...row, createdAt: new Date(row.createdAt).toISOString() };
    if (kind !== "image") return message;
    return {
      ...message,
      kind,
      imageUrl: sharePictureUrl(token, position),
      prompt: prompt ?? "",
      width: width ?? 0,
      height: height ?? 0,
      objectKey: sharePictureKey(token, position),
    };
  });
}

/**
 * Share `token` as `GET /api/shares/{token}` answers it. An NSFW share
 * without `showNsfw` is withheld (DESIGN.md: it asks the 18+ question first,
 * as the catalog leaves NSFW out until the reader turns it on). Throws 404
 * for a token that names no share.
 */
export async function readShare(db: D1Database, token: string, showNsfw: boolean): Promise<SharedChat> {
  const share = await findShare(db, token);
  if (!share) throw notFound(SHARE_NOT_FOUND);
  const base = { sharedBy: share.sharedBy, createdAt: new Date(share.createdAt).toISOString(), isNsfw: Boolean(share.isNsfw), messageCount: share.messageCount };
  if (share.isNsfw && !showNsfw) return { ...base, title: "", characters: [], messages: [], withheld: true };
  const messages = (await shareMessages(db, token)).map(({ authorId: _, objectKey: __, ...message }) => message);
  return { ...base, title: share.title, characters: JSON.parse(share.characters) as SharedCharacter[], messages, withheld: false };
}

/** The share links of conversation `conversationId`, newest first. */
export async function listShares(db: D1Database, conversationId: string): Promise<ShareLink[]> {
  const { results } = await db
    .prepare(`SELECT ${SHARE_COLUMNS} FROM shares WHERE conversation_id = ? ORDER BY created_at DESC, token`)
    .bind(conversationId)
    .all<ShareRow>();
  return results.map((row) => ({
    token: row.token,
    url: shareUrl(row.token),
    title: row.title,
    messageCount: row.messageCount,
    createdAt: new Date(row.createdAt).toISOString(),
  }));
}

/** The tokens of conversation `conversationId`'s share links (to purge their cached copies when they go with it). */
export async function chatShareTokens(db: D1Database, conversationId: string): Promise<string[]> {
  const { results } = await db.prepare("SELECT token FROM shares WHERE conversation_id = ?").bind(conversationId).all<{ token: string }>();
  return results.map((row) => row.token);
}

/** The tokens of the share links of every chat with character `characterId` in its cast (those that may go with it). */
export async function characterShareTokens(db: D1Database, characterId: number): Promise<string[]> {
  const { results } = await db
    .prepare("SELECT token FROM shares WHERE conversation_id IN (SELECT conversation_id FROM conversation_characters WHERE character_id = ?)")
    .bind(characterId)
    .all<{ token: string }>();
  return results.map((row) => row.token);
}

/** Deletes share `token` of conversation `conversationId` (its messages go with it). Throws 404 when it is not one of its links. */
export async function revokeShare(db: D1Database, conversationId: string, token: string): Promise<void> {
  if (!SHARE_TOKEN_PATTERN.test(token)) throw notFound(SHARE_NOT_FOUND);
  const result = await db.prepare("DELETE FROM shares WHERE token = ? AND conversation_id = ?").bind(token, conversationId).run();
  if (result.meta.changes === 0) throw notFound(SHARE_NOT_FOUND);
}

/**
 * The seed of a reader's new chat from share `token` ("Continue this story"):
 * its messages as a branch's are, replies given to the cast member who spoke
 * them when `castIds` (the new chat's cast) holds them (else the first
 * member speaks them). The sharer's own messages become the reader's (they
 * take the person's part, under their own persona); other people's of a
 * shared room keep their names. Its pictures become the reader's own
 * (`readerId` asked for them), each after the message it followed; the new
 * room copies their files from the share's into its own prefix
 * (RoomImages.copyIn), so revoking the share leaves the new chat whole.
 */
export async function shareSeed(
  db: D1Database,
  share: ShareRow,
  castIds: ReadonlySet<number>,
  readerId: string,
): Promise<{ messages: SeedMessage[]; pictures: SeedPicture[] }> {
  const messages: SeedMessage[] = [];
  const pictures: SeedPicture[] = [];
  for (const message of await shareMessages(db, share.token)) {
    const characterId = message.characterId !== null && castIds.has(message.characterId) ? message.characterId : undefined;
    if (message.kind === "image") {
      pictures.push({
        afterIndex: messages.length - 1,
        sourceKey: message.objectKey!,
        prompt: message.prompt ?? "",
        // The copy keeps the type its file has; this is the row's note of it (DESIGN.md: PNG or WebP).
        contentType: "image/png",
        width: message.width ?? 0,
        height: message.height ?? 0,
        authorId: readerId,
        authorName: "",
        characterId: characterId ?? null,
        createdAt: Date.parse(message.createdAt),
      });
      continue;
    }
    const seed: SeedMessage = {
      isUser: message.role === "user",
      content: message.content,
      createdAt: Date.parse(message.createdAt),
      alternatives: [],
    };
    if (characterId !== undefined) seed.characterId = characterId;
    if (message.role === "user" && message.authorId !== share.userId) seed.authorName = message.authorName;
    messages.push(seed);
  }
  return { messages, pictures };
}
