/**
 * Worker entry: the Hono app for /api/*, /objects/* and /ws (static assets are
 * served before the Worker runs, wrangler.toml `[assets]`), the scheduled
 * handler, the consumer of the views queue, and the Durable Object classes
 * the runtime must find here.
 */
import app from "./app.ts";
import { applyRecentRemovals } from "./lib/removal-sweep.ts";
import { deleteExpiredSessions } from "./lib/sessions.ts";
import { sweepSharePictures } from "./lib/share-pictures.ts";
import { deleteOldSpeechUsage } from "./lib/speech-budget.ts";
import { consumeNotifications, type NotificationMessage } from "./lib/notifications/fan-out.ts";
import { countViews } from "./lib/views.ts";

export { ConversationRoom } from "../durable-objects/conversation-room.ts";
export { PersonSockets } from "../durable-objects/person-sockets.ts";
export { Inbox } from "../durable-objects/inbox/inbox.ts";

export default {
  fetch: app.fetch,
  async scheduled(_controller, env) {
    // Daily: expired sessions and yesterday's counts of audio read aloud are removed; deleted
    // accounts' usernames held past their 30 days are free again; recent message removals
    // reach their rooms (and the audio of those messages is deleted); share links' pictures
    // whose share is gone, or whose picture an operator removed, are deleted.
    await deleteExpiredSessions(env.DB);
    await env.DB.prepare("DELETE FROM username_holds WHERE until <= ?").bind(Date.now()).run();
    await deleteOldSpeechUsage(env.DB);
    await applyRecentRemovals(env);
    await sweepSharePictures(env);
  },
  /**
   * Two queues (wrangler.toml). `fabled-views`: a batch of character views
   * is counted in one D1 transaction on the primary (worker/lib/views.ts);
   * if it throws, nothing was counted and Queues delivers the whole batch
   * again. `fabled-notifications`: a publication's fan-out to followers
   * (worker/lib/notifications/fan-out.ts), each message acked or retried
   * on its own.
   */
  async queue(batch, env) {
    if (batch.queue === "fabled-notifications") {
      await consumeNotifications(batch as MessageBatch<NotificationMessage>, env);
      return;
    }
    await countViews(env.DB, batch.messages.map((message) => message.body));
  },
} satisfies ExportedHandler<Env>;
