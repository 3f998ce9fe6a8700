/**
 * Whether a signed-in person browses with NSFW content shown, and their
 * confirmation of being 18 or older (issue 26 "Adult content,
 * deliberately"): NSFW is off for everyone new; turning it on the first
 * time needs the confirmation, which is recorded once, with its time, and
 * kept when NSFW is turned off again.
 */
import type { ContentSettings } from "../../schema/api.ts";
import type { ContentSettingsInput } from "../../schema/inputs.ts";
import { ApiError } from "./errors.ts";

/** Said when NSFW is turned on without the confirmation ever having been given. */
export const ADULT_CONFIRMATION_REQUIRED = "Confirm that you are 18 or older to show NSFW content";

const toSettings = (row: { showNsfw: number; adultConfirmedAt: number | null }): ContentSettings => ({
  showNsfw: row.showNsfw === 1,
  adultConfirmedAt: row.adultConfirmedAt ?? null,
});

/** The person's settings; throws when the user does not exist. */
export async function getContentSettings(db: D1Database, userId: string): Promise<ContentSettings> {
  const row = await db
    .prepare("SELECT show_nsfw AS showNsfw, adult_confirmed_at AS adultConfirmedAt FROM users WHERE id = ?")
    .bind(userId)
    .first<{ showNsfw: number; adultConfirmedAt: number | null }>();
  if (!row) throw new Error(`User ${userId} not found`);
  return toSettings(row);
}

/**
 * Saves `showNsfw`; `confirmAdult` records the confirmation at `now` (ms)
 * unless one is recorded already. Throws a 400 ApiError
 * (ADULT_CONFIRMATION_REQUIRED) when NSFW is turned on with no confirmation
 * recorded or given; nothing is changed then.
 */
export async function setContentSettings(
  db: D1Database,
  userId: string,
  input: ContentSettingsInput,
  now = Date.now(),
): Promise<ContentSettings> {
  // One statement: the check and the write cannot be split by another write.
  const row = await db
    .prepare(
      `UPDATE users SET show_nsfw = ?1,
         adult_confirmed_at = CASE WHEN ?2 THEN coalesce(adult_confirmed_at, ?3) ELSE adult_confirmed_at END
       WHERE id = ?4 AND (?1 = 0 OR ?2 OR adult_confirmed_at IS NOT NULL)
       RETURNING show_nsfw AS showNsfw, adult_confirmed_at AS adultConfirmedAt`,
    )
    .bind(input.showNsfw ? 1 : 0, input.confirmAdult ? 1 : 0, now, userId)
    .first<{ showNsfw: number; adultConfirmedAt: number | null }>();
  if (!row) throw new ApiError("validation_failed", ADULT_CONFIRMATION_REQUIRED);
  return toSettings(row);
}
