/**
 * Worker entry: the Hono app for /api/*, /objects/* and /ws (static assets are
 * served before the Worker runs, wrangler.toml `[assets]`), the scheduled
 * handler, and the Durable Object classes the runtime must find here.
 */
import app from "./app.ts";
import { deleteExpiredSessions } from "./lib/sessions.ts";

export { ConversationRoom } from "../durable-objects/conversation-room.ts";
export { PersonSockets } from "../durable-objects/person-sockets.ts";

export default {
  fetch: app.fetch,
  async scheduled(_controller, env) {
    // Daily: expired sessions are removed.
    await deleteExpiredSessions(env.DB);
  },
} satisfies ExportedHandler<Env>;
