/**
 * Worker entry: the Hono app for /api/*, /objects/* and /ws (static assets are
 * served before the Worker runs, wrangler.toml `[assets]`), the scheduled
 * handler, and the Durable Object classes the runtime must find here.
 */
import app from "./app.ts";

export { ConversationRoom } from "../durable-objects/conversation-room.ts";

export default {
  fetch: app.fetch,
  async scheduled(_controller, env) {
    // Expired sessions are removed daily (sessions arrive with the Accounts issue).
    await env.DB.prepare("DELETE FROM sessions WHERE expire < ?").bind(Date.now()).run();
  },
} satisfies ExportedHandler<Env>;
