/**
 * Character page views, counted off the read path through a Cloudflare Queue
 * (docs/decisions/0009-d1-sessions-and-view-queue.md):
 * - the request that shows a character sends one message per counted view
 *   (`sendView`, after the answer: `ctx.waitUntil`) and writes nothing to D1;
 * - the Worker's `queue()` handler (worker/index.ts) receives up to 100 views
 *   at a time and adds them in one D1 transaction (`countViews`): the views'
 *   ids go into `counted_views` (migration 0008), one UPDATE adds to each
 *   character only the ids that were new, and ids older than
 *   VIEW_ID_RETENTION_MS are deleted.
 *
 * Queues delivers at least once: a batch is delivered again when its handler
 * failed or its acknowledgement was lost, and "in rare occasions" a message
 * twice; Cloudflare's advice is a unique id in the message used as an
 * idempotency key (https://developers.cloudflare.com/queues/learning/delivery-guarantees).
 * That is the view's `viewId`; because the ids and the counters change in one
 * transaction, a view counts exactly once however often it is delivered.
 */
import { z } from "zod";

/** The body of a `fabled-views` message: one view of one character. */
export interface ViewMessage {
  characterId: number;
  /** A random UUID chosen when the view is sent: the idempotency key. */
  viewId: string;
}

/** What a message body must be to be counted (anything else is dropped with a warning). */
export const viewMessageSchema = z.object({
  characterId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  viewId: z.uuid(),
});

/**
 * How long a counted view's id is kept, ms: the queue's message retention
 * (Cloudflare's default, 4 days: https://developers.cloudflare.com/changelog/2025-02-14-customize-queue-retention-period)
 * and an hour more. A message cannot be delivered after it has left the
 * queue, so no duplicate can arrive once its id is gone. Raise this with the
 * queue's retention if that is ever changed (`wrangler queues update
 * fabled-views --message-retention-period-secs`).
 */
export const VIEW_ID_RETENTION_MS = (4 * 24 + 1) * 60 * 60 * 1000;

/** Sends one view of `characterId` to the views queue (the producer binding `VIEWS`). */
export async function sendView(queue: Queue, characterId: number): Promise<void> {
  const body: ViewMessage = { characterId, viewId: crypto.randomUUID() };
  await queue.send(body, { contentType: "json" });
}

/** What one call of `countViews` did. */
export interface CountedViews {
  /** Views added to the counters (new ids). */
  counted: number;
  /** Well-formed views whose id had been counted before (a redelivery). */
  duplicates: number;
  /** Messages that were not a ViewMessage (dropped). */
  malformed: number;
}

/**
 * Adds a batch of views to `characters.view_count` in one D1 transaction (see
 * the module comment): at most three statements whatever the batch size, one
 * of them the UPDATE of every character in the batch. Throws what D1 throws;
 * then nothing of the batch was counted and the queue delivers it again.
 * `now` (ms since the epoch) stamps the ids and sets the clean-up horizon.
 */
export async function countViews(db: D1Database, bodies: readonly unknown[], now = Date.now()): Promise<CountedViews> {
  const views: ViewMessage[] = [];
  for (const body of bodies) {
    const parsed = viewMessageSchema.safeParse(body);
    if (parsed.success) views.push(parsed.data);
  }
  const malformed = bodies.length - views.length;
  if (malformed > 0) console.warn(`views queue: dropped ${malformed} malformed message(s)`);
  if (views.length === 0) return { counted: 0, duplicates: 0, malformed };

  const batchId = crypto.randomUUID();
  const [inserted] = await db.batch([
    db
      .prepare(
        `INSERT INTO counted_views (view_id, character_id, batch_id, counted_at)
         SELECT v.value ->> '$.viewId', v.value ->> '$.characterId', ?1, ?2 FROM json_each(?3) AS v WHERE true
         ON CONFLICT (view_id) DO NOTHING`,
      )
      .bind(batchId, now, JSON.stringify(views)),
    db
      .prepare(
        `UPDATE characters SET view_count = view_count + n.views
         FROM (SELECT character_id, count(*) AS views FROM counted_views WHERE batch_id = ?1 GROUP BY character_id) AS n
         WHERE characters.id = n.character_id`,
      )
      .bind(batchId),
    db.prepare("DELETE FROM counted_views WHERE counted_at < ?").bind(now - VIEW_ID_RETENTION_MS),
  ]);
  const counted = inserted?.meta.changes ?? 0;
  return { counted, duplicates: views.length - counted, malformed };
}
