/**
 * Fabled's service worker (issue 39, DESIGN.md turn 4 "Notifications": "the
 * web app is installable, a manifest and a service worker that keeps the
 * shell and shows pushes"; docs/decisions/0037-notifications.md). Built by
 * vite-plugin-pwa (`injectManifest`, vite.config.ts) into dist/web/sw.js,
 * served at /sw.js with scope /.
 *
 * - **The shell, precached by Workbox:** the built JavaScript and CSS, the
 *   offline page, the favicon, the 192 px icon and the manifest (`self.__WB_MANIFEST`, the
 *   list vite-plugin-pwa writes in at build time, each with its revision).
 *   They load from the cache, so an open tab keeps working offline as far
 *   as its pages' code goes, and each deploy's new list replaces the last
 *   (old entries and older Workbox caches are deleted on activation).
 * - **Never kept:** index.html and every page. A navigation always goes to
 *   the network (the Worker writes share pages' link previews into the
 *   shell, and a kept page would outlive a sign-out or a deploy); when the
 *   network is gone it is answered with the precached offline page
 *   (web/public/offline.html, "You're offline"). API answers, sockets,
 *   uploads and avatars are not touched at all: navigations to /api/, /ws
 *   and /objects/ are left to the browser.
 * - **Pushes:** shown as notifications (push-message.ts reads the Inbox's
 *   `{title, body, url, icon, tag}`), and a click opens the notification's
 *   page, focusing a tab already on it or bringing an open tab there.
 */
import { clientsClaim } from "workbox-core";
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from "workbox-precaching";
import { NavigationRoute, registerRoute } from "workbox-routing";
import { NetworkOnly } from "workbox-strategies";
import { DEFAULT_NOTIFICATION_URL, pushNotificationOf } from "./push-message.ts";

declare const self: ServiceWorkerGlobalScope;

/** The offline page as precached (vite.config.ts globPatterns). */
const OFFLINE_PAGE = "/offline.html";
/** Navigations the worker leaves alone: the API (downloads such as an export), sockets, stored files. */
const NOT_PAGES = [/^\/api\//, /^\/ws(\/|$)/, /^\/objects\//];
/** The hand-written worker's cache (before vite-plugin-pwa), deleted on activation. */
const LEGACY_CACHE = "fabled-offline-v1";

// A new worker takes over at once (pages are never served from it, so no open tab can be stuck on a
// stale shell by the switch).
void self.skipWaiting();
clientsClaim();

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

registerRoute(
  new NavigationRoute(new NetworkOnly({ plugins: [{ handlerDidError: offlinePage }] }), { denylist: NOT_PAGES }),
);

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.delete(LEGACY_CACHE));
});

/**
 * The precached offline page as a fresh 200 HTML response. Static Assets
 * redirect /offline.html to /offline, and a navigation may not be answered
 * with a redirected response; Workbox stores a copy that is not marked
 * redirected, and the body is rewrapped here all the same. A plain-text page
 * if the precache lacks it.
 */
async function offlinePage(): Promise<Response> {
  const kept = await matchPrecache(OFFLINE_PAGE);
  if (!kept) return new Response("You're offline.", { status: 503, headers: { "content-type": "text/plain; charset=utf-8" } });
  return new Response(kept.body, { status: 200, headers: { "content-type": "text/html; charset=utf-8" } });
}

self.addEventListener("push", (event) => {
  const { title, options } = pushNotificationOf(event.data ? event.data.text() : null, self.location.origin);
  event.waitUntil(self.registration.showNotification(title, options));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const path = (event.notification.data as { url?: string } | null)?.url ?? DEFAULT_NOTIFICATION_URL;
  const target = new URL(path, self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(async (windows) => {
      const already = windows.find((client) => client.url === target);
      if (already) return already.focus();
      const open = windows.find((client) => "navigate" in client);
      if (open) return (await open.navigate(target))?.focus();
      return self.clients.openWindow(target);
    }),
  );
});
