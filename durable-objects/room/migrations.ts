/**
 * The room's SQLite schema: its tables, their row shapes, and the versioned
 * migrations applied when the object starts (RoomStore.open). The schema is
 * versioned by the `_schema` row (cloudflare/agents `_ensureSchema`): never
 * edit a shipped version, append a new one.
 *
 * - `room`: one row, the conversation's facts (owner, character, the name
 *   for `{{user}}`) and what steers its prompts (memory, summary, persona).
 * - `messages`: every message and reply, with a reply's versions (swipes).
 * - `character_card`: the character's card as last read from D1 (until
 *   version 5; since then `cast_cards`).
 * - `frame_receipts`: answers of steering frames by clientId (applied once).
 * - `cast_members`: the cast in member order, as the Worker last said
 *   (DESIGN.md "Group chats"); `cast_cards`: each member's card as last read.
 * - `people`: everyone who connected (DESIGN.md "Shared rooms"): the name
 *   and persona description they play under, their role, whether they
 *   left or were removed. `ratings`: each person's thumb on a reply.
 * - `room.answered_through`: the `seq` up to which people's messages were
 *   taken up by a reply round (later ones wait for the next round).
 * - `messages.usage` (version 7): the tokens each version of a reply cost.
 * - memory (version 8, DESIGN.md "Memory", memory.ts): `message_vectors`,
 *   each message's embedding beside it (int8, with the embedder's id);
 *   `messages.recalled`, the messages each version of a reply recalled;
 *   `prompt_records`, what was sent for each reply version (the prompt
 *   inspector, the newest PROMPT_RECORDS_KEPT); `cast_members.joined_seq`,
 *   the last message before a member joined. Triggers keep the vectors and
 *   records in step: a deleted message takes its own along, an edited text
 *   (an edit, a swipe, a continue) drops its vector until it is embedded
 *   again; `memory_changes` lists the messages deleted, edited, hidden,
 *   shown, replaced or completed since, for the vectors memory.ts keeps.
 * - pictures (version 9, DESIGN.md "Pictures", image-rows.ts): `images`,
 *   each imagined picture with its prompt, who asked, its R2 object and the
 *   `seq` of the last message before it (its place in the chat); since
 *   version 13 its versions (`versions`, `version_index`: regenerate).
 * - lorebooks (version 11, DESIGN.md turn 4 "Lorebooks"): `lorebook_state`,
 *   one row: the timers (sticky, cooldown) and first matches of the chat's
 *   lorebook entries after the last reply (schema/lorebook/activation.ts
 *   TimedState, counted in messages of the chat; a regenerate or rewind
 *   undoes what began after it, as SillyTavern does).
 * - `messages.expression` (version 10) and `messages.version_expressions`
 *   (version 12, issue 37): the face the shown version of a reply shows, and
 *   each version's, so a swipe brings its own back (message-rows.ts).
 * - lorebook timers per reply (version 14): `lorebook_states`, the same
 *   state as it was after each reply (keyed by the reply's message id; a
 *   deleted message takes its own along), so "Branch from here" starts the
 *   branch with the timers of its branch point (lore.ts stateThrough).
 * - check-ins (version 15, DESIGN.md turn 4 "Notifications", check-ins.ts):
 *   `check_in_settings`, one row: the owner opted in; `check_ins`, the
 *   messages that were check-ins (a deleted one drops out of the count of
 *   unanswered ones by itself: the count joins `messages`).
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
  /** schema/chat.ts REPLY_ORDERS. */
  reply_order: "natural" | "list" | "pooled" | "manual";
  /** The author's note (schema/chat.ts AuthorNote): text ("" for none), depth in messages, every `interval`-th message of the person. */
  author_note: string;
  author_note_depth: number;
  author_note_interval: number;
  /** `seq` of the last message a reply round has taken up (rounds.ts); later messages of people wait for the next round. */
  answered_through: number;
}

/** One row of `images`: a picture imagined in the chat (image-rows.ts). */
export interface ImageRow {
  id: string;
  /** `seq` of the last message stored before it was asked for (0: none): it shows after that message. */
  after_seq: number;
  created_at: number;
  /** Who asked for it, and the name they were under. */
  author_id: string;
  author_name: string;
  /** The character whose scene it is (the last speaker, else the first member). */
  character_id: number | null;
  prompt: string;
  /** Its R2 key, `pictures/{conversationId}/{id}`. */
  object_key: string;
  content_type: string;
  width: number;
  height: number;
  /**
   * Every version of the picture (version 13: "regenerate" keeps them, as a
   * reply's swipes): JSON list of ImageVersion in written order; null while
   * it has only one. The columns above are always the shown version's.
   */
  versions?: string | null;
  /** The shown version's place among `versions`; null: the newest. */
  version_index?: number | null;
}

/** One row of `people`: someone who connected to the room, as the Worker last said. */
export interface PersonRow {
  user_id: string;
  /** The name they play under (their persona's, else their first name): `{{user}}` when their message is answered. */
  name: string;
  /** Their persona's description ("" for none). */
  persona_description: string;
  role: "owner" | "member";
  /** 1: they left or were removed (their messages stay). */
  removed: 0 | 1;
  /** When they last connected, ms. */
  seen_at: number;
}

/** One row of `cast_members`, in member order by `position`. */
export interface CastRow {
  character_id: number;
  position: number;
  name: string;
  muted: 0 | 1;
  talkativeness: number;
  /** `seq` of the newest message when the member joined the cast (0: from the start): it recalls nothing said before. */
  joined_seq: number;
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
  /** The owner's thumb until version 6; since then each person's is in `ratings` (this stays as it was). */
  rating: 1 | -1 | null;
  /** JSON list of the reply's other versions (regenerate), in the order they were written. */
  alternatives: string;
  /** The reply this one replaces (while streaming), for putting it back if this one fails. */
  replaces: string | null;
  /** Place of `content` among the versions after a swipe; null when it is the newest (ChatMessage.swipeIndex). */
  swipe_index: number | null;
  /** When the person last edited the text, ms; null when never. */
  edited_at: number | null;
  /** A reply's speaker; null on the person's messages. */
  character_id: number | null;
  /** A person's message: who wrote it, and the name they wrote under. */
  author_id: string | null;
  author_name: string | null;
  /** 1: "hide from context" — shown, but no prompt reads it. */
  hidden: 0 | 1;
  /**
   * The tokens each version of a reply cost, as its endpoint reported them:
   * JSON list in the versions' written order (`replyVersions`), each
   * `{promptTokens, completionTokens}` (schema/chat.ts ReplyUsage) or null;
   * shorter than the versions when the last are unknown; null when none is
   * known (and on the person's messages). See store.ts `versionUsage`.
   */
  usage: string | null;
  /**
   * The messages each version of a reply recalled (memory.ts): JSON list in
   * the versions' written order, each a list of message ids; null when none
   * is known (and on the person's messages).
   */
  recalled: string | null;
  /** A character reply's expression: one of its speaker's emotion labels (ai/expressions/classifier.ts); null when it has none. */
  expression: string | null;
  /**
   * The expression of each version of a reply (version 12): JSON list in
   * the versions' written order, each a label or null; shorter when the last
   * are unknown; null when none is known (replies written before, the
   * person's messages). `expression` is always the shown version's.
   */
  version_expressions: string | null;
}

/** One row of `message_vectors`: a message's embedding (memory.ts). */
export interface VectorRow {
  message_id: string;
  /** Embedder.id of the space the vector is in; vectors of another are embedded again. */
  embedder: string;
  /** The unit vector quantised to int8 (each value × 127 / the largest magnitude). */
  vector: ArrayBuffer;
  /** L2 norm of the int8 values (the cosine divides by it). */
  norm: number;
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
  // 5: group chats (DESIGN.md "Group chats") — the cast and each member's card,
  // every reply's speaker and every message's author, the reply order, the
  // author's note and "hide from context". A room from before is a cast of one.
  [
    "ALTER TABLE messages ADD COLUMN character_id INTEGER",
    "ALTER TABLE messages ADD COLUMN author_id TEXT",
    "ALTER TABLE messages ADD COLUMN author_name TEXT",
    "ALTER TABLE messages ADD COLUMN hidden INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE room ADD COLUMN reply_order TEXT NOT NULL DEFAULT 'natural'",
    "ALTER TABLE room ADD COLUMN author_note TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE room ADD COLUMN author_note_depth INTEGER NOT NULL DEFAULT 4",
    "ALTER TABLE room ADD COLUMN author_note_interval INTEGER NOT NULL DEFAULT 1",
    `CREATE TABLE cast_members (
       character_id INTEGER PRIMARY KEY,
       position INTEGER NOT NULL,
       name TEXT NOT NULL DEFAULT '',
       muted INTEGER NOT NULL DEFAULT 0,
       talkativeness REAL NOT NULL DEFAULT 0.5
     )`,
    `CREATE TABLE cast_cards (
       character_id INTEGER PRIMARY KEY,
       card TEXT NOT NULL,
       read_at INTEGER NOT NULL
     )`,
    "INSERT INTO cast_members (character_id, position) SELECT character_id, 0 FROM room",
    "INSERT INTO cast_cards (character_id, card, read_at) SELECT r.character_id, c.card, c.read_at FROM room r JOIN character_card c",
    "UPDATE messages SET character_id = (SELECT character_id FROM room) WHERE role = 'character'",
    "UPDATE messages SET author_id = (SELECT user_id FROM room), author_name = (SELECT user_name FROM room) WHERE role = 'user'",
  ],
  // 6: shared rooms (DESIGN.md "Shared rooms") — each person's persona, their
  // own thumbs, and which messages a reply round has taken up. The owner is
  // the first person; a reply's old rating becomes the owner's thumb; every
  // message stored so far counts as taken up.
  [
    `CREATE TABLE people (
       user_id TEXT PRIMARY KEY,
       name TEXT NOT NULL,
       persona_description TEXT NOT NULL DEFAULT '',
       role TEXT NOT NULL CHECK (role IN ('owner', 'member')),
       removed INTEGER NOT NULL DEFAULT 0,
       seen_at INTEGER NOT NULL
     )`,
    `CREATE TABLE ratings (
       message_id TEXT NOT NULL,
       user_id TEXT NOT NULL,
       rating INTEGER NOT NULL CHECK (rating IN (1, -1)),
       PRIMARY KEY (message_id, user_id)
     )`,
    "ALTER TABLE room ADD COLUMN answered_through INTEGER NOT NULL DEFAULT 0",
    "UPDATE room SET answered_through = coalesce((SELECT max(seq) FROM messages), 0)",
    "INSERT INTO people (user_id, name, persona_description, role, seen_at) SELECT user_id, user_name, persona_description, 'owner', created_at FROM room",
    "INSERT INTO ratings (message_id, user_id, rating) SELECT m.id, r.user_id, m.rating FROM messages m JOIN room r WHERE m.rating IS NOT NULL",
  ],
  // 7: the tokens each version of a reply cost (ReplyUsage, DESIGN.md "Your
  // own model (turn 3)"); replies written before are unknown (NULL).
  ["ALTER TABLE messages ADD COLUMN usage TEXT"],
  // 8: memory (DESIGN.md "Memory") — vectors beside messages, what each reply
  // version recalled and was sent, when each member joined. Chats from before
  // are embedded lazily when the room wakes (memory.ts).
  [
    `CREATE TABLE message_vectors (
       message_id TEXT PRIMARY KEY,
       embedder TEXT NOT NULL,
       vector BLOB NOT NULL,
       norm REAL NOT NULL
     )`,
    "ALTER TABLE messages ADD COLUMN recalled TEXT",
    `CREATE TABLE prompt_records (
       message_id TEXT NOT NULL,
       version INTEGER NOT NULL,
       record TEXT NOT NULL,
       written_at INTEGER NOT NULL,
       PRIMARY KEY (message_id, version)
     )`,
    "CREATE INDEX prompt_records_written_idx ON prompt_records (written_at)",
    "ALTER TABLE cast_members ADD COLUMN joined_seq INTEGER NOT NULL DEFAULT 0",
    // Which messages changed in a way recall must see (memory.ts keeps its vectors in memory between replies).
    "CREATE TABLE memory_changes (id INTEGER PRIMARY KEY AUTOINCREMENT, message_id TEXT NOT NULL)",
    `CREATE TRIGGER messages_deleted_memory AFTER DELETE ON messages BEGIN
       DELETE FROM message_vectors WHERE message_id = old.id;
       DELETE FROM prompt_records WHERE message_id = old.id;
       INSERT INTO memory_changes (message_id) VALUES (old.id);
     END`,
    `CREATE TRIGGER messages_edited_memory AFTER UPDATE OF content ON messages WHEN old.content IS NOT new.content BEGIN
       DELETE FROM message_vectors WHERE message_id = new.id;
       INSERT INTO memory_changes (message_id) VALUES (new.id);
     END`,
    `CREATE TRIGGER messages_shown_memory AFTER UPDATE OF status, hidden ON messages
     WHEN old.status IS NOT new.status OR old.hidden IS NOT new.hidden BEGIN
       INSERT INTO memory_changes (message_id) VALUES (new.id);
     END`,
  ],
  // 9: pictures imagined in the chat (DESIGN.md "Pictures", images.ts): their
  // own table, never in `messages`, so no prompt, summary or memory reads them.
  [
    `CREATE TABLE images (
       id TEXT PRIMARY KEY,
       after_seq INTEGER NOT NULL,
       created_at INTEGER NOT NULL,
       author_id TEXT NOT NULL,
       author_name TEXT NOT NULL,
       character_id INTEGER,
       prompt TEXT NOT NULL,
       object_key TEXT NOT NULL,
       content_type TEXT NOT NULL,
       width INTEGER NOT NULL,
       height INTEGER NOT NULL
     )`,
    "CREATE INDEX images_after_seq_idx ON images (after_seq)",
  ],
  // 10 (issue 37): the expression each character reply shows (DESIGN.md "Character assets").
  ["ALTER TABLE messages ADD COLUMN expression TEXT"],
  // 11: lorebook timers (lore.ts).
  ["CREATE TABLE lorebook_state (id INTEGER PRIMARY KEY CHECK (id = 1), state TEXT NOT NULL)"],
  // 12 (issue 37): the expression of each version of a reply, so a swipe shows its own face.
  ["ALTER TABLE messages ADD COLUMN version_expressions TEXT"],
  // 13 (issue 38): a picture's versions (regenerate), the shown one in the row's own columns.
  ["ALTER TABLE images ADD COLUMN versions TEXT", "ALTER TABLE images ADD COLUMN version_index INTEGER"],
  // 14: the lorebook timers after each reply, for branches (lore.ts).
  [
    "CREATE TABLE lorebook_states (message_id TEXT PRIMARY KEY, state TEXT NOT NULL)",
    `CREATE TRIGGER messages_deleted_lorebook AFTER DELETE ON messages BEGIN
       DELETE FROM lorebook_states WHERE message_id = old.id;
     END`,
  ],
  // 15: check-ins (check-ins.ts): whether the owner opted in, and the messages that were check-ins.
  [
    "CREATE TABLE check_in_settings (id INTEGER PRIMARY KEY CHECK (id = 1), enabled INTEGER NOT NULL)",
    "CREATE TABLE check_ins (message_id TEXT PRIMARY KEY, at INTEGER NOT NULL)",
  ],
];

/** Newest schema version. */
export const ROOM_SCHEMA_VERSION = MIGRATIONS.length;

/** The stored schema version; 0 for a room that has none yet (no `_schema` table). */
function storedVersion(storage: DurableObjectStorage): number {
  try {
    return storage.sql.exec<{ version: number }>("SELECT version FROM _schema WHERE id = 1").toArray()[0]?.version ?? 0;
  } catch {
    return 0;
  }
}

/**
 * Brings the room's storage to ROOM_SCHEMA_VERSION, one version per
 * transaction. Call inside `blockConcurrencyWhile` before any other access.
 * A room already there costs one read: this runs at every wake from
 * hibernation (a quiet room is evicted after seconds), and a statement that
 * may write (`CREATE TABLE IF NOT EXISTS`) would open a write each time.
 */
export function migrateRoomStorage(storage: DurableObjectStorage): void {
  const current = storedVersion(storage);
  if (current >= MIGRATIONS.length) return;
  storage.sql.exec("CREATE TABLE IF NOT EXISTS _schema (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)");
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
