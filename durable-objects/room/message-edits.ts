/**
 * What steering and screening change in a stored message, in the room's own
 * SQLite (`messages`, room/migrations.ts): a swipe's shown version, an
 * edit, screening's replacement text, an operator's removal, and
 * screening's retraction of a message and everything after it. Each returns
 * the row as it now is (or the ids gone). Nothing here throws beyond what
 * SQLite throws.
 *
 * Every change of a message's words (not a swipe: the other version's
 * audio stays good) is told to `wordsChanged` with the ids, so the room
 * deletes their audio read aloud (speech-audio.ts).
 */
import { StoragePart } from "./storage-part.ts";
import type { MessageRow } from "./migrations.ts";
import { expressionsColumn, versionExpressions } from "./message-rows.ts";

/** A version of a reply as `chooseVersion` gives it: the text shown, the others, and its place (null: the newest). */
export interface ChosenVersion {
  content: string;
  alternatives: string[];
  swipeIndex?: number;
}

export class MessageEdits extends StoragePart {
  private readonly wordsChanged: (messageIds: string[]) => void;

  /** `wordsChanged`: told the ids of messages whose words changed or went. */
  constructor(storage: DurableObjectStorage, wordsChanged: (messageIds: string[]) => void = () => {}) {
    super(storage);
    this.wordsChanged = wordsChanged;
  }

  /**
   * Makes `chosen` the reply's shown version (a swipe), with that version's
   * own expression (message-rows.ts versionExpressions), and returns the row.
   */
  setVersion(messageId: string, chosen: ChosenVersion): MessageRow {
    const before = this.sql<MessageRow>("SELECT * FROM messages WHERE id = ?", messageId)[0];
    const expressions = before ? versionExpressions(before) : [];
    const index = chosen.swipeIndex ?? chosen.alternatives.length;
    return this.sql<MessageRow>(
      "UPDATE messages SET content = ?, alternatives = ?, swipe_index = ?, expression = ?, version_expressions = ? WHERE id = ? RETURNING *",
      chosen.content,
      JSON.stringify(chosen.alternatives),
      chosen.swipeIndex ?? null,
      expressions[index] ?? null,
      expressionsColumn(expressions),
      messageId,
    )[0]!;
  }

  /** An edit: the shown text becomes `content`, `edited_at` now. */
  editContent(messageId: string, content: string): MessageRow {
    const row = this.sql<MessageRow>("UPDATE messages SET content = ?, edited_at = ? WHERE id = ? RETURNING *", content, Date.now(), messageId)[0]!;
    // Only replies are read aloud.
    if (row?.role === "character") this.wordsChanged([messageId]);
    return row;
  }

  /** Replaces a message's text with `to` if it is still `from` (screening); null when it changed meanwhile. */
  replaceContent(messageId: string, from: string, to: string): MessageRow | null {
    const row = this.sql<MessageRow>("UPDATE messages SET content = ? WHERE id = ? AND content = ? RETURNING *", to, messageId, from)[0] ?? null;
    if (row) this.wordsChanged([messageId]);
    return row;
  }

  /** An operator removed the message: its text becomes `text`, its other versions go. Null when it was already so (or is streaming). */
  hideMessage(messageId: string, text: string): MessageRow | null {
    const row =
      this.sql<MessageRow>(
        `UPDATE messages SET content = ?, alternatives = '[]', swipe_index = NULL, usage = NULL, expression = NULL, version_expressions = NULL, edited_at = ?
         WHERE id = ? AND status IN ('complete', 'superseded') AND content != ? RETURNING *`,
        text,
        Date.now(),
        messageId,
        text,
      )[0] ?? null;
    if (row) this.wordsChanged([messageId]);
    return row;
  }

  /** Deletes message `messageId` and everything after it (screening's retraction); the ids gone that were not superseded. */
  deleteFrom(messageId: string): string[] {
    const deleted = this.storage.transactionSync(() => {
      const at = this.sql<{ seq: number }>("SELECT seq FROM messages WHERE id = ?", messageId)[0];
      if (!at) return [];
      return this.sql<{ id: string; status: string }>("DELETE FROM messages WHERE seq >= ? RETURNING id, status", at.seq);
    });
    this.wordsChanged(deleted.map((row) => row.id));
    return deleted.filter((row) => row.status !== "superseded").map((row) => row.id);
  }
}
