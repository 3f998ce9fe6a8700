/**
 * The people of a room (DESIGN.md "Shared rooms") and their thumbs, in the
 * room's own SQLite storage (`people`, `ratings`; room/migrations.ts): who
 * plays here under which name and persona, who left or was removed, and
 * each person's own thumb on a reply (docs/decisions/0024). Nothing here
 * throws beyond what SQLite throws.
 */
import { StoragePart } from "./storage-part.ts";
import type { PersonRow } from "./migrations.ts";

export class RoomPeople extends StoragePart {
  /** `isShared()`'s answer until the people change; null: ask the table. */
  private shared: boolean | null = null;

  /** The conversation was deleted: nothing is known any more. */
  forget(): void {
    this.shared = null;
  }

  /**
   * Keeps who `userId` is in this room as the Worker said at their upgrade:
   * the name they play under, their persona's description (null: unchanged)
   * and role. Someone who left and came back is in the room again.
   */
  note(userId: string, person: { name: string; personaDescription: string | null; role: "owner" | "member" }): void {
    this.shared = null;
    this.sql(
      `INSERT INTO people (user_id, name, persona_description, role, removed, seen_at) VALUES (?, ?, coalesce(?, ''), ?, 0, ?)
       ON CONFLICT (user_id) DO UPDATE SET name = excluded.name, role = excluded.role, removed = 0, seen_at = excluded.seen_at,
         persona_description = coalesce(?, people.persona_description)`,
      userId,
      person.name,
      person.personaDescription,
      person.role,
      Date.now(),
      person.personaDescription,
    );
  }

  /** `userId` left the room or was removed: no longer one of its people (their messages stay). */
  markRemoved(userId: string): void {
    this.shared = null;
    this.sql("UPDATE people SET removed = 1 WHERE user_id = ? AND role = 'member'", userId);
  }

  /** Person `userId` as last seen, removed or not; null when they never connected. */
  of(userId: string): PersonRow | null {
    return this.sql<PersonRow>("SELECT * FROM people WHERE user_id = ?", userId)[0] ?? null;
  }

  /** The room's people now (the owner and every member who connected and is still in), the owner first, then by arrival. */
  list(): PersonRow[] {
    return this.sql<PersonRow>("SELECT * FROM people WHERE removed = 0 ORDER BY role = 'member', rowid");
  }

  /** More than one person plays here: a member who connected is still in the room. Asked on every message: kept until the people change. */
  isShared(): boolean {
    this.shared ??= this.sql<{ n: number }>("SELECT count(*) AS n FROM people WHERE role = 'member' AND removed = 0")[0]!.n > 0;
    return this.shared;
  }

  /** Person `userId`'s thumb on reply `messageId`, or null. */
  ratingOf(messageId: string, userId: string): 1 | -1 | null {
    return this.sql<{ rating: 1 | -1 }>("SELECT rating FROM ratings WHERE message_id = ? AND user_id = ?", messageId, userId)[0]?.rating ?? null;
  }

  /** Sets (or, null, takes back) person `userId`'s thumb on reply `messageId`. */
  setRating(messageId: string, userId: string, rating: 1 | -1 | null): void {
    if (rating === null) this.sql("DELETE FROM ratings WHERE message_id = ? AND user_id = ?", messageId, userId);
    else {
      this.sql(
        "INSERT INTO ratings (message_id, user_id, rating) VALUES (?, ?, ?) ON CONFLICT (message_id, user_id) DO UPDATE SET rating = excluded.rating",
        messageId,
        userId,
        rating,
      );
    }
  }

  /**
   * Person `userId` deleted their account: their thumbs are taken back and
   * their row is gone. Returns what the thumbs added to each character's
   * rating (counts of up and down), for the caller to take back in D1.
   */
  forgetPerson(userId: string): { characterId: number; up: number; down: number }[] {
    this.shared = null;
    const given = this.sql<{ characterId: number; up: number; down: number }>(
      `SELECT m.character_id AS characterId, sum(r.rating = 1) AS up, sum(r.rating = -1) AS down
       FROM ratings r JOIN messages m ON m.id = r.message_id
       WHERE r.user_id = ? AND m.character_id IS NOT NULL GROUP BY m.character_id`,
      userId,
    );
    this.sql("DELETE FROM ratings WHERE user_id = ?", userId);
    this.sql("DELETE FROM people WHERE user_id = ?", userId);
    return given;
  }
}
