/**
 * Web build: React + Tailwind into dist/web (served by Workers Static Assets).
 * Writes `_headers` so static responses carry the same security headers as the
 * API (worker/lib/security-headers.ts), and prints gzipped sizes of what a
 * first visit to / downloads (budget: 140 KB, issue 26; docs/decisions/0004).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import { VitePWA } from "vite-plugin-pwa";
import { staticSecurityHeaders } from "./worker/lib/security-headers.ts";

function securityHeadersFile(): Plugin {
  return {
    name: "fabled-security-headers",
    generateBundle() {
      const lines = Object.entries(staticSecurityHeaders()).map(([name, value]) => `  ${name}: ${value}`);
      this.emitFile({ type: "asset", fileName: "_headers", source: `/*\n${lines.join("\n")}\n` });
    },
  };
}

/**
 * Budget for the JavaScript a first visit to / downloads, gzipped bytes
 * (issue 26; e2e/first-hour-chats.spec.ts measures what the browser fetches).
 */
const FIRST_VISIT_JS_BUDGET = 140 * 1024;

/**
 * After the files are written, sums the gzipped size (zlib's default level)
 * of the entry chunk and its static imports as written — with Vite's
 * preload map filled in, which `generateBundle` does not see yet — and fails
 * the build above FIRST_VISIT_JS_BUDGET. Code loaded later (lazy routes, the
 * toaster on the first toast) is not counted: a first visit does not fetch it.
 */
function firstVisitBudget(): Plugin {
  return {
    name: "fabled-first-visit-budget",
    apply: "build",
    writeBundle(options, bundle) {
      const entry = Object.values(bundle).find((chunk) => chunk.type === "chunk" && chunk.isEntry);
      if (!entry || entry.type !== "chunk") return;
      // The entry plus its static imports are what / loads before any lazy route.
      const seen = new Set<string>();
      const visit = (fileName: string) => {
        if (seen.has(fileName)) return;
        seen.add(fileName);
        const chunk = bundle[fileName];
        if (chunk?.type === "chunk") chunk.imports.forEach(visit);
      };
      visit(entry.fileName);
      let total = 0;
      for (const fileName of seen) {
        const chunk = bundle[fileName];
        if (chunk?.type !== "chunk") continue;
        const size = gzipSync(readFileSync(join(options.dir!, fileName))).length;
        total += size;
        this.info(`first visit: ${fileName} ${(size / 1024).toFixed(1)} KB gzip`);
      }
      const line = `first visit to / downloads ${(total / 1024).toFixed(1)} KB of JavaScript gzipped (budget ${FIRST_VISIT_JS_BUDGET / 1024} KB)`;
      if (total > FIRST_VISIT_JS_BUDGET) this.error(line);
      console.log(`\n${line}`);
    },
  };
}

/**
 * The service worker (web/sw/sw.ts) built by vite-plugin-pwa with Workbox:
 * `injectManifest` writes the precache list (`self.__WB_MANIFEST`, URL +
 * revision) into dist/web/sw.js, served at /sw.js, scope /. The manifest
 * stays the hand-kept web/public/manifest.webmanifest (`manifest: false`),
 * linked from index.html; registration is web/main.tsx's own, after load
 * (`injectRegister: false`), so no registration code or workbox-window
 * joins the first visit's JavaScript. docs/decisions/0037-notifications.md.
 *
 * Precached (121 files, 1.4 MiB, ~470 KB gzipped on the wire, fetched in the
 * background after the first visit): the built JS and CSS, the offline
 * page, the favicon, the 192 px icon (a push's default picture and badge)
 * and the manifest. Not: the 512 px install icons (the browser fetches them
 * itself when installing), index.html (every page comes from the network: the Worker writes
 * share pages' previews into it, and a kept shell would outlive a deploy or
 * a sign-out), the demo avatars (1.2 MB of pictures most visits never
 * show), `_headers`. Anything above 1 MB is left out rather than precached
 * (the largest chunk is ~270 KB).
 */
function serviceWorker() {
  return VitePWA({
    strategies: "injectManifest",
    srcDir: "sw",
    filename: "sw.ts",
    injectRegister: false,
    manifest: false,
    injectManifest: {
      globPatterns: ["assets/*.{js,css}", "offline.html", "favicon.svg", "icons/icon-192.png", "manifest.webmanifest"],
      maximumFileSizeToCacheInBytes: 1024 * 1024,
      // One file without imports: registered as a classic worker (every browser).
      rollupFormat: "iife",
      // Hashed assets/ names are their own revision.
      dontCacheBustURLsMatching: /^assets\//,
    },
  });
}

export default defineConfig({
  root: "web",
  publicDir: "public",
  plugins: [react(), tailwindcss(), securityHeadersFile(), firstVisitBudget(), serviceWorker()],
  build: {
    outDir: "../dist/web",
    emptyOutDir: true,
    sourcemap: false,
    // No preload map of every lazy chunk's imports in the entry (and no polyfill): ~1.4 KB gzip off
    // every first visit. A lazy page's imports then load after its own chunk (most are shared and
    // already loaded). docs/decisions/0004-first-visit-budget.md.
    modulePreload: false,
    reportCompressedSize: true,
  },
  server: {
    proxy: { "/api": "http://localhost:8787", "/objects": "http://localhost:8787", "/ws": { target: "ws://localhost:8787", ws: true } },
  },
});
