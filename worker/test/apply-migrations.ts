// Applies the project's own migrations (the same files wrangler applies) to the
// test D1 database before the tests of a file run.
import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";

await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
