/**
 * Web Push on this device (W3C Push API; DESIGN.md turn 4 "Notifications"):
 * turned on only when the person asks, which is when the browser's
 * permission is asked. On: the site's VAPID key (`GET /api/push/key`), the
 * permission, a subscription from the browser's push service through the
 * app's service worker (web/sw/sw.ts at /sw.js, which shows the pushes), then
 * `POST /api/push/subscriptions` with it. Off: `DELETE` of this device's
 * subscription and the browser's own unsubscribe. Every way it can fail
 * throws a PushSetupError whose message is a sentence for the person.
 */
import { apiGet, apiSendUnread, errorStatus } from "../../../lib/api-client.ts";

/** A sentence for the person: why push could not be turned on here. */
export class PushSetupError extends Error {
  override readonly name = "PushSetupError";
}

export const PUSH_TEXTS = {
  unsupported: "This browser cannot receive push notifications.",
  notConfigured: "Push notifications are not set up on this site yet (its VAPID keys: see the README).",
  denied: "Notifications are blocked for this site in your browser's settings. Allow them there, then try again.",
  noWorker: "The app's service worker is not running here, so pushes cannot be shown. Reload the page and try again.",
  pushService: "Your browser could not reach its push service. Try again later.",
} as const;

/** Whether this browser has the Push API and a service worker (false in private modes of some browsers). */
export function pushSupported(): boolean {
  return typeof navigator !== "undefined" && "serviceWorker" in navigator && typeof window !== "undefined" && "PushManager" in window && "Notification" in window;
}

/** A base64url string (the VAPID public key) as bytes, for `applicationServerKey`. */
export function base64UrlBytes(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(text.length / 4) * 4, "=");
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** This device's push subscription, if it has one (null without support or a service worker). */
export async function currentSubscription(): Promise<PushSubscription | null> {
  if (!pushSupported()) return null;
  const registration = await navigator.serviceWorker.getRegistration();
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/** Subscribes this device and tells the site. @throws PushSetupError */
export async function subscribeThisDevice(): Promise<void> {
  if (!pushSupported()) throw new PushSetupError(PUSH_TEXTS.unsupported);
  let publicKey: string;
  try {
    ({ publicKey } = await apiGet("/api/push/key"));
  } catch (error) {
    if (errorStatus(error) === 503) throw new PushSetupError(PUSH_TEXTS.notConfigured);
    throw error;
  }
  if ((await Notification.requestPermission()) !== "granted") throw new PushSetupError(PUSH_TEXTS.denied);
  const registration = await navigator.serviceWorker.getRegistration();
  if (!registration) throw new PushSetupError(PUSH_TEXTS.noWorker);
  let subscription: PushSubscription;
  try {
    subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: base64UrlBytes(publicKey) });
  } catch {
    throw new PushSetupError(PUSH_TEXTS.pushService);
  }
  const json = subscription.toJSON();
  await apiSendUnread("post", "/api/push/subscriptions", {
    body: { endpoint: subscription.endpoint, keys: { p256dh: json.keys?.p256dh ?? "", auth: json.keys?.auth ?? "" } },
  });
}

/** Stops pushes to this device: the site forgets it, then the browser does. */
export async function unsubscribeThisDevice(): Promise<void> {
  const subscription = await currentSubscription();
  if (!subscription) return;
  await apiSendUnread("delete", "/api/push/subscriptions", { body: { endpoint: subscription.endpoint } });
  await subscription.unsubscribe();
}
