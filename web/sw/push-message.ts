/**
 * What a push shows (issue 39, DESIGN.md turn 4 "Notifications"): the
 * service worker's reading of the JSON the Inbox sends
 * (durable-objects/inbox/push.ts `pushMessageOf`: `{title, body, url, icon,
 * tag}`), as the arguments of `ServiceWorkerRegistration.showNotification`.
 * Pure, so it is tested without a browser (push-message.test.ts).
 */

/** The page a notification opens when its push names none (or names one off the site). */
export const DEFAULT_NOTIFICATION_URL = "/notifications";
/** The app's icon: the picture when the push has none (no actor, no character), and the status-bar badge. */
export const APP_ICON = "/icons/icon-192.png";

/** `showNotification(title, options)`'s arguments; `options.data.url` is the site path a click opens. */
export interface PushNotification {
  title: string;
  options: NotificationOptions & { data: { url: string } };
}

/**
 * Reads a push's body (the text of `PushEvent.data`, or null without one)
 * into a notification. Never throws: a body that is not JSON shows as the
 * text of a "Fabled" notification; a missing or wrong-typed field takes its
 * default. `url` is kept only when it names a page of `origin` (this
 * site, e.g. "https://fabled.example"), as its path: a push can never open
 * another site (not by "//host", "/\\host" or a full address). `icon` may be
 * any address the Inbox put there (an avatar under /objects/ or a
 * character's picture).
 */
export function pushNotificationOf(text: string | null, origin: string): PushNotification {
  let data: Record<string, unknown> = {};
  if (text) {
    try {
      const parsed: unknown = JSON.parse(text);
      data = parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : { body: text };
    } catch {
      data = { body: text };
    }
  }
  const string = (value: unknown) => (typeof value === "string" && value ? value : undefined);
  const url = sitePath(string(data.url), origin);
  return {
    title: string(data.title) ?? "Fabled",
    options: {
      body: string(data.body) ?? "",
      icon: string(data.icon) ?? APP_ICON,
      badge: APP_ICON,
      // One notification per inbox entry: a folded entry ("Ana and 2 others…") replaces its earlier push.
      tag: string(data.tag),
      data: { url: url ?? DEFAULT_NOTIFICATION_URL },
    },
  };
}

/** `url` as a path of `origin` ("/chat/c1?x#y"), or undefined when it is not a root-relative address there. */
function sitePath(url: string | undefined, origin: string): string | undefined {
  if (!url?.startsWith("/")) return undefined;
  try {
    const resolved = new URL(url, origin);
    return resolved.origin === origin ? resolved.pathname + resolved.search + resolved.hash : undefined;
  } catch {
    return undefined;
  }
}
