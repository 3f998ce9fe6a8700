/**
 * `npm run db:migrate`: applies migrations/ to the local D1 database
 * (.wrangler/state). `npm run db:migrate -- --remote` applies them to the
 * deployed database instead.
 */
import { migrateLocal, run } from "./lib/tools.ts";

if (process.argv.includes("--remote")) {
  await run("wrangler", ["d1", "migrations", "apply", "DB", "--remote"]);
} else {
  await migrateLocal();
}
