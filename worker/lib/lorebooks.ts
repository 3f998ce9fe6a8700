/**
 * Lorebooks in D1 (DESIGN.md turn 4 "Lorebooks"; tables in schema/db-chat.ts,
 * docs/decisions/0034): a person's books, a character's own book (its card
 * `character_book`, kept in step with `characters.character_book` both ways),
 * and the books attached to characters and chats.
 *
 * Every read by id is the owner's: another person's book answers 404, as if
 * it did not exist.
 */
import type { LorebookSettings } from "../../schema/lorebook/activation.ts";
import {
  characterBookOf,
  contentOfCharacterBook,
  LOREBOOK_LIMITS,
  type LorebookEntry,
  type LorebookRecord,
  type LorebookSummary,
} from "../../schema/lorebook/book.ts";
import type { LorebookInput } from "../../schema/inputs.ts";
import { ApiError, notFound } from "./errors.ts";

export const LOREBOOK_NOT_FOUND = "Lorebook not found";

interface Row {
  id: string;
  ownerId: string;
  characterId: number | null;
  name: string;
  description: string;
  settings: string;
  entries: string;
  extensions: string;
  createdAt: number;
  updatedAt: number;
}

const COLUMNS = `id, owner_id AS ownerId, character_id AS characterId, name, description, settings, entries, extensions,
  created_at AS createdAt, updated_at AS updatedAt`;

function parse<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** A stored book with its owner and kept top-level fields (for export and the card). */
export interface StoredLorebook extends LorebookRecord {
  ownerId: string;
  extensions: Record<string, unknown>;
}

function toBook(row: Row): StoredLorebook {
  return {
    id: row.id,
    ownerId: row.ownerId,
    characterId: row.characterId,
    name: row.name,
    description: row.description,
    settings: parse<LorebookSettings>(row.settings, {}),
    entries: parse<LorebookEntry[]>(row.entries, []),
    extensions: parse<Record<string, unknown>>(row.extensions, {}),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** The shape `GET /api/lorebooks/{id}` answers with. */
export function publicBook(book: StoredLorebook): LorebookRecord {
  const { ownerId: _owner, extensions: _extensions, ...rest } = book;
  return rest;
}

/**
 * Entries as stored: each given an id when it has none (the next free
 * whole number, as SillyTavern's uids), every field as validated.
 */
export function withIds(entries: readonly (Omit<LorebookEntry, "id"> & { id?: string })[]): LorebookEntry[] {
  let next = 0;
  for (const entry of entries) if (entry.id && /^\d+$/.test(entry.id)) next = Math.max(next, Number(entry.id) + 1);
  return entries.map((entry) => ({ ...entry, id: entry.id ?? String(next++) }) as LorebookEntry);
}

/** The book `id` if `userId` owns it; 404 otherwise (another person's book is not said to exist). */
export async function findOwnLorebook(db: D1Database, id: string, userId: string): Promise<StoredLorebook> {
  const row = id.length <= 64 ? await db.prepare(`SELECT ${COLUMNS} FROM lorebooks WHERE id = ? AND owner_id = ?`).bind(id, userId).first<Row>() : null;
  if (!row) throw notFound(LOREBOOK_NOT_FOUND);
  return toBook(row);
}

/** `GET /api/lorebooks`: the person's books, most recently changed first, without their entries. */
export async function listLorebooks(db: D1Database, userId: string): Promise<LorebookSummary[]> {
  const { results } = await db
    .prepare(
      `SELECT id, name, description, json_array_length(entries) AS entryCount, character_id AS characterId, updated_at AS updatedAt
       FROM lorebooks WHERE owner_id = ? ORDER BY updated_at DESC, id`,
    )
    .bind(userId)
    .all<LorebookSummary>();
  return results;
}

/** Throws 409 when the person already keeps LOREBOOK_LIMITS.books books. */
async function assertRoom(db: D1Database, userId: string): Promise<void> {
  const row = await db.prepare("SELECT count(*) AS n FROM lorebooks WHERE owner_id = ?").bind(userId).first<{ n: number }>();
  if ((row?.n ?? 0) >= LOREBOOK_LIMITS.books) {
    throw new ApiError("conflict", `You can keep at most ${LOREBOOK_LIMITS.books} lorebooks. Delete one to make room.`);
  }
}

/** Creates a standalone book of `userId` (409 past the limit) and returns it. */
export async function createLorebook(db: D1Database, userId: string, content: LorebookInput & { extensions?: Record<string, unknown> }): Promise<StoredLorebook> {
  await assertRoom(db, userId);
  const id = crypto.randomUUID();
  const extensions = content.extensions ?? {};
  const row = await db
    .prepare(
      `INSERT INTO lorebooks (id, owner_id, name, description, settings, entries, extensions) VALUES (?, ?, ?, ?, ?, ?, ?)
       RETURNING ${COLUMNS}`,
    )
    .bind(id, userId, content.name, content.description, JSON.stringify(content.settings), JSON.stringify(withIds(content.entries)), JSON.stringify(extensions))
    .first<Row>();
  return toBook(row!);
}

/**
 * Replaces book `current`'s name, description, entries and settings. A
 * character's own book writes its card `character_book` in the same batch
 * (fields of the card this site does not read kept: characterBookOf).
 */
export async function updateLorebook(db: D1Database, current: StoredLorebook, input: LorebookInput): Promise<StoredLorebook> {
  const entries = withIds(input.entries);
  const statements = [
    db
      .prepare(
        `UPDATE lorebooks SET name = ?, description = ?, settings = ?, entries = ?, updated_at = cast(unixepoch('subsec') * 1000 as integer)
         WHERE id = ? RETURNING ${COLUMNS}`,
      )
      .bind(input.name, input.description, JSON.stringify(input.settings), JSON.stringify(entries), current.id),
  ];
  if (current.characterId !== null) {
    const previous = await db.prepare("SELECT character_book AS book FROM characters WHERE id = ?").bind(current.characterId).first<{ book: string | null }>();
    const card = characterBookOf({ ...input, entries, extensions: current.extensions }, previous?.book ? parse<Record<string, unknown> | null>(previous.book, null) : null);
    statements.push(
      db
        .prepare("UPDATE characters SET character_book = ?, updated_at = cast(unixepoch('subsec') * 1000 as integer) WHERE id = ?")
        .bind(JSON.stringify(card), current.characterId),
    );
  }
  const [result] = await db.batch<Row>(statements);
  return toBook(result!.results[0]!);
}

/** Deletes a book; its attachments go with it (foreign keys). A character's own book also empties the card's `character_book`. */
export async function deleteLorebook(db: D1Database, book: StoredLorebook): Promise<void> {
  const statements = [db.prepare("DELETE FROM lorebooks WHERE id = ?").bind(book.id)];
  if (book.characterId !== null) statements.push(db.prepare("UPDATE characters SET character_book = NULL WHERE id = ?").bind(book.characterId));
  await db.batch(statements);
}

/**
 * The statements that make character `characterId`'s own book match its
 * card `character_book` (`book`; null deletes it), owned by its creator.
 * Run in the character's own write (worker/lib/characters.ts). A card book
 * past LOREBOOK_LIMITS is kept whole all the same: the card's limit
 * (CHARACTER_LIMITS.characterBook) already bounds it.
 */
export function ownBookStatements(db: D1Database, characterId: number, creatorId: string, book: Record<string, unknown> | null, characterName: string): D1PreparedStatement[] {
  if (!book) return [db.prepare("DELETE FROM lorebooks WHERE character_id = ?").bind(characterId)];
  const content = contentOfCharacterBook(book, `${characterName}'s lorebook`.slice(0, LOREBOOK_LIMITS.name));
  return [
    db
      .prepare(
        `INSERT INTO lorebooks (id, owner_id, character_id, name, description, settings, entries, extensions)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (character_id) DO UPDATE SET name = excluded.name, description = excluded.description, settings = excluded.settings,
           entries = excluded.entries, extensions = excluded.extensions, updated_at = cast(unixepoch('subsec') * 1000 as integer)`,
      )
      .bind(
        crypto.randomUUID(),
        creatorId,
        characterId,
        content.name,
        content.description,
        JSON.stringify(content.settings),
        JSON.stringify(withIds(content.entries)),
        JSON.stringify(content.extensions),
      ),
  ];
}

/**
 * Checks that every id of `lorebookIds` is a standalone book of `userId`
 * (400 naming the first that is not: another person's book is not said to
 * exist, and a character's own book belongs to that character alone).
 */
async function assertOwnStandalone(db: D1Database, userId: string, lorebookIds: readonly string[]): Promise<void> {
  if (lorebookIds.length === 0) return;
  const { results } = await db
    .prepare("SELECT id FROM lorebooks WHERE owner_id = ? AND character_id IS NULL AND id IN (SELECT value FROM json_each(?))")
    .bind(userId, JSON.stringify(lorebookIds))
    .all<{ id: string }>();
  const own = new Set(results.map((row) => row.id));
  const index = lorebookIds.findIndex((id) => !own.has(id));
  if (index >= 0) {
    throw new ApiError("validation_failed", "That lorebook is not one of yours", {
      issues: [{ path: `lorebookIds.${index}`, message: "No lorebook of yours has this id" }],
    });
  }
}

/** `PUT /api/characters/{id}/lorebooks`: replaces the standalone books attached to character `characterId` (its creator's). */
export async function attachToCharacter(db: D1Database, characterId: number, userId: string, lorebookIds: readonly string[]): Promise<void> {
  await assertOwnStandalone(db, userId, lorebookIds);
  await db.batch([
    db.prepare("DELETE FROM character_lorebooks WHERE character_id = ?").bind(characterId),
    ...lorebookIds.map((id, position) =>
      db.prepare("INSERT INTO character_lorebooks (character_id, lorebook_id, position) VALUES (?, ?, ?)").bind(characterId, id, position),
    ),
  ]);
}

/** `PATCH /api/conversations/{id}` `{lorebookIds}`: replaces the books attached to the chat (its owner's). */
export async function attachToConversation(db: D1Database, conversationId: string, userId: string, lorebookIds: readonly string[]): Promise<void> {
  await assertOwnStandalone(db, userId, lorebookIds);
  await db.batch([
    db.prepare("DELETE FROM conversation_lorebooks WHERE conversation_id = ?").bind(conversationId),
    ...lorebookIds.map((id, position) =>
      db.prepare("INSERT INTO conversation_lorebooks (conversation_id, lorebook_id, position) VALUES (?, ?, ?)").bind(conversationId, id, position),
    ),
  ]);
}

/**
 * "Branch from here": the books attached to chat `fromId` that are
 * `userId`'s own go with the branch `toId`, in their order (SillyTavern's
 * chat lorebook lives in the chat's metadata, which a branch copies); a
 * member of a shared room branching takes none of the owner's. The ids
 * attached, in order.
 */
export async function copyConversationLorebooks(db: D1Database, fromId: string, toId: string, userId: string): Promise<string[]> {
  const { results } = await db
    .prepare(
      `INSERT INTO conversation_lorebooks (conversation_id, lorebook_id, position)
       SELECT ?1, cl.lorebook_id, cl.position FROM conversation_lorebooks cl JOIN lorebooks l ON l.id = cl.lorebook_id
       WHERE cl.conversation_id = ?2 AND l.owner_id = ?3
       RETURNING lorebook_id AS id, position`,
    )
    .bind(toId, fromId, userId)
    .all<{ id: string; position: number }>();
  return results.sort((a, b) => a.position - b.position).map((row) => row.id);
}

/** The standalone books attached to character `characterId`, in order. */
export async function characterLorebookIds(db: D1Database, characterId: number): Promise<string[]> {
  const { results } = await db
    .prepare("SELECT lorebook_id AS id FROM character_lorebooks WHERE character_id = ? ORDER BY position")
    .bind(characterId)
    .all<{ id: string }>();
  return results.map((row) => row.id);
}

/** The books attached to conversation `conversationId`, in order. */
export async function conversationLorebookIds(db: D1Database, conversationId: string): Promise<string[]> {
  const { results } = await db
    .prepare("SELECT lorebook_id AS id FROM conversation_lorebooks WHERE conversation_id = ? ORDER BY position")
    .bind(conversationId)
    .all<{ id: string }>();
  return results.map((row) => row.id);
}
