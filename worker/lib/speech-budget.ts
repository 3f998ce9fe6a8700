/**
 * Each person's budget of audio read aloud (DESIGN.md "Voices": the rate
 * limit counts audio seconds, not requests): at most SPEECH_BUDGET.audioMs
 * of newly made audio in each fixed window of SPEECH_BUDGET.windowMs,
 * aligned to the clock like the rate-limit bindings. Audio from the cache
 * costs nothing. D1 table `speech_usage` (schema/db-chat.ts).
 *
 * A request reserves what its words would take (`estimatedSpeechMs`) before
 * anything is spoken — one atomic upsert, so requests sent at once cannot
 * all pass on the same count — and settles to the audio really made when
 * its stream ends. A request is admitted while the window's count is under
 * the budget, so the last one may pass it by at most one message's cap
 * (5 minutes).
 */
import { SPEECH_CAPS } from "../../ai/speech/speech.ts";
import { ApiError } from "./errors.ts";

/**
 * 15 minutes of audio every 10 minutes: more than a person can listen to
 * (Voice mode reads every reply as it comes, a group chat several replies
 * a round, and a skipped reply costs what was made of it), far below what
 * a script could ask for.
 */
export const SPEECH_BUDGET = { windowMs: 10 * 60_000, audioMs: 15 * 60_000 } as const;

/**
 * What speaking `text` is expected to take, ms: 14 characters a second
 * (about 150 words a minute), at most a message's cap.
 */
export function estimatedSpeechMs(text: string): number {
  return Math.min(SPEECH_CAPS.maxMs, Math.ceil((text.length * 1000) / 14));
}

/** A reservation against a person's budget, to settle when the audio is made. */
export interface SpeechReservation {
  userId: string;
  windowStart: number;
  reservedMs: number;
}

/**
 * Reserves `reserveMs` of `userId`'s window at `now` (ms since the epoch).
 *
 * @throws ApiError 429 `rate_limited`, `Retry-After` until the window ends,
 *   when the window's audio already reached the budget (nothing is reserved).
 */
export async function reserveSpeech(db: D1Database, userId: string, reserveMs: number, now = Date.now()): Promise<SpeechReservation> {
  const windowStart = now - (now % SPEECH_BUDGET.windowMs);
  const row = await db
    .prepare(
      `INSERT INTO speech_usage (user_id, window_start, audio_ms) VALUES (?1, ?2, ?3)
       ON CONFLICT (user_id, window_start) DO UPDATE SET audio_ms = audio_ms + excluded.audio_ms
       RETURNING audio_ms AS audioMs`,
    )
    .bind(userId, windowStart, reserveMs)
    .first<{ audioMs: number }>();
  if (row && row.audioMs - reserveMs >= SPEECH_BUDGET.audioMs) {
    await db.prepare("UPDATE speech_usage SET audio_ms = audio_ms - ?3 WHERE user_id = ?1 AND window_start = ?2").bind(userId, windowStart, reserveMs).run();
    const seconds = Math.ceil((windowStart + SPEECH_BUDGET.windowMs - now) / 1000);
    const minutes = Math.ceil(seconds / 60);
    throw new ApiError(
      "rate_limited",
      `You've had a lot read aloud in the last few minutes. Please try again in ${minutes === 1 ? "a minute" : `${minutes} minutes`}.`,
      { retryAfter: seconds },
    );
  }
  return { userId, windowStart, reservedMs: reserveMs };
}

/** Counts the audio really made (`madeMs`) instead of what was reserved. @throws what D1 throws. */
export async function settleSpeech(db: D1Database, reservation: SpeechReservation, madeMs: number): Promise<void> {
  const change = Math.round(madeMs) - reservation.reservedMs;
  if (change === 0) return;
  await db
    .prepare("UPDATE speech_usage SET audio_ms = max(0, audio_ms + ?3) WHERE user_id = ?1 AND window_start = ?2")
    .bind(reservation.userId, reservation.windowStart, change)
    .run();
}

/** Removes the counts of windows that ended more than a day before `now` (the daily cron). */
export async function deleteOldSpeechUsage(db: D1Database, now = Date.now()): Promise<void> {
  await db.prepare("DELETE FROM speech_usage WHERE window_start < ?").bind(now - 86_400_000).run();
}
