/**
 * `npm test`: typecheck, import-graph rules (`npm run check:imports`:
 * dependency-cruiser with .dependency-cruiser.cjs — no import cycles, the
 * folder rules of DESIGN.md), web build (the Worker serves it; the build also
 * checks the first-visit bundle budget), unit and integration tests in the
 * Workers runtime (vitest), then the browser tests in Chromium (e2e/).
 */
import { run } from "./lib/tools.ts";

await run("tsc", ["-b"]);
await run("npm", ["run", "--silent", "check:imports"]);
await run("vite", ["build"]);
await run("vitest", ["run"]);
await run("node", ["scripts/e2e.ts"]);
