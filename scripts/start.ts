/**
 * `npm start`: builds the web app, applies the D1 migrations locally, seeds the
 * demo catalog when the database has no characters, and serves everything on
 * http://localhost:$PORT (default 8787) with `wrangler dev` in local mode:
 * offline chat model, local sign-in, local D1/R2/Durable Objects under
 * .wrangler/state.
 *
 * Flags: --no-build (reuse dist/web), --persist-to DIR (another local state).
 */
import { parseArgs } from "node:util";
import { devArgs } from "./lib/dev-args.ts";
import { seedDemoIfEmpty } from "./lib/seed.ts";
import { DEFAULT_PERSIST_DIR, localD1File, migrateLocal, run } from "./lib/tools.ts";

const { values } = parseArgs({
  options: {
    "no-build": { type: "boolean", default: false },
    "persist-to": { type: "string", default: DEFAULT_PERSIST_DIR },
  },
});
const persistDir = values["persist-to"];
const port = process.env.PORT ?? "8787";

if (!values["no-build"]) await run("vite", ["build"]);
await migrateLocal(persistDir);
const dbFile = localD1File(persistDir);
if (!dbFile) throw new Error(`No local D1 database under ${persistDir} after migrating`);
await seedDemoIfEmpty(dbFile, persistDir);

console.log(`\nFabled is starting on http://localhost:${port}\n`);
await run("wrangler", devArgs(port, persistDir));
