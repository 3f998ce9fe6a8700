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
  /** A picture of what it is about when no person acted (a check-in: the character's avatar); a push shows it. */
  imageUrl?: string;
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

/**
 * Quiet hours: a daily span, in the person's own time zone, when no
 * character checks in (and no push is shown). `start` and `end` are "HH:MM"
 * (24-hour); `end` before `start` spans midnight ("22:00"–"08:00"); equal
 * means none. `timeZone` is an IANA name ("Europe/Paris").
 */
export interface QuietHours {
  start: string;
  end: string;
  timeZone: string;
}

/** `GET/PUT /api/profile/notifications`. `kinds` holds every kind (true: delivered); `quietHours` null: none. */
export interface NotificationSettings {
  kinds: Record<NotificationKind, boolean>;
  push: boolean;
  quietHours: QuietHours | null;
}

export const DEFAULT_NOTIFICATION_SETTINGS: NotificationSettings = {
  kinds: Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, true])) as Record<NotificationKind, boolean>,
  push: false,
  quietHours: null,
};

/** Minutes since local midnight of "HH:MM". */
function minutesOf(time: string): number {
  const [h, m] = time.split(":").map(Number);
  return h! * 60 + m!;
}

/**
 * When the quiet hours that hold at `now` (ms since the epoch) end, ms since
 * the epoch; null when `now` is outside them (or there are none). The
 * local time is read with `Intl.DateTimeFormat` in `quiet.timeZone`; the end
 * is counted in whole minutes from there (a daylight-saving change inside
 * the span moves it by that hour at most).
 */
export function quietHoursEndAt(now: number, quiet: QuietHours | null): number | null {
  if (!quiet) return null;
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  if (start === end) return null;
  const parts = new Intl.DateTimeFormat("en-GB", { timeZone: quiet.timeZone, hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" }).formatToParts(new Date(now));
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const local = part("hour") * 60 + part("minute");
  const inside = start < end ? local >= start && local < end : local >= start || local < end;
  if (!inside) return null;
  const minutesLeft = (end - local + 1440) % 1440;
  return now - part("second") * 1000 - (now % 1000) + minutesLeft * 60_000;
}

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

const CLOCK_TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** `PUT /api/profile/notifications`: kinds not named keep their setting; `quietHours: null` removes them. */
export const notificationSettingsInputSchema = z
  .object({
    kinds: z.partialRecord(z.enum(NOTIFICATION_KINDS, { message: "Unknown notification kind" }), z.boolean({ message: "Each kind is on (true) or off (false)" })).optional(),
    push: z.boolean({ message: "push must be true or false" }).optional(),
    quietHours: z
      .object({
        start: z.string().regex(CLOCK_TIME, "start must be a time as HH:MM (24-hour)"),
        end: z.string().regex(CLOCK_TIME, "end must be a time as HH:MM (24-hour)"),
        timeZone: z.string().max(64).refine(isTimeZone, "timeZone must be an IANA time zone such as Europe/Paris"),
      })
      .strict()
      .nullable()
      .optional(),
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

// ---------------------------------------------------------------------------
// Web Push (DESIGN.md turn 4 "Notifications"; worker/routes/push.ts).

/** A base64url string of `bytes` bytes when decoded (no padding). */
function base64UrlOf(bytes: number, what: string) {
  const length = Math.ceil((bytes * 4) / 3);
  return z
    .string({ message: `${what} must be a base64url string` })
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, `${what} must be a base64url string`)
    .refine((value) => value.replace(/=+$/, "").length === length, `${what} must be ${bytes} bytes, base64url`);
}

/** Longest push service address accepted, characters (FCM's are ~200; Mozilla's and Apple's shorter). */
export const MAX_PUSH_ENDPOINT_LENGTH = 1_000;

/**
 * `POST /api/push/subscriptions`: the browser's `PushSubscription.toJSON()`
 * (W3C Push API): its push service `endpoint` (an https address, checked
 * like a model connection's base URL) and RFC 8291's keys: `p256dh`, the
 * device's uncompressed P-256 public key (65 bytes), and `auth` (16 bytes).
 */
export const pushSubscriptionInputSchema = z.object({
  endpoint: z.string({ message: "endpoint must be the push service's address" }).min(1, "endpoint must be the push service's address").max(MAX_PUSH_ENDPOINT_LENGTH, `endpoint may be at most ${MAX_PUSH_ENDPOINT_LENGTH} characters`),
  keys: z.object({ p256dh: base64UrlOf(65, "keys.p256dh"), auth: base64UrlOf(16, "keys.auth") }, { message: "keys must hold p256dh and auth" }),
  expirationTime: z.number().nullable().optional(),
});

/** `DELETE /api/push/subscriptions` `{endpoint}`: this device stops receiving pushes. */
export const pushUnsubscribeInputSchema = z.object({ endpoint: z.string({ message: "endpoint must be the push service's address" }).min(1).max(MAX_PUSH_ENDPOINT_LENGTH) });
