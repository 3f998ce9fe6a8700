import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/app.tsx";
import "./styles.css";

// The installable app's service worker (web/sw/sw.ts, built by vite-plugin-pwa into /sw.js): the precached
// shell, the offline page and pushes. Registered after the page loaded with the browser's own call, not
// workbox-window (the shell is never served from the cache, so there is no stale version to prompt
// about), so a first visit downloads nothing more before it.
if (import.meta.env.PROD && "serviceWorker" in navigator) {
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js").catch(() => {});
  });
}

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
