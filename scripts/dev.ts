/**
 * `npm run dev`: watch mode. `vite build --watch` rebuilds the web app into
 * dist/web on every change (wrangler serves the new files), and `wrangler dev`
 * reloads the Worker and Durable Object code on every change. Same local state,
 * port and seeding as `npm start`.
 */
import { spawn } from "node:child_process";
import { devArgs } from "./lib/dev-args.ts";
import { seedDemoIfEmpty } from "./lib/seed.ts";
import { DEFAULT_PERSIST_DIR, localD1File, migrateLocal, ROOT, run, toolEnv } from "./lib/tools.ts";

const port = process.env.PORT ?? "8787";

await run("vite", ["build"]);
await migrateLocal(DEFAULT_PERSIST_DIR);
await seedDemoIfEmpty(localD1File(DEFAULT_PERSIST_DIR)!, DEFAULT_PERSIST_DIR);

const children = [
  spawn("vite", ["build", "--watch", "--emptyOutDir=false"], { cwd: ROOT, env: toolEnv(), stdio: "inherit" }),
  spawn("wrangler", devArgs(port, DEFAULT_PERSIST_DIR), { cwd: ROOT, env: toolEnv(), stdio: "inherit" }),
];
const stop = () => children.forEach((child) => child.kill("SIGTERM"));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
for (const child of children) child.on("exit", stop);
