/**
 * `npm test`: typecheck, web build (the Worker serves it; the build also checks
 * the first-visit bundle budget), unit and integration tests in the Workers
 * runtime (vitest), then the browser tests in Chromium (e2e/).
 */
import { run } from "./lib/tools.ts";

await run("tsc", ["-b"]);
await run("vite", ["build"]);
await run("vitest", ["run"]);
await run("node", ["scripts/e2e.ts"]);
