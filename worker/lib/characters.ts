/**
 * A creator's own characters on D1: create, update, toggle active, delete,
 * and the "My Characters" list (issue "Creator studio").
 *
 * Every change of a character and its tag links is one `batch()` (one
 * transaction). Tag links copy the character's `is_active`/`is_nsfw` flags
 * when they are inserted (migrations/0001_catalog_search.sql); from then on
 * the triggers keep `tags.count`/`sfw_count`, `catalog_counts` and the FTS5
 * index in step with every insert, update and delete done here. Deleting a
 * character removes its favorites, comments (with their votes), tag links
 * and conversations through foreign-key cascades (migrations/0000_init.sql).
 */
import type { Character, OwnCharacter } from "../../schema/api.ts";
import type { CharacterInput, CharacterUpdate } from "../../schema/inputs.ts";
import { getCharacter, linkTagsStatements } from "./catalog.ts";
import {
  DETAIL_FIELDS,
  type Row,
  SUMMARY_COLUMNS,
  selectList,
  toCharacter,
  toModerationStatus,
  toSummary,
} from "./catalog-rows.ts";
import { withAppearance } from "./card-fields.ts";
import { ApiError, forbidden, notFound } from "./errors.ts";
import { ownBookStatements } from "./lorebooks.ts";
import { isVisibleTo } from "./listable.ts";

/** `creator` by default: the username without its leading "@" (it is shown as "@" + creator). */
export const defaultCreator = (username: string) => username.replace(/^@+/, "");

/**
 * The character `id` if `userId` may change it. Throws 404 "Character not
 * found" when it does not exist, or is someone else's and inactive (its
 * existence is private to its owner); 403 when it is someone else's.
 */
export async function findOwnCharacter(db: D1Database, id: number, userId: string): Promise<Character> {
  const character = await getCharacter(db, id);
  if (!character || !isVisibleTo(character, userId)) throw notFound("Character not found");
  if (character.creatorId !== userId) throw forbidden("Only the character's creator can change it");
  return character;
}

/** A character to create: the validated input plus who made it. */
export interface NewCharacter extends CharacterInput {
  /** Shown as "@" + creator; by default the person's username without its "@". */
  creator: string;
  creatorId: string;
  /** Imported cards start inactive so their creator can review them first. */
  isActive?: boolean;
  /** Card `extensions` plus preserved unknown card fields (worker/lib/character-card.ts). */
  extensions?: Record<string, unknown>;
  /** A fork's original (POST /api/characters/{id}/fork); never set by a person's input. */
  forkedFromId?: number;
}

/** The stored fields; `appearance` is not a column but `extensions.fabled.appearance` (withAppearance). */
type Writable = Omit<NewCharacter, "creatorId" | "appearance">;

/** Wire field → SQL column and how the value is stored. */
const COLUMNS: Record<keyof Writable, { column: string; kind: "text" | "json" | "bool" | "int" }> = {
  name: { column: "name", kind: "text" },
  description: { column: "description", kind: "text" },
  longDescription: { column: "long_description", kind: "text" },
  personality: { column: "personality", kind: "text" },
  scenario: { column: "scenario", kind: "text" },
  exampleConversation: { column: "example_conversation", kind: "text" },
  avatarUrl: { column: "avatar_url", kind: "text" },
  tags: { column: "tags", kind: "json" },
  isNsfw: { column: "is_nsfw", kind: "bool" },
  isActive: { column: "is_active", kind: "bool" },
  allowForks: { column: "allow_forks", kind: "bool" },
  forkedFromId: { column: "forked_from_id", kind: "int" },
  greeting: { column: "greeting", kind: "text" },
  alternateGreetings: { column: "alternate_greetings", kind: "json" },
  systemPrompt: { column: "system_prompt", kind: "text" },
  postHistoryInstructions: { column: "post_history_instructions", kind: "text" },
  creatorNotes: { column: "creator_notes", kind: "text" },
  characterBook: { column: "character_book", kind: "json" },
  voice: { column: "voice", kind: "text" },
  extensions: { column: "extensions", kind: "json" },
  creator: { column: "creator", kind: "text" },
};

/**
 * Largest stored character, bytes of UTF-8 text over all its fields. D1
 * refuses rows over 2,000,000 bytes; the field limits of schema/inputs.ts
 * could add up past that, so the sum is checked before writing.
 */
export const MAX_CHARACTER_BYTES = 1_900_000;

const NOW_MS = "cast(unixepoch('subsec') * 1000 as integer)";

function sqlValue(kind: "text" | "json" | "bool" | "int", value: unknown): string | number | null {
  if (value === undefined || value === null) return null;
  if (kind === "bool") return value ? 1 : 0;
  if (kind === "int") return Number(value);
  if (kind === "json") return JSON.stringify(value);
  return String(value);
}

/** The (column, value) pairs of the fields present in `fields`. */
function columnValues(fields: Partial<Writable>): { column: string; value: string | number | null }[] {
  return (Object.keys(COLUMNS) as (keyof Writable)[])
    .filter((field) => fields[field] !== undefined)
    .map((field) => ({ column: COLUMNS[field].column, value: sqlValue(COLUMNS[field].kind, fields[field]) }));
}

/** Throws 413 `payload_too_large` when a character would not fit in one D1 row. */
function assertFits(fields: Partial<Writable>): void {
  const encoder = new TextEncoder();
  let bytes = 0;
  for (const { value } of columnValues(fields)) if (typeof value === "string") bytes += encoder.encode(value).length;
  if (bytes > MAX_CHARACTER_BYTES) {
    throw new ApiError(
      "payload_too_large",
      `This character is too large to store (at most ${(MAX_CHARACTER_BYTES / 1_000_000).toFixed(1)} MB of text)`,
    );
  }
}

/**
 * Creates a character with its tag links in one transaction and returns it
 * as `GET /api/characters/:id` shows it. Throws 413 when it is too large.
 *
 * The tag links are inserted by one statement right after the character, so
 * `last_insert_rowid()` names it (trigger inserts do not change it).
 */
export async function createCharacter(db: D1Database, input: NewCharacter): Promise<Character> {
  const { creatorId, appearance, ...rest } = input;
  const fields: Writable =
    appearance === undefined ? rest : { ...rest, extensions: withAppearance(rest.extensions ?? {}, appearance) };
  assertFits(fields);
  const pairs = [...columnValues(fields), { column: "creator_id", value: creatorId }];
  const statements: D1PreparedStatement[] = [
    ...input.tags.map((name) => db.prepare("INSERT INTO tags (name) VALUES (?) ON CONFLICT DO NOTHING").bind(name)),
    db
      .prepare(
        `INSERT INTO characters (${pairs.map((p) => p.column).join(", ")})
         VALUES (${pairs.map(() => "?").join(", ")}) RETURNING id`,
      )
      .bind(...pairs.map((p) => p.value)),
  ];
  if (input.tags.length > 0) {
    statements.push(
      db.prepare(
        `INSERT OR IGNORE INTO character_tags (character_id, tag_id, is_listed, is_nsfw)
         SELECT c.id, t.id, c.is_active, c.is_nsfw FROM characters c
         JOIN tags t ON lower(t.name) IN (SELECT lower(value) FROM json_each(c.tags))
         WHERE c.id = last_insert_rowid()`,
      ),
    );
  }
  const results = await db.batch<{ id: number }>(statements);
  const id = results[input.tags.length]!.results[0]!.id;
  // The card's `character_book` is the character's own lorebook (DESIGN.md turn 4 "Lorebooks").
  if (input.characterBook) await db.batch(ownBookStatements(db, id, creatorId, input.characterBook, input.name));
  return (await getCharacter(db, id))!;
}

/**
 * Applies a partial update (fields left out keep their value) to `current`
 * and returns the character afterwards. When `tags` is given, the tag links
 * are replaced in the same transaction: old links deleted (their counts
 * drop), new ones inserted with the character's updated flags. Throws 413
 * when the result would be too large.
 */
export async function updateCharacter(db: D1Database, current: Character, patch: CharacterUpdate): Promise<Character> {
  const { appearance, ...columns } = patch;
  const written: Partial<Writable> =
    appearance === undefined ? columns : { ...columns, extensions: withAppearance(current.extensions, appearance) };
  assertFits({ ...current, ...withoutUndefined(written) } as Partial<Writable>);
  const pairs = columnValues(written);
  const statements: D1PreparedStatement[] = [
    db
      .prepare(
        `UPDATE characters SET ${[...pairs.map((p) => `${p.column} = ?`), `updated_at = ${NOW_MS}`].join(", ")}
         WHERE id = ?`,
      )
      .bind(...pairs.map((p) => p.value), current.id),
  ];
  if (patch.tags !== undefined) {
    statements.push(
      db.prepare("DELETE FROM character_tags WHERE character_id = ?").bind(current.id),
      ...linkTagsStatements(db, current.id, patch.tags),
    );
  }
  if (patch.characterBook !== undefined && current.creatorId) {
    statements.push(...ownBookStatements(db, current.id, current.creatorId, patch.characterBook, patch.name ?? current.name));
  }
  await db.batch(statements);
  return (await getCharacter(db, current.id))!;
}

/** The fields given, without those a partial update left out (undefined). */
export function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * Flips `isActive` and returns the character; null when it does not exist or
 * was removed by moderation (the caller tells which). Inactive characters
 * leave the lists, search and tag counts (the flag triggers update their tag
 * links and the catalog counters in the same statement).
 */
export async function toggleCharacterActive(db: D1Database, id: number): Promise<Character | null> {
  const row = await db
    .prepare(
      `UPDATE characters SET is_active = 1 - is_active, updated_at = ${NOW_MS}
       WHERE id = ? AND moderation_status != 'removed' RETURNING ${selectList(DETAIL_FIELDS, "characters.")}`,
    )
    .bind(id)
    .first<Row>();
  // RETURNING has no subqueries: the assets come with a second read.
  return row ? ((await getCharacter(db, id)) ?? toCharacter(row)) : null;
}

/**
 * Deletes a character; foreign-key cascades remove its favorites, comments
 * and their votes, tag links and conversations (a group chat keeps going
 * without it), and the triggers correct
 * every counter. Returns the ids of the conversations that went with it, so
 * their stored messages can be removed (deleteConversationStorage).
 */
export async function deleteCharacter(db: D1Database, id: number): Promise<string[]> {
  // A group chat (DESIGN.md "Group chats") loses only this member: its next member becomes the first,
  // so the conversation is not cascaded away; its replies stay readable. Chats with it alone go with it.
  const others = `SELECT cc.character_id FROM conversation_characters cc
    WHERE cc.conversation_id = conversations.id AND cc.character_id != ?1 ORDER BY cc.position LIMIT 1`;
  const [conversations] = await db.batch<{ id: string }>([
    db.prepare(`SELECT id FROM conversations WHERE character_id = ?1 AND NOT EXISTS (${others})`).bind(id),
    db.prepare(`UPDATE conversations SET character_id = (${others}) WHERE character_id = ?1 AND EXISTS (${others})`).bind(id),
    db.prepare("DELETE FROM characters WHERE id = ?").bind(id),
  ]);
  return (conversations?.results ?? []).map((row) => row.id);
}

/**
 * `GET /api/my-characters`: every character the person created, inactive
 * ones included, newest first, in the list-item shape of `GET /api/characters`
 * plus each one's `moderationStatus` (a removed one shows "Removed by
 * moderation") and `chatCount`, the conversations started with it (counted on
 * `conversations_character_idx`, so exact without a stored counter).
 */
export async function listOwnCharacters(db: D1Database, userId: string): Promise<OwnCharacter[]> {
  const { results } = await db
    .prepare(
      `SELECT ${SUMMARY_COLUMNS}, c.moderation_status AS moderationStatus,
         (SELECT count(*) FROM conversations v WHERE v.character_id = c.id) AS chatCount
       FROM characters c WHERE c.creator_id = ?
       ORDER BY c.created_at DESC, c.id DESC`,
    )
    .bind(userId)
    .all<Row>();
  return results.map((row) => ({
    ...toSummary(row),
    moderationStatus: toModerationStatus(row.moderationStatus),
    chatCount: Number(row.chatCount),
  }));
}

/** Thrown when the owner tries to reactivate a character an operator removed. */
export const removedByModeration = () =>
  forbidden("This character was removed by moderation and cannot be reactivated.");

/**
 * Removes the stored messages of deleted conversations, which live in each
 * conversation's Durable Object rather than in D1 (DESIGN.md "Data").
 *
 * Each room (addressed by `idFromName(conversationId)`) answers
 * `DELETE https://room/delete` by closing its sockets and wiping its storage.
 * Failures are ignored — the D1 rows are already gone, so nobody can reach the
 * room again — and the function never throws.
 */
export async function deleteConversationStorage(
  env: { CONVERSATIONS?: DurableObjectNamespace },
  conversationIds: string[],
): Promise<void> {
  const rooms = env.CONVERSATIONS;
  if (!rooms || conversationIds.length === 0) return;
  await Promise.allSettled(
    conversationIds.map(async (conversationId) => {
      const response = await rooms.get(rooms.idFromName(conversationId)).fetch("https://room/delete", { method: "DELETE" });
      await response.body?.cancel();
    }),
  );
}
