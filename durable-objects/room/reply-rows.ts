/**
 * A reply's row in the room's own SQLite (`messages`, room/migrations.ts)
 * while it is written (room/reply-writing.ts, replies.ts): begun as
 * "streaming" (a new version superseding the reply it replaces, or a
 * continue reopening it), its draft saved, completed with the tokens the
 * version cost (message-rows.ts versionUsage) and the expression it shows
 * (kept among its versions' so a swipe brings it back), kept as it was when
 * interrupted by a restart, or dropped / restored when it failed.
 *
 * Times are ms since the epoch. Statements throw what SQLite throws; none
 * is expected in use.
 */
import type { ReplyUsage } from "../../schema/chat.ts";
import { replyVersions } from "../../schema/chat-frames.ts";
import type { RoomMemory } from "./memory.ts";
import { addUsage, expressionsColumn, usageColumn, versionExpressions, versionFields, versionUsage } from "./message-rows.ts";
import type { MessageRow } from "./migrations.ts";
import { StoragePart } from "./storage-part.ts";

export class ReplyRows extends StoragePart {
  private readonly memory: RoomMemory;

  /** `memory`: the room's (memory.ts), whose prompt records a new version carries over. */
  constructor(storage: DurableObjectStorage, memory: RoomMemory) {
    super(storage);
    this.memory = memory;
  }

  /**
   * A reply begins, in one transaction: a continued reply goes back to
   * "streaming" and names itself in `replaces`; else the reply it replaces
   * (if any) becomes "superseded" and a new empty "streaming" row is added,
   * with the replaced reply's versions (`alternatives`) and their tokens.
   */
  beginReply(reply: { id: string; replaces: string | null; alternatives: string[]; continuing: boolean; characterId: number }): void {
    this.storage.transactionSync(() => {
      if (reply.continuing) {
        this.sql("UPDATE messages SET status = 'streaming', replaces = id WHERE id = ?", reply.id);
        return;
      }
      if (reply.replaces) this.sql("UPDATE messages SET status = 'superseded' WHERE id = ?", reply.replaces);
      // The versions keep their written order, so the replaced reply's list of tokens is the new row's as it is.
      // So are what each version recalled and its prompt record (memory.ts).
      this.sql(
        `INSERT INTO messages (id, role, content, created_at, status, alternatives, replaces, character_id, usage, recalled, version_expressions)
         VALUES (?, 'character', '', ?, 'streaming', ?, ?, ?, (SELECT usage FROM messages WHERE id = ?), (SELECT recalled FROM messages WHERE id = ?),
           (SELECT version_expressions FROM messages WHERE id = ?))`,
        reply.id,
        Date.now(),
        JSON.stringify(reply.alternatives),
        reply.replaces,
        reply.characterId,
        reply.replaces,
        reply.replaces,
        reply.replaces,
      );
      if (reply.replaces) this.memory.carryRecords(reply.replaces, reply.id);
    });
  }

  /** Saves the text of a reply being written so far. */
  saveDraft(messageId: string, content: string): void {
    this.sql("UPDATE messages SET content = ? WHERE id = ?", content, messageId);
  }

  /**
   * A reply is done: its text, "complete", dated `at`, and the tokens it
   * cost (`usage`, null when its endpoint reported none) for the version it
   * is. A continued reply (it names itself in `replaces`) adds them to what
   * that version had cost, when both are known; else its count is unknown.
   */
  completeReply(messageId: string, content: string, at: number, usage: ReplyUsage | null = null): MessageRow {
    const row = this.sql<MessageRow>("SELECT * FROM messages WHERE id = ?", messageId)[0] ?? null;
    let column: string | null = null;
    if (row) {
      const list = versionUsage(row);
      // The version being written: the newest for a new reply, the one shown for a continue.
      const current = replyVersions(versionFields(row)).current;
      list[current] = row.replaces === row.id ? addUsage(list[current] ?? null, usage) : usage;
      column = usageColumn(list);
    }
    return this.sql<MessageRow>(
      "UPDATE messages SET content = ?, status = 'complete', created_at = ?, replaces = NULL, usage = ? WHERE id = ? RETURNING *",
      content,
      at,
      column,
      messageId,
    )[0]!;
  }

  /**
   * Sets the expression of the version a reply shows, the one just written
   * (ai/expressions/classifier.ts), kept among its versions' so a swipe
   * brings it back; returns the row.
   */
  setExpression(messageId: string, expression: string | null): MessageRow | null {
    const row = this.sql<MessageRow>("SELECT * FROM messages WHERE id = ?", messageId)[0] ?? null;
    if (!row) return null;
    const list = versionExpressions(row);
    list[replyVersions(versionFields(row)).current] = expression;
    return (
      this.sql<MessageRow>(
        "UPDATE messages SET expression = ?, version_expressions = ? WHERE id = ? RETURNING *",
        expression,
        expressionsColumn(list),
        messageId,
      )[0] ?? null
    );
  }

  /** A reply interrupted by a restart keeps what was saved of it. */
  keepInterrupted(messageId: string): void {
    this.sql("UPDATE messages SET status = 'complete', replaces = NULL WHERE id = ?", messageId);
  }

  /** A failed continue: the reply gets back the text it had (null when it is gone). */
  restoreContinued(messageId: string, content: string): MessageRow | null {
    return (
      this.sql<MessageRow>("UPDATE messages SET content = ?, status = 'complete', replaces = NULL WHERE id = ? RETURNING *", content, messageId)[0] ??
      null
    );
  }

  /** Drops a failed reply and puts back the one it replaced, in one transaction. */
  dropReply(messageId: string, replaces: string | null): void {
    this.storage.transactionSync(() => {
      this.sql("DELETE FROM messages WHERE id = ?", messageId);
      if (replaces) this.sql("UPDATE messages SET status = 'complete' WHERE id = ? AND status = 'superseded'", replaces);
    });
  }
}
