/**
 * `npm run deploy`: builds the web app, applies migrations to the remote D1
 * database, and deploys the Worker (README.md "Deploy to Cloudflare").
 */
import { run } from "./lib/tools.ts";

await run("vite", ["build"]);
await run("wrangler", ["d1", "migrations", "apply", "DB", "--remote"]);
await run("wrangler", ["deploy"]);
