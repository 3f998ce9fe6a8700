/**
 * Worker entry: the Hono app for /api/*, /objects/* and /ws (static assets are
 * served before the Worker runs, wrangler.toml `[assets]`), the scheduled
 * handler, the consumer of the views queue, and the Durable Object classes
 * the runtime must find here.
 */
import app from "./app.ts";
import { applyRecentRemovals } from "./lib/removal-sweep.ts";
import { deleteExpiredSessions } from "./lib/sessions.ts";
import { deleteOldSpeechUsage } from "./lib/speech-budget.ts";
import { countViews } from "./lib/views.ts";

export { ConversationRoom } from "../durable-objects/conversation-room.ts";
export { PersonSockets } from "../durable-objects/person-sockets.ts";

export default {
  fetch: app.fetch,
  async scheduled(_controller, env) {
    // Daily: expired sessions and yesterday's counts of audio read aloud are removed; deleted
    // accounts' usernames held past their 30 days are free again; recent message removals
    // reach their rooms (and the audio of those messages is deleted).
    await deleteExpiredSessions(env.DB);
    await env.DB.prepare("DELETE FROM username_holds WHERE until <= ?").bind(Date.now()).run();
    await deleteOldSpeechUsage(env.DB);
    await applyRecentRemovals(env);
  },
  /**
   * The `fabled-views` queue (wrangler.toml): a batch of character views is
   * counted in one D1 transaction on the primary (worker/lib/views.ts). If it
   * throws, nothing was counted and Queues delivers the whole batch again.
   */
  async queue(batch, env) {
    await countViews(env.DB, batch.messages.map((message) => message.body));
  },
} satisfies ExportedHandler<Env>;
