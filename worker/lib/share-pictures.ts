/**
 * The pictures of share links (docs/decisions/0036, "2026-11-28 (later):
 * pictures in shares"). A picture imagined in a chat lives in its room's R2
 * prefix (`pictures/{conversationId}/…`) and goes with the picture, the chat
 * and the account; a share is a snapshot that must outlive edits and
 * deletions in the chat. So sharing copies each shown picture (the version
 * shown then) to an object the share owns, `shares/{token}/{position}`,
 * served at `/objects/shares/{token}/{position}` like avatars (immutable,
 * ETag) — but only while the share exists and the operator has not removed
 * the picture it was copied from (`servesSharePicture`), so a revoked or
 * removed share's pictures answer 404 at once, whichever path deleted it.
 *
 * The copies go with their share:
 * - revoke, deleting the chat, deleting a character (its chats go with it)
 *   and deleting an account delete them after the D1 rows
 *   (`forgetSharePictures`, given the tokens read before; a token whose
 *   share still exists keeps its copies);
 * - the operator CLI (`npm run moderation`, no R2 access) deletes the row,
 *   and an upheld report on a picture hides its message: the daily cron's
 *   `sweepSharePictures` deletes what no share owns any more, and the
 *   copies of removed pictures (at once with the CLI's `--site`, whose
 *   enforcement call runs `deleteRemovedSharePictures` for the chat).
 * "Continue this story" copies them again into the reader's new room
 * (`SeedPicture.sourceKey`), so that chat owns its own files.
 */
import { SHARE_TOKEN_PATTERN } from "../../schema/shares.ts";

/** The R2 prefix of share `token`'s pictures. */
export const sharePicturesPrefix = (token: string) => `shares/${token}/`;

/** The R2 key of the picture at `position` of share `token`. */
export const sharePictureKey = (token: string, position: number) => `${sharePicturesPrefix(token)}${position}`;

/** The public path of that picture. */
export const sharePictureUrl = (token: string, position: number) => `/objects/${sharePictureKey(token, position)}`;

/** A share picture's key: `shares/{token}/{position}` (the token as SHARE_TOKEN_PATTERN, position a whole number). */
export const SHARE_PICTURE_KEY = /^shares\/([A-Za-z0-9_-]{22})\/(0|[1-9]\d{0,5})$/;

/** Operator removals this long before the sweep are applied again (idempotent), ms. */
const REMOVAL_WINDOW_MS = 2 * 86_400_000;

/** Copies made at once while sharing (each a get and a put). */
const COPY_CONCURRENCY = 4;

/** The R2 key of a chat picture from its served path (`/objects/pictures/{conversationId}/{key}`), or null for any other path. */
export function chatPictureKey(imageUrl: string | undefined, conversationId: string): string | null {
  const prefix = `/objects/pictures/${conversationId}/`;
  if (!imageUrl?.startsWith(prefix)) return null;
  const rest = imageUrl.slice(prefix.length);
  return /^[\w-]{1,64}$/.test(rest) ? imageUrl.slice("/objects/".length) : null;
}

/**
 * Copies each picture `{position, sourceKey}` to share `token`'s own key,
 * keeping the object's type and metadata (what `/objects/…` serves by).
 * Returns the positions copied; a source gone meanwhile (deleted from the
 * chat while it was shared) is left out. Throws what R2 throws (the caller
 * deletes the prefix).
 */
export async function copySharePictures(
  bucket: R2Bucket,
  token: string,
  pictures: readonly { position: number; sourceKey: string }[],
): Promise<Set<number>> {
  const copied = new Set<number>();
  let next = 0;
  const worker = async () => {
    while (next < pictures.length) {
      const picture = pictures[next++]!;
      const source = await bucket.get(picture.sourceKey);
      if (!source) continue;
      await bucket.put(sharePictureKey(token, picture.position), await source.arrayBuffer(), {
        httpMetadata: source.httpMetadata,
        customMetadata: source.customMetadata,
      });
      copied.add(picture.position);
    }
  };
  await Promise.all(Array.from({ length: Math.min(COPY_CONCURRENCY, pictures.length) }, worker));
  return copied;
}

/** Deletes every object under share `token`'s prefix, a page of listing at a time; how many. */
export async function deleteSharePictures(bucket: R2Bucket, token: string): Promise<number> {
  let removed = 0;
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix: sharePicturesPrefix(token), cursor });
    if (page.objects.length > 0) await bucket.delete(page.objects.map((object) => object.key));
    removed += page.objects.length;
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return removed;
}

/**
 * Deletes the pictures of those of `tokens` whose share no longer exists
 * (a caller passes every token that may have gone: a chat's, an account's).
 * Never throws: a failure is logged and the daily sweep finds the rest.
 */
export async function forgetSharePictures(env: Pick<Env, "DB" | "AVATARS">, tokens: readonly string[]): Promise<void> {
  const wanted = [...new Set(tokens)].filter((token) => SHARE_TOKEN_PATTERN.test(token));
  if (wanted.length === 0) return;
  try {
    const { results } = await env.DB.prepare("SELECT token FROM shares WHERE token IN (SELECT value FROM json_each(?))")
      .bind(JSON.stringify(wanted))
      .all<{ token: string }>();
    const alive = new Set(results.map((row) => row.token));
    await Promise.all(wanted.filter((token) => !alive.has(token)).map((token) => deleteSharePictures(env.AVATARS, token)));
  } catch (error) {
    console.error("forgetting share pictures failed", String(error));
  }
}

/**
 * True when `/objects/shares/{token}/{position}` may be served: the share
 * exists, that place of it is a picture, and the operator has not removed
 * the picture it was copied from.
 */
export async function servesSharePicture(db: D1Database, token: string, position: number): Promise<boolean> {
  const row = await db
    .prepare(
      `SELECT 1 AS ok FROM share_messages m JOIN shares s ON s.token = m.share_token
       WHERE m.share_token = ?1 AND m.position = ?2 AND m.kind = 'image'
         AND NOT EXISTS (SELECT 1 FROM hidden_messages h WHERE h.conversation_id = s.conversation_id AND h.message_id = m.message_id)`,
    )
    .bind(token, position)
    .first<{ ok: number }>();
  return row !== null;
}

/**
 * Deletes the share copies of pictures an operator removed from their chat
 * (`hidden_messages`): those of conversation `conversationId`, or those
 * removed since `since` (ms). Idempotent. Returns how many keys were
 * deleted; throws what D1 or R2 throws.
 */
export async function deleteRemovedSharePictures(
  env: Pick<Env, "DB" | "AVATARS">,
  which: { conversationId: string } | { since: number },
): Promise<number> {
  const { results } = await env.DB.prepare(
    `SELECT m.share_token AS token, m.position FROM share_messages m JOIN shares s ON s.token = m.share_token
     JOIN hidden_messages h ON h.conversation_id = s.conversation_id AND h.message_id = m.message_id
     WHERE m.kind = 'image' AND ${"conversationId" in which ? "s.conversation_id = ?" : "h.created_at >= ?"}`,
  )
    .bind("conversationId" in which ? which.conversationId : which.since)
    .all<{ token: string; position: number }>();
  const keys = results.map((row) => sharePictureKey(row.token, row.position));
  // R2 deletes at most 1,000 keys a call.
  for (let at = 0; at < keys.length; at += 1000) await env.AVATARS.delete(keys.slice(at, at + 1000));
  return keys.length;
}

/**
 * The daily sweep (worker/index.ts `scheduled`): deletes the pictures of
 * shares that are gone (the operator CLI's removal, or a deletion whose R2
 * step failed) and the copies of pictures an operator removed from their
 * chat in the two days before `now` (ms). Returns how many objects went; a
 * failure is logged.
 */
export async function sweepSharePictures(env: Pick<Env, "DB" | "AVATARS">, now = Date.now()): Promise<number> {
  let removed = 0;
  try {
    let cursor: string | undefined;
    do {
      const page = await env.AVATARS.list({ prefix: "shares/", delimiter: "/", cursor });
      const tokens = page.delimitedPrefixes.map((prefix) => prefix.slice("shares/".length, -1));
      if (tokens.length > 0) {
        const { results } = await env.DB.prepare("SELECT token FROM shares WHERE token IN (SELECT value FROM json_each(?))")
          .bind(JSON.stringify(tokens))
          .all<{ token: string }>();
        const alive = new Set(results.map((row) => row.token));
        for (const token of tokens) if (!alive.has(token)) removed += await deleteSharePictures(env.AVATARS, token);
      }
      cursor = page.truncated ? page.cursor : undefined;
    } while (cursor);
    // Removals of the last two days (the cron runs daily, with a day to spare), as worker/lib/removal-sweep.ts.
    removed += await deleteRemovedSharePictures(env, { since: now - REMOVAL_WINDOW_MS });
  } catch (error) {
    console.error("share picture sweep failed", String(error));
  }
  return removed;
}
