/**
 * A new room's first rows, written once when the Worker creates the
 * conversation (store.ts `create`): the `room` row, the cast, the seed
 * messages (a branch's or an import's, stored as the wire has them) else
 * each member's greeting with its alternates, a branch's lorebook timers and
 * pictures, and the owner as the first person.
 *
 * Times are ms since the epoch. Statements throw what SQLite throws; none
 * is expected in use.
 */
import type { RoomFacts } from "../room-protocol.ts";
import type { RoomCast } from "./cast.ts";
import type { ImageRows } from "./image-rows.ts";
import type { RoomLore } from "./lore.ts";
import { expressionsColumn, readExpressionList, readUsageList, usageColumn } from "./message-rows.ts";
import { StoragePart } from "./storage-part.ts";

/** A branch's picture to copy in R2: `from` the source chat's key, `to` this chat's, `id` the new row's. */
export interface PictureCopy {
  id: string;
  from: string;
  to: string;
}

export class RoomSeed extends StoragePart {
  private readonly cast: RoomCast;
  private readonly lore: RoomLore;
  private readonly images: ImageRows;

  /** The store's parts the seed writes through (cast.ts, lore.ts, image-rows.ts). */
  constructor(storage: DurableObjectStorage, cast: RoomCast, lore: RoomLore, images: ImageRows) {
    super(storage);
    this.cast = cast;
    this.lore = lore;
    this.images = images;
  }

  /** Writes the first rows in one transaction; returns the pictures' objects to copy. */
  write(facts: RoomFacts): PictureCopy[] {
    const copies: PictureCopy[] = [];
    this.storage.transactionSync(() => {
      this.sql(
        "INSERT INTO room (id, conversation_id, user_id, character_id, user_name, created_at, memory, reply_order) VALUES (1, ?, ?, ?, ?, ?, ?, ?)",
        facts.conversationId,
        facts.userId,
        facts.characterId,
        facts.userName,
        facts.createdAt,
        facts.memory ?? "",
        facts.replyOrder ?? "natural",
      );
      this.cast.write(facts.cast.length > 0 ? facts.cast : [{ characterId: facts.characterId, name: "", muted: false, talkativeness: 0.5 }]);
      if (facts.messages) {
        for (const message of facts.messages) {
          // Stored as the wire has it (content shown, the other versions, swipeIndex); a person's message has one version.
          const alternatives = message.isUser ? [] : message.alternatives;
          const at = message.swipeIndex;
          const swipeIndex = at !== undefined && Number.isInteger(at) && at >= 0 && at < alternatives.length ? at : null;
          const expressions = readExpressionList(message.versionExpressions);
          this.sql(
            `INSERT INTO messages (id, role, content, created_at, alternatives, swipe_index, character_id, author_id, author_name, hidden, usage,
               version_expressions, expression)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
            crypto.randomUUID(),
            message.isUser ? "user" : "character",
            message.content,
            message.createdAt,
            JSON.stringify(alternatives),
            swipeIndex,
            message.isUser ? null : (message.characterId ?? facts.characterId),
            message.isUser ? facts.userId : null,
            message.isUser ? (message.authorName ?? facts.userName) : null,
            message.hidden ? 1 : 0,
            message.isUser ? null : usageColumn(readUsageList(message.versionUsage)),
            message.isUser ? null : expressionsColumn(expressions),
            message.isUser ? null : (expressions[swipeIndex ?? alternatives.length] ?? null),
          );
        }
        // A branch's lorebook timers, counted in messages as the copies are (room/lore.ts).
        if (facts.lorebookState) this.lore.keepCurrent(facts.lorebookState);
        // A branch's pictures, each after the message it followed (its new `seq`).
        const seqs = this.sql<{ seq: number }>("SELECT seq FROM messages ORDER BY seq").map((row) => row.seq);
        for (const picture of facts.pictures ?? []) {
          const id = crypto.randomUUID();
          const to = `pictures/${facts.conversationId}/${id}`;
          this.images.insert({
            id,
            after_seq: picture.afterIndex >= 0 ? (seqs[picture.afterIndex] ?? 0) : 0,
            created_at: picture.createdAt,
            author_id: picture.authorId,
            author_name: picture.authorName,
            character_id: picture.characterId,
            prompt: picture.prompt,
            object_key: to,
            content_type: picture.contentType,
            width: picture.width,
            height: picture.height,
          });
          copies.push({ id, from: picture.sourceKey, to });
        }
      } else {
        for (const greeting of facts.greetings) {
          // The greeting is the first of its versions; the alternate greetings follow (a swipe away).
          this.sql(
            "INSERT INTO messages (id, role, content, created_at, alternatives, swipe_index, character_id) VALUES (?, 'character', ?, ?, ?, ?, ?)",
            crypto.randomUUID(),
            greeting.content,
            facts.createdAt,
            JSON.stringify(greeting.alternatives),
            greeting.alternatives.length > 0 ? 0 : null,
            greeting.characterId,
          );
        }
      }
      // The owner is the first person; what the room starts with (a branch's last message included) is taken up.
      this.sql(
        "INSERT INTO people (user_id, name, role, seen_at) VALUES (?, ?, 'owner', ?) ON CONFLICT (user_id) DO NOTHING",
        facts.userId,
        facts.userName,
        facts.createdAt,
      );
      this.sql("UPDATE room SET answered_through = coalesce((SELECT max(seq) FROM messages), 0) WHERE id = 1");
    });
    return copies;
  }
}
