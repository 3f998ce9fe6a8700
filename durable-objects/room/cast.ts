/**
 * A room's cast (DESIGN.md "Group chats"): its characters in member order,
 * in the room's own SQLite (`cast_members`, room/migrations.ts) and kept in
 * memory, read on open and after every write. The Worker owns the cast (D1
 * `conversation_characters`) and replaces this copy after each change
 * (RoomStore.setCast). Nothing here throws beyond what SQLite throws.
 */
import { StoragePart } from "./storage-part.ts";
import type { RoomCastMember } from "../room-protocol.ts";
import type { CastRow } from "./migrations.ts";

export class RoomCast extends StoragePart {
  /** The cast in member order, as last read. */
  private rows: CastRow[] = [];

  /** Reads the cast from storage into memory (on open, and after `write`'s transaction). */
  read(): void {
    this.rows = this.sql<CastRow>("SELECT * FROM cast_members ORDER BY position");
  }

  /** The cast in member order. */
  list(): readonly CastRow[] {
    return this.rows;
  }

  /** The member `characterId`, or null when it is not (or no longer) in the cast. */
  member(characterId: number): CastRow | null {
    return this.rows.find((row) => row.character_id === characterId) ?? null;
  }

  /**
   * Replaces the stored cast with `members`, in their order. A member new to
   * the cast joins after the newest message (`joined_seq`: it recalls
   * nothing said before, memory.ts); the others keep theirs. Call inside
   * the caller's transaction, then `read`.
   */
  write(members: RoomCastMember[]): void {
    const joined = new Map(this.sql<{ character_id: number; joined_seq: number }>("SELECT character_id, joined_seq FROM cast_members").map((row) => [row.character_id, row.joined_seq]));
    const newest = this.sql<{ seq: number | null }>("SELECT max(seq) AS seq FROM messages")[0]?.seq ?? 0;
    this.sql("DELETE FROM cast_members");
    members.forEach((member, position) =>
      this.sql(
        "INSERT INTO cast_members (character_id, position, name, muted, talkativeness, joined_seq) VALUES (?, ?, ?, ?, ?, ?)",
        member.characterId,
        position,
        member.name,
        member.muted ? 1 : 0,
        member.talkativeness,
        joined.get(member.characterId) ?? newest,
      ),
    );
  }
}
