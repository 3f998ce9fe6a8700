/**
 * Notifications (issue 39, DESIGN.md turn 4 "Notifications";
 * docs/decisions/0037-notifications.md): the kinds, the wire shapes of
 * `GET /api/notifications` and `/ws/notifications`, the settings, and the
 * one sentence each notification reads as (the bell's list, the page and a
 * push say the same words).
 */
import { z } from "zod";

/** Every kind, in the order the settings list them. */
export const NOTIFICATION_KINDS = [
  "comment_reply",
  "character_comment",
  "new_follower",
  "followed_character",
  "room_joined",
  "room_message",
  "favorite_milestone",
  "character_check_in",
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** What each kind is called in the settings. */
export const NOTIFICATION_KIND_LABELS: Record<NotificationKind, string> = {
  comment_reply: "Replies to your comments",
  character_comment: "Comments on your characters",
  new_follower: "New followers",
  followed_character: "New characters from creators you follow",
  room_joined: "People joining your shared chats",
  room_message: "New messages in shared chats you're away from",
  favorite_milestone: "Favorite milestones of your characters",
  character_check_in: "Characters checking in",
};

/** The person who caused it, as shown (null for a milestone). */
export interface NotificationActor {
  username: string;
  name: string | null;
  avatarUrl: string | null;
}

/** What it is about, and where a click leads (a path of this site). */
export interface NotificationTarget {
  type: "character" | "comment" | "conversation" | "user";
  id: string;
  title: string;
  url: string;
}

/** One notification as `GET /api/notifications` and the socket carry it. */
export interface Notification {
  id: string;
  kind: NotificationKind;
  /** ISO time of its newest event (a folded notification moves up as events join it). */
  createdAt: string;
  readAt: string | null;
  /** The newest event's actor. */
  actor: NotificationActor | null;
  target: NotificationTarget;
  /** Events folded into it (1 when it stands alone). */
  count: number;
  /** Distinct people behind those events, the actor included (0 without an actor). */
  actorCount: number;
  /** `favorite_milestone`: the count reached (10, 100, 1,000 …); else null. */
  milestone: number | null;
  /** The sentence it reads as (`notificationText`). */
  text: string;
}

export interface NotificationList {
  notifications: Notification[];
  /** Unread notifications (a folded one counts once), exact. */
  unread: number;
}

/** `GET/PUT /api/profile/notifications`. `kinds` holds every kind (true: delivered). */
export interface NotificationSettings {
  kinds: Record<NotificationKind, boolean>;
  push: boolean;
}

export const DEFAULT_NOTIFICATION_SETTINGS: NotificationSettings = {
  kinds: Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, true])) as Record<NotificationKind, boolean>,
  push: false,
};

/** Frames of `/ws/notifications`, server → client. */
export type NotificationFrame =
  | { type: "unread"; count: number }
  | { type: "notification"; notification: Notification; unread: number };

/** The frames parsed (the web client and tests read them through this). */
export const notificationFrameSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("unread"), count: z.number().int().min(0) }),
  z.object({ type: z.literal("notification"), notification: z.custom<Notification>((value) => typeof value === "object" && value !== null), unread: z.number().int().min(0) }),
]);

// ---------------------------------------------------------------------------
// Inputs.

/** Longest page of `GET /api/notifications`. */
export const MAX_NOTIFICATION_PAGE = 100;

export const notificationsQuerySchema = z.object({
  limit: z.coerce.number({ message: "limit must be a number" }).int("limit must be a whole number").min(1, "limit must be at least 1").max(MAX_NOTIFICATION_PAGE, `limit must be at most ${MAX_NOTIFICATION_PAGE}`).default(30),
  before: z.string().uuid("before must be a notification id").optional(),
});

/** `POST /api/notifications/read`: `{ids}` (1–100 of one's own; unknown ids are ignored) or `{all: true}`. */
export const notificationsReadInputSchema = z.union(
  [
    z.object({ ids: z.array(z.string().uuid("Each id must be a notification id")).min(1, "ids must name at least one notification").max(MAX_NOTIFICATION_PAGE, `ids may name at most ${MAX_NOTIFICATION_PAGE} notifications`) }).strict(),
    z.object({ all: z.literal(true, { message: "all must be true" }) }).strict(),
  ],
  { message: "Send {ids: [...]} or {all: true}" },
);

/** `PUT /api/profile/notifications`: kinds not named keep their setting. */
export const notificationSettingsInputSchema = z
  .object({
    kinds: z.partialRecord(z.enum(NOTIFICATION_KINDS, { message: "Unknown notification kind" }), z.boolean({ message: "Each kind is on (true) or off (false)" })).optional(),
    push: z.boolean({ message: "push must be true or false" }).optional(),
  })
  .strict();

// ---------------------------------------------------------------------------
// Wording.

/** Powers of ten from 10: the favorite counts that are milestones. */
export function isFavoriteMilestone(count: number): boolean {
  if (count < 10) return false;
  let n = count;
  while (n % 10 === 0) n /= 10;
  return n === 1;
}

function who(actor: NotificationActor | null, actorCount: number): string {
  const name = actor ? (actor.name?.trim() || actor.username) : "Someone";
  const others = actorCount - 1;
  if (others <= 0) return name;
  return `${name} and ${others.toLocaleString("en")} ${others === 1 ? "other" : "others"}`;
}

/** The sentence a notification reads as, e.g. "Ana and 12 others followed you". */
export function notificationText(n: Pick<Notification, "kind" | "actor" | "actorCount" | "target" | "milestone" | "count">): string {
  const by = who(n.actor, n.actorCount);
  const title = n.target.title;
  switch (n.kind) {
    case "comment_reply":
      return `${by} replied to your comment on ${title}`;
    case "character_comment":
      return `${by} commented on ${title}`;
    case "new_follower":
      return `${by} followed you`;
    case "followed_character":
      return `${by} published ${title}`;
    case "room_joined":
      return `${by} joined ${title}`;
    case "room_message":
      return n.count > 1 ? `${by} wrote ${n.count.toLocaleString("en")} messages in ${title}` : `${by} wrote in ${title}`;
    case "favorite_milestone":
      return `${title} reached ${(n.milestone ?? 0).toLocaleString("en")} favorites`;
    case "character_check_in":
      return `${title} checked in on you`;
  }
}
