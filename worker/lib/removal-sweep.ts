/**
 * Applies operators' recent message removals to their rooms (the daily
 * cron). An upheld report on a chat message is a row of D1's
 * `hidden_messages`, written by `npm run moderation`, which reaches neither
 * the room nor R2; the room replaces the text — and deletes the message's
 * audio read aloud (durable-objects/room/speech-audio.ts) — when the Worker
 * next opens it (moderatedRoom). Every read does, speech included, so
 * nobody sees or hears a removed message; this sweep makes sure the audio
 * is also deleted from R2 within a day when nobody opens the chat again.
 */
import { moderatedRoom } from "./conversations.ts";

/** Removals recorded this long before now are applied again (idempotent), ms: the cron runs daily, with a day to spare. */
const SWEEP_WINDOW_MS = 2 * 86_400_000;

/**
 * Tells each room with a removal recorded in the last two days (before
 * `now`, ms since the epoch) which of its messages are hidden. Returns how
 * many rooms were told. A room that fails is logged and the others go on.
 */
export async function applyRecentRemovals(env: Env, now = Date.now()): Promise<number> {
  const { results } = await env.DB.prepare(
    "SELECT DISTINCT conversation_id AS conversationId FROM hidden_messages WHERE created_at >= ?",
  )
    .bind(now - SWEEP_WINDOW_MS)
    .all<{ conversationId: string }>();
  for (const row of results) {
    try {
      // Undefined: the room reads every removal of its chat from D1, characters removed by moderation too.
      await moderatedRoom(env, row.conversationId);
    } catch (error) {
      console.error("removal sweep", row.conversationId, String(error));
    }
  }
  return results.length;
}
