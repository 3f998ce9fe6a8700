/**
 * The inbox's own SQLite (one Durable Object per person,
 * durable-objects/inbox/inbox.ts): their notifications, how repeated
 * events fold into one, exact unread counts, and their settings.
 *
 * Tables (schema versioned by the `_schema` row, cloudflare/agents
 * `_ensureSchema`: never edit a shipped version, append one):
 * - `notifications`: one row per notification as shown. `fold_key` names
 *   what events fold into it while it is unread (e.g. every new follower
 *   into one "Ana and 12 others followed you", every message of one room
 *   into one `room_message`); once read, the next event starts a new one.
 *   `seq` orders them, newest first, and moves up when an event folds in
 *   (so `before` pages never repeat or skip). `scope_type`/`scope_id`: the
 *   character or room it is about, which the Worker checks is still
 *   visible before it is shown.
 * - `notification_actors`: the distinct people behind a notification's
 *   events (their shown name, picture), newest first: the shown actor and
 *   "and N others"; forgetting a person (a block) takes their part out.
 * - `settings`: one row, the person's choices (DESIGN.md `PUT
 *   /api/profile/notifications`).
 *
 * Everything here is synchronous SQL inside one object, so counts are
 * exact however many events arrive at once (the object handles one call's
 * synchronous part at a time). Times are ms since the epoch.
 */
import {
  DEFAULT_NOTIFICATION_SETTINGS,
  type Notification,
  type NotificationActor,
  type NotificationKind,
  type NotificationSettings,
  type NotificationTarget,
  type QuietHours,
  NOTIFICATION_KINDS,
  notificationText,
} from "../../schema/notifications.ts";

/** A change of settings (`PUT /api/profile/notifications`): what is absent stays. */
export interface NotificationSettingsChange {
  kinds?: Partial<Record<NotificationKind, boolean>>;
  push?: boolean;
  quietHours?: QuietHours | null;
}

/** Notifications kept per person: beyond it the oldest read ones go, then the oldest. */
export const MAX_NOTIFICATIONS_KEPT = 1_000;

/** One event as a producer hands it to the inbox. */
export interface InboxEvent {
  kind: NotificationKind;
  /** Who caused it (user id), or null (a milestone). Never the recipient: producers drop those. */
  actorId: string | null;
  actor: NotificationActor | null;
  target: NotificationTarget;
  /** What events fold into one while unread (e.g. `room_message:<conversationId>`). */
  foldKey: string;
  /** The character or room whose visibility decides whether it is shown; null: always shown. */
  scope: { type: "character" | "conversation"; id: string } | null;
  milestone?: number | null;
  /** Deliver only if no notification of this fold key is kept, read or not (a milestone is told once). */
  once?: boolean;
  /** When it happened (ms); default now. */
  at?: number;
}

/** A stored notification with the scope the Worker checks. */
export interface StoredNotification extends Notification {
  scope: InboxEvent["scope"];
}

interface NotificationRow extends Record<string, SqlStorageValue> {
  id: string;
  seq: number;
  kind: string;
  fold_key: string;
  target: string;
  scope_type: string | null;
  scope_id: string | null;
  milestone: number | null;
  event_count: number;
  created_at: number;
  read_at: number | null;
  actor: string | null;
  actor_count: number;
}

const MIGRATIONS: string[][] = [
  [
    `CREATE TABLE notifications (
      id TEXT PRIMARY KEY,
      seq INTEGER NOT NULL UNIQUE,
      kind TEXT NOT NULL,
      fold_key TEXT NOT NULL,
      target TEXT NOT NULL,
      scope_type TEXT,
      scope_id TEXT,
      milestone INTEGER,
      has_actor INTEGER NOT NULL,
      event_count INTEGER NOT NULL,
      created_at INTEGER NOT NULL,
      read_at INTEGER
    )`,
    "CREATE INDEX notifications_unread_fold ON notifications (fold_key) WHERE read_at IS NULL",
    "CREATE INDEX notifications_scope ON notifications (scope_type, scope_id)",
    `CREATE TABLE notification_actors (
      notification_id TEXT NOT NULL,
      actor_id TEXT NOT NULL,
      actor TEXT NOT NULL,
      at INTEGER NOT NULL,
      PRIMARY KEY (notification_id, actor_id)
    )`,
    "CREATE INDEX notification_actors_actor ON notification_actors (actor_id)",
    "CREATE TABLE settings (id INTEGER PRIMARY KEY CHECK (id = 1), value TEXT NOT NULL)",
  ],
];

/** The inbox's SQL, over the object's `ctx.storage.sql`. */
export class InboxStore {
  constructor(private readonly sql: SqlStorage) {
    sql.exec("CREATE TABLE IF NOT EXISTS _schema (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)");
    const version = sql.exec<{ version: number }>("SELECT version FROM _schema").toArray()[0]?.version ?? 0;
    for (let v = version; v < MIGRATIONS.length; v += 1) for (const statement of MIGRATIONS[v]!) sql.exec(statement);
    sql.exec("INSERT INTO _schema (id, version) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET version = excluded.version", MIGRATIONS.length);
  }

  settings(): NotificationSettings {
    const row = this.sql.exec<{ value: string }>("SELECT value FROM settings WHERE id = 1").toArray()[0];
    const saved = row ? (JSON.parse(row.value) as Partial<NotificationSettings>) : {};
    const kinds = { ...DEFAULT_NOTIFICATION_SETTINGS.kinds };
    for (const kind of NOTIFICATION_KINDS) if (typeof saved.kinds?.[kind] === "boolean") kinds[kind] = saved.kinds[kind];
    return { kinds, push: saved.push ?? DEFAULT_NOTIFICATION_SETTINGS.push, quietHours: saved.quietHours ?? null };
  }

  /** Merges `change` into the settings (`quietHours: null` removes them); returns them whole. */
  updateSettings(change: NotificationSettingsChange): NotificationSettings {
    const current = this.settings();
    const next: NotificationSettings = {
      kinds: { ...current.kinds, ...change.kinds },
      push: change.push ?? current.push,
      quietHours: change.quietHours === undefined ? current.quietHours : change.quietHours,
    };
    this.sql.exec("INSERT INTO settings (id, value) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET value = excluded.value", JSON.stringify(next));
    return next;
  }

  /**
   * Stores `event`: folded into the unread notification of the same
   * `foldKey` when there is one (it moves to the top, its count and people
   * grow), else a new one. Returns the notification as now shown, or null
   * when the person turned this kind off.
   */
  deliver(event: InboxEvent): StoredNotification | null {
    if (!this.settings().kinds[event.kind]) return null;
    if (event.once && this.sql.exec("SELECT 1 FROM notifications WHERE fold_key = ?", event.foldKey).toArray().length > 0) return null;
    const at = event.at ?? Date.now();
    const seq = this.nextSeq();
    const open = this.sql.exec<{ id: string }>("SELECT id FROM notifications WHERE fold_key = ? AND read_at IS NULL", event.foldKey).toArray()[0];
    let id: string;
    if (open) {
      id = open.id;
      this.sql.exec(
        "UPDATE notifications SET seq = ?, event_count = event_count + 1, created_at = ?, target = ?, milestone = coalesce(?, milestone) WHERE id = ?",
        seq,
        at,
        JSON.stringify(event.target),
        event.milestone ?? null,
        id,
      );
    } else {
      id = crypto.randomUUID();
      this.sql.exec(
        `INSERT INTO notifications (id, seq, kind, fold_key, target, scope_type, scope_id, milestone, has_actor, event_count, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?)`,
        id,
        seq,
        event.kind,
        event.foldKey,
        JSON.stringify(event.target),
        event.scope?.type ?? null,
        event.scope?.id ?? null,
        event.milestone ?? null,
        event.actorId ? 1 : 0,
        at,
      );
    }
    if (event.actorId && event.actor) {
      this.sql.exec(
        `INSERT INTO notification_actors (notification_id, actor_id, actor, at) VALUES (?, ?, ?, ?)
         ON CONFLICT (notification_id, actor_id) DO UPDATE SET actor = excluded.actor, at = excluded.at`,
        id,
        event.actorId,
        JSON.stringify(event.actor),
        at,
      );
    }
    this.trim();
    return this.byId(id);
  }

  /** Unread notifications (a folded one counts once). */
  unread(): number {
    return this.sql.exec<{ n: number }>("SELECT count(*) AS n FROM notifications WHERE read_at IS NULL").one().n;
  }

  /** Newest first, at most `limit`, older than the notification `before` (unknown `before`: from the newest). */
  list(limit: number, before?: string): StoredNotification[] {
    const cursor = before ? this.sql.exec<{ seq: number }>("SELECT seq FROM notifications WHERE id = ?", before).toArray()[0]?.seq : undefined;
    const rows = this.sql
      .exec<NotificationRow>(`${SELECT_ROWS} WHERE n.seq < ? ORDER BY n.seq DESC LIMIT ?`, cursor ?? Number.MAX_SAFE_INTEGER, limit)
      .toArray();
    return rows.map(toNotification);
  }

  /** Marks `ids` (or every one, `"all"`) read; returns how many changed. */
  markRead(which: string[] | "all", at = Date.now()): number {
    if (which === "all") return this.sql.exec("UPDATE notifications SET read_at = ? WHERE read_at IS NULL", at).rowsWritten;
    let changed = 0;
    for (const id of which) changed += this.sql.exec("UPDATE notifications SET read_at = ? WHERE id = ? AND read_at IS NULL", at, id).rowsWritten;
    return changed;
  }

  /** Marks read the unread notification of `foldKey` (e.g. a room's messages, once the person opened it); returns how many changed (0 or 1). */
  markFoldRead(foldKey: string, at = Date.now()): number {
    return this.sql.exec("UPDATE notifications SET read_at = ? WHERE fold_key = ? AND read_at IS NULL", at, foldKey).rowsWritten;
  }

  /**
   * Takes `actorId`'s part out of every notification (a block): a
   * notification left with nobody behind it goes. Returns how many went.
   */
  forgetActor(actorId: string): number {
    this.sql.exec("DELETE FROM notification_actors WHERE actor_id = ?", actorId);
    return this.sql.exec(
      "DELETE FROM notifications WHERE has_actor = 1 AND NOT EXISTS (SELECT 1 FROM notification_actors a WHERE a.notification_id = notifications.id)",
    ).rowsWritten;
  }

  /** Deletes the notifications about these characters or rooms (no longer visible to the person). Returns how many. */
  forgetScopes(scopes: { type: "character" | "conversation"; id: string }[]): number {
    let gone = 0;
    for (const scope of scopes) gone += this.sql.exec("DELETE FROM notifications WHERE scope_type = ? AND scope_id = ?", scope.type, scope.id).rowsWritten;
    this.dropOrphanActors();
    return gone;
  }

  /** Deletes these notifications (their target is gone). */
  forget(ids: string[]): number {
    let gone = 0;
    for (const id of ids) gone += this.sql.exec("DELETE FROM notifications WHERE id = ?", id).rowsWritten;
    this.dropOrphanActors();
    return gone;
  }

  /** Drops the people of notifications that are gone (the object's SQLite enforces no foreign keys for us). */
  private dropOrphanActors(): void {
    this.sql.exec("DELETE FROM notification_actors WHERE notification_id NOT IN (SELECT id FROM notifications)");
  }

  byId(id: string): StoredNotification | null {
    const row = this.sql.exec<NotificationRow>(`${SELECT_ROWS} WHERE n.id = ?`, id).toArray()[0];
    return row ? toNotification(row) : null;
  }

  private nextSeq(): number {
    return this.sql.exec<{ seq: number }>("SELECT coalesce(max(seq), 0) + 1 AS seq FROM notifications").one().seq;
  }

  /** Keeps at most MAX_NOTIFICATIONS_KEPT: the oldest read ones go first, then the oldest. */
  private trim(): void {
    const total = this.sql.exec<{ n: number }>("SELECT count(*) AS n FROM notifications").one().n;
    if (total <= MAX_NOTIFICATIONS_KEPT) return;
    this.sql.exec(
      "DELETE FROM notifications WHERE id IN (SELECT id FROM notifications ORDER BY read_at IS NULL, seq LIMIT ?)",
      total - MAX_NOTIFICATIONS_KEPT,
    );
    this.dropOrphanActors();
  }
}

const SELECT_ROWS = `SELECT n.id, n.seq, n.kind, n.fold_key, n.target, n.scope_type, n.scope_id, n.milestone, n.event_count, n.created_at, n.read_at,
  (SELECT a.actor FROM notification_actors a WHERE a.notification_id = n.id ORDER BY a.at DESC, a.rowid DESC LIMIT 1) AS actor,
  (SELECT count(*) FROM notification_actors a WHERE a.notification_id = n.id) AS actor_count
  FROM notifications n`;

function toNotification(row: NotificationRow): StoredNotification {
  const base = {
    id: row.id,
    kind: row.kind as NotificationKind,
    createdAt: new Date(row.created_at).toISOString(),
    readAt: row.read_at === null ? null : new Date(row.read_at).toISOString(),
    actor: row.actor === null ? null : (JSON.parse(row.actor) as NotificationActor),
    target: JSON.parse(row.target) as NotificationTarget,
    count: row.event_count,
    actorCount: row.actor_count,
    milestone: row.milestone,
  };
  return {
    ...base,
    text: notificationText(base),
    scope: row.scope_type === null ? null : { type: row.scope_type as "character" | "conversation", id: row.scope_id! },
  };
}
