/**
 * Web Push from the Inbox (issue 39, DESIGN.md turn 4 "Notifications";
 * docs/decisions/0037-notifications.md): a notification stored while the
 * person has no `/ws/notifications` socket open, with push on and outside
 * their quiet hours, goes to each of their devices (`push_subscriptions`
 * in D1), encrypted (RFC 8291 aes128gcm) and signed (RFC 8292 VAPID) by
 * `@block65/webcrypto-web-push`. A device whose push service answers 404
 * or 410 has gone (the browser unsubscribed or the subscription expired):
 * its row is deleted. Other failures are logged and the notification stays
 * in the inbox. What a push carries is what the service worker
 * (web/sw/sw.ts, push-message.ts) shows: `{title, body, url, icon, tag}`.
 */
import { buildPushPayload, type VapidKeys } from "@block65/webcrypto-web-push";
import type { Notification } from "../../schema/notifications.ts";

/** How long a push service keeps an undelivered push, seconds (a day: a check-in or reply is stale after that). */
export const PUSH_TTL_SECONDS = 24 * 60 * 60;

/** The site's VAPID keys from the environment; null when push is not set up. */
export function vapidKeys(env: Env): VapidKeys | null {
  const e = env as { VAPID_PUBLIC_KEY?: string; VAPID_PRIVATE_KEY?: string; VAPID_SUBJECT?: string };
  if (!e.VAPID_PUBLIC_KEY || !e.VAPID_PRIVATE_KEY) return null;
  return { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY, subject: e.VAPID_SUBJECT || "mailto:admin@localhost" };
}

/** What the service worker shows for `notification`. */
export function pushMessageOf(notification: Notification): { title: string; body: string; url: string; icon: string | null; tag: string } {
  return {
    title: "Fabled",
    body: notification.text,
    url: notification.target.url,
    // The person who acted, else the picture of what it is about (a check-in's character).
    icon: notification.actor?.avatarUrl ?? notification.target.imageUrl ?? null,
    tag: notification.id,
  };
}

interface SubscriptionRow {
  id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
}

/**
 * Sends `notification` to every device of `userId`. Returns how many
 * pushes the services accepted and how many subscriptions were dropped.
 * Never throws. `send` is `fetch` (a seam for tests).
 */
export async function sendPushes(
  env: Env,
  userId: string,
  notification: Notification,
  send: typeof fetch = fetch,
): Promise<{ sent: number; dropped: number }> {
  const vapid = vapidKeys(env);
  if (!vapid) return { sent: 0, dropped: 0 };
  let sent = 0;
  let dropped = 0;
  try {
    const rows = await env.DB.prepare("SELECT id, endpoint, p256dh, auth FROM push_subscriptions WHERE user_id = ?").bind(userId).all<SubscriptionRow>();
    await Promise.all(
      rows.results.map(async (row) => {
        try {
          const payload = await buildPushPayload(
            { data: pushMessageOf(notification), options: { ttl: PUSH_TTL_SECONDS, urgency: "normal", topic: notification.id.replace(/-/g, "").slice(0, 32) } },
            { endpoint: row.endpoint, expirationTime: null, keys: { p256dh: row.p256dh, auth: row.auth } },
            vapid,
          );
          const res = await send(row.endpoint, { method: "POST", headers: payload.headers, body: payload.body, redirect: "manual" });
          await res.body?.cancel();
          if (res.status === 404 || res.status === 410) {
            await env.DB.prepare("DELETE FROM push_subscriptions WHERE id = ?").bind(row.id).run();
            dropped += 1;
          } else if (res.ok) sent += 1;
          else console.warn("push refused", res.status, new URL(row.endpoint).host);
        } catch (error) {
          console.warn("push failed", new URL(row.endpoint).host, String(error));
        }
      }),
    );
  } catch (error) {
    console.warn("could not read push subscriptions", String(error));
  }
  return { sent, dropped };
}
