/**
 * The room's SQLite schema: its tables, their row shapes, and the versioned
 * migrations applied when the object starts (RoomStore.open). The schema is
 * versioned by the `_schema` row (cloudflare/agents `_ensureSchema`): never
 * edit a shipped version, append a new one.
 *
 * - `room`: one row, the conversation's facts (owner, character, the name
 *   for `{{user}}`) and what steers its prompts (memory, summary, persona).
 * - `messages`: every message and reply, with a reply's versions (swipes).
 * - `character_card`: the character's card as last read from D1.
 * - `frame_receipts`: answers of steering frames by clientId (applied once).
 *
 * Times are ms since the epoch.
 */

/** The room's one `room` row: the conversation's facts and what steers its prompts. */
export interface RoomRow {
  conversation_id: string;
  user_id: string;
  character_id: number;
  user_name: string;
  created_at: number;
  /** The person's memory note, always in the prompt ("" for none). */
  memory: string;
  /** The running summary of the messages up to `summary_through` ("" for none). */
  summary: string;
  /** `seq` of the last message the summary covers (0: none); later messages are the prompt's history. */
  summary_through: number;
  /** The persona's description, as the Worker last said ("" for none): in the prompt after the scenario. */
  persona_description: string;
}

/** One row of `messages`, oldest first by `seq`. */
export interface MessageRow {
  seq: number;
  id: string;
  role: "user" | "character";
  content: string;
  created_at: number;
  client_id: string | null;
  /** complete: visible; streaming: being written; superseded: replaced by regenerate (an alternative). */
  status: "complete" | "streaming" | "superseded";
  rating: 1 | -1 | null;
  /** JSON list of the reply's other versions (regenerate), in the order they were written. */
  alternatives: string;
  /** The reply this one replaces (while streaming), for putting it back if this one fails. */
  replaces: string | null;
  /** Place of `content` among the versions after a swipe; null when it is the newest (ChatMessage.swipeIndex). */
  swipe_index: number | null;
  /** When the person last edited the text, ms; null when never. */
  edited_at: number | null;
}

/**
 * The object's SQL schema, one list of statements per version. Never edit a
 * shipped version; append a new one (cloudflare/agents `_ensureSchema`).
 */
const MIGRATIONS: string[][] = [
  [
    `CREATE TABLE room (
       id INTEGER PRIMARY KEY CHECK (id = 1),
       conversation_id TEXT NOT NULL,
       user_id TEXT NOT NULL,
       character_id INTEGER NOT NULL,
       user_name TEXT NOT NULL,
       created_at INTEGER NOT NULL
     )`,
    `CREATE TABLE messages (
       seq INTEGER PRIMARY KEY AUTOINCREMENT,
       id TEXT NOT NULL UNIQUE,
       role TEXT NOT NULL CHECK (role IN ('user', 'character')),
       content TEXT NOT NULL,
       created_at INTEGER NOT NULL,
       client_id TEXT UNIQUE,
       status TEXT NOT NULL DEFAULT 'complete' CHECK (status IN ('complete', 'streaming', 'superseded')),
       rating INTEGER CHECK (rating IN (1, -1)),
       alternatives TEXT NOT NULL DEFAULT '[]',
       replaces TEXT
     )`,
    "CREATE INDEX messages_status_idx ON messages (status, seq)",
  ],
  // 2: swipes — which version of a reply is its content.
  ["ALTER TABLE messages ADD COLUMN swipe_index INTEGER"],
  // 3: the character's card as last read from D1, so a room woken from
  // hibernation answers without reading D1 first (see loadCharacter).
  [
    `CREATE TABLE character_card (
       id INTEGER PRIMARY KEY CHECK (id = 1),
       card TEXT NOT NULL,
       read_at INTEGER NOT NULL
     )`,
  ],
  // 4: steering — edits, the memory note, the running summary, and the
  // answers of steering frames by clientId (applied once).
  [
    "ALTER TABLE messages ADD COLUMN edited_at INTEGER",
    "ALTER TABLE room ADD COLUMN memory TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE room ADD COLUMN summary TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE room ADD COLUMN summary_through INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE room ADD COLUMN persona_description TEXT NOT NULL DEFAULT ''",
    `CREATE TABLE frame_receipts (
       client_id TEXT PRIMARY KEY,
       answer TEXT NOT NULL,
       created_at INTEGER NOT NULL
     )`,
  ],
];

/** Newest schema version. */
export const ROOM_SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Brings the room's storage to ROOM_SCHEMA_VERSION, one version per
 * transaction. Call inside `blockConcurrencyWhile` before any other access.
 */
export function migrateRoomStorage(storage: DurableObjectStorage): void {
  storage.sql.exec("CREATE TABLE IF NOT EXISTS _schema (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)");
  const current = storage.sql.exec<{ version: number }>("SELECT version FROM _schema WHERE id = 1").toArray()[0]?.version ?? 0;
  for (let version = current + 1; version <= MIGRATIONS.length; version++) {
    storage.transactionSync(() => {
      for (const statement of MIGRATIONS[version - 1]!) storage.sql.exec(statement);
      storage.sql.exec(
        "INSERT INTO _schema (id, version) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET version = excluded.version",
        version,
      );
    });
  }
}
