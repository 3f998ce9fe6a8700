/**
 * Browser tests: Playwright driving Debian's Chromium (/usr/bin/chromium;
 * `npx playwright install` cannot download here) against the app that
 * scripts/e2e.ts starts with `wrangler dev` and demo data (E2E_BASE_URL).
 */
import { defineConfig } from "@playwright/test";

export default defineConfig({
  testDir: ".",
  testMatch: "**/*.spec.ts",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  // The longest tests take about 25 s on a busy 2-core machine where `npm test` runs vitest beside
  // them; the timeout is there to catch a hang, not to time them.
  timeout: 60_000,
  // What a person waits for (a lazily loaded menu, a reply) can take over 10 s while vitest and the
  // other shard share the two cores: patience, not a timing; a passing check still ends at once.
  expect: { timeout: 20_000 },
  reporter: [["list"]],
  // Each shard of scripts/e2e.ts has its own (Playwright empties it when it starts).
  outputDir: process.env.E2E_OUTPUT_DIR ?? "../test-results",
  use: {
    baseURL: process.env.E2E_BASE_URL ?? "http://127.0.0.1:8788",
    browserName: "chromium",
    viewport: { width: 1280, height: 900 },
    trace: "off",
    screenshot: "only-on-failure",
    // Every test opens a fresh browser profile, where the service worker would fetch its whole
    // precache (about 120 files) in the background: a download a person makes once per deploy,
    // here once per test, taking the cores the test needs. installable.spec.ts allows it and tests it.
    serviceWorkers: "block",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
});
