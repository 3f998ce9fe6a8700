/**
 * Producing notifications (DESIGN.md turn 4 "Notifications";
 * docs/decisions/0037-notifications.md): the one path by which an act
 * reaches another person's inbox (durable-objects/inbox/).
 *
 * `notify` drops what must never be delivered — one's own act, an act
 * across a block either way (worker/lib/blocks.ts `isBlockedEitherWay`) —
 * and hands the rest to the recipient's Inbox, which folds and counts.
 * Producers call it after their answer (`afterResponse`): a notification
 * never slows or fails the act that causes it, so `notifyLater` logs a
 * failure instead of throwing.
 *
 * The producers (each names its fold key, so repeated events read as one):
 * - `comment_reply` (the parent's author; folds per parent comment),
 *   `character_comment` (the creator, for a top-level comment; per
 *   character): worker/routes/comments.ts.
 * - `new_follower` (one folded notification while unread): worker/routes/users.ts.
 * - `followed_character`: fan-out.ts (through the notifications queue).
 * - `room_joined` (the room's owner and members; per room): worker/routes/invites.ts.
 * - `room_message` (members away from the room; per room until read):
 *   the ConversationRoom, through the same Inbox RPC.
 * - `favorite_milestone` (the creator, once per milestone): worker/routes/favorites.ts.
 */
import type { Inbox } from "../../../durable-objects/inbox/inbox.ts";
import type { InboxEvent } from "../../../durable-objects/inbox/store.ts";
import { type NotificationActor, type NotificationKind, type NotificationTarget } from "../../../schema/notifications.ts";
import { creatorPath } from "../../../schema/usernames.ts";
import { isBlockedEitherWay } from "../blocks.ts";

/** The person's Inbox (durable-objects/inbox/inbox.ts). */
export function inbox(env: Env, userId: string): DurableObjectStub<Inbox> {
  const namespace = env.INBOX as unknown as DurableObjectNamespace<Inbox>;
  return namespace.get(namespace.idFromName(userId));
}

/** The actor as notifications show them; null when the account is gone. One D1 query. */
export async function loadActor(db: D1Database, userId: string): Promise<NotificationActor | null> {
  const row = await db
    .prepare("SELECT username, nullif(trim(coalesce(name, '')), '') AS name, profile_image_url AS avatarUrl FROM users WHERE id = ?")
    .bind(userId)
    .first<NotificationActor>();
  return row ?? null;
}

/** An event before its actor is looked up. */
export interface Notice {
  kind: NotificationKind;
  /** Or built from the actor once looked up (a new follower's notification leads to their page). */
  target: NotificationTarget | ((actor: NotificationActor) => NotificationTarget);
  foldKey: string;
  scope: InboxEvent["scope"];
  milestone?: number | null;
  /** Deliver only if no notification of this fold key was ever kept (a milestone is told once). */
  once?: boolean;
}

/**
 * Delivers `notice` from `actorId` (null: no actor) to `recipientId`.
 * Returns false, delivering nothing, for one's own act, a block either
 * way, or an actor whose account is gone. D1: one or two queries; one
 * Inbox call.
 */
export async function notify(env: Env, recipientId: string, actorId: string | null, notice: Notice): Promise<boolean> {
  if (actorId === recipientId) return false;
  let actor: NotificationActor | null = null;
  if (actorId !== null) {
    if (await isBlockedEitherWay(env.DB, actorId, recipientId)) return false;
    actor = await loadActor(env.DB, actorId);
    if (!actor) return false;
  }
  const target = typeof notice.target === "function" ? (actor ? notice.target(actor) : null) : notice.target;
  if (!target) return false;
  const stored = await inbox(env, recipientId).deliver({ ...notice, target, actorId, actor }, recipientId);
  return stored !== null;
}

/** `notify` for after the answer: never throws (a failure is logged; the act already happened). */
export async function notifyLater(env: Env, recipientId: string, actorId: string | null, notice: Notice): Promise<void> {
  try {
    await notify(env, recipientId, actorId, notice);
  } catch (error) {
    console.warn("could not deliver a notification", notice.kind, String(error));
  }
}

/** Targets, as the web app's paths name them. */
export const targets = {
  character: (id: number, name: string): NotificationTarget => ({ type: "character", id: String(id), title: name, url: `/character/${id}` }),
  comment: (commentId: number, characterId: number, characterName: string): NotificationTarget => ({
    type: "comment",
    id: String(commentId),
    title: characterName,
    url: `/character/${characterId}#comment-${commentId}`,
  }),
  conversation: (id: string, title: string): NotificationTarget => ({ type: "conversation", id, title, url: `/chat/${id}` }),
  person: (actor: NotificationActor): NotificationTarget => ({
    type: "user",
    id: actor.username,
    title: actor.name ?? actor.username,
    url: creatorPath(actor.username),
  }),
};
