/**
 * What a room keeps between frames beside its messages, in its own SQLite
 * storage (room/migrations.ts): each cast member's card as last read from
 * D1 (`cast_cards`, read by prompt-inputs.ts), and the answer of each
 * steering frame by its clientId (`frame_receipts`, steering.ts: a resend
 * after a reconnect gets the same answer). Nothing here throws beyond what
 * SQLite throws.
 */
import { StoragePart } from "./storage-part.ts";
import type { ServerFrame } from "../../schema/chat-frames.ts";

/** How long the answer of a steering frame is kept for its clientId (a resend after a reconnect), ms. */
export const FRAME_RECEIPT_TTL_MS = 24 * 60 * 60 * 1000;

export class RoomKept extends StoragePart {

  /** Member `characterId`'s card as last read from D1 (JSON) and when, ms. */
  readCard(characterId: number): { card: string; read_at: number } | null {
    return this.sql<{ card: string; read_at: number }>("SELECT card, read_at FROM cast_cards WHERE character_id = ?", characterId)[0] ?? null;
  }

  writeCard(characterId: number, card: string, readAt: number): void {
    this.sql(
      `INSERT INTO cast_cards (character_id, card, read_at) VALUES (?, ?, ?)
       ON CONFLICT (character_id) DO UPDATE SET card = excluded.card, read_at = excluded.read_at`,
      characterId,
      card,
      readAt,
    );
  }

  /** The kept answer of the steering frame with `clientId`, if any. */
  receipt(clientId: string): ServerFrame | null {
    const row = this.sql<{ answer: string }>("SELECT answer FROM frame_receipts WHERE client_id = ?", clientId)[0];
    return row ? (JSON.parse(row.answer) as ServerFrame) : null;
  }

  /** Keeps a steering frame's answer for its `clientId` (the first one stays), and forgets those older than FRAME_RECEIPT_TTL_MS. */
  keepReceipt(clientId: string, answer: ServerFrame): void {
    const now = Date.now();
    this.sql("DELETE FROM frame_receipts WHERE created_at < ?", now - FRAME_RECEIPT_TTL_MS);
    this.sql(
      "INSERT INTO frame_receipts (client_id, answer, created_at) VALUES (?, ?, ?) ON CONFLICT (client_id) DO NOTHING",
      clientId,
      JSON.stringify(answer),
      now,
    );
  }
}
