/**
 * A person's model connections on D1 (DESIGN.md "Your own model (turn 3)",
 * docs/decisions/0018-your-own-model.md).
 *
 * - Only the owner ever sees a connection: someone else's id is 404 like an
 *   unknown one.
 * - The API key is write-only: encrypted before it reaches D1
 *   (ai/model-keys.ts, bound to the row's id and owner), never selected into
 *   an answer (`keyHint`: its last four characters). Rows go with their
 *   owner (`ON DELETE CASCADE`), so deleting the account deletes the keys.
 * - At most one default per person: the partial unique index
 *   `model_connections_one_default_per_user`, and every write that makes a
 *   connection the default clears the previous one in the same batch.
 * - `baseUrl` must pass the endpoint rules (ai/endpoint-guard.ts); a `site`
 *   connection names one of the operator's models (`siteModels`).
 */
import { assertEndpointAllowed, type EndpointPolicy, EndpointRefused } from "../../ai/endpoint-guard.ts";
import { siteModels } from "../../ai/model-connection.ts";
import { currentKeyId, decryptApiKey, encryptApiKey, isDevelopment, keyHint, ModelKeysUnavailable } from "../../ai/model-keys.ts";
import {
  KEY_STAYS_WITH_ITS_ADDRESS,
  MAX_MODEL_CONNECTIONS,
  type ModelConnection,
  type ModelConnectionInput,
  type ModelConnectionKind,
  type ModelConnectionUpdate,
  type ModelSettings,
  modelSettingsSchema,
  sameOrigin,
} from "../../schema/model-connections.ts";
import { ApiError, notFound } from "./errors.ts";

const NOW_MS = "cast(unixepoch('subsec') * 1000 as integer)";

/** Never `api_key_encrypted`: what leaves D1 for an answer. */
const COLUMNS = `id, name, kind, base_url AS baseUrl, model, embedding_model AS embeddingModel, image_model AS imageModel, key_hint AS keyHint, settings, is_default AS isDefault`;

/** Default first, then oldest first. */
const ORDER = "is_default DESC, created_at, rowid";

interface ConnectionRow {
  id: string;
  name: string;
  kind: ModelConnectionKind;
  baseUrl: string | null;
  model: string;
  embeddingModel: string | null;
  imageModel: string | null;
  keyHint: string | null;
  settings: string;
  isDefault: number;
}

export const CONNECTION_NOT_FOUND = "Model connection not found";
export const TOO_MANY_CONNECTIONS = `You can keep at most ${MAX_MODEL_CONNECTIONS} model connections`;
const DEFAULT_RACE = "Another connection became the default at the same moment. Please try again.";
const KEYS_UNAVAILABLE = "API keys cannot be stored on this site right now (the operator has not set MODEL_KEYS_SECRET).";

/** Stored settings, read leniently: a row written by an older version keeps what still validates. */
function parseSettings(text: string): ModelSettings {
  try {
    const parsed = modelSettingsSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

function toConnection(row: ConnectionRow): ModelConnection {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    baseUrl: row.baseUrl,
    model: row.model,
    embeddingModel: row.kind === "openai" ? row.embeddingModel : null,
    imageModel: row.imageModel,
    keyHint: row.keyHint,
    settings: parseSettings(row.settings),
    isDefault: row.isDefault === 1,
  };
}

/** The endpoint rules for a request to `requestUrl` (its origin is the site's own). */
export function endpointPolicy(env: Pick<Env, "ENVIRONMENT">, requestUrl: string): EndpointPolicy {
  return { development: isDevelopment(env), siteHost: new URL(requestUrl).origin };
}

/** A connection id from a path; anything but a UUID names nothing (404, like a stranger's). */
export function parseConnectionId(raw: string): string {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(raw)) throw notFound(CONNECTION_NOT_FOUND);
  return raw.toLowerCase();
}

/** 400 on `field` with `message`. */
function invalid(field: string, message: string): ApiError {
  return new ApiError("validation_failed", message, { issues: [{ path: field, message }] });
}

/**
 * Checks what the schema cannot: the base URL against the endpoint rules
 * (`openai`), the model against the site's allow-list (`site`).
 * @throws 400 naming the field.
 */
export function assertConnectionTarget(
  env: Env,
  policy: EndpointPolicy,
  target: { kind: ModelConnectionKind; baseUrl: string | null; model: string },
): void {
  if (target.kind === "openai") {
    if (!target.baseUrl) throw invalid("baseUrl", "Base URL is required for an OpenAI-compatible endpoint");
    try {
      assertEndpointAllowed(target.baseUrl, policy);
    } catch (error) {
      if (error instanceof EndpointRefused) throw invalid("baseUrl", error.message);
      throw error;
    }
    return;
  }
  const allowed = siteModels(env);
  if (!allowed.includes(target.model)) throw invalid("model", `Model must be one of this site's models: ${allowed.join(", ")}`);
}

/** `GET /api/model-connections`: `userId`'s connections, the default first. */
export async function listModelConnections(db: D1Database, userId: string): Promise<ModelConnection[]> {
  const { results } = await db
    .prepare(`SELECT ${COLUMNS} FROM model_connections WHERE user_id = ? ORDER BY ${ORDER}`)
    .bind(userId)
    .all<ConnectionRow>();
  return results.map(toConnection);
}

/** Connection `id` of `userId`. @throws 404 "Model connection not found" when missing or someone else's. */
export async function findOwnModelConnection(db: D1Database, userId: string, id: string): Promise<ModelConnection> {
  const row = await db
    .prepare(`SELECT ${COLUMNS} FROM model_connections WHERE id = ? AND user_id = ?`)
    .bind(id, userId)
    .first<ConnectionRow>();
  if (!row) throw notFound(CONNECTION_NOT_FOUND);
  return toConnection(row);
}

/**
 * 400 on `apiKey` when a connection with a saved key (`current`) would be
 * pointed at `baseUrl` on another origin without the key being typed again
 * (`PUT` with a new `baseUrl` and no `apiKey`; docs/decisions/0027).
 */
export function assertKeyStaysWithItsAddress(current: Pick<ModelConnection, "baseUrl" | "keyHint">, baseUrl: string): void {
  if (current.keyHint !== null && current.baseUrl !== null && !sameOrigin(baseUrl, current.baseUrl)) {
    throw invalid("apiKey", KEY_STAYS_WITH_ITS_ADDRESS);
  }
}

/**
 * The decrypted key of `userId`'s connection `id`, for "Test connection" on
 * a saved connection at `baseUrl`; undefined when it has none. The key goes
 * only to its own address: `baseUrl` on another origin than the saved base
 * URL's is refused (the path may differ: same origin, same trust, as for a
 * redirect in ai/endpoint-guard.ts).
 * @throws 404 when missing or someone else's; 400 on `apiKey`
 *   (KEY_STAYS_WITH_ITS_ADDRESS) for another origin; 503 when the key cannot be read.
 */
export async function ownApiKey(env: Env, userId: string, id: string, baseUrl: string): Promise<string | undefined> {
  const row = await env.DB.prepare("SELECT api_key_encrypted AS sealed, base_url AS baseUrl FROM model_connections WHERE id = ? AND user_id = ?")
    .bind(id, userId)
    .first<{ sealed: string | null; baseUrl: string | null }>();
  if (!row) throw notFound(CONNECTION_NOT_FOUND);
  if (!row.sealed) return undefined;
  assertKeyStaysWithItsAddress({ baseUrl: row.baseUrl, keyHint: "" }, baseUrl);
  try {
    return await decryptApiKey(env, { connectionId: id, userId }, row.sealed);
  } catch (error) {
    if (error instanceof ModelKeysUnavailable) throw new ApiError("unavailable", "The saved API key could not be read. Enter it again.");
    throw error;
  }
}

/** The stored text and hint of `apiKey` ("" or null: none). @throws 503 when keys cannot be stored here. */
async function sealKey(env: Env, connectionId: string, userId: string, apiKey: string | null | undefined) {
  if (!apiKey) return { sealed: null, hint: null };
  try {
    return { sealed: await encryptApiKey(env, { connectionId, userId }, apiKey), hint: keyHint(apiKey) };
  } catch (error) {
    if (error instanceof ModelKeysUnavailable) throw new ApiError("unavailable", KEYS_UNAVAILABLE);
    throw error;
  }
}

/**
 * After a rotation of MODEL_KEYS_SECRET: re-encrypts `userId`'s keys still
 * under an older secret with the current one (each row only if it did not
 * change meanwhile). Returns how many were re-encrypted; a key that no
 * configured secret opens is left as it is (its owner enters it again).
 * Throws what D1 throws.
 */
export async function rewrapApiKeys(env: Env, userId: string): Promise<number> {
  const kid = await currentKeyId(env);
  const { results } = await env.DB.prepare(
    `SELECT id, api_key_encrypted AS sealed FROM model_connections
     WHERE user_id = ? AND api_key_encrypted IS NOT NULL AND substr(api_key_encrypted, 1, 12) != ?`,
  )
    .bind(userId, `v1.${kid}.`)
    .all<{ id: string; sealed: string }>();
  let rewrapped = 0;
  for (const row of results) {
    const owner = { connectionId: row.id, userId };
    let apiKey: string;
    try {
      apiKey = await decryptApiKey(env, owner, row.sealed);
    } catch {
      continue;
    }
    const sealed = await encryptApiKey(env, owner, apiKey);
    const result = await env.DB.prepare("UPDATE model_connections SET api_key_encrypted = ? WHERE id = ? AND api_key_encrypted = ?")
      .bind(sealed, row.id, row.sealed)
      .run();
    rewrapped += result.meta.changes;
  }
  return rewrapped;
}

function isDefaultRace(error: unknown): boolean {
  return /UNIQUE constraint failed: model_connections\.user_id/.test(String(error));
}

/**
 * Creates a connection for `userId`. It is the default when `isDefault` is
 * true (the previous default loses it in the same transaction) or, left out,
 * when it is the person's first. A `site` connection keeps no URL or key.
 * @throws 409 at MAX_MODEL_CONNECTIONS or on a concurrent default; 503 when a key cannot be stored.
 */
export async function createModelConnection(env: Env, userId: string, input: ModelConnectionInput): Promise<ModelConnection> {
  const db = env.DB;
  const id = crypto.randomUUID();
  const openai = input.kind === "openai";
  const key = await sealKey(env, id, userId, openai ? input.apiKey : null);
  const underLimit = `(SELECT count(*) FROM model_connections WHERE user_id = ?1) < ${MAX_MODEL_CONNECTIONS}`;
  const isDefault =
    input.isDefault === undefined ? "NOT EXISTS (SELECT 1 FROM model_connections WHERE user_id = ?1)" : input.isDefault ? "1" : "0";
  const statements: D1PreparedStatement[] = [];
  if (input.isDefault) {
    statements.push(
      db
        .prepare(`UPDATE model_connections SET is_default = 0, updated_at = ${NOW_MS} WHERE user_id = ?1 AND is_default = 1 AND ${underLimit}`)
        .bind(userId),
    );
  }
  statements.push(
    db
      .prepare(
        `INSERT INTO model_connections (id, user_id, name, kind, base_url, model, api_key_encrypted, key_hint, settings, is_default, embedding_model, image_model)
         SELECT ?2, ?1, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ${isDefault}, ?10, ?11 WHERE ${underLimit}
         RETURNING ${COLUMNS}`,
      )
      .bind(
        userId,
        id,
        input.name,
        input.kind,
        openai ? (input.baseUrl ?? null) : null,
        input.model,
        key.sealed,
        key.hint,
        JSON.stringify(input.settings),
        openai ? (input.embeddingModel ?? null) : null,
        openai ? input.imageModel || null : null,
      ),
  );
  let results: D1Result<ConnectionRow>[];
  try {
    results = await db.batch<ConnectionRow>(statements);
  } catch (error) {
    if (isDefaultRace(error)) throw new ApiError("conflict", DEFAULT_RACE);
    throw error;
  }
  const row = results.at(-1)?.results[0];
  if (!row) throw new ApiError("conflict", TOO_MANY_CONNECTIONS);
  return toConnection(row);
}

/**
 * Applies a partial update to `userId`'s connection `id`. `apiKey`: a new
 * key (encrypted), "" or null removes it, left out keeps it. Turning a
 * connection into `site` drops its URL and key. `isDefault: true` clears the
 * previous default in the same transaction.
 * @throws 404 when missing or someone else's; 409 on a concurrent default; 503 when a key cannot be stored.
 */
export async function updateModelConnection(
  env: Env,
  userId: string,
  id: string,
  patch: ModelConnectionUpdate,
  kind: ModelConnectionKind,
): Promise<ModelConnection> {
  const db = env.DB;
  const fields: [column: string, value: string | number | null][] = [];
  if (patch.name !== undefined) fields.push(["name", patch.name]);
  if (patch.kind !== undefined) fields.push(["kind", patch.kind]);
  if (patch.model !== undefined) fields.push(["model", patch.model]);
  if (patch.settings !== undefined) fields.push(["settings", JSON.stringify(patch.settings)]);
  if (patch.isDefault !== undefined) fields.push(["is_default", patch.isDefault ? 1 : 0]);
  if (kind === "site") {
    fields.push(["base_url", null], ["api_key_encrypted", null], ["key_hint", null], ["embedding_model", null], ["image_model", null]);
  } else {
    if (patch.imageModel !== undefined) fields.push(["image_model", patch.imageModel || null]);
    if (patch.baseUrl !== undefined) fields.push(["base_url", patch.baseUrl]);
    if (patch.embeddingModel !== undefined) fields.push(["embedding_model", patch.embeddingModel]);
    if (patch.apiKey !== undefined) {
      const key = await sealKey(env, id, userId, patch.apiKey);
      fields.push(["api_key_encrypted", key.sealed], ["key_hint", key.hint]);
    }
  }
  const statements: D1PreparedStatement[] = [];
  if (patch.isDefault) {
    statements.push(
      db
        .prepare(
          `UPDATE model_connections SET is_default = 0, updated_at = ${NOW_MS}
           WHERE user_id = ?1 AND is_default = 1 AND id != ?2 AND EXISTS (SELECT 1 FROM model_connections WHERE id = ?2 AND user_id = ?1)`,
        )
        .bind(userId, id),
    );
  }
  statements.push(
    db
      .prepare(
        `UPDATE model_connections SET ${[...fields.map(([column]) => `${column} = ?`), `updated_at = ${NOW_MS}`].join(", ")}
         WHERE id = ? AND user_id = ? RETURNING ${COLUMNS}`,
      )
      .bind(...fields.map(([, value]) => value), id, userId),
  );
  let results: D1Result<ConnectionRow>[];
  try {
    results = await db.batch<ConnectionRow>(statements);
  } catch (error) {
    if (isDefaultRace(error)) throw new ApiError("conflict", DEFAULT_RACE);
    throw error;
  }
  const row = results.at(-1)?.results[0];
  if (!row) throw notFound(CONNECTION_NOT_FOUND);
  return toConnection(row);
}

/**
 * Deletes `userId`'s connection `id` with its key; conversations that used
 * it go back to the person's default (`ON DELETE SET NULL`). False when it
 * was missing or someone else's.
 */
export async function deleteModelConnection(db: D1Database, userId: string, id: string): Promise<boolean> {
  const result = await db.prepare("DELETE FROM model_connections WHERE id = ? AND user_id = ?").bind(id, userId).run();
  return result.meta.changes > 0;
}

/**
 * `PATCH /api/conversations/{id}` `{modelConnectionId}`: sets which of the
 * owner's connections answers in conversation `conversationId` (null: the
 * person's default, else the site's). The caller has checked the
 * conversation is `userId`'s. Returns the id stored.
 * @throws 400 on `modelConnectionId` when it is not one of the person's connections.
 */
export async function setConversationModel(
  db: D1Database,
  conversationId: string,
  userId: string,
  modelConnectionId: string | null,
): Promise<string | null> {
  const id = modelConnectionId?.toLowerCase() ?? null;
  const row = await db
    .prepare(
      `UPDATE conversations SET model_connection_id = ?1
       WHERE id = ?2 AND user_id = ?3
         AND (?1 IS NULL OR EXISTS (SELECT 1 FROM model_connections WHERE id = ?1 AND user_id = ?3))
       RETURNING model_connection_id AS modelConnectionId`,
    )
    .bind(id, conversationId, userId)
    .first<{ modelConnectionId: string | null }>();
  if (!row) throw invalid("modelConnectionId", "Pick one of your model connections (or none for your default)");
  return row.modelConnectionId;
}
