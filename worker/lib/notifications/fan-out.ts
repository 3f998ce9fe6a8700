/**
 * `followed_character`: a creator publishes, every follower is told, and
 * publishing never waits for them (docs/decisions/0037-notifications.md
 * "Fan-out").
 *
 * The publishing request only sends one message to the `fabled-notifications`
 * queue (`queuePublication`, after its answer). The queue's consumer
 * (`consumeNotifications`, worker/index.ts) then:
 * 1. a `publication` message: reads the character (still listed?) and its
 *    creator, then the followers FOLLOWER_PAGE at a time by keyset
 *    (`follows_followee_idx`), leaving out anyone a block separates from
 *    the creator, either way (one statement: `blockedEitherWaySql`); every
 *    DELIVERY_SIZE of them become one `delivery` message, sent back to the
 *    queue in batches of up to 100 (`sendBatch`);
 * 2. a `delivery` message: calls each recipient's Inbox (DELIVERY_SIZE
 *    calls at once); a failure makes Queues deliver the message again,
 *    and the Inbox folds the repeat into the unread notification of the
 *    same character, so nobody sees it twice while it is unread.
 * So 10,000 followers cost 2 D1 reads, 100 delivery messages and 10,000
 * Inbox calls, spread over consumer invocations of at most
 * 10 × DELIVERY_SIZE calls each.
 */
import type { InboxEvent } from "../../../durable-objects/inbox/store.ts";
import { blockedEitherWaySql } from "../blocks.ts";
import { listedSql } from "../listable.ts";
import { inbox, loadActor, targets } from "./notify.ts";

/** Followers read per D1 query. */
export const FOLLOWER_PAGE = 5_000;
/** Recipients per delivery message (Inbox calls made together). */
export const DELIVERY_SIZE = 100;
/** Messages per `sendBatch` (the Queues limit). */
const SEND_BATCH = 100;

export type NotificationMessage =
  | { type: "publication"; characterId: number; creatorId: string }
  | { type: "delivery"; recipients: string[]; event: InboxEvent };

/** After a character became listed: queues its fan-out. Never throws (logged). */
export async function queuePublication(env: Env, characterId: number, creatorId: string): Promise<void> {
  try {
    await env.NOTIFICATIONS.send({ type: "publication", characterId, creatorId } satisfies NotificationMessage);
  } catch (error) {
    console.warn("could not queue a publication's notifications", characterId, String(error));
  }
}

/**
 * The consumer of `fabled-notifications`. A message that throws is retried
 * alone (the others are acknowledged).
 */
export async function consumeNotifications(batch: MessageBatch<NotificationMessage>, env: Env): Promise<void> {
  await Promise.all(
    batch.messages.map(async (message) => {
      try {
        if (message.body.type === "publication") await fanOut(env, message.body.characterId, message.body.creatorId);
        else await deliverAll(env, message.body.recipients, message.body.event);
        message.ack();
      } catch (error) {
        console.warn("notification message failed; it will be retried", message.body.type, String(error));
        message.retry();
      }
    }),
  );
}

async function fanOut(env: Env, characterId: number, creatorId: string): Promise<void> {
  const character = await env.DB.prepare(`SELECT id, name FROM characters c WHERE c.id = ? AND c.creator_id = ? AND ${listedSql("c")}`)
    .bind(characterId, creatorId)
    .first<{ id: number; name: string }>();
  const actor = await loadActor(env.DB, creatorId);
  if (!character || !actor) return;
  const event: InboxEvent = {
    kind: "followed_character",
    actorId: creatorId,
    actor,
    target: targets.character(character.id, character.name),
    foldKey: `followed_character:${character.id}`,
    scope: { type: "character", id: String(character.id) },
  };
  let after = "";
  for (;;) {
    const { results } = await env.DB.prepare(
      `SELECT f.follower_id AS id FROM follows f
       WHERE f.followee_id = ?1 AND f.follower_id > ?2 AND NOT ${blockedEitherWaySql("?1", "f.follower_id")}
       ORDER BY f.follower_id LIMIT ?3`,
    )
      .bind(creatorId, after, FOLLOWER_PAGE)
      .all<{ id: string }>();
    if (results.length === 0) break;
    const messages: MessageSendRequest<NotificationMessage>[] = [];
    for (let i = 0; i < results.length; i += DELIVERY_SIZE) {
      messages.push({ body: { type: "delivery", recipients: results.slice(i, i + DELIVERY_SIZE).map((row) => row.id), event } });
    }
    for (let i = 0; i < messages.length; i += SEND_BATCH) await env.NOTIFICATIONS.sendBatch(messages.slice(i, i + SEND_BATCH));
    after = results[results.length - 1]!.id;
    if (results.length < FOLLOWER_PAGE) break;
  }
}

async function deliverAll(env: Env, recipients: string[], event: InboxEvent): Promise<void> {
  const failed: unknown[] = [];
  await Promise.all(
    recipients.map((id) =>
      inbox(env, id)
        .deliver(event, id)
        .catch((error: unknown) => failed.push(error)),
    ),
  );
  if (failed.length > 0) throw new Error(`${failed.length} of ${recipients.length} inboxes failed: ${String(failed[0])}`);
}
