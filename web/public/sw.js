/**
 * Fabled's service worker (issue 39, DESIGN.md turn 4 "Notifications": "the
 * web app is installable, a manifest and a service worker that keeps the
 * shell and shows pushes"; docs/decisions/0037-notifications.md).
 *
 * - Keeps only public, unchanging files: the offline page and the icons.
 *   Never an API answer, a socket, an upload or any page of the app: a page
 *   is always fetched from the network, and when the network is gone the
 *   navigation is answered with the offline page (web/public/offline.html,
 *   "You're offline").
 * - Shows a push as a notification (`{title, body, url, icon}` JSON, sent by
 *   worker/lib/notifications/push.ts) and opens its page on a click,
 *   focusing a tab already open on the site.
 *
 * Plain JavaScript served as is from /sw.js (web/public): it stays out of
 * the app's bundle, so the first visit's JavaScript budget is unchanged.
 */
const CACHE = "fabled-offline-v1";
// Static assets answer /offline.html with a redirect to /offline (html_handling); a navigation may not be
// answered with a redirected response, so the page is kept under its final address.
const OFFLINE_URL = "/offline";
const KEPT = [OFFLINE_URL, "/favicon.svg", "/icons/icon-192.png"];

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(KEPT.map((url) => new Request(url, { cache: "reload" }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name.startsWith("fabled-") && name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => offlinePage()));
    return;
  }
  const url = new URL(request.url);
  // The offline page's own picture, when the network is gone.
  if (url.origin === self.location.origin && KEPT.includes(url.pathname)) {
    event.respondWith(fetch(request).catch(() => caches.match(url.pathname)));
  }
});

/** The kept offline page, as a fresh response (never marked redirected); a plain text one if it was never kept. */
async function offlinePage() {
  const kept = await caches.match(OFFLINE_URL);
  if (!kept) return new Response("You're offline.", { status: 503, headers: { "content-type": "text/plain; charset=utf-8" } });
  return new Response(kept.body, { status: 200, headers: { "content-type": "text/html; charset=utf-8" } });
}

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data ? event.data.text() : "" };
  }
  const title = data.title || "Fabled";
  event.waitUntil(
    self.registration.showNotification(title, {
      body: data.body || "",
      icon: data.icon || "/icons/icon-192.png",
      badge: "/icons/icon-192.png",
      tag: data.tag || undefined,
      data: { url: typeof data.url === "string" && data.url.startsWith("/") ? data.url : "/notifications" },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.url || "/notifications", self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      for (const client of windows) {
        if (client.url === target && "focus" in client) return client.focus();
      }
      const open = windows.find((client) => "navigate" in client);
      return open ? open.navigate(target).then((client) => client?.focus()) : self.clients.openWindow(target);
    }),
  );
});
