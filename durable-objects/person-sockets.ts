/**
 * PersonSockets — one small Durable Object per person (binding
 * PERSON_SOCKETS, `idFromName(userId)`) that counts the person's open chat
 * sockets across all their conversations and enforces
 * MAX_SOCKETS_PER_PERSON (socket-limits.ts).
 *
 * Why an object: each conversation's sockets live in that conversation's
 * ConversationRoom, and no room sees the others. On Cloudflare the only
 * place with a consistent, immediate view of "all of this person's sockets"
 * is a single object addressed by the person: a KV counter is eventually
 * consistent, D1 is one writer for the whole app, and a rate limiter counts
 * opens rather than what is open. This object holds a list, not sockets: it
 * costs a storage row per socket and wakes only when a socket opens or
 * closes.
 *
 * Protocol (RPC, called by the rooms):
 * - `opened({socketId, conversationId})` after a room accepted a socket.
 *   Over the cap, the list is first checked against the rooms themselves
 *   (`SocketHolder.openSocketIds`): a room restarted by a deploy loses its
 *   sockets without a close event, and such stale entries must not make a
 *   live socket be closed. Then the oldest entries beyond the cap are
 *   removed and their rooms asked to close them (1008,
 *   CLOSE_REASONS.personCap). Calls are handled one at a time.
 * - `closed(socketId)` when a socket closed (idempotent).
 * - `waiting(socketId)` / `doneWaiting(socketId)` (called by the Worker's
 *   `/ws`): bare sockets waiting for `join` live in a Worker, not a room,
 *   and are counted apart: at most MAX_WAITING_SOCKETS_PER_PERSON at once,
 *   each for JOIN_TIMEOUT_MS at most; beyond it the new one is refused.
 * - `closeAll(reason)` when the person was suspended (room/suspension.ts)
 *   or deleted their account: every listed socket is asked to close and the
 *   list is emptied.
 * - `closeSessions(sessionIds, reason)` when sessions were ended from the
 *   list of signed-in devices: the sockets opened under them close.
 * `closeAll` and `closeSessions` also close the person's notification
 * sockets, which their Inbox holds (durable-objects/inbox/inbox.ts): this
 * object stays the one place that ends every socket of a person, and the
 * Inbox stays out of the hot path of every chat socket's open and close
 * (docs/decisions/0037-notifications.md "Sockets").
 * So the list can only over-count between a room's restart and the next
 * time the cap is reached, and it never grows beyond the cap plus the
 * sockets being opened at that moment.
 */
import { DurableObject } from "cloudflare:workers";
import type { Inbox } from "./inbox/inbox.ts";
import {
  CLOSE_REASONS,
  JOIN_TIMEOUT_MS,
  MAX_SOCKETS_PER_PERSON,
  MAX_WAITING_SOCKETS_PER_PERSON,
  type SocketHolder,
} from "./socket-limits.ts";

interface SocketRow extends Record<string, SqlStorageValue> {
  id: string;
  conversation_id: string;
  /** The public id of the session it was opened under; null when unknown. */
  session_id: string | null;
}

export class PersonSockets extends DurableObject<Env> {
  /** The call being handled: `opened` calls run one after another. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // Insertion order (rowid) is the age order.
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS sockets (id TEXT PRIMARY KEY, conversation_id TEXT NOT NULL, session_id TEXT)");
    // Objects created before sockets were named by session get the column once.
    const columns = ctx.storage.sql.exec<{ name: string }>("SELECT name FROM pragma_table_info('sockets')").toArray();
    if (!columns.some((column) => column.name === "session_id")) ctx.storage.sql.exec("ALTER TABLE sockets ADD COLUMN session_id TEXT");
    // Bare /ws sockets waiting for join (in a Worker, not a room), until when they may wait (ms since the epoch).
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS waiting (id TEXT PRIMARY KEY, until INTEGER NOT NULL)");
  }

  /**
   * A room accepted `socketId` for `conversationId`. Resolves once the
   * person is back within the cap (the oldest sockets beyond it asked to
   * close). Never rejects for a room that cannot be reached (logged).
   */
  async opened(socket: { socketId: string; conversationId: string; sessionId?: string | null }): Promise<void> {
    const run = this.queue.then(() => this.admit(socket));
    this.queue = run.catch(() => {});
    return run;
  }

  /**
   * The person was suspended: every socket on the list is asked to close
   * (1008, `reason`) and the list is emptied. Resolves with how many were
   * asked; a room that cannot be reached is logged.
   */
  async closeAll(reason: string): Promise<number> {
    const run = this.queue.then(() => this.closeEvery(reason));
    this.queue = run.catch(() => {});
    const [closed] = await Promise.all([run, this.closeInboxSockets(null, reason)]);
    return closed;
  }

  /**
   * Sessions `sessionIds` were ended: the sockets opened under them are
   * asked to close (1008, `reason`) and leave the list. Resolves with how
   * many were asked.
   */
  async closeSessions(sessionIds: string[], reason: string): Promise<number> {
    const wanted = new Set(sessionIds);
    const run = this.queue.then(() => this.closeWhere((row) => row.session_id !== null && wanted.has(row.session_id), reason));
    this.queue = run.catch(() => {});
    const [closed] = await Promise.all([run, this.closeInboxSockets(sessionIds, reason)]);
    return closed;
  }

  /** Closes the person's notification sockets (all, or those of `sessionIds`); an Inbox that cannot be reached is logged. */
  private async closeInboxSockets(sessionIds: string[] | null, reason: string): Promise<number> {
    const namespace = this.env.INBOX as unknown as DurableObjectNamespace<Inbox>;
    // This object is addressed by the person's id (`idFromName(userId)`), and so is their Inbox.
    const userId = this.ctx.id.name;
    if (!userId) {
      console.warn("could not close notification sockets: the object's name is unknown");
      return 0;
    }
    try {
      return await namespace.get(namespace.idFromName(userId)).closeSockets(sessionIds, reason);
    } catch (error) {
      console.warn("could not close notification sockets", String(error));
      return 0;
    }
  }

  /**
   * A bare `/ws` socket `socketId` is about to wait for `join`: true when it
   * may (it is counted until `joined`/closed, or JOIN_TIMEOUT_MS plus a
   * second at most, so a lost call cannot keep a place), false when the
   * person already has MAX_WAITING_SOCKETS_PER_PERSON waiting.
   */
  async waiting(socketId: string): Promise<boolean> {
    const now = Date.now();
    this.ctx.storage.sql.exec("DELETE FROM waiting WHERE until <= ?", now);
    const count = this.ctx.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM waiting").one().n;
    if (count >= MAX_WAITING_SOCKETS_PER_PERSON) return false;
    this.ctx.storage.sql.exec("INSERT OR IGNORE INTO waiting (id, until) VALUES (?, ?)", socketId, now + JOIN_TIMEOUT_MS + 1_000);
    return true;
  }

  /** Bare `/ws` socket `socketId` joined or closed: it no longer waits (idempotent). */
  async doneWaiting(socketId: string): Promise<void> {
    this.ctx.storage.sql.exec("DELETE FROM waiting WHERE id = ?", socketId);
  }

  /** `socketId` closed (or never reached the list): it no longer counts. */
  async closed(socketId: string): Promise<void> {
    this.ctx.storage.sql.exec("DELETE FROM sockets WHERE id = ?", socketId);
  }

  /** The person's counted sockets, oldest first (for tests and diagnosis). */
  async list(): Promise<{ socketId: string; conversationId: string }[]> {
    return this.rows().map((row) => ({ socketId: row.id, conversationId: row.conversation_id }));
  }

  private rows(): SocketRow[] {
    return this.ctx.storage.sql.exec<SocketRow>("SELECT id, conversation_id, session_id FROM sockets ORDER BY rowid").toArray();
  }

  private async admit(socket: { socketId: string; conversationId: string; sessionId?: string | null }): Promise<void> {
    this.ctx.storage.sql.exec(
      "INSERT OR IGNORE INTO sockets (id, conversation_id, session_id) VALUES (?, ?, ?)",
      socket.socketId,
      socket.conversationId,
      socket.sessionId ?? null,
    );
    if (this.rows().length <= MAX_SOCKETS_PER_PERSON) return;
    await this.dropStale();
    const rows = this.rows();
    const excess = rows.slice(0, Math.max(0, rows.length - MAX_SOCKETS_PER_PERSON));
    for (const row of excess) {
      this.ctx.storage.sql.exec("DELETE FROM sockets WHERE id = ?", row.id);
      try {
        await this.room(row.conversation_id).closeSocket(row.id, CLOSE_REASONS.personCap);
      } catch (error) {
        console.warn("could not close a socket over the per-person cap", row.conversation_id, String(error));
      }
    }
  }

  private closeEvery(reason: string): Promise<number> {
    return this.closeWhere(() => true, reason);
  }

  private async closeWhere(which: (row: SocketRow) => boolean, reason: string): Promise<number> {
    const rows = this.rows().filter(which);
    for (const row of rows) this.ctx.storage.sql.exec("DELETE FROM sockets WHERE id = ?", row.id);
    await Promise.all(
      rows.map(async (row) => {
        try {
          await this.room(row.conversation_id).closeSocket(row.id, reason);
        } catch (error) {
          console.warn("could not close a socket", row.conversation_id, String(error));
        }
      }),
    );
    return rows.length;
  }

  /** Removes entries whose room no longer has them open; a room that cannot be asked keeps its entries. */
  private async dropStale(): Promise<void> {
    const byConversation = new Map<string, SocketRow[]>();
    for (const row of this.rows()) byConversation.set(row.conversation_id, [...(byConversation.get(row.conversation_id) ?? []), row]);
    await Promise.all(
      [...byConversation].map(async ([conversationId, rows]) => {
        let open: Set<string>;
        try {
          open = new Set(await this.room(conversationId).openSocketIds());
        } catch (error) {
          console.warn("could not ask a room for its sockets", conversationId, String(error));
          return;
        }
        for (const row of rows) if (!open.has(row.id)) this.ctx.storage.sql.exec("DELETE FROM sockets WHERE id = ?", row.id);
      }),
    );
  }

  private room(conversationId: string): SocketHolder {
    const rooms = this.env.CONVERSATIONS;
    return rooms.get(rooms.idFromName(conversationId.toLowerCase())) as unknown as SocketHolder;
  }
}
