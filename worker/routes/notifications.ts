/**
 * Notifications (DESIGN.md turn 4 "Notifications"; docs/decisions/0037):
 * each person's own, kept by their Inbox (durable-objects/inbox/).
 *
 * | route | answer |
 * | --- | --- |
 * | `GET /api/notifications?limit&before` | 200 `{notifications, unread}` newest first (`before`: a notification id of the previous page); 401 visitors; 400 a bad limit or before |
 * | `POST /api/notifications/read` `{ids} \| {all: true}` | 204; ids that are not one's own are ignored (another person's inbox is never reached) |
 * | `GET /api/profile/notifications` | 200 `{kinds, push, quietHours}` |
 * | `PUT /api/profile/notifications` `{kinds?, push?, quietHours?}` | 200 the settings whole; what is not named keeps its setting (`quietHours: null` removes them) |
 * | `/ws/notifications` | the live socket: `{type:"unread", count}` on open, `{type:"notification", notification, unread}` as they come, `{type:"unread", count}` when it changes elsewhere; 403 another Origin, 401 signed out, 426 not an upgrade |
 *
 * Every route reads and writes only the signed-in person's own Inbox
 * (`idFromName(user.id)`): no id a client sends can name another's.
 */
import { Hono } from "hono";
import type { Inbox } from "../../durable-objects/inbox/inbox.ts";
import { INBOX_UPGRADE_HEADERS } from "../../durable-objects/inbox/inbox.ts";
import type { StoredNotification } from "../../durable-objects/inbox/store.ts";
import {
  type Notification,
  type NotificationList,
  type NotificationSettings,
  notificationSettingsInputSchema,
  notificationsQuerySchema,
  notificationsReadInputSchema,
} from "../../schema/notifications.ts";
import type { AppEnv } from "../env.ts";
import { forbidden, suspended, unauthorized } from "../lib/errors.ts";
import { inbox } from "../lib/notifications/notify.ts";
import { invisibleNotifications } from "../lib/notifications/visibility.ts";
import { readSessionCookie, validateSessionToken } from "../lib/sessions.ts";
import { validate } from "../lib/validate.ts";
import { limitWrites } from "../middleware/rate-limit.ts";
import { requireUser } from "../middleware/session.ts";

function shown({ scope: _scope, ...notification }: StoredNotification): Notification {
  return notification;
}

/** A page with what the person can no longer see taken out of their inbox first (worker/lib/notifications/visibility.ts). */
async function visiblePage(db: D1Database, box: DurableObjectStub<Inbox>, userId: string, limit: number, before?: string): Promise<NotificationList> {
  let page = await box.list(limit, before);
  const gone = await invisibleNotifications(db, userId, page.notifications);
  if (gone.length > 0) {
    await box.forget(gone);
    page = await box.list(limit, before);
  }
  return { notifications: page.notifications.map(shown), unread: page.unread };
}

/** Mounted at /api/notifications. */
export const notificationsRoutes = new Hono<AppEnv>()
  .get("/", requireUser, validate("query", notificationsQuerySchema), async (c) => {
    const { limit, before } = c.req.valid("query");
    const user = c.get("user")!;
    c.header("Cache-Control", "private, no-store");
    return c.json(await visiblePage(c.env.DB, inbox(c.env, user.id), user.id, limit, before), 200);
  })
  .post("/read", requireUser, validate("json", notificationsReadInputSchema), async (c) => {
    const input = c.req.valid("json");
    await inbox(c.env, c.get("user")!.id).markRead("all" in input ? "all" : input.ids);
    return c.body(null, 204);
  });

/** Mounted at /api/profile. */
export const notificationSettingsRoutes = new Hono<AppEnv>()
  .get("/notifications", requireUser, async (c) => {
    c.header("Cache-Control", "private, no-store");
    return c.json((await inbox(c.env, c.get("user")!.id).settings()) satisfies NotificationSettings, 200);
  })
  .put("/notifications", requireUser, limitWrites("WRITE_RATE_LIMITER"), validate("json", notificationSettingsInputSchema), async (c) => {
    return c.json((await inbox(c.env, c.get("user")!.id).updateSettings(c.req.valid("json"))) satisfies NotificationSettings, 200);
  });

/** Mounted at /ws/notifications: the upgrade goes to the person's Inbox, which hibernates between frames. */
export const notificationsSocketRoutes = new Hono<AppEnv>().get("/", async (c) => {
  if (c.req.header("upgrade")?.toLowerCase() !== "websocket") {
    return c.json({ error: "This address only accepts WebSocket connections", code: "validation_failed" }, 426);
  }
  // Cross-site WebSocket hijacking: the browser sends the cookie with any page's upgrade (as /ws).
  if (c.req.header("origin") !== new URL(c.req.url).origin) throw forbidden("Cross-site WebSocket connections are not allowed");
  const token = readSessionCookie(c);
  const session = token ? await validateSessionToken(c.env.DB, token) : null;
  if (!session) throw unauthorized();
  if (session.suspendedAt !== null) throw suspended();
  const response = await inbox(c.env, session.user.id).fetch("https://inbox/ws", {
    headers: { upgrade: "websocket", [INBOX_UPGRADE_HEADERS.userId]: session.user.id, [INBOX_UPGRADE_HEADERS.sessionId]: session.sessionId ?? "" },
  });
  // A fresh response: the object's has immutable headers, and the app's middleware adds its own.
  return new Response(response.body, { status: response.status, headers: response.headers, webSocket: response.webSocket });
});
