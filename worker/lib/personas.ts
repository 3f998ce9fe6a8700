/**
 * A person's personas on D1 (issue "Chat people can steer"): who they are in
 * chats, the name `{{user}}` becomes and a description the characters know.
 *
 * At most one persona per person is the default: the partial unique index
 * `personas_one_default_per_user` (migrations/0006_personas.sql) makes a
 * second one impossible, and every write that makes a persona the default
 * clears the previous one in the same `batch()` (one transaction), so two
 * concurrent "make default" requests end with exactly one default. Without a
 * default, `{{user}}` is the person's first name; deleting the default
 * leaves none (no other persona is promoted behind the person's back).
 */
import type { Persona } from "../../schema/api.ts";
import { MAX_PERSONAS } from "../../schema/constants.ts";
import type { PersonaInput, PersonaUpdate } from "../../schema/inputs.ts";
import { ApiError, notFound } from "./errors.ts";

const NOW_MS = "cast(unixepoch('subsec') * 1000 as integer)";

const COLUMNS = `id, name, description, avatar_url AS avatarUrl, is_default AS isDefault,
  created_at AS createdAt, updated_at AS updatedAt`;

/** Default first, then oldest first (rowid: insertion order when two share a millisecond). */
const ORDER = "is_default DESC, created_at, rowid";

interface PersonaRow {
  id: string;
  name: string;
  description: string;
  avatarUrl: string | null;
  isDefault: number;
  createdAt: number;
  updatedAt: number;
}

function toPersona(row: PersonaRow): Persona {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    avatarUrl: row.avatarUrl,
    isDefault: row.isDefault === 1,
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}

export const PERSONA_NOT_FOUND = "Persona not found";
export const TOO_MANY_PERSONAS = `You can keep at most ${MAX_PERSONAS} personas`;
const DEFAULT_RACE = "Another persona became the default at the same moment. Please try again.";

/**
 * A persona id from a path, lower-cased. Persona ids are random UUIDs;
 * anything else names nothing, so it throws 404 "Persona not found" (not
 * 400: a malformed id and a stranger's id look the same).
 */
export function parsePersonaId(raw: string): string {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(raw)) throw notFound(PERSONA_NOT_FOUND);
  return raw.toLowerCase();
}

/** `GET /api/personas`: `userId`'s personas, the default first, then oldest first. */
export async function listPersonas(db: D1Database, userId: string): Promise<Persona[]> {
  const { results } = await db
    .prepare(`SELECT ${COLUMNS} FROM personas WHERE user_id = ? ORDER BY ${ORDER}`)
    .bind(userId)
    .all<PersonaRow>();
  return results.map(toPersona);
}

/** Persona `id` if it is `userId`'s, else null (someone else's is as unknown as a missing one). */
export async function getPersona(db: D1Database, userId: string, id: string): Promise<Persona | null> {
  const row = await db
    .prepare(`SELECT ${COLUMNS} FROM personas WHERE id = ? AND user_id = ?`)
    .bind(id, userId)
    .first<PersonaRow>();
  return row ? toPersona(row) : null;
}

/** `userId`'s default persona, or null when they have none (then `{{user}}` is their first name). */
export async function getDefaultPersona(db: D1Database, userId: string): Promise<Persona | null> {
  const row = await db
    .prepare(`SELECT ${COLUMNS} FROM personas WHERE user_id = ? AND is_default = 1`)
    .bind(userId)
    .first<PersonaRow>();
  return row ? toPersona(row) : null;
}

/** Persona `id` of `userId`. Throws 404 "Persona not found" when it is missing or someone else's. */
export async function findOwnPersona(db: D1Database, userId: string, id: string): Promise<Persona> {
  const persona = await getPersona(db, userId, id);
  if (!persona) throw notFound(PERSONA_NOT_FOUND);
  return persona;
}

/** The unique index refused a second default: two writes crossed (the batches below make this rare). */
function isDefaultRace(error: unknown): boolean {
  return /UNIQUE constraint failed: personas\.user_id/.test(String(error));
}

/**
 * Creates a persona for `userId` and returns it. It is the default when
 * `input.isDefault` is true (the previous default loses it in the same
 * transaction) or, with `isDefault` left out, when it is the person's first
 * persona. The limit is checked inside the same transaction, so concurrent
 * creates cannot pass it.
 * Throws 409 `conflict` "You can keep at most 20 personas" at MAX_PERSONAS,
 * and 409 when a concurrent write took the default at the same moment.
 */
export async function createPersona(db: D1Database, userId: string, input: PersonaInput): Promise<Persona> {
  const id = crypto.randomUUID();
  const underLimit = `(SELECT count(*) FROM personas WHERE user_id = ?1) < ${MAX_PERSONAS}`;
  const isDefault =
    input.isDefault === undefined ? "NOT EXISTS (SELECT 1 FROM personas WHERE user_id = ?1)" : input.isDefault ? "1" : "0";
  const statements: D1PreparedStatement[] = [];
  if (input.isDefault) {
    statements.push(
      db
        .prepare(`UPDATE personas SET is_default = 0, updated_at = ${NOW_MS} WHERE user_id = ?1 AND is_default = 1 AND ${underLimit}`)
        .bind(userId),
    );
  }
  statements.push(
    db
      .prepare(
        `INSERT INTO personas (id, user_id, name, description, avatar_url, is_default)
         SELECT ?2, ?1, ?3, ?4, ?5, ${isDefault} WHERE ${underLimit}
         RETURNING ${COLUMNS}`,
      )
      .bind(userId, id, input.name, input.description, input.avatarUrl),
  );
  let results: D1Result<PersonaRow>[];
  try {
    results = await db.batch<PersonaRow>(statements);
  } catch (error) {
    if (isDefaultRace(error)) throw new ApiError("conflict", DEFAULT_RACE);
    throw error;
  }
  const row = results.at(-1)?.results[0];
  if (!row) throw new ApiError("conflict", TOO_MANY_PERSONAS);
  return toPersona(row);
}

/**
 * Applies a partial update (fields left out keep their value) to `userId`'s
 * persona `id` and returns it afterwards. `isDefault: true` makes it the
 * default, clearing the previous default in the same transaction;
 * `isDefault: false` leaves the person without a default when it was theirs.
 * Throws 404 "Persona not found" when it is missing or someone else's (or was
 * deleted meanwhile), 409 when a concurrent write took the default at the
 * same moment.
 */
export async function updatePersona(db: D1Database, userId: string, id: string, patch: PersonaUpdate): Promise<Persona> {
  const fields: [column: string, value: string | number | null][] = [];
  if (patch.name !== undefined) fields.push(["name", patch.name]);
  if (patch.description !== undefined) fields.push(["description", patch.description]);
  if (patch.avatarUrl !== undefined) fields.push(["avatar_url", patch.avatarUrl]);
  if (patch.isDefault !== undefined) fields.push(["is_default", patch.isDefault ? 1 : 0]);
  const statements: D1PreparedStatement[] = [];
  if (patch.isDefault) {
    statements.push(
      db
        .prepare(
          `UPDATE personas SET is_default = 0, updated_at = ${NOW_MS}
           WHERE user_id = ?1 AND is_default = 1 AND id != ?2 AND EXISTS (SELECT 1 FROM personas WHERE id = ?2 AND user_id = ?1)`,
        )
        .bind(userId, id),
    );
  }
  statements.push(
    db
      .prepare(
        `UPDATE personas SET ${[...fields.map(([column]) => `${column} = ?`), `updated_at = ${NOW_MS}`].join(", ")}
         WHERE id = ? AND user_id = ? RETURNING ${COLUMNS}`,
      )
      .bind(...fields.map(([, value]) => value), id, userId),
  );
  let results: D1Result<PersonaRow>[];
  try {
    results = await db.batch<PersonaRow>(statements);
  } catch (error) {
    if (isDefaultRace(error)) throw new ApiError("conflict", DEFAULT_RACE);
    throw error;
  }
  const row = results.at(-1)?.results[0];
  if (!row) throw notFound(PERSONA_NOT_FOUND);
  return toPersona(row);
}

/**
 * Deletes `userId`'s persona `id` and returns it as it was (its avatar may
 * need deleting), or null when it is missing or someone else's. Deleting the
 * default leaves the person without one; conversations that used it fall
 * back to the default (their `persona_id` becomes NULL by the foreign key).
 */
export async function deletePersona(db: D1Database, userId: string, id: string): Promise<Persona | null> {
  const row = await db
    .prepare(`DELETE FROM personas WHERE id = ? AND user_id = ? RETURNING ${COLUMNS}`)
    .bind(id, userId)
    .first<PersonaRow>();
  return row ? toPersona(row) : null;
}
