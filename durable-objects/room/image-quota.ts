/**
 * Each person's allowance of pictures (DESIGN.md "Pictures": at most 10 a
 * minute and 100 a day per person, refused with 429 or a `rate_limited`
 * frame that says when). Counted in D1 (`image_usage`, schema/db-chat.ts),
 * so pictures imagined in any room and avatars drawn in the studio share
 * one count. Used by the room (images.ts) and the Worker's avatar route.
 *
 * Windows are fixed and aligned to the clock like the rate-limit bindings:
 * the minute (`floor(now / 60 s)`) and the UTC day. A request takes one
 * from both windows in one atomic upsert each, so pictures asked for at
 * once cannot all pass on the same count; one refused, or whose picture
 * failed, gives its place back (`releaseImage`).
 *
 * The operator changes the limits with IMAGES_PER_MINUTE and IMAGES_PER_DAY.
 */

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** The allowance a deployment gives (vars IMAGES_PER_MINUTE, IMAGES_PER_DAY; 10 and 100 when unset or not a whole number ≥ 1). */
export function imageLimits(env: { IMAGES_PER_MINUTE?: string; IMAGES_PER_DAY?: string }): { perMinute: number; perDay: number } {
  const whole = (value: string | undefined, fallback: number) => {
    const n = Number(value);
    return Number.isInteger(n) && n >= 1 ? n : fallback;
  };
  return { perMinute: whole(env.IMAGES_PER_MINUTE, 10), perDay: whole(env.IMAGES_PER_DAY, 100) };
}

/** A place taken in both windows, to give back when the picture is not made. */
export interface ImageReservation {
  userId: string;
  minuteStart: number;
  dayStart: number;
}

/** What `reserveImage` answers: a place, or how long until one frees (ms) and a sentence saying so. */
export type ImageAdmission = { ok: true; reservation: ImageReservation } | { ok: false; retryAfterMs: number; message: string };

/** `ms` as a person reads a wait: "42 s", "3 h 20 min". */
function waitText(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/**
 * Takes a place for one picture of `userId` at `now` (ms since the epoch).
 * Refused — nothing kept — when the minute's or the day's count already
 * reached its limit. Throws what D1 throws.
 */
export async function reserveImage(db: D1Database, env: { IMAGES_PER_MINUTE?: string; IMAGES_PER_DAY?: string }, userId: string, now = Date.now()): Promise<ImageAdmission> {
  const { perMinute, perDay } = imageLimits(env);
  const minuteStart = now - (now % MINUTE_MS);
  const dayStart = now - (now % DAY_MS);
  const upsert = (window: "minute" | "day", start: number) =>
    db
      .prepare(
        `INSERT INTO image_usage (user_id, window, window_start, count) VALUES (?1, ?2, ?3, 1)
         ON CONFLICT (user_id, window, window_start) DO UPDATE SET count = count + 1
         RETURNING count`,
      )
      .bind(userId, window, start);
  const [minute, day] = await db.batch<{ count: number }>([
    upsert("minute", minuteStart),
    upsert("day", dayStart),
    db.prepare("DELETE FROM image_usage WHERE user_id = ?1 AND window_start < ?2").bind(userId, now - 2 * DAY_MS),
  ]);
  const reservation = { userId, minuteStart, dayStart };
  const minuteCount = minute?.results[0]?.count ?? 0;
  const dayCount = day?.results[0]?.count ?? 0;
  if (minuteCount <= perMinute && dayCount <= perDay) return { ok: true, reservation };
  await releaseImage(db, reservation);
  if (dayCount > perDay) {
    const retryAfterMs = dayStart + DAY_MS - now;
    return { ok: false, retryAfterMs, message: `You've made ${perDay} pictures today, the most for a day. Please try again in ${waitText(retryAfterMs)}.` };
  }
  const retryAfterMs = minuteStart + MINUTE_MS - now;
  return { ok: false, retryAfterMs, message: `You're making pictures too fast (${perMinute} a minute). Please try again in ${waitText(retryAfterMs)}.` };
}

/** Gives back a place `reserveImage` took (the picture was refused or failed). Never throws: a lost release only costs the person one picture of the day. */
export async function releaseImage(db: D1Database, reservation: ImageReservation): Promise<void> {
  const release = (window: "minute" | "day", start: number) =>
    db.prepare("UPDATE image_usage SET count = max(0, count - 1) WHERE user_id = ?1 AND window = ?2 AND window_start = ?3").bind(reservation.userId, window, start);
  try {
    await db.batch([release("minute", reservation.minuteStart), release("day", reservation.dayStart)]);
  } catch (error) {
    console.warn("could not give back a picture's place", String(error));
  }
}

/** How many pictures `userId` made today (UTC) and the day's limit: what the person sees. */
export async function imagesToday(db: D1Database, env: { IMAGES_PER_MINUTE?: string; IMAGES_PER_DAY?: string }, userId: string, now = Date.now()): Promise<{ used: number; limit: number }> {
  const dayStart = now - (now % DAY_MS);
  const row = await db.prepare("SELECT count FROM image_usage WHERE user_id = ? AND window = 'day' AND window_start = ?").bind(userId, dayStart).first<{ count: number }>();
  return { used: row?.count ?? 0, limit: imageLimits(env).perDay };
}
